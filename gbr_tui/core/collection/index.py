"""A collection held in memory by class, for browsing: every position, its headers and its place.

Millions of records must fit, so a record is not kept as a ``Record`` (a dataclass with a dict
of headers, some hundreds of bytes) nor as a Python string (some 50 bytes of overhead each) but
as its text in one shared bytearray (the position, then the header values after a separator,
only when there are any; UTF-8), the end of that text in an array, and three numbers in arrays:
about the text's length plus 22 bytes a record (4 of them in its class's group). The positions of a class are an array of indexes
into those.
"""

from __future__ import annotations

import heapq
from array import array
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from gbr_tui.core.check import record_check_words
from gbr_tui.core.collection.readers import Collection, CollectionRequest
from gbr_tui.core.collection.records import HEADERS, BadRecord, CollectionError, Format, GamePositions, Record
from gbr_tui.core.collection.tally import (
    UNKNOWN_RESULT,
    ClassRow,
    SortBy,
    class_rows,
    folded,
    result_index,
    swapped_code,
)
from gbr_tui.core.families import ALL_FAMILIES, family_of
from gbr_tui.core.material import Material
from gbr_tui.core.patterns import ClassPattern

#: The headers a position row can show, in this order (a game's FEN tag is no header here: the
#: position is kept apart).
FIELDS = tuple(name for name in HEADERS if name != "FEN")
_SEPARATOR = "\x1f"  # the unit separator: never in a FEN, and read as a tag value's end
_MAX_I = (1 << 32) - 1  # the largest number in an array("I"): more lines than that widen it
_TICK_RECORDS = 1024  # records between two calls of ``read``'s ``tick``


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


class ClassIndex:
    """Records of one or more files grouped by class (code and exact material).

    ``read`` adds a file; afterwards ``classes`` lists the classes, ``positions`` the records of
    one class in file order, and ``record`` gives one record back.
    """

    sampled_rows = 200  # records looked at to size a position list's columns (all held in memory)

    def __init__(self) -> None:
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
        self._groups: dict[tuple[str, Material], array] = {}
        self._results: dict[tuple[str, Material], list[int]] = {}  # games: per group, see ``result_index``
        self._families: Counter = Counter()  # family -> records (games: each game once)
        self._text = bytearray()  # every record's text, one after the other
        self._ends = array("Q")  # where each record's text ends in ``_text``
        self._numbers = array("I")  # 4 bytes each ("L" is 8 on 64-bit Linux); see ``_append``
        self._lines = array("I")
        self._file_of = array("H")

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
        file is read by ``request.jobs`` worker processes when it can be cut
        (``parallel.records_with``), to the same index. Returns whether the file was read to its
        end; a file that is no collection at all is noted in ``failures``."""
        from gbr_tui.core.collection import parallel  # only once a file is read: it loads multiprocessing

        file = len(self.files)
        self.files.append(collection.name)
        groups, text, ends, numbers, lines, file_of = (
            self._groups,
            self._text,
            self._ends,
            self._numbers,
            self._lines,
            self._file_of,
        )
        fields, bad, results = self.fields, self.bad, self._results
        games = collection.format == Format.PGN
        self.games = self.games or games
        # A caption is printed with one position of a game, not with every class it passes.
        check = collection.game_positions != GamePositions.ALL
        game = read = 0
        bytes_read: int | None = 0
        result = UNKNOWN_RESULT
        families, game_families = self._families, set()  # the families of the game being read
        each = partial(record_check_words, rule=collection.rule) if check else None
        jobs = request.jobs if request is not None else 1
        items = parallel.records_with(collection, path, request, jobs, each, lambda: not tick(read, bytes_read))
        try:
            for item, found, bytes_read in items:
                if type(item) is BadRecord:
                    bad.append((collection.name, item))
                    read += 1
                else:
                    if item.number != game:
                        game = item.number
                        read += 1
                        self.classified += 1
                        game_families.clear()
                        if games:
                            result = result_index(item.headers.get("Result"))
                    family = family_of(item.material)
                    if family not in game_families:
                        game_families.add(family)
                        families[family] += 1
                    key = (item.code, item.material)
                    group = groups.get(key)
                    if group is None:
                        group = groups[key] = array("I")
                        if games:
                            results[key] = [0, 0, 0, 0]
                    group.append(len(ends))
                    if games:
                        results[key][result] += 1
                    text += (_text(item) if item.headers else item.fen).encode("utf-8", "surrogateescape")
                    ends.append(len(text))
                    if item.line > _MAX_I:  # a number is never above its line
                        lines = self._lines = _widened(lines)
                        if item.number > _MAX_I:
                            numbers = self._numbers = _widened(numbers)
                    numbers.append(item.number)
                    lines.append(item.line)
                    file_of.append(file)
                    if item.headers:
                        fields.update(item.headers)
                    if check and item.caption is not None:
                        self.captions_checked += 1
                        if found:
                            self.disagreements[len(ends) - 1] = (item.caption, found)
                if read % _TICK_RECORDS == 0 and not tick(read, bytes_read):
                    return False
        except CollectionError as error:
            self.failures.append(error.message)
        finally:
            items.close()  # the worker processes stop, if any
        self.fields &= set(FIELDS)
        return True

    @property
    def bytes_held(self) -> int:
        """The bytes the records take (texts, arrays and class groups; not the small fixed part)."""
        arrays = (self._ends, self._numbers, self._lines, self._file_of, *self._groups.values())
        return len(self._text) + sum(len(held) * held.itemsize for held in arrays)

    def classes(
        self, pattern: ClassPattern | None = None, either_colour: bool = False, sort: SortBy = SortBy.CODE
    ) -> list[ClassRow]:
        """The classes with a wanted material (see ``class_rows``)."""
        results = self._results
        counted = (
            (*key, len(group), tuple(results[key]) if key in results else None) for key, group in self._groups.items()
        )
        return class_rows(counted, pattern, either_colour, sort)

    def largest(self, count: int, either_colour: bool = False) -> list[tuple[str, int]]:
        """The ``count`` codes with the most records so far (folded with ``either_colour``), the
        largest first: cheap enough to ask while reading, between two records."""
        codes: Counter = Counter()
        for (code, material), group in self._groups.items():
            codes[folded(code, material, None)[0] if either_colour else code] += len(group)
        return codes.most_common(count)

    def largest_families(self, count: int) -> list[tuple[str, int]]:
        """The ``count`` families with the most records (games: each game once in a family);
        on a tie, in the table's order."""
        return largest_families(self._families, count)

    def positions(self, row: ClassRow, either_colour: bool = False) -> Sequence[int]:
        """The records of a class (of its materials in ``row``; with ``either_colour``, of both
        colourings of each), in file order."""
        keys = {}  # in order, each once (a symmetric material is its own twin)
        for material, _ in row.materials:
            keys[row.code, material] = None
            if either_colour:
                keys[swapped_code(row.code), material.swapped()] = None
        groups = [self._groups[key] for key in keys if key in self._groups]
        if len(groups) == 1:
            return groups[0]
        return array("L", heapq.merge(*groups))

    def record(self, index: int) -> IndexedRecord:
        start = self._ends[index - 1] if index else 0
        text = self._text[start : self._ends[index]].decode("utf-8", "surrogateescape")
        fen, *values = text.split(_SEPARATOR)
        headers = {name: value for name, value in zip(FIELDS, values) if value}
        return IndexedRecord(self.files[self._file_of[index]], self._numbers[index], self._lines[index], fen, headers)


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
