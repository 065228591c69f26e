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


#: Bits of a status beside python-chess's (``board_status``), for its words: the kings stand
#: next to each other; Black is to move (set only with a flag of python-chess's).
ADJACENT_KINGS = 1 << 24
BLACK_TO_MOVE = 1 << 25


def board_status(board: chess.Board) -> int:
    """``board.status()`` with this module's two bits where it is not 0: all ``status_words``
    needs, in one number (``legality`` computes the same for a block of positions)."""
    status = int(board.status())
    if not status:
        return 0
    white_king, black_king = board.king(chess.WHITE), board.king(chess.BLACK)
    if white_king is not None and black_king is not None and chess.square_distance(white_king, black_king) == 1:
        status |= ADJACENT_KINGS
    if board.turn == chess.BLACK:
        status |= BLACK_TO_MOVE
    return status


def king_status(kings: tuple[int, int]) -> int:
    """The status flags of a position with ``kings`` (White's, Black's), from the kings alone:
    for positions whose board is not at hand (games, an index's rows)."""
    status = 0
    if kings[0] == 0:
        status |= chess.STATUS_NO_WHITE_KING
    if kings[1] == 0:
        status |= chess.STATUS_NO_BLACK_KING
    if kings[0] + kings[1] > 2:
        status |= chess.STATUS_TOO_MANY_KINGS
    return status


def status_words(status: int) -> list[str]:
    """Why a position with this ``board_status`` is not a legal chess position, in words; empty
    when it is."""
    words = [text for flag, text in _STATUS_WORDS if status & flag]
    if status & ADJACENT_KINGS:
        words.append("the kings stand next to each other")
    elif status & chess.STATUS_OPPOSITE_CHECK:
        mover, other = ("Black", "White") if status & BLACK_TO_MOVE else ("White", "Black")
        words.append(f"{other} is in check with {mover} to move")
    return words


def position_warnings(board: chess.Board) -> list[str]:
    """Why a position is not a legal chess position, in words; empty when it is."""
    return status_words(board_status(board))
