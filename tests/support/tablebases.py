"""The tablebases tests probe: the small Syzygy tables kept in tests/data/syzygy, Debian's
3-man Gaviota tables (package ``gaviotatb``), and a directory of larger Syzygy tables named by
GBR_TUI_TEST_SYZYGY (the 5-man KNNvKP the Troitzky test needs is too large to keep here).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import chess
import pytest

SYZYGY = Path(__file__).resolve().parent.parent / "data" / "syzygy"
GAVIOTA = Path("/usr/share/gaviotatb/gtb4")
#: .ci/run sets it, with the package installed: there the Gaviota tests run, never skip.
needs_gaviota = pytest.mark.skipif(
    not GAVIOTA.is_dir() and not os.environ.get("GBR_TUI_REQUIRE_GAVIOTA"),
    reason="needs Debian's gaviotatb tables in /usr/share/gaviotatb/gtb4 (.ci/run installs them)",
)
#: Saavedra's study (spec: +0300.10b6a1) and its published solution.
SAAVEDRA = "8/8/1KP5/3r4/8/8/8/k7 w - - 0 1"
SAAVEDRA_SOLUTION = ["c7", "Rd6+", "Kb5", "Rd5+", "Kb4", "Rd4+", "Kb3", "Rd3+", "Kc2", "Rd4", "c8=R", "Ra4", "Kb3"]


def larger_syzygy(table: str) -> Path:
    """The directory GBR_TUI_TEST_SYZYGY names, when it holds ``table`` (``KNNvKP``); the test
    is skipped otherwise, saying why."""
    directory = os.environ.get("GBR_TUI_TEST_SYZYGY")
    if not directory or not (Path(directory) / f"{table}.rtbw").is_file():
        pytest.skip(f"needs {table}.rtbw in a directory named by GBR_TUI_TEST_SYZYGY (too large to keep in tests)")
    return Path(directory)


def moves_of(board: chess.Board, sans: list[str]) -> list[chess.Move]:
    played = board.copy()
    moves = []
    for san in sans:
        moves.append(played.push_san(san))
    return moves


def random_positions(rng: random.Random, white: str, black: str, count: int) -> list[chess.Board]:
    """``count`` legal positions (either side to move) with White's men ``white`` and Black's
    ``black`` besides the kings, pawns off the first and last ranks."""
    boards = []
    while len(boards) < count:
        board = chess.Board(None)
        men = [("K", chess.WHITE), ("K", chess.BLACK)]
        men += [(symbol, chess.WHITE) for symbol in white] + [(symbol, chess.BLACK) for symbol in black]
        for square, (symbol, color) in zip(rng.sample(chess.SQUARES, len(men)), men, strict=True):
            board.set_piece_at(square, chess.Piece.from_symbol(symbol if color else symbol.lower()))
        board.turn = rng.choice(chess.COLORS)
        if board.is_valid():
            boards.append(board)
    return boards
