"""EPD: a position a line (a placement and three fields), then operations: an ``id`` kept as a
header, the printed caption in an opcode. Classified by the batch path."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import chess

from gbr_tui.core.collection.formats.base import CODE_TAG
from gbr_tui.core.collection.formats.fen import has_epd_fields, placement_first
from gbr_tui.core.collection.formats.lines import START_OVERLAP as START_OVERLAP
from gbr_tui.core.collection.formats.lines import may_start_range as may_start_range
from gbr_tui.core.collection.formats.lines import record_start as record_start
from gbr_tui.core.collection.positions import (
    VouchedLines,
    in_batches,
    position_entries,
    tally_positions,
    vouched_positions,
)
from gbr_tui.core.collection.reading import Reading
from gbr_tui.core.collection.records import Format, Item
from gbr_tui.core.collection.tally import Tally

FORMAT = Format.EPD
NAME = "EPD"
DETECTION_ORDER = 2
HOLDS_GAMES = False
BATCH = True
CAPTION_IN = "an EPD opcode"
UNCUT_REASON = None
HEADER_BEFORE_RECORDS = False
LINE_ENDS_BEFORE = 1
SAVE_SUFFIX = ".epd"


def votes(line: str) -> bool:
    fields = line.split(None, 6)
    return placement_first(fields) and has_epd_fields(fields)


def written(board: chess.Board, code: str | None) -> str:
    """One line, the code in a ``GBR`` opcode."""
    if not code:
        return board.epd() + "\n"
    # mypy cannot tell the opcode from epd's own keyword arguments (shredder, en_passant...)
    return board.epd(**{CODE_TAG: code}) + "\n"  # type: ignore[arg-type]


def records(reading: Reading, fens: bool) -> Iterator[Item]:
    return in_batches(reading, position_entries(reading, True))


def counted(reading: Reading, tally: Tally, on_block: Callable[[], None] | None) -> Iterator[Item]:
    return tally_positions(reading, tally, True, on_block)


def vouched(reading: Reading) -> Iterator[Item | VouchedLines]:
    return vouched_positions(reading, True)
