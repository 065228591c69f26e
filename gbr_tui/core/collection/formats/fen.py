"""FEN lines: a position a line (a FEN, or a placement alone), classified by the batch path."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from gbr_tui.core.collection.formats import lines
from gbr_tui.core.collection.positions import VouchedLines, in_batches, position_entries, tally_positions
from gbr_tui.core.collection.positions import vouched_positions as _vouched_positions
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
START_OVERLAP = lines.START_OVERLAP
record_start = lines.record_start
may_start_range = lines.may_start_range


def votes(line: str) -> bool:
    """A placement (eight ranks) and the FEN's fields, a move number among them."""
    fields = line.split(None, 6)
    return placement_first(fields) and not epd_fields(fields)


def placement_first(fields: list[str]) -> bool:
    """Whether a line's first field is a placement and no comma is in its position."""
    return fields[0].count("/") == 7 and "," not in " ".join(fields[:6])


def epd_fields(fields: list[str]) -> bool:
    """Whether the fields after a placement are EPD's: three, then operations or nothing."""
    return len(fields) == 4 or (len(fields) > 4 and not fields[4].isdigit())


def records(reading: Reading, fens: bool) -> Iterator[Item]:
    return in_batches(reading, position_entries(reading, False))


def counted(reading: Reading, tally: Tally, on_block: Callable[[], None] | None) -> Iterator[Item]:
    return tally_positions(reading, tally, False, on_block)


def vouched(reading: Reading) -> Iterator[Item | VouchedLines]:
    return _vouched_positions(reading, False)
