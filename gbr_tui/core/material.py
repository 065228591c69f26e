"""Material: how many queens, rooks, bishops, knights and pawns each side has."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass

import chess

from gbr_tui.core.errors import GbrError, chess_reason

#: The order of the counted types, as in the code's digits (kings are never counted).
TYPES = "QRBNP"
PIECE_TYPES = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)
TYPE_NAMES = {"Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}

#: A side's five counts, Q R B N P (a tuple of any length to the type checker: they are built
#: from iterables in the hot paths, and a fixed-length type would need a cast at each).
Counts = tuple[int, ...]
SIDES_SEPARATOR = " v "  # between White's men and Black's in a material's name


@dataclass(frozen=True, slots=True)
class Material:
    """Counts per side in the order Q R B N P. The code never counts kings; ``kings`` are
    White's and Black's as they stand (one a side unless a board says otherwise), so that a
    material's name never shows kings that are not there."""

    white: Counts
    black: Counts
    kings: tuple[int, int] = (1, 1)

    @classmethod
    def from_board(cls, board: chess.BaseBoard) -> Material:
        return cls(
            tuple(chess.popcount(board.pieces_mask(t, chess.WHITE)) for t in PIECE_TYPES),
            tuple(chess.popcount(board.pieces_mask(t, chess.BLACK)) for t in PIECE_TYPES),
            (
                chess.popcount(board.kings & board.occupied_co[chess.WHITE]),
                chess.popcount(board.kings & board.occupied_co[chess.BLACK]),
            ),
        )

    @classmethod
    def from_fen(cls, fen: str) -> Material:
        """A full FEN or its placement field alone."""
        return cls.from_board(board_from_fen(fen))

    @classmethod
    def from_counts(cls, white: Mapping[str, int], black: Mapping[str, int]) -> Material:
        """From mappings such as ``{"Q": 1, "P": 2}`` (any case); missing types count 0."""
        return cls(_side_counts_from_mapping(white), _side_counts_from_mapping(black))

    @classmethod
    def from_string(cls, text: str) -> Material:
        """``KBBP v KRNPP``, ``KBBPvKRNPP``, ``KBBP-KRNPP`` or ``KBBPKRNPP``.

        Each side is a king followed by its men; the separator's case does not matter.
        """
        stripped = text.strip()
        if not stripped:
            raise GbrError("empty material: expected something like 'KRP v KR'", 0)
        match = re.fullmatch(r"\s*([A-Za-z]+?)\s*(?:\s[vV]\s|[vV]|-|\s)\s*([A-Za-z]+)\s*", text)
        if match is None:
            # No separator: the second side starts at the second king (KRPKR).
            second_king = stripped.upper().find("K", 1)
            if second_king > 0 and _SIDE.fullmatch(stripped):
                offset = text.index(stripped)
                sides = [(stripped[:second_king], offset), (stripped[second_king:], offset + second_king)]
            else:
                bad = _first_bad_character(text)
                raise GbrError("expected two sides such as 'KRP v KR' (kings first, pieces from K Q R B N P)", bad)
        else:
            sides = [(match.group(1), match.start(1)), (match.group(2), match.start(2))]
        white, black = (_side_counts(side, start) for side, start in sides)
        return cls(white, black)

    def side(self, color: chess.Color) -> Counts:
        return self.white if color == chess.WHITE else self.black

    def side_string(self, color: chess.Color) -> str:
        """``KRP``: the side's kings as they stand, then its men; ``-`` for a side with none."""
        if color == chess.WHITE:
            return _side_name(self.white, self.kings[0])
        return _side_name(self.black, self.kings[1])

    def swapped(self) -> Material:
        """The colour-swapped material: White's men become Black's and the other way round."""
        return Material(self.black, self.white, self.kings[::-1])

    @property
    def tablebase_name(self) -> str:
        """Syzygy style with colours kept, White first: ``KBBPvKRNPP``."""
        return f"{self.side_string(chess.WHITE)}v{self.side_string(chess.BLACK)}"

    def __str__(self) -> str:
        kings = self.kings
        return f"{_side_name(self.white, kings[0])}{SIDES_SEPARATOR}{_side_name(self.black, kings[1])}"


_SIDE_NAMES: dict[tuple[Counts, int], str] = {}  # a summary names tens of thousands of materials


