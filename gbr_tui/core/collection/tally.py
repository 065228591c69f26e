"""Counting records per class, and listing classes: one grouping of (code, material, count,
results) into rows, for the command line's summary and the browser's class table alike.

Games also count their results (the ``Result`` tag) per class. Listing can fold each class with
its colour twin (``KRP v KR`` with ``KR v KRP``), written with the stronger side as White, and
sort by code, count or score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, TypeVar, cast, overload

from gbr_tui.core.code import digit_sides
from gbr_tui.core.families import ALL_FAMILIES, Family, family_of
from gbr_tui.core.material import Material

if TYPE_CHECKING:
    import numpy as np

    from gbr_tui.core.packed_materials import PackedMaterials
    from gbr_tui.core.patterns import ClassPattern

#: White wins, draws, Black wins, unknown (no result, ``*`` or anything else).
Results = tuple[int, int, int, int]
NO_RESULTS: Results = (0, 0, 0, 0)
_RESULT_INDEX = {"1-0": 0, "1/2-1/2": 1, "0-1": 2}
UNKNOWN_RESULT = 3
ONE_KING_A_SIDE = (1, 1)
#: A material's men packed in one number: six bits a type, Q R B N P q r b n p (as the batch
#: path's ``fast.VettedBlock.keys`` packs them).
MEN_SHIFTS = tuple(range(0, 60, 6))


def result_index(tag: str | None) -> int:
    """Where a game's ``Result`` tag counts: 0 White wins, 1 draw, 2 Black wins, 3 unknown."""
    return _RESULT_INDEX.get(tag.strip(), UNKNOWN_RESULT) if tag else UNKNOWN_RESULT


def score(results: Results) -> float | None:
    """White's score in percent over the games with a known result (a draw is half a point)."""
    white, draws, black, _ = results
    decided = white + draws + black
    return None if not decided else 100 * (white + draws / 2) / decided


class SortBy(str, Enum):
    CODE = "code"  # by code, as strings
    COUNT = "count"  # the most records first
    SCORE = "score"  # White's (the stronger side's) best score first; no known result last


@dataclass(frozen=True, slots=True)
class ClassRow:
    """One class (or family) as listed: its code and the materials behind it that are wanted,
    with counts; for games, the results summed over them."""

    code: str
    materials: Sequence[tuple[Material, int]]  # most frequent first
    results: Results | None = None  # None: no game (positions have no result)
    count: int = 0  # of all its materials: set by ``class_rows``, which has it at hand

    @property
    def score(self) -> float | None:
        return None if self.results is None else score(self.results)


def stronger_first(material: Material) -> bool:
    """Whether White is the stronger side, or the sides are equal: the side with more queens,
    then (queens equal) more rooks, then bishops, knights and pawns, is the stronger, the
    order of the code's digits."""
    return material.white >= material.black


