"""A collection held in memory by class, for browsing: its classes counted as ``classify``
counts them (a ``Tally``), and every record's place (``file_records``), so that a class's
positions can be listed and each read back. FEN and EPD lines the batch path vouches for are
taken a run at a time, with no object a record.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import operator
import os
from array import array
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from functools import partial
from typing import Any, Literal, cast, overload

from gbr_tui.core.check import record_check_words
from gbr_tui.core.collection.file_records import FIELDS, REREAD_WORDS, FileRecords, IndexedRecord
from gbr_tui.core.collection.formats.base import BatchFormat
from gbr_tui.core.collection.positions import VouchedLines
from gbr_tui.core.collection.read_back import source_file
from gbr_tui.core.collection.readers import Collection, CollectionRequest
from gbr_tui.core.collection.records import BadRecord, CollectionError, GamePositions, Record
from gbr_tui.core.collection.tally import MEN_SHIFTS, ONE_KING_A_SIDE, ClassRow, SortBy, Tally, family_rows
from gbr_tui.core.collection.walk import Consumer, GameClasses, walk
from gbr_tui.core.describe import MATERIALS_SEPARATOR, class_materials, more_materials_words
from gbr_tui.core.families import ALL_FAMILIES
from gbr_tui.core.material import SIDES_SEPARATOR, Material
from gbr_tui.core.patterns import ClassPattern

_TICK_RECORDS = 1024  # records between two calls of ``read``'s ``tick``
FAMILY_ORDER = {family.name: index for index, family in enumerate(ALL_FAMILIES)}
__all__ = ["FIELDS", "REREAD_WORDS", "ClassIndex", "ClassListing", "IndexedRecord", "largest_families"]


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
        self.tally = Tally()  # the classes counted
        self._families: tuple[int, dict[str, int]] = (-1, {})  # records then, family -> records
        self._files: list[FileRecords] = []
        self.records_added = 0
        self._odd: list[Material] = []  # materials without one king a side: key -1 - their index
        self._odd_keys: dict[Material, int] = {}

    def __getstate__(self) -> dict[str, Any]:
        """What is sent from a reading process (``loading``): all but the cache of records."""
        state = self.__dict__.copy()
        del state["record"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
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
        when it can be cut (``ordered.records_with``); FEN and EPD go through the batch path
        here. Returns whether the file was read to its end; a file that is no collection at all
        is noted in ``failures``."""
        self.files.append(collection.name)
        request = request or CollectionRequest((collection.name,), format=collection.format)
        position = collection.game_positions
        source = None  # a file not read back at an offset: its records' texts are held
        if path is not None and collection.source.compression is None and os.path.isfile(path):
            source = source_file(collection.name, path, request, collection.format, position)
        reader = collection.reader
        games = reader.HOLDS_GAMES
        records = FileRecords(collection.name, self.records_added, source, games and position == GamePositions.ALL)
        self._files.append(records)
        self.games = self.games or games
        # A caption is printed with one position of a game, not with every class it passes.
        each = partial(record_check_words, rule=collection.rule) if position != GamePositions.ALL else None
        adding = _Adding(self, records, collection.name, each, games, tick)
        if reader.BATCH:  # the batch path, here; captions checked here too
            # A batch format declares ``vouched`` (the registry's test checks BATCH_REQUIRED).
            found = collection.guarded(cast(BatchFormat, reader).vouched(collection))
            items: Generator[tuple[Any, Any, int | None], None, None] = (
                (item, _UNCHECKED, collection.bytes_read) for item in found
            )
        else:
            from gbr_tui.core.collection import ordered  # only for such a file: it loads multiprocessing

            items = ordered.records_with(
                collection, path, request, request.jobs, each, lambda: not tick(adding.read, adding.bytes_read)
            )
        try:
            walk(adding.items_of(items), adding, games)
        except _Stopped:
            return False
        except CollectionError as error:
            self.failures.append(error.message)
        finally:
            items.close()  # the worker processes stop, if any
            records.place(collection.format)
        self.fields &= set(FIELDS)
        return True

    def add_vouched(self, records: FileRecords, lines: VouchedLines) -> None:
        """A run of lines the batch path vouched for."""
        count = len(lines.keys)
        records.add_vouched(lines)
        self.records_added += count
        self.tally.add_code_numbers([lines.code_indices])
        self.tally.add_packed(lines.nine_codes, lines.nine_keys)
        self.classified += count
        self.tally.classified += count

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
        return ClassListing.of(self.tally, pattern, either_colour, sort)

    def largest(self, count: int, either_colour: bool = False) -> list[tuple[str, int]]:
        """The ``count`` codes with the most records so far (folded with ``either_colour``), the
        largest first: cheap enough to ask while reading, between two blocks."""
        tally = self.tally
        if not either_colour:
            return tally.codes.most_common(count)
        rows = sorted(tally.classes(either_colour=True), key=lambda row: -row.count)
        return [(row.code, row.count) for row in rows[:count]]

    def largest_families(self, count: int) -> list[tuple[str, int]]:
        """The ``count`` families with the most records (games: each game once in a family);
        on a tie, in the table's order."""
        if self._families[0] != self.records_added:  # records were added since
            families = {row.family.name: row.count for row in family_rows(self.tally)}
            self._families = (self.records_added, families)
        return largest_families(self._families[1], count)

    def positions(self, row: ClassRow, either_colour: bool = False) -> Sequence[int]:
        """The records of a class (of its materials in ``row``; with ``either_colour``, of both
        colourings of each), in file order."""
        import numpy as np

        wanted = set()
        for material, _ in row.materials:
            wanted.add(self.key(material))
            if either_colour:
                wanted.add(self.key(material.swapped()))
        wanted.discard(None)
        keys = np.fromiter(wanted, dtype=np.int64, count=len(wanted))
        found = array("q")
        for records in self._files:
            held = np.frombuffer(records.keys, dtype=np.int64)
            found.frombytes((np.flatnonzero(np.isin(held, keys)) + records.first).tobytes())
        return found

    @overload
    def key(self, material: Material, add: Literal[True]) -> int: ...

    @overload
    def key(self, material: Material, add: bool = False) -> int | None: ...

    def key(self, material: Material, add: bool = False) -> int | None:
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


