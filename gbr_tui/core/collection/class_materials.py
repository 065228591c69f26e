"""The materials of one class as the browser's table lists them (``Tally.class_row``): made
when first read, not for every class of a listing."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, overload

from gbr_tui.core.code import digit_sides
from gbr_tui.core.material import Material

if TYPE_CHECKING:
    from gbr_tui.core.packed_materials import PackedMaterials


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
