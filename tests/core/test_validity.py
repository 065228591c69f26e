"""Warnings, in words, for positions the code can describe but chess cannot reach."""

from __future__ import annotations

import chess
import pytest

from gbr_tui.core import encode, position_warnings

CASES = [
    ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawns on the first or last rank"),
    ("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawns on the first or last rank"),
    # 24 White pieces besides the king.
    ("4k3/8/8/8/QQQQQQQQ/RRRRRRRR/NNNNNNNN/4K3 b - - 0 1", "White has more than 16 men"),
    ("4K3/8/8/8/qqqqqqqq/rrrrrrrr/nnnnnnnn/4k3 w - - 0 1", "Black has more than 16 men"),
    ("8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has no king"),
    ("4k3/8/8/8/8/8/8/8 w - - 0 1", "White has no king"),
    # The Black king on e8 is attacked by the rook on e7, and White is to move.
    ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "Black is in check with White to move"),
    ("4k3/8/8/8/8/8/4r3/4K3 b - - 0 1", "White is in check with Black to move"),
    ("8/8/8/8/8/8/8/3kK3 w - - 0 1", "the kings stand next to each other"),
    ("4k3/8/8/8/8/8/8/4K2K w - - 0 1", "a side has more than one king"),
]


@pytest.mark.parametrize(("fen", "warning"), CASES)
def test_each_unreachable_position_is_named(fen: str, warning: str) -> None:
    board = chess.Board(fen)
    assert warning in position_warnings(board)
    encode(board)  # the code is still computed


def test_a_legal_position_has_no_warnings() -> None:
    # Kubbel's study, White to move (spec section 3).
    assert position_warnings(chess.Board("6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1")) == []
    assert position_warnings(chess.Board()) == []


def test_the_code_does_not_know_who_moves() -> None:
    # Spec section 4, 0000.02: legal with White to move (in check from b2), not with Black.
    fen = "k7/8/8/8/8/8/pp6/K7"
    assert position_warnings(chess.Board(f"{fen} w - - 0 1")) == []
    assert position_warnings(chess.Board(f"{fen} b - - 0 1")) == ["White is in check with Black to move"]
