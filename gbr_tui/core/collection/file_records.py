"""One file's records held for the browser (``index.ClassIndex``): as numbers in arrays, not
as ``Record`` objects (a dataclass with a dict of headers, some hundreds of bytes) nor as their
texts: a record's number, line, ply, men (one number, packed as ``fast.VettedBlock.keys`` packs
them) and byte offset, 28 bytes, its position read back from the file when it is shown
(``read_back``). A file that cannot be read at an offset (compressed, a pipe) keeps each
record's text too, in one shared bytearray (the position, then the header values after a
separator, only when there are any; UTF-8).
"""

from __future__ import annotations

import bisect
from array import array
from dataclasses import dataclass, replace
from typing import cast

from gbr_tui.core.collection.formats import format_module
from gbr_tui.core.collection.positions import VouchedLines
from gbr_tui.core.collection.read_back import SourceFile, changed, csv_prefix, line_offsets, read_back
from gbr_tui.core.collection.records import HEADERS, CollectionError, Format, Record
from gbr_tui.core.hhdb import FIRST_COMMENT
from gbr_tui.core.material import Material

#: The headers a position row can show, in this order (a game's FEN tag is no header here: the
#: position is kept apart).
FIELDS = tuple(name for name in HEADERS if name != "FEN")
#: What a record keeps of its headers: the FIELDS, and HHdb's first comment (``hhdb``).
_KEPT = (*FIELDS, FIRST_COMMENT)
_SEPARATOR = "\x1f"  # the unit separator: never in a FEN, and read as a tag value's end
_MAX_I = (1 << 32) - 1  # the largest number in an array("I"): more lines than that widen it
#: What to do when a file has changed since the browser read it.
REREAD_WORDS = "open it again"


@dataclass(frozen=True)
class IndexedRecord:
    """One record as the index gives it back, for the browser to show."""

    file: str
    number: int  # the record (game) number in its file
    line: int
    fen: str  # a FEN, or a placement for replayed games
    headers: dict[str, str]
    problem: str | None = None  # why the position cannot be given (read back from a changed file)


class FileRecords:
    """The records of one file, as numbers in arrays: their men (a key: see ``_key``), numbers,
    lines, for games of every class their plies, and their byte offsets, found from their lines
    once the file is read; or, when ``source`` is None (a file that cannot be read at an
    offset), their texts."""

    def __init__(self, name: str, first: int, source: SourceFile | None, plies: bool) -> None:
        self.name = name
        self.first = first  # the index's number of its first record
        self.source = source
        self.keys = array("q")
        self.numbers = array("I")  # 4 bytes each ("L" is 8 on 64-bit Linux); see ``_widened``
        self.lines = array("I")
        self.plies = array("I") if plies else None
        # With a source, the records' offsets; without, their texts one after the other in
        # ``text`` and where each ends (``ends``). What the other way would hold stays empty.
        self.offsets = array("q")
        self.text = bytearray()
        self.ends = array("Q")

    def __len__(self) -> int:
        return len(self.keys)

    def add_vouched(self, lines: VouchedLines) -> None:
        import numpy as np

        count = len(lines.keys)
        self.keys.frombytes(lines.keys.tobytes())
        if count and int(lines.lines[-1]) > _MAX_I:  # a number is never above its line
            self._widen(int(lines.numbers[-1]) > _MAX_I)
        width = {"I": np.uint32, "Q": np.uint64}
        self.numbers.frombytes(lines.numbers.astype(width[self.numbers.typecode]).tobytes())
        self.lines.frombytes(lines.lines.astype(width[self.lines.typecode]).tobytes())
        if self.source is not None:
            self.offsets.frombytes(bytes(8 * count))  # found from the lines at the end
        else:
            for index in lines.indices.tolist():
                self._hold(lines.texts[index])

    def add(self, record: Record, key: int) -> None:
        self.keys.append(key)
        if record.line > _MAX_I:
            self._widen(record.number > _MAX_I)
        self.numbers.append(record.number)
        self.lines.append(record.line)
        if self.plies is not None:
            self.plies.append(record.ply or 0)
        if self.source is not None:
            self.offsets.append(0)
        else:
            fen = cast(str, record.fen)  # the index reads records with their FENs
            self._hold(_text(record, fen) if record.headers else fen)

    def _widen(self, numbers: bool) -> None:
        self.lines = _widened(self.lines)
        if numbers:
            self.numbers = _widened(self.numbers)

    def _hold(self, text: str) -> None:
        self.text += text.encode("utf-8", "surrogateescape")
        self.ends.append(len(self.text))

    def place(self, format: Format) -> None:
        """The byte offsets of the records, from their lines, once the file has been read."""
        import numpy as np

        if self.source is None or not self.keys:
            return
        # The lines are in file order already (a game's records share one): no sort, no copy.
        lines = np.frombuffer(self.lines, dtype=np.uint32 if self.lines.typecode == "I" else np.uint64)
        offsets = line_offsets(self.source.path, lines)
        self.offsets = array("q")
        self.offsets.frombytes(offsets.data.cast("B"))
        if format_module(format).HEADER_BEFORE_RECORDS:
            self.source = replace(self.source, prefix=csv_prefix(self.source.path, int(offsets[0])))

    @property
    def bytes_held(self) -> int:
        arrays = (self.keys, self.numbers, self.lines, self.plies, self.offsets, self.ends)
        return len(self.text) + sum(len(held) * held.itemsize for held in arrays if held is not None)

    def record(self, index: int, material: Material) -> IndexedRecord:
        """Its ``index``-th record; read back from the file, or why it cannot be (``problem``)."""
        number, line = self.numbers[index], self.lines[index]
        if self.source is None:
            start = self.ends[index - 1] if index else 0
            text = self.text[start : self.ends[index]].decode("utf-8", "surrogateescape")
            fen, *values = text.split(_SEPARATOR)
            headers = {name: value for name, value in zip(_KEPT, values) if value}
            return IndexedRecord(self.name, number, line, fen, headers)
        offset = self.offsets[index]
        after = bisect.bisect_right(self.offsets, offset, index)  # the next record's (game's) offset
        end = self.offsets[after] if after < len(self.offsets) else self.source.size
        ply = self.plies[index] if self.plies is not None else None
        try:
            if changed(self.source):
                raise CollectionError(f"{self.name}: changed since it was read: {REREAD_WORDS}")
            if not 0 <= offset < end <= self.source.size:
                raise CollectionError(f"{self.name}: record {number} is not within the file: {REREAD_WORDS}")
            found = read_back(self.source, number, line, offset, end, ply, material, REREAD_WORDS)
        except CollectionError as error:
            return IndexedRecord(self.name, number, line, "", {}, error.message)
        headers = {name: value for name, value in found.headers.items() if name in _KEPT and value}
        # Read back with its FEN (``records()`` gives them by default).
        return IndexedRecord(self.name, number, line, cast(str, found.fen), headers)


def _widened(numbers: array[int]) -> array[int]:
    return numbers if numbers.typecode == "Q" else array("Q", numbers)


def _text(record: Record, fen: str) -> str:
    """The position, then the FIELDS' values, and HHdb's first comment only when there is one."""
    headers = record.headers
    kept = _KEPT if FIRST_COMMENT in headers else FIELDS
    text = _SEPARATOR.join((fen, *(headers.get(name, "") for name in kept)))
    if text.count(_SEPARATOR) != len(kept):  # a separator inside a value: blank it there
        values = (headers.get(name, "").replace(_SEPARATOR, " ") for name in kept)
        text = _SEPARATOR.join((fen, *values))
    return text