def swapped_code(code: str) -> str:
    """The code of the colour-swapped material: each piece digit ``w + 3b`` becomes ``b + 3w``
    (a 9 stays a 9: three or more on the other side), the pawn digits change places."""
    pieces = "".join(digit if digit == "9" else str(int(digit) // 3 + 3 * (int(digit) % 3)) for digit in code[:4])
    return f"{pieces}.{code[6]}{code[5]}"


def swapped_results(results: Results | None) -> Results | None:
    return None if results is None else (results[2], results[1], results[0], results[3])


def folded(code: str, material: Material, results: Results | None) -> tuple[str, Material, Results | None]:
    """A class written with the stronger side as White, its results counted for that side."""
    if stronger_first(material):
        return code, material, results
    return swapped_code(code), material.swapped(), swapped_results(results)


def _added(one: Results | None, other: Results | None) -> Results | None:
    if one is None:
        return other
    if other is None:
        return one
    return (one[0] + other[0], one[1] + other[1], one[2] + other[2], one[3] + other[3])


Counted = tuple[str, Material, int, "Results | None"]


def _most_first(item: tuple[Material, int]) -> int:
    return -item[1]


def _most_first_then_men(item: tuple[Material, int]) -> tuple[int, int, tuple[int, ...], int, tuple[int, ...]]:
    """Folded twins: equal counts in the order of their sides (White's kings, then its men
    queens first, then Black's), which does not depend on the order the classes were counted
    in (``--jobs`` splits a file anywhere); ``summary_lines`` orders them so too."""
    material, count = item
    return -count, material.kings[0], material.white, material.kings[1], material.black


def _merged(materials: list[tuple[Material, int, Results | None]]) -> list[tuple[Material, int, Results | None]]:
    """One entry a material (folded twins bring the same material twice), in first-seen order."""
    merged: dict[Material, tuple[int, Results | None]] = {}
    for material, count, results in materials:
        held = merged.get(material)
        merged[material] = (count, results) if held is None else (held[0] + count, _added(held[1], results))
    return [(material, count, results) for material, (count, results) in merged.items()]


def class_rows(
    counts: Iterable[Counted],
    pattern: ClassPattern | None = None,
    either_colour: bool = False,
    sort: SortBy = SortBy.CODE,
) -> list[ClassRow]:
    """The classes of (code, material, count, results) tuples with only the materials
    ``pattern`` wants (a class with none is left out), sorted; within a class the most
    frequent material comes first, and equal counts stay in the order they came.

    ``either_colour`` folds each class with its colour twin (equal counts then in the order of
    their men); the pattern then wants a class when it matches either colouring."""
    # code -> [(material, count, results)]; a material comes twice only when twins are folded
    by_code: dict[str, list[tuple[Material, int, Results | None]]] = {}
    for code, material, count, results in counts:
        if either_colour:
            code, material, results = folded(code, material, results)
            wanted = (
                pattern is None
                or pattern.matches(code, material)
                or pattern.matches(swapped_code(code), material.swapped())
            )
        else:
            wanted = pattern is None or pattern.matches(code, material)
        if wanted:
            materials = by_code.get(code)
            if materials is None:
                by_code[code] = [(material, count, results)]
            else:
                materials.append((material, count, results))
    rows: list[ClassRow] = []
    for code, materials in by_code.items():
        if len(materials) == 1:  # most classes: no sorting, no sums
            ((material, count, results),) = materials
            rows.append(ClassRow(code, ((material, count),), results, count))
            continue
        if either_colour:
            materials = _merged(materials)
        results = None
        for _, _, held in materials:
            results = _added(results, held)
        listed = sorted(
            ((material, count) for material, count, _ in materials),
            key=_most_first_then_men if either_colour else _most_first,
        )
        rows.append(ClassRow(code, tuple(listed), results, sum(count for _, count in listed)))
    return sorted_rows(sorted(rows, key=lambda row: row.code), sort)


@dataclass(frozen=True)
class FamilyRow:
    """One family as listed: its records (games: each game once, however many of the family's
    classes it passes through) and, for games, their results."""

    family: Family
    count: int
    results: Results | None = None

    @property
    def score(self) -> float | None:
        return None if self.results is None else score(self.results)


def family_rows(tally: Tally, sort: SortBy = SortBy.CODE) -> list[FamilyRow]:
    """The families with records, in the table's order (``code``) or sorted. Positions are
    counted from their classes, games from ``Tally.families``."""
    counted: dict[str, tuple[int, Results | None]]
    if tally.families:
        counted = {name: (held[0], (held[1], held[2], held[3], held[4])) for name, held in tally.families.items()}
    else:
        counts: Counter[str] = Counter()
        for _, material, count, _ in tally.counted():
            counts[family_of(material)] += count
        counted = {name: (count, None) for name, count in counts.items()}
    rows = [FamilyRow(family, *counted[family.name]) for family in ALL_FAMILIES if family.name in counted]
    return sorted_rows(rows, sort)


_Row = TypeVar("_Row", ClassRow, FamilyRow)


def sorted_rows(rows: Sequence[_Row], sort: SortBy) -> list[_Row]:
    """Rows in the order given (classes by code, families as the table has them), or by count
    (most first), or by score (best first, no known result last, then by count); ties keep
    the order given."""
    if sort == SortBy.COUNT:
        return sorted(rows, key=lambda row: -row.count)
    if sort == SortBy.SCORE:
        return sorted(rows, key=lambda row: (row.score is None, -(row.score or 0), -row.count))
    return list(rows)


@dataclass
class Tally:
    """Records per class. A code without a 9 fixes its material (with one king a side); behind
    a code with a 9, and for positions without one king a side, the exact materials are counted
    too. Games count their results per class and material, and each family once a game."""

    _codes: Counter[str] = field(default_factory=Counter)
    hidden: dict[str, Counter[Material]] = field(default_factory=dict)  # code with a 9 -> materials
    packed: PackedMaterials | None = None  # more of them, as the batch path counted them
    results: dict[tuple[str, Material], list[int]] = field(default_factory=dict)  # games only
    families: dict[str, list[int]] = field(default_factory=dict)  # games: family -> count, results
    classified: int = 0
    bad: int = 0
    #: Blocks of full codes as numbers (``fast.code_indices``), counted into ``codes`` when it is
    #: first read: a worker process hands back arrays, not a Counter of tens of thousands of codes.
    _numbers: list[np.ndarray] = field(default_factory=list)

    @property
    def codes(self) -> Counter[str]:
        """Records per full code, in the order the codes first came."""
        self._count_numbers()
        return self._codes

    def __eq__(self, other: object) -> bool:
        """The same counts, whether or not the code numbers handed in are counted yet."""
        if not isinstance(other, Tally):
            return NotImplemented
        mine, theirs = (
            (tally.codes, tally.hidden, tally.packed, tally.results, tally.families, tally.classified, tally.bad)
            for tally in (self, other)
        )
        return mine == theirs

    def _count_numbers(self) -> None:
        """Count the blocks of code numbers handed in so far into ``codes``."""
        if self._numbers:
            from gbr_tui.core.fast import counted_codes

            self._codes.update(counted_codes(self._numbers))
            self._numbers = []

    def finish_counting(self) -> None:
        """The last of the counting, before the classes are listed: the materials the batch path
        found behind codes with a 9 (else counted when first asked for). The code numbers handed
        in are counted when ``codes`` or ``code_counts`` asks."""
        if self.packed is not None:
            self.packed.count()

    def code_counts(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Every full code as its number (``fast.code_indices``), ascending, and its count, as
        numpy arrays, the code numbers handed in counted without a string for each code (a file
        of scattered positions has tens of thousands); None if a code is not a full one."""
        from gbr_tui.core.fast import code_counts

        return code_counts(self._numbers, self._codes)

    @property
    def read(self) -> int:
        return self.classified + self.bad

    def add(self, code: str, material: Material, count: int = 1) -> None:
        self._codes[code] += count  # before the numbers not yet counted, as they came
        if "9" in code[:4] or material.kings != ONE_KING_A_SIDE:
            self.add_hidden(code, material, count)

    def add_game(self, classes: Sequence[tuple[str, Material]], result: int, either_colour: bool = False) -> None:
        """One game's classes (each once) with its result (see ``result_index``); its families
        are counted once each, the result for the stronger side with ``either_colour``."""
        families: dict[str, int] = {}
        for code, material in classes:
            self.add(code, material)
            held = self.results.get((code, material))
            if held is None:
                held = self.results[code, material] = [0, 0, 0, 0]
            held[result] += 1
            side_result = result
            if either_colour and not stronger_first(material) and result != UNKNOWN_RESULT:
                side_result = 2 - result
            families.setdefault(family_of(material), side_result)
        for family, side_result in families.items():
            held = self.families.get(family)
            if held is None:
                held = self.families[family] = [0, 0, 0, 0, 0]
            held[0] += 1
            held[1 + side_result] += 1

    def add_hidden(self, code: str, material: Material, count: int = 1) -> None:
        """Count one material behind a code with a 9 (the code itself is counted apart)."""
        materials = self.hidden.get(code)
        if materials is None:
            materials = self.hidden[code] = Counter()
        materials[material] += count

    def add_code_numbers(self, numbers: list[np.ndarray]) -> None:
        """Count full codes given as blocks of numbers (``fast.code_indices``)."""
        self._numbers.extend(numbers)

    def add_packed(self, codes: Sequence[bytes] | np.ndarray, keys: Sequence[int] | np.ndarray) -> None:
        """Count materials behind full codes with a 9 (``S7`` bytes), each packed in one number
        (``PackedMaterials``)."""
        if len(codes):
            if self.packed is None:
                from gbr_tui.core.packed_materials import PackedMaterials

                self.packed = PackedMaterials()
            # Only the batch path finds any (``fast.VettedBlock.nine_keys``): numpy arrays.
            self.packed.add(cast("np.ndarray", codes), cast("np.ndarray", keys))

    def _packed_codes(self) -> dict[str, int]:
        return {} if self.packed is None else self.packed.codes()

    def materials(self, code: str) -> Counter[Material]:
        """The materials behind one code, with their counts. Besides the materials a 9 hides,
        ``hidden`` holds those of positions without one king a side (named with their kings)."""
        hidden = self.hidden.get(code)
        packed = self.packed.materials(code) if self.packed is not None and code in self.packed.codes() else []
        if hidden is None and not packed:
            return Counter({material_of_code(code): self.codes[code]})
        if "9" in code[:4]:
            materials = Counter(hidden)
            for material, count in packed:
                materials[material] += count
            return materials
        materials = Counter(hidden)
        kings_one_a_side = self.codes[code] - materials.total()
        if kings_one_a_side:
            materials[material_of_code(code)] = kings_one_a_side
        return materials

    def classes(
        self, pattern: ClassPattern | None = None, either_colour: bool = False, sort: SortBy = SortBy.CODE
    ) -> list[ClassRow]:
        """The classes with a wanted material (see ``class_rows``). The batch path's materials
        with equal counts come in the order of their men, not of the blocks they were read in,
        so that the list is the same however the file was split (``--jobs``)."""
        if pattern is not None or either_colour or self.results:
            return class_rows(self.counted(), pattern, either_colour, sort)
        return sorted_rows([self.class_row(code) for code in sorted(self.codes)], sort)

    def class_row(self, code: str) -> ClassRow:
        """One class's row, as ``class_rows`` lists it; the batch path's materials are made
        only when they are read (a summary shows the first few)."""
        count = self.codes[code]
        packed = self.packed
        length = packed.codes().get(code) if packed is not None else None
        if packed is not None and length is not None and code not in self.hidden:
            return ClassRow(code, PackedRun(packed, code, length), None, count)
        if length is None and code not in self.hidden:
            return ClassRow(code, CodeMaterial(code, count), None, count)
        return ClassRow(code, tuple(sorted(self.materials(code).items(), key=_most_first)), None, count)

    def counted(self) -> Iterator[Counted]:
        """(code, material, count, results or None) for every class and material counted."""
        results, hidden, packed = self.results, self.hidden, self._packed_codes()
        for code, count in self.codes.items():
            if code not in hidden and code not in packed:
                material = material_of_code(code)
                held = results.get((code, material)) if results else None
                yield code, material, count, None if held is None else (held[0], held[1], held[2], held[3])
                continue
            for material, count in self.materials(code).items():
                held = results.get((code, material)) if results else None
                yield code, material, count, None if held is None else (held[0], held[1], held[2], held[3])

    def merge(self, other: Tally) -> None:
        if other._codes:  # counted after the codes before them, as one process counts them
            self.codes.update(other._codes)
        self._numbers.extend(other._numbers)
        for code, materials in other.hidden.items():
            held = self.hidden.get(code)
            if held is None:
                self.hidden[code] = Counter(materials)
            else:
                held.update(materials)
        if other.packed is not None:
            if self.packed is None:
                from gbr_tui.core.packed_materials import PackedMaterials

                self.packed = PackedMaterials()
            self.packed.extend(other.packed)
        _add_counts(self.results, other.results)
        _add_counts(self.families, other.families)
        self.classified += other.classified
        self.bad += other.bad


_Key = TypeVar("_Key")


def _add_counts(into: dict[_Key, list[int]], source: dict[_Key, list[int]]) -> None:
    for key, counts in source.items():
        held = into.setdefault(key, [0] * len(counts))
        held[:] = [a + b for a, b in zip(held, counts)]


class PackedRun(Sequence[tuple[Material, int]]):
    """The materials of one class as the batch path counted them, most frequent first (equal
    counts by their men), each ``Material`` made when it is first read."""

    __slots__ = ("_code", "_length", "_made", "_packed")

    def __init__(self, packed: PackedMaterials, code: str, length: int) -> None:
        self._packed, self._code, self._length = packed, code, length
        self._made: list[tuple[Material, int]] = []

    def _first(self, count: int) -> list[tuple[Material, int]]:
        if len(self._made) < count:
            self._made = self._packed.materials(self._code, count)
        return self._made

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> tuple[Material, int]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[Material, int], ...]: ...

    def __getitem__(self, index: int | slice) -> tuple[Material, int] | tuple[tuple[Material, int], ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._length)
            return tuple(self._first(stop)[start:stop:step])
        index = range(self._length)[index]
        return self._first(index + 1)[index]

    def __iter__(self) -> Iterator[tuple[Material, int]]:
        return iter(self._first(self._length))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)


class CodeMaterial(Sequence[tuple[Material, int]]):
    """The one material of a code without a 9 (one king a side) with its count, the
    ``Material`` made when first read: a listing of tens of thousands of classes makes one only
    for the rows it shows."""

    __slots__ = ("_code", "_count", "_made")

    def __init__(self, code: str, count: int) -> None:
        self._code, self._count = code, count
        self._made: tuple[tuple[Material, int]] | None = None

    def _entries(self) -> tuple[tuple[Material, int]]:
        if self._made is None:
            self._made = ((material_of_code(self._code), self._count),)
        return self._made

    def __len__(self) -> int:
        return 1

    @overload
    def __getitem__(self, index: int) -> tuple[Material, int]: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[tuple[Material, int], ...]: ...

    def __getitem__(self, index: int | slice) -> tuple[Material, int] | tuple[tuple[Material, int], ...]:
        return self._entries()[index]

    def __iter__(self) -> Iterator[tuple[Material, int]]:
        return iter(self._entries())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self._entries() == tuple(other)


def material_of_code(code: str) -> Material:
    """The material of a full code without a 9 (each digit then says both sides' counts)."""
    sides = _PIECE_SIDES.get(code[:4])
    if sides is None:
        pairs = [digit_sides(int(digit)) for digit in code[:4]]
        sides = _PIECE_SIDES[code[:4]] = (tuple(white for white, _ in pairs), tuple(black for _, black in pairs))
    white, black = sides
    return Material((*white, int(code[5])), (*black, int(code[6])))


_PIECE_SIDES: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}  # at most 9**4 piece digits
