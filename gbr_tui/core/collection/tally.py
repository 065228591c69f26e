"""Counting records per class, and listing classes: one grouping of (code, material) counts into
rows sorted by code, for the command line's summary and the browser's class table alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gbr_tui.core.code import digit_sides
from gbr_tui.core.material import Material

if TYPE_CHECKING:
    from gbr_tui.core.patterns import ClassPattern


@dataclass(frozen=True)
class ClassRow:
    """One class as listed: its code and the materials behind it that are wanted, with counts."""

    code: str
    materials: tuple[tuple[Material, int], ...]  # most frequent first

    @property
    def count(self) -> int:
        return sum(count for _, count in self.materials)


def class_rows(counts: Iterable[tuple[str, Material, int]], pattern: ClassPattern | None = None) -> list[ClassRow]:
    """The classes of (code, material, count) triples, sorted by code, with only the materials
    ``pattern`` wants (a class with none is left out); within a class the most frequent material
    comes first, and equal counts stay in the order they came."""
    by_code: dict[str, list[tuple[Material, int]]] = {}
    for code, material, count in counts:
        if pattern is None or pattern.matches(code, material):
            by_code.setdefault(code, []).append((material, count))
    return [
        ClassRow(code, tuple(sorted(materials, key=lambda item: -item[1])))
        for code, materials in sorted(by_code.items())
    ]


@dataclass
class Tally:
    """Records per class. A code without a 9 fixes its material (with one king a side); behind
    a code with a 9, and for positions without one king a side, the exact materials are counted
    too."""

    codes: Counter = field(default_factory=Counter)
    hidden: dict[str, Counter] = field(default_factory=dict)  # code with a 9 -> materials
    classified: int = 0
    bad: int = 0

    @property
    def read(self) -> int:
        return self.classified + self.bad

    def add(self, code: str, material: Material, count: int = 1) -> None:
        self.codes[code] += count
        if "9" in code[:4] or material.kings != (1, 1):
            self.add_hidden(code, material, count)

    def add_hidden(self, code: str, material: Material, count: int = 1) -> None:
        """Count one material behind a code with a 9 (the code itself is counted apart)."""
        materials = self.hidden.get(code)
        if materials is None:
            materials = self.hidden[code] = Counter()
        materials[material] += count

    def materials(self, code: str) -> Counter:
        """The materials behind one code, with their counts. Besides the materials a 9 hides,
        ``hidden`` holds those of positions without one king a side (named with their kings)."""
        hidden = self.hidden.get(code)
        if hidden is None:
            return Counter({material_of_code(code): self.codes[code]})
        if "9" in code[:4]:
            return hidden
        materials = Counter(hidden)
        kings_one_a_side = self.codes[code] - hidden.total()
        if kings_one_a_side:
            materials[material_of_code(code)] = kings_one_a_side
        return materials

    def classes(self, pattern: ClassPattern | None = None) -> list[ClassRow]:
        """The classes with a wanted material, sorted by code (see ``class_rows``)."""
        return class_rows(self._counts(), pattern)

    def _counts(self) -> Iterator[tuple[str, Material, int]]:
        for code in self.codes:
            for material, count in self.materials(code).items():
                yield code, material, count

    def merge(self, other: Tally) -> None:
        self.codes.update(other.codes)
        for code, materials in other.hidden.items():
            for material, count in materials.items():
                self.add_hidden(code, material, count)
        self.classified += other.classified
        self.bad += other.bad


def material_of_code(code: str) -> Material:
    """The material of a full code without a 9 (each digit then says both sides' counts)."""
    pieces, pawns = code[:4], code[5:]
    white, black = zip(*(digit_sides(int(digit)) for digit in pieces))
    return Material((*white, int(pawns[0])), (*black, int(pawns[1])))
