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
from gbr_tui.core.collection.records import STIPULATION_RESULTS, Format, Item, StudyRecord
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


def written(board: chess.Board, code: str | None, study: StudyRecord | None = None) -> str:
    """One line, the code in a ``GBR`` opcode; a study's in the opcodes EPD has for it: ``id``
    (composer, source and year), ``c0`` to ``c3`` (composer; source and year; award;
    stipulation as a word), ``bm`` its key move and ``pv`` its main line."""
    operations: dict[str, str | chess.Move | list[chess.Move]] = {}
    if study is not None:
        published = " ".join(part for part in (study.source, study.year) if part)
        operations["id"] = ", ".join(part for part in (study.composer, published) if part)
        operations |= {"c0": study.composer, "c1": published, "c2": study.award}
        if study.stipulation in STIPULATION_RESULTS:
            operations["c3"] = STIPULATION_RESULTS[study.stipulation][1]
        main_line = list(study.solution.mainline_moves()) if study.solution is not None else []
        if main_line:
            operations |= {"bm": [main_line[0]], "pv": main_line}
        operations = {name: value for name, value in operations.items() if value}
    if code:
        operations[CODE_TAG] = code
    # mypy cannot tell the opcodes from epd's own keyword arguments (shredder, en_passant...)
    return board.epd(**operations) + "\n"  # type: ignore[arg-type]


def records(reading: Reading, fens: bool) -> Iterator[Item]:
    return in_batches(reading, position_entries(reading, True))


def counted(reading: Reading, tally: Tally, on_block: Callable[[], None] | None) -> Iterator[Item]:
    return tally_positions(reading, tally, True, on_block)


def vouched(reading: Reading) -> Iterator[Item | VouchedLines]:
    return vouched_positions(reading, True)