_UNCHECKED = object()  # a record's caption not checked yet (the batch path's: checked here)


class _Stopped(Exception):
    """``tick`` said to stop reading."""


class _Adding(Consumer):
    """``ClassIndex.read``'s consumer: each record added to the file's records, its class to
    the tally (a game's once, with its result), its caption's check kept; ``tick`` asked every
    ``_TICK_RECORDS`` records."""

    def __init__(
        self,
        index: ClassIndex,
        records: FileRecords,
        name: str,
        each: Callable[[Record], Any] | None,
        games: bool,
        tick: Callable[[int, int | None], bool],
    ) -> None:
        self.index, self.records, self.name, self.each, self.tick = index, records, name, each, tick
        self.games = games
        self.read = 0  # records (games) read so far, classified or bad
        self.bytes_read: int | None = 0
        self.found: Any = None  # what ``each`` gave for the item being added

    def items_of(self, items: Iterator[tuple[Any, Any, int | None]]) -> Iterator[Any]:
        """The items of ``ordered.records_with``'s triples, keeping the rest of each here."""
        for item, self.found, self.bytes_read in items:
            yield item

    def _ticked(self, count: int) -> None:
        if self.read % _TICK_RECORDS < count and not self.tick(self.read, self.bytes_read):
            raise _Stopped

    def vouched(self, lines: VouchedLines) -> None:
        self.index.add_vouched(self.records, lines)
        count = len(lines.keys)
        self.read += count
        self._ticked(count)

    def bad(self, bad: BadRecord) -> None:
        self.index.bad.append((self.name, bad))
        self.read += 1
        self._ticked(1)

    def record(self, record: Record, first: bool) -> None:
        index = self.index
        if first:
            self.read += 1
            index.classified += 1
            if not self.games:
                index.tally.classified += 1
        if not self.games:
            index.tally.add(record.code, record.material)
        if self.each is not None and record.caption is not None:
            found = self.each(record) if self.found is _UNCHECKED else self.found
            index.captions_checked += 1
            if found:
                index.disagreements[index.records_added] = (record.caption, found)
        if record.headers:
            index.fields.update(record.headers)
        self.records.add(record, index.key(record.material, add=True))
        index.records_added += 1
        self._ticked(1)

    def game(self, classes: GameClasses, result: int) -> None:
        self.index.tally.add_game(classes, result)


def without_one_king_a_side(tally: Tally) -> int:
    """The positions counted that have no king or more than one on a side: not legal positions,
    classified by their men all the same. Their materials, which name their kings, are kept
    apart (``Tally.hidden``): the batch path vouches only for one king a side, python-chess
    reads the others; an index's rows keep the kings too (``material_rows``)."""
    return sum(
        count
        for materials in tally.hidden.values()
        for material, count in materials.items()
        if material.kings != ONE_KING_A_SIDE
    )


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

    @property
    def not_legal(self) -> int:
        """Of all the positions counted (not only the classes listed): those without one king a
        side (``without_one_king_a_side``)."""
        return without_one_king_a_side(self._tally)

    @overload
    def __getitem__(self, index: int) -> ClassRow: ...

    @overload
    def __getitem__(self, index: slice) -> list[ClassRow]: ...

    def __getitem__(self, index: int | slice) -> ClassRow | list[ClassRow]:
        if isinstance(index, slice):
            return [self[at] for at in range(len(self))[index]]
        if self._rows is not None:
            return self._rows[index]
        return self._tally.class_row(self._codes[index])

    def __eq__(self, other: object) -> bool:
        """Equal to the same rows listed in the same order (a list of them too)."""
        return isinstance(other, Sequence) and len(self) == len(other) and all(map(operator.eq, self, other))

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
            (len(class_materials(tally.class_row(code).materials, shown)) for code in tally.hidden), default=0
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