def _side_name(counts: Counts, kings: int) -> str:
    name = _SIDE_NAMES.get((counts, kings))
    if name is None:
        name = "K" * kings + "".join(t * n for t, n in zip(TYPES, counts)) or "-"
        if len(_SIDE_NAMES) < 1 << 16:
            _SIDE_NAMES[counts, kings] = name
    return name


def men_on_board(board: chess.BaseBoard, separator: str = SIDES_SEPARATOR) -> str:
    """The men of each side as they stand, kings however many there are: ``KBBP v KRNPP``;
    a side with no men at all reads ``-`` (an empty board is ``- v -``, as everywhere)."""
    material = Material.from_board(board)
    return separator.join(material.side_string(color) for color in (chess.WHITE, chess.BLACK))


def _side_counts_from_mapping(side: Mapping[str, int]) -> Counts:
    counts = dict.fromkeys(TYPES, 0)
    for key, value in side.items():
        piece_type = key.upper() if isinstance(key, str) else key
        if piece_type not in counts:
            raise GbrError(f"unknown piece type {key!r}: expected one of Q R B N P")
        if type(value) is not int or value < 0:
            raise GbrError(f"the count of {key!r} must be a whole number >= 0, not {value!r}")
        counts[piece_type] = value
    return tuple(counts.values())


def board_from_fen(fen: str) -> chess.Board:
    """A board from a full FEN or a placement field; raises GbrError with python-chess's reason.

    python-chess decides what is valid; the error's position points at the field, or the
    character of the placement, that it objected to.
    """
    if not fen.strip():
        raise GbrError("empty FEN", 0)
    fields = fen.split(maxsplit=_FEN_FIELDS)
    # More than six fields: python-chess reads the six, then objects to the rest; it is given
    # one field more, not millions (its message repeats the whole FEN).
    text = " ".join(fields[: _FEN_FIELDS + 1]) if len(fields) > _FEN_FIELDS else fen
    try:
        return chess.Board(text)
    except ValueError as error:
        reason = chess_reason(error)
        raise GbrError(f"not a valid FEN: {reason}", _fen_error_position(fen, reason)) from None


_FEN_FIELDS = 6


# Words of python-chess's messages -> the index of the FEN field they are about.
_FIELD_WORDS = (
    ("position part", 0),
    ("turn part", 1),
    ("castling", 2),
    ("en passant", 3),
    ("half-move", 4),
    ("fullmove", 5),
    ("more parts", 6),
)


def _fen_error_position(fen: str, reason: str) -> int | None:
    fields = list(itertools.islice(re.finditer(r"\S+", fen), _FEN_FIELDS + 1))
    for words, index in _FIELD_WORDS:
        if words in reason and index < len(fields):
            start = fields[index].start()
            if index == 0:
                return start + _placement_problem(fields[0].group())
            return start
    return None


def _placement_problem(placement: str) -> int:
    """Where a placement field breaks the rules, checked in python-chess's order."""
    rows = placement.split("/")
    if len(rows) < 8:
        return len(placement)
    if len(rows) > 8:
        return len("/".join(rows[:8]))
    offset = 0
    for row in rows:
        squares, full_at, previous = 0, None, "/"  # "/": neither digit nor piece
        for index, char in enumerate(row):
            if char in "12345678":
                if previous in "12345678":
                    return offset + index
                squares += int(char)
            elif char == "~":
                if previous.lower() not in chess.PIECE_SYMBOLS[1:]:
                    return offset + index
            elif char.lower() in chess.PIECE_SYMBOLS[1:]:
                squares += 1
            else:
                return offset + index
            if squares > 8 and full_at is None:
                full_at = offset + index
            previous = char
        if full_at is not None:
            return full_at
        if squares < 8:
            return offset + len(row)
        offset += len(row) + 1
    return 0


_SIDE = re.compile(r"\s*([KQRBNP]+)\s*", re.IGNORECASE)


def _first_bad_character(text: str) -> int:
    for index, char in enumerate(text):
        if char.upper() not in "KQRBNPV -":
            return index
    return len(text)


def _side_counts(side: str, start: int) -> Counts:
    upper = side.upper()
    if not upper.startswith("K"):
        raise GbrError("each side starts with its king, K", start)
    for index, char in enumerate(upper[1:], start=1):
        if char not in TYPES:
            what = "a second king" if char == "K" else repr(side[index])
            raise GbrError(f"{what} is not a man here: expected Q R B N or P", start + index)
    return tuple(upper.count(t) for t in TYPES)
