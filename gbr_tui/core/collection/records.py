"""What reading a collection gives: records, classified or bad, and the words for its options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import Material

if TYPE_CHECKING:
    import chess.pgn

#: The PGN tags a game's record keeps.
GAME_TAGS = ("Event", "Site", "Date", "White", "Black", "Result", "FEN")
#: Every header a record can have, in the order they are written and shown: the PGN tags a game
#: keeps, then an EPD ``id``.
HEADERS = (*GAME_TAGS, "id")


class Format(str, Enum):
    """A collection's format; each is read by its module under ``formats`` (``formats/pgn.py``)."""

    PGN = "pgn"
    EPD = "epd"
    FEN = "fen"
    CSV = "csv"
    JSONL = "jsonl"  # JSON Lines: one object a line, with a "fen" field


class GamePositions(str, Enum):
    """Which positions of a game are classified."""

    START = "start"  # the start position (what study indexes use)
    FINAL = "final"  # the position after the last move
    ALL = "all"  # every class the game passes through, once each


class CollectionError(GbrError):
    """A whole file cannot be read as a collection (missing, unreadable, no FEN column...)."""


@dataclass(frozen=True)
class Record:
    """One classified position of a collection."""

    number: int  # 1-based record (game) number in its file
    line: int  # the line where the record starts
    code: str  # full form abcd.ef
    material: Material
    fen: str | None  # the classified position (only its placement for replayed games)
    ply: int | None = None  # games: the ply of the position, 0 for the start
    plies: int | None = None  # games, every class: the plies played while the game was in it
    headers: Mapping[str, str] = field(default_factory=dict)
    caption: str | None = None  # the caption printed with the position, when one is read


#: A study's stipulation and the PGN result that follows it, and the word its Black tag holds
#: (study collections keep the composer in White and the stipulation in Black).
STIPULATION_RESULTS = {"+": ("1-0", "Win"), "=": ("1/2-1/2", "Draw")}


@dataclass(frozen=True)
class StudyRecord:
    """What a saved study holds besides its position: who composed it, where and when it was
    published, its award, its stipulation (``+``, ``=`` or None) and its solution, a game from
    the position (main line and variations)."""

    composer: str = ""
    source: str = ""
    year: str = ""
    award: str = ""
    stipulation: str | None = None
    solution: chess.pgn.Game | None = None

    @property
    def result(self) -> str:
        """The PGN result the stipulation gives: ``1-0`` for a win, ``1/2-1/2`` for a draw."""
        return STIPULATION_RESULTS[self.stipulation][0] if self.stipulation in STIPULATION_RESULTS else "*"


@dataclass(frozen=True)
class BadRecord:
    number: int
    line: int  # where the fault is (for games, the line of the bad move or tag)
    reason: str


Item = Record | BadRecord


def caption_text(text: str | None) -> str | None:
    """A caption as read, without surrounding space; None when there is none or it is blank."""
    return text.strip() or None if text is not None else None


def with_caption(record: Record, caption: str | None) -> Record:
    caption = caption_text(caption)
    if caption is None:
        return record
    return replace(record, caption=caption)
