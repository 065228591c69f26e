"""A collection held in memory by class, for browsing: its classes counted as ``classify``
counts them (a ``Tally``), and every record's place, so that a class's positions can be listed
and each read back.

Millions of records must fit, so a record of a file on disk is kept as numbers in arrays, not
as a ``Record`` (a dataclass with a dict of headers, some hundreds of bytes) nor as its text:
its number, line, ply, men (one number, packed as ``fast.VettedBlock.keys`` packs them) and
byte offset, 28 bytes, its position read back from the file when it is shown
(``read_back``). A file that cannot be read at an offset (compressed, a pipe) keeps each
record's text too, in one shared bytearray (the position, then the header values after a
separator, only when there are any; UTF-8). FEN and EPD lines the batch path vouches for are
taken a run at a time, with no object a record.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import operator
import os
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

from gbr_tui.core.check import record_check_words
from gbr_tui.core.collection.positions import VouchedLines, vouched_positions
from gbr_tui.core.collection.read_back import SourceFile, changed, csv_prefix, line_offsets, read_back, source_file
from gbr_tui.core.collection.readers import Collection, CollectionRequest
from gbr_tui.core.collection.records import HEADERS, BadRecord, CollectionError, Format, GamePositions, Record
from gbr_tui.core.collection.tally import (
    MEN_SHIFTS,
    ONE_KING_A_SIDE,
    UNKNOWN_RESULT,
    ClassRow,
    SortBy,
    Tally,
    family_rows,
    result_index,
)
from gbr_tui.core.describe import MATERIALS_SEPARATOR, class_materials, more_materials_words
from gbr_tui.core.families import ALL_FAMILIES
from gbr_tui.core.material import SIDES_SEPARATOR, Material
from gbr_tui.core.patterns import ClassPattern

#: The headers a position row can show, in this order (a game's FEN tag is no header here: the
#: position is kept apart).
FIELDS = tuple(name for name in HEADERS if name != "FEN")
_SEPARATOR = "\x1f"  # the unit separator: never in a FEN, and read as a tag value's end
_MAX_I = (1 << 32) - 1  # the largest number in an array("I"): more lines than that widen it
_TICK_RECORDS = 1024  # records between two calls of ``read``'s ``tick``
#: What to do when a file has changed since the browser read it.
REREAD_WORDS = "open it again"


FAMILY_ORDER = {family.name: index for index, family in enumerate(ALL_FAMILIES)}


@dataclass(frozen=True)
class IndexedRecord:
    """One record as the index gives it back, for the browser to show."""

    file: str
    number: int  # the record (game) number in its file
    line: int
    fen: str  # a FEN, or a placement for replayed games
    headers: dict[str, str]
    problem: str | None = None  # why the position cannot be given (read back from a changed file)


class _FileRecords:
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
        self.offsets = array("q") if source is not None else None
        self.text = bytearray() if source is None else None  # the records' texts, one after the other
        self.ends = array("Q") if source is None else None  # where each text ends in ``text``

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
        if self.offsets is not None:
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
        if self.offsets is not None:
            self.offsets.append(0)
        else:
            self._hold(_text(record) if record.headers else record.fen)

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
        self.offsets.frombytes(memoryview(offsets).cast("B"))
        if format == Format.CSV:
            self.source = replace(self.source, prefix=csv_prefix(self.source.path, int(offsets[0])))

    @property
    def bytes_held(self) -> int:
        arrays = (self.keys, self.numbers, self.lines, self.plies, self.offsets, self.ends)
        return len(self.text or b"") + sum(len(held) * held.itemsize for held in arrays if held is not None)

    def record(self, index: int, material: Material) -> IndexedRecord:
        """Its ``index``-th record; read back from the file, or why it cannot be (``problem``)."""
        number, line = self.numbers[index], self.lines[index]
        if self.source is None:
            start = self.ends[index - 1] if index else 0
            text = self.text[start : self.ends[index]].decode("utf-8", "surrogateescape")
            fen, *values = text.split(_SEPARATOR)
            headers = {name: value for name, value in zip(FIELDS, values) if value}
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
        headers = {name: value for name, value in found.headers.items() if name in FIELDS and value}
        return IndexedRecord(self.name, number, line, found.fen, headers)


class ClassIndex:
    """Records of one or more files grouped by class (code and exact material).

    ``read`` adds a file; afterwards ``classes`` lists the classes, ``positions`` the records of
    one class in file order, and ``record`` gives one record back.
    """

    sampled_rows = 20  # records read back to size a position list's columns
    index_file: str | None = None  # read from the files themselves, not from an index (``StoredIndex``)

    def __init__(self, position: GamePositions = GamePositions.ALL) -> None:
        self.position = position  # the --position its files are read with
        self.files: list[str] = []
        self.bad: list[tuple[str, BadRecord]] = []
        self.failures: list[str] = []  # files that could not be read as collections at all
        self.classified = 0  # records (games) classified, whatever the number of positions
        self.games = False  # some file is a PGN: its classes have results
        self.fields: set[str] = set()  # the FIELDS some record has
        self.captions_checked = 0  # records with a printed caption, checked against their position
        #: The records whose caption disagrees with their position: the caption, and (part,
        #: words) for each part that disagrees.
        self.disagreements: dict[int, tuple[str, list[tuple[str, str]]]] = {}
        self.record = functools.lru_cache(maxsize=4096)(self._record)
        self._tally = Tally()
        self._families: tuple[int, dict[str, int]] = (-1, {})  # records then, family -> records
        self._files: list[_FileRecords] = []
        self._records = 0
        self._odd: list[Material] = []  # materials without one king a side: key -1 - their index
        self._odd_keys: dict[Material, int] = {}

    def __getstate__(self) -> dict:
        """What is sent from a reading process (``loading``): all but the cache of records."""
        state = self.__dict__.copy()
        del state["record"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.record = functools.lru_cache(maxsize=4096)(self._record)

    def read(
        self,
        collection: Collection,
        tick: Callable[[int, int | None], bool] = lambda records, bytes_read: True,
        request: CollectionRequest | None = None,
        path: str | None = None,
    ) -> bool:
        """Add every record of ``collection``. ``tick(records read so far, bytes read so far
        or None)`` is called every ``_TICK_RECORDS`` records, and while worker processes read;
        it returns False to stop. With the ``request`` it was opened from and its ``path``, the
        records are read back from the file when shown (unless it is compressed or no regular
        file), and a PGN, CSV or JSON Lines file is read by ``request.jobs`` worker processes
        when it can be cut (``parallel.records_with``); FEN and EPD go through the batch path
        here. Returns whether the file was read to its end; a file that is no collection at all
        is noted in ``failures``."""
        self.files.append(collection.name)
        held = path is None or collection.source.compression is not None or not os.path.isfile(path)
        request = request or CollectionRequest((collection.name,), format=collection.format)
        position = collection.game_positions
        source = None if held else source_file(collection.name, path, request, collection.format, position)
        games = collection.format == Format.PGN
        records = _FileRecords(collection.name, self._records, source, games and position == GamePositions.ALL)
        self._files.append(records)
        self.games = self.games or games
        # A caption is printed with one position of a game, not with every class it passes.
        check = position != GamePositions.ALL
        each = partial(record_check_words, rule=collection.rule) if check else None
        game = read = 0
        bytes_read: int | None = 0
        batch = collection.format in (Format.FEN, Format.EPD)
        if batch:
            found = collection._guarded(vouched_positions(collection, collection.format == Format.EPD))
            items = ((item, None, collection.bytes_read) for item in found)
        else:
            from gbr_tui.core.collection import parallel  # only for such a file: it loads multiprocessing

            items = parallel.records_with(
                collection, path, request, request.jobs, each, lambda: not tick(read, bytes_read)
            )
        classes: list[tuple[str, Material]] = []  # of the game being read
        result = UNKNOWN_RESULT
        try:
            for item, found, bytes_read in items:
                kind = type(item)
                if kind is VouchedLines:
                    self._add_vouched(records, item)
                    read += len(item.keys)
                elif kind is BadRecord:
                    self.bad.append((collection.name, item))
                    read += 1
                else:
                    if item.number != game:
                        game = item.number
                        read += 1
                        self.classified += 1
                        if games:
                            if classes:
                                self._tally.add_game(classes, result)
                            classes = []
                            result = result_index(item.headers.get("Result"))
                        else:
                            self._tally.classified += 1
                    if games:
                        classes.append((item.code, item.material))
                    else:
                        self._tally.add(item.code, item.material)
                    if check and item.caption is not None:
                        if batch:  # checked here, not by a worker
                            found = each(item)
                        self.captions_checked += 1
                        if found:
                            self.disagreements[self._records] = (item.caption, found)
                    if item.headers:
                        self.fields.update(item.headers)
                    records.add(item, self._key(item.material, add=True))
                    self._records += 1
                if read % _TICK_RECORDS < (len(item.keys) if kind is VouchedLines else 1) and not tick(
                    read, bytes_read
                ):
                    return False
        except CollectionError as error:
            self.failures.append(error.message)
        finally:
            items.close()  # the worker processes stop, if any
            if classes:
                self._tally.add_game(classes, result)
            records.place(collection.format)
        self.fields &= set(FIELDS)
        return True

    def _add_vouched(self, records: _FileRecords, lines: VouchedLines) -> None:
        count = len(lines.keys)
        records.add_vouched(lines)
        self._records += count
        self._tally.add_code_numbers([lines.code_indices])
        self._tally.add_packed(lines.nine_codes, lines.nine_keys)
        self.classified += count
        self._tally.classified += count

    @property
    def bytes_held(self) -> int:
        """The bytes the records take (their numbers, and texts held; not the classes, nor the
        small fixed part)."""
        return sum(records.bytes_held for records in self._files)

    def close(self) -> None:
        """Nothing to let go: the records are held in memory (a ``StoredIndex`` closes its file)."""

    def classes(
        self, pattern: ClassPattern | None = None, either_colour: bool = False, sort: SortBy = SortBy.CODE
    ) -> ClassListing:
        """The classes with a wanted material (see ``ClassListing``)."""
        return ClassListing.of(self._tally, pattern, either_colour, sort)

    def largest(self, count: int, either_colour: bool = False) -> list[tuple[str, int]]:
        """The ``count`` codes with the most records so far (folded with ``either_colour``), the
        largest first: cheap enough to ask while reading, between two blocks."""
        tally = self._tally
        if not either_colour:
            return tally.codes.most_common(count)
        rows = sorted(tally.classes(either_colour=True), key=lambda row: -row.count)
        return [(row.code, row.count) for row in rows[:count]]

    def largest_families(self, count: int) -> list[tuple[str, int]]:
        """The ``count`` families with the most records (games: each game once in a family);
        on a tie, in the table's order."""
        if self._families[0] != self._records:  # records were added since
            families = {row.family.name: row.count for row in family_rows(self._tally)}
            self._families = (self._records, families)
        return largest_families(self._families[1], count)

    def positions(self, row: ClassRow, either_colour: bool = False) -> Sequence[int]:
        """The records of a class (of its materials in ``row``; with ``either_colour``, of both
        colourings of each), in file order."""
        import numpy as np

        wanted = set()
        for material, _ in row.materials:
            wanted.add(self._key(material))
            if either_colour:
                wanted.add(self._key(material.swapped()))
        wanted.discard(None)
        keys = np.fromiter(wanted, dtype=np.int64, count=len(wanted))
        found = array("q")
        for records in self._files:
            held = np.frombuffer(records.keys, dtype=np.int64)
            found.frombytes((np.flatnonzero(np.isin(held, keys)) + records.first).tobytes())
        return found

    def _key(self, material: Material, add: bool = False) -> int | None:
        """A material as one number: six bits a type of man as ``fast.VettedBlock.keys`` packs
        them, or, without one king a side, -1 less its place in ``_odd`` (``add``: a new one)."""
        if material.kings == ONE_KING_A_SIDE:
            return sum(count << shift for count, shift in zip((*material.white, *material.black), MEN_SHIFTS))
        key = self._odd_keys.get(material)
        if key is None and add:
            key = self._odd_keys[material] = -1 - len(self._odd)
            self._odd.append(material)
        return key

    def _material(self, key: int) -> Material:
        if key < 0:
            return self._odd[-1 - key]
        men = [key >> shift & 63 for shift in MEN_SHIFTS]
        return Material(tuple(men[:5]), tuple(men[5:]))

    def _record(self, index: int) -> IndexedRecord:
        records = self._files[bisect.bisect_right([records.first for records in self._files], index) - 1]
        index -= records.first
        return records.record(index, self._material(records.keys[index]))


