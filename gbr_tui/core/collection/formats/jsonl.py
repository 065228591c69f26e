"""JSON Lines: an object a line, its position in a ``"fen"`` field, the headers a record keeps
and the printed caption in fields of their names."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from gbr_tui.core.collection.formats.lines import START_OVERLAP as START_OVERLAP
from gbr_tui.core.collection.formats.lines import may_start_range as may_start_range
from gbr_tui.core.collection.formats.lines import record_start as record_start
from gbr_tui.core.collection.reading import Reading
from gbr_tui.core.collection.records import HEADERS, BadRecord, Format, Item, Record, with_caption
from gbr_tui.core.collection.source import OVERLONG_LINE, not_utf8
from gbr_tui.core.collection.tally import Tally

FORMAT = Format.JSONL
NAME = "JSON Lines"
DETECTION_ORDER = 0
HOLDS_GAMES = False
BATCH = False
CAPTION_IN = "a JSON field"
UNCUT_REASON = None
HEADER_BEFORE_RECORDS = False
LINE_ENDS_BEFORE = 1
SAVE_SUFFIX = None
written = None


def votes(line: str) -> bool:
    return line[0] == "{" and '"fen"' in line  # not a PGN comment: a JSON object with a FEN


def counted(reading: Reading, tally: Tally, on_block: Callable[[], None] | None) -> Iterator[Item]:
    return records(reading, fens=False)


def records(reading: Reading, fens: bool) -> Iterator[Item]:
    for line, text in reading.numbered_lines():
        if text and not text.isspace():
            reading.records_read += 1
            yield _classified(reading, reading.records_read, line, text)


def _classified(reading: Reading, number: int, line: int, text: str) -> Item:
    """One object: its ``fen`` field, the headers and the caption it has."""
    if text == OVERLONG_LINE or not_utf8(text) is not None:
        return reading.classify_fen(number, line, text)
    try:
        fields = json.loads(text)
    except RecursionError:
        return BadRecord(number, line, "not a JSON object: nested too deeply")
    except ValueError as error:
        where = f" (column {error.colno})" if isinstance(error, json.JSONDecodeError) else ""
        return BadRecord(number, line, f"not a JSON object: {getattr(error, 'msg', error)}{where}")
    if not isinstance(fields, dict):
        return BadRecord(number, line, f"not a JSON object but {_kind(fields)}")
    fen = fields.get("fen")
    if not isinstance(fen, str):
        missing = "no" if fen is None else f"{_kind(fen)} in its"
        return BadRecord(number, line, f'{missing} "fen" field: expected a FEN as a string')
    caption = fields.get(reading.caption) if reading.caption is not None else None
    if caption is not None and not isinstance(caption, str):
        return BadRecord(number, line, f'the "{reading.caption}" field is {_kind(caption)}, not a string')
    item = reading.classify_fen(number, line, fen.strip())
    if type(item) is not Record:
        return item
    headers = {name: value for name in HEADERS if isinstance(value := fields.get(name), str) and name != "FEN"}
    return with_caption(Record(number, line, item.code, item.material, item.fen, headers=headers), caption)


def _kind(value: object) -> str:
    """How a JSON value that is not what was wanted is named."""
    kinds = ((bool, "true or false"), (int, "a number"), (float, "a number"), (list, "an array"), (dict, "an object"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "null" if value is None else "a string")
