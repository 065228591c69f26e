"""Hypothesis strategies shared by the property tests."""

from __future__ import annotations

import chess
from hypothesis import strategies as st

MEN = "QRBNPqrbnp"


@st.composite
def boards(draw, one_king_each: bool = False, pieces_of_a_kind: int = 4) -> chess.Board:
    """Random placements: up to ``pieces_of_a_kind`` of each piece and up to eight pawns a
    side, on any squares (48 men and two kings at most: they always fit)."""
    squares = draw(st.permutations(chess.SQUARES))
    board = chess.Board(None)
    if one_king_each:
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
    for symbol in MEN:
        limit = 8 if symbol in "Pp" else pieces_of_a_kind
        for _ in range(draw(st.integers(0, limit))):
            board.set_piece_at(squares.pop(), chess.Piece.from_symbol(symbol))
    return board
