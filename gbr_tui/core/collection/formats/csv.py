"""CSV with a FEN column: a record a row (a quoted field may span lines), the FEN column named
FEN or found holding FENs, the caption in a column. Its header is in the file's first lines
only: a file is never cut for worker processes, and a record read back alone is read after it.
"""

from __future__ import annotations

import csv
import itertools
from collections.abc import Callable, Iterator

from gbr_tui.core.collection.formats.lines import START_OVERLAP as START_OVERLAP
from gbr_tui.core.collection.formats.lines import may_start_range as may_start_range
from gbr_tui.core.collection.formats.lines import record_start as record_start
from gbr_tui.core.collection.positions import Entry, in_batches
from gbr_tui.core.collection.reading import OVERLONG_REASON, Reading
from gbr_tui.core.collection.records import BadRecord, CollectionError, Format, Item
from gbr_tui.core.collection.source import MAX_LINE, OVERLONG_LINE, not_utf8
from gbr_tui.core.collection.tally import Tally
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import board_from_fen

FORMAT = Format.CSV
NAME = "CSV"
DETECTION_ORDER = 4
HOLDS_GAMES = False
BATCH = False
CAPTION_IN = "a CSV column"
UNCUT_REASON = "CSV (its header is in the first range only)"
HEADER_BEFORE_RECORDS = True
LINE_ENDS_BEFORE = 1
SAVE_SUFFIX = None
written = None

_RECORD_LINES = 1000  # lines a quoted field may span


def votes(line: str) -> bool:
    return "," in line


def counted(reading: Reading, tally: Tally, on_block: Callable[[], None] | None) -> Iterator[Item]:
    return records(reading, fens=False)


def records(reading: Reading, fens: bool) -> Iterator[Item]:
    return in_batches(reading, _entries(reading))


def _entries(reading: Reading) -> Iterator[Entry]:
    rows = _rows(reading)
    bad_before: list[tuple[int, str]] = []  # bad records before the first two rows
    good: list[tuple[int, list[str]]] = []
    for line, first_rows in rows:
        if isinstance(first_rows, str):
            bad_before.append((line, first_rows))
        else:
            good.append((line, first_rows))
            if len(good) == 2:
                break
    if not good:
        for line, reason in bad_before:
            reading.records_read += 1
            yield BadRecord(reading.records_read, line, reason)
        return
    first_row = good[0][1]
    second_row = good[1][1] if len(good) > 1 else None
    column, has_header = _fen_column(first_row, second_row, reading.fen_column, reading.name)
    caption_column = _caption_column(reading, first_row, has_header)
    width = len(first_row)
    peeked: list[tuple[int, list[str] | str]] = sorted(
        [*bad_before, *(good[1:] if has_header else good)], key=lambda found: found[0]
    )

    for line, row in itertools.chain(peeked, rows):
        reading.records_read += 1
        number = reading.records_read
        if isinstance(row, str):
            yield BadRecord(number, line, row)
        elif len(row) != width:
            yield BadRecord(number, line, f"{len(row)} columns where the first row has {width}")
        elif not all(map(str.isascii, row)) and not_utf8("".join(row)) is not None:
            yield BadRecord(number, line, "bytes that are not UTF-8")
        else:
            caption = row[caption_column] if caption_column is not None else None
            yield number, line, row[column].strip(), None, caption  # classified in batches


class _Stop(Exception):
    """A record whose quoted field does not end in bounds."""


def _rows(reading: Reading) -> Iterator[tuple[int, list[str] | str]]:
    """(line where it starts, row) for each record, or (line, why it is bad).

    A record is one line unless a quoted field spans lines; one whose quote is not closed
    within ``_RECORD_LINES`` lines, ``MAX_LINE`` characters or the file is bad, and reading
    goes on at the line after its start. Empty lines are skipped.
    """
    numbered = reading.numbered_lines()
    front: list[tuple[int, str]] = []  # lines to read again, the next one last
    record: list[tuple[int, str]] = []  # the lines of the record being read

    def feed() -> Iterator[str]:
        size = 0
        while True:
            found = front.pop() if front else next(numbered, None)
            if found is None:
                if record:  # the file ends inside a quoted field
                    raise _Stop
                return
            if not record:
                size = 0
            elif found[1] == OVERLONG_LINE or len(record) >= _RECORD_LINES or size > MAX_LINE:
                front.append(found)
                raise _Stop
            record.append(found)
            if found[1] == OVERLONG_LINE:
                raise _Stop
            size += len(found[1])
            yield found[1] + "\n"

    while True:
        try:
            for row in csv.reader(feed()):
                start = record[0][0]
                record.clear()
                if row:
                    yield start, row
            return
        except _Stop:
            (start, line), *rest = record
            if line == OVERLONG_LINE:
                yield start, OVERLONG_REASON
            else:
                yield start, "a quote '\"' opened on this line is never closed"
            front.extend(reversed(rest))
        except csv.Error as error:
            yield record[0][0], f"not a CSV row: {error}"
        record.clear()


def _caption_column(reading: Reading, first_row: list[str], has_header: bool) -> int | None:
    """The column of the printed captions: ``code_column`` (a name or a 1-based number), else
    the header's column named as ``caption`` (none: no caption is read)."""
    if reading.code_column is not None:
        return _column_index(first_row, reading.code_column, reading.name, has_header)
    names = [cell.strip().casefold() for cell in first_row]
    if has_header and reading.caption is not None and reading.caption.casefold() in names:
        return names.index(reading.caption.casefold())
    return None


def _looks_like_fen(text: str) -> bool:
    if text.count("/") != 7:
        return False
    try:
        board_from_fen(text)
    except GbrError:
        return False
    return True


def _fen_column(first_row: list[str], second_row: list[str] | None, wanted: str | None, file: str) -> tuple[int, bool]:
    """The FEN column's index and whether the first row is a header: a column named FEN (or
    ``wanted``), else the first column holding a FEN in the first row (no header) or the second."""
    names = [cell.strip().casefold() for cell in first_row]
    if wanted is not None:
        index = _column_index(first_row, wanted, file)
        return index, not (_is_number(wanted) and _looks_like_fen(first_row[index].strip()))
    if "fen" in names:
        return names.index("fen"), True
    for row, is_header in ((first_row, False), (second_row or [], True)):
        for index, cell in enumerate(row):
            if _looks_like_fen(cell.strip()):
                return index, is_header
    raise CollectionError(f"{file}: no FEN column found; name it with --fen-column")


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()  # only ASCII digits: int() takes other scripts'


def _column_index(first_row: list[str], wanted: str, file: str, has_header: bool = True) -> int:
    """The index of a column named by the user: a 1-based number, or a name in the header."""
    if _is_number(wanted):
        index = int(wanted) - 1
        if not 0 <= index < len(first_row):
            raise CollectionError(f"{file}: there is no column {wanted} (the rows have {len(first_row)})")
        return index
    names = [cell.strip().casefold() for cell in first_row]
    if has_header and wanted.strip().casefold() in names:
        return names.index(wanted.strip().casefold())
    if not has_header:
        raise CollectionError(f"{file}: no header to find column {wanted!r} in: give its number")
    raise CollectionError(f"{file}: no column named {wanted!r} in the header ({', '.join(first_row)})")