class ClassListing(Sequence[ClassRow]):
    """The classes as ``Tally.classes`` lists them, in its order, with what the browser's table
    and chart need of all of them (their widest cells, the largest classes).

    Without a pattern, folding or results (a file's first listing) a row is made only when it
    is read, from the codes in order: the table reads the rows on screen, and tens of thousands
    of classes are listed without a ``ClassRow`` each. Else the rows are made at once."""

    def __init__(self, tally: Tally, codes: list[str], counts: list[int], rows: list[ClassRow] | None = None) -> None:
        self._tally, self._codes, self.counts, self._rows = tally, codes, counts, rows

    @classmethod
    def of(
        cls, tally: Tally, pattern: ClassPattern | None = None, either_colour: bool = False, sort: SortBy = SortBy.CODE
    ) -> ClassListing:
        if pattern is not None or either_colour or tally.results:
            rows = tally.classes(pattern, either_colour, sort)
            return cls(tally, [row.code for row in rows], [row.count for row in rows], rows)
        counted = tally.codes
        codes = sorted(counted)
        if sort != SortBy.CODE:  # without results every score is unknown: the most first, as by count
            codes.sort(key=lambda code: -counted[code])
        return cls(tally, codes, [counted[code] for code in codes])

    def __len__(self) -> int:
        return len(self._codes)

    def __getitem__(self, index: int) -> ClassRow:
        if self._rows is not None:
            return self._rows[index]
        return self._tally._class_row(self._codes[index])

    def __eq__(self, other: object) -> bool:
        """Equal to the same rows listed in the same order (a list of them too)."""
        return isinstance(other, Sequence) and len(self) == len(other) and all(map(operator.eq, self, other))

    __hash__ = None

    @property
    def records(self) -> int:
        return sum(self.counts)

    def largest(self, count: int) -> list[tuple[str, int]]:
        """The ``count`` classes with the most records (code, records), the largest first; on a
        tie, in the listing's order."""
        return heapq.nlargest(count, zip(self._codes, self.counts), key=operator.itemgetter(1))

    @property
    def code_width(self) -> int:
        return max(map(len, self._codes), default=0)

    def materials_width(self, shown: int) -> int:
        """The longest materials cell (``class_materials`` of a row, its first ``shown``
        materials). Rows made at once are measured as written; else from the codes: the one
        material of a code without a 9 from its digits, the runs of the batch path's materials
        (codes with a 9) from their men at once, and only the few classes python-chess counted
        (other kings than one a side) as written."""
        if self._rows is not None:
            return max((len(class_materials(row.materials, shown)) for row in self._rows), default=0)
        tally = self._tally
        counted = max(
            (len(class_materials(tally._class_row(code).materials, shown)) for code in tally.hidden), default=0
        )
        return max(self._one_material_width(), self._packed_width(shown), counted)

    def _packed_width(self, shown: int) -> int:
        """The longest materials cell of the codes with a 9 the batch path counted: a material's
        name is a king and a letter a man each side, and the separator (one king a side: the
        batch path counts no other); ``shown`` of them and ``N more``."""
        packed = self._tally.packed
        if packed is None or not packed.codes():
            return 0
        import numpy as np

        _, starts, lengths, men, _ = packed.men_runs()
        names = np.zeros(len(men) + 1, dtype=np.int64)
        np.cumsum(men.sum(axis=1, dtype=np.int64) + 2 + len(SIDES_SEPARATOR), out=names[1:])
        listed = np.minimum(lengths, shown)
        widths = names[starts + listed] - names[starts] + len(MATERIALS_SEPARATOR) * (listed - 1)
        left = lengths - listed
        more = np.zeros(int(left.max()) + 1, dtype=np.int64)  # ", N more" by N (0: none)
        for count in (np.flatnonzero(np.bincount(left)[1:]) + 1).tolist():
            more[count] = len(MATERIALS_SEPARATOR) + len(more_materials_words(count))
        return int((widths + more.take(left)).max())

    def _one_material_width(self) -> int:
        """The longest name of the one material of a code (``KR v K``) among the codes without
        a 9 (nor kings other than one a side): a king and a letter a man each side, and the
        separator. From the codes' digits at once (a piece digit is White's men and three times
        Black's)."""
        tally = self._tally
        if not self._codes:
            return 0
        import numpy as np

        packed = () if tally.packed is None else tally.packed.codes()
        plain = [code for code in self._codes if code not in tally.hidden and code not in packed]
        if not plain:
            return 0
        digits = np.frombuffer("".join(plain).encode("ascii"), dtype=np.uint8).reshape(len(plain), 7) - ord("0")
        men = (digits[:, :4] % 3 + digits[:, :4] // 3).sum(axis=1) + digits[:, 5] + digits[:, 6]
        return 2 + len(SIDES_SEPARATOR) + int(men.max())


def largest_families(families: Mapping[str, int], count: int) -> list[tuple[str, int]]:
    """The ``count`` families with the most records, the largest first; on a tie, in the
    table's order."""
    return sorted(families.items(), key=lambda item: (-item[1], FAMILY_ORDER[item[0]]))[:count]


def _widened(numbers: array) -> array:
    return numbers if numbers.typecode == "Q" else array("Q", numbers)


def _text(record: Record) -> str:
    headers = record.headers
    text = _SEPARATOR.join((record.fen, *(headers.get(name, "") for name in FIELDS)))
    if text.count(_SEPARATOR) != len(FIELDS):  # a separator inside a value: blank it there
        values = (headers.get(name, "").replace(_SEPARATOR, " ") for name in FIELDS)
        text = _SEPARATOR.join((record.fen, *values))
    return text
