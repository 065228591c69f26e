"""FEN lines: a position a line (a FEN, or a placement alone), classified by the batch path."""

from __future__ import annotations

from collections.abc import Callable, Iterator

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

FORMAT = Format.FEN
NAME = "FEN lines"
DETECTION_ORDER = 3
HOLDS_GAMES = False
BATCH = True
CAPTION_IN = None
UNCUT_REASON = None
HEADER_BEFORE_RECORDS = False
LINE_ENDS_BEFORE = 1
SAVE_SUFFIX = None
written = None


def votes(line: str) -> bool:
    """A placement (eight ranks), alone or with a FEN's fields (not EPD's: a move number among them)."""
    fields = line.split(None, 6)
    return placement_first(fields) and not has_epd_fields(fields)


def placement_first(fields: list[str]) -> bool:
    """Whether a line's first field is a placement and no comma is in its position."""
    return fields[0].count("/") == 7 and "," not in " ".join(fields[:6])


def has_epd_fields(fields: list[str]) -> bool:
    """Whether the fields after a placement are EPD's: three, then operations or nothing."""
    return len(fields) == 4 or (len(fields) > 4 and not fields[4].isdigit())


def records(reading: Reading, fens: bool) -> Iterator[Item]:
    return in_batches(reading, position_entries(reading, False))


def counted(reading: Reading, tally: Tally, on_block: Callable[[], None] | None) -> Iterator[Item]:
    return tally_positions(reading, tally, False, on_block)


def vouched(reading: Reading) -> Iterator[Item | VouchedLines]:
    return vouched_positions(reading, False)
