"""Warnings, in words, for positions the code can describe but chess cannot reach."""

from __future__ import annotations

import chess

_STATUS_WORDS = [
    (chess.STATUS_EMPTY, "the board is empty"),
    (chess.STATUS_NO_WHITE_KING, "White has no king"),
    (chess.STATUS_NO_BLACK_KING, "Black has no king"),
    (chess.STATUS_TOO_MANY_KINGS, "a side has more than one king"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "White has more than 8 pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "Black has more than 8 pawns"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "pawns on the first or last rank"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "White has more than 16 men"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "Black has more than 16 men"),
    (chess.STATUS_BAD_CASTLING_RIGHTS, "castling rights without king and rook at home"),
    (chess.STATUS_INVALID_EP_SQUARE, "the en passant square is impossible"),
    (chess.STATUS_TOO_MANY_CHECKERS, "the side to move is in check from too many pieces"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "the check on the side to move cannot have come from a legal move"),
]


def position_warnings(board: chess.Board) -> list[str]:
    """Why a position is not a legal chess position, in words; empty when it is."""
    status = board.status()
    words = [text for flag, text in _STATUS_WORDS if status & flag]
    white_king, black_king = board.king(chess.WHITE), board.king(chess.BLACK)
    if white_king is not None and black_king is not None and chess.square_distance(white_king, black_king) == 1:
        words.append("the kings stand next to each other")
    elif status & chess.STATUS_OPPOSITE_CHECK:
        mover, other = ("White", "Black") if board.turn == chess.WHITE else ("Black", "White")
        words.append(f"{other} is in check with {mover} to move")
    return words
