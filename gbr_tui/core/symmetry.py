"""The board transforms under which two positions are the same, as CQL's ``similarposition``
defines them: without pawns the eight rotations and reflections of the board; with pawns the
identity, the fourteen shifts along the ranks (1 to 7 files left or right), the left-right
mirror and the mirror with each shift (30 in all). The side to move is kept by every transform.

Each transform is a python-chess flip (``chess.flip_horizontal`` and its kin, which work on a
bitboard or on a numpy array of them alike) followed by a shift of whole files; a shift that
would push a man off the board does not apply to that position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import chess

#: The masks of the files a man may stand on to be shifted ``k`` files right (index k) or left.
_RIGHT_ROOM = [sum(chess.BB_FILES[file] for file in range(8 - k)) for k in range(8)]
_LEFT_ROOM = [sum(chess.BB_FILES[file] for file in range(k, 8)) for k in range(8)]


def _identity(bits: Any) -> Any:
    return bits


def _rotated_90(bits: Any) -> Any:  # clockwise: a1 goes to a8
    return chess.flip_vertical(chess.flip_diagonal(bits))


def _rotated_180(bits: Any) -> Any:
    return chess.flip_vertical(chess.flip_horizontal(bits))


def _rotated_270(bits: Any) -> Any:
    return chess.flip_horizontal(chess.flip_diagonal(bits))


#: The eight rotations and reflections, each with its name.
DIHEDRAL: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("identity", _identity),
    ("rotated 90°", _rotated_90),
    ("rotated 180°", _rotated_180),
    ("rotated 270°", _rotated_270),
    ("mirrored", chess.flip_horizontal),
    ("flipped top to bottom", chess.flip_vertical),
    ("reflected in the a1-h8 diagonal", chess.flip_diagonal),
    ("reflected in the a8-h1 diagonal", chess.flip_anti_diagonal),
)


def _files_words(files: int) -> str:
    count = abs(files)
    return f"shifted {count} file{'' if count == 1 else 's'} {'right' if files > 0 else 'left'}"


@dataclass(frozen=True)
class Transform:
    """A flip of the board, then a shift of ``files`` files (right when positive)."""

    name: str
    flip: Callable[[Any], Any]
    files: int = 0

    def fits(self, occupied: int) -> bool:
        """Whether the shift keeps every man of ``occupied`` (after the flip) on the board."""
        if self.files == 0:
            return True
        flipped = self.flip(occupied)
        room = _RIGHT_ROOM[self.files] if self.files > 0 else _LEFT_ROOM[-self.files]
        return bool(flipped & ~room & chess.BB_ALL == 0)

    def __call__(self, bits: Any) -> Any:
        """A bitboard, or a numpy array of them, transformed; only meaningful where ``fits``."""
        flipped = self.flip(bits)
        if self.files > 0:
            return flipped << self.files
        if self.files < 0:
            return flipped >> -self.files
        return flipped

    def board(self, board: chess.BaseBoard) -> chess.BaseBoard:
        """A python-chess board transformed (``BaseBoard.transform``), where ``fits``."""
        return board.transform(self)


def _shifted(name: str, flip: Callable[[Any], Any]) -> Iterator[Transform]:
    for files in (*range(1, 8), *range(-1, -8, -1)):
        shift = _files_words(files)
        yield Transform(shift if name == "identity" else f"{name}, {shift}", flip, files)


#: Without pawns: the eight rotations and reflections.
WITHOUT_PAWNS: tuple[Transform, ...] = tuple(Transform(name, flip) for name, flip in DIHEDRAL)
IDENTITY, MIRRORED = WITHOUT_PAWNS[0], WITHOUT_PAWNS[4]
#: With pawns: the identity, its 14 shifts, the mirror and its 14 shifts.
WITH_PAWNS: tuple[Transform, ...] = (
    IDENTITY,
    *_shifted("identity", IDENTITY.flip),
    MIRRORED,
    *_shifted("mirrored", MIRRORED.flip),
)


def transforms_for(board: chess.BaseBoard, exact: bool = False) -> list[Transform]:
    """The transforms that apply to ``board`` (only the identity when ``exact``)."""
    if exact:
        return [IDENTITY]
    if board.pawns:
        occupied = board.occupied
        return [transform for transform in WITH_PAWNS if transform.fits(occupied)]
    return list(WITHOUT_PAWNS)
