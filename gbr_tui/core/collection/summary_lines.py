"""The summary's lines for tens of thousands of classes at once, with numpy.

A file of scattered positions has some 60,000 classes in 200,000 lines; one Python call a
class would cost more than reading the file. Here the classes of a tally are arrays (codes as
bytes, counts, and a pool of materials, the men of each in a row), and the output is made of
pieces (a code, the cells of a count, a material's name...), each kind of piece written for all
lines at once as one run of bytes, then all gathered in the output's order in one pass. What
depends on a count alone (its cells, its share) is written once per distinct count, in Python,
by the caller.

The lines are the ones ``Tally.classes`` and ``class_materials`` give (colour twins folded or
not); only tallies without games (no results) or patterns are listed here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gbr_tui.core.collection.tally import SortBy, Tally
from gbr_tui.core.describe import MATERIALS_SEPARATOR, more_materials_words
from gbr_tui.core.fast import code_numbers
from gbr_tui.core.material import SIDES_SEPARATOR, TYPES

_MEN = 10  # Q R B N P q r b n p
_MOST = 255  # men of a type, or kings of a side, in a material listed here: a byte each
_KING = "K"


@dataclass
class ClassColumns:
    """A tally's classes in the summary's order: ``codes[i]`` (7 bytes) counted ``counts[i]``
    times, its materials ``men[firsts[i] : firsts[i] + materials[i]]`` (most frequent first),
    with their ``kings`` (White's, Black's)."""

    codes: np.ndarray
    counts: np.ndarray
    firsts: np.ndarray
    materials: np.ndarray
    men: np.ndarray
    kings: np.ndarray

    def distinct_counts(self) -> list[int]:
        return _distinct(self.counts)[0].tolist()

    def all_short(self) -> bool:
        """Whether every code ends in ``.00`` (its short form drops it)."""
        return bool(_short(self.codes).all())


def _distinct(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct counts (ascending) and which of them each is: ``np.unique`` without a sort,
    counts being small numbers."""
    present = np.bincount(counts) > 0
    return np.flatnonzero(present), (np.cumsum(present) - 1)[counts]


def _short(codes: np.ndarray) -> np.ndarray:
    return (codes[:, 4:] == np.frombuffer(b".00", np.uint8)).all(1)


def class_columns(tally: Tally, sort: SortBy = SortBy.CODE, either_colour: bool = False) -> ClassColumns | None:
    """The classes ``tally.classes(either_colour=...)`` lists (a tally without results), as
    arrays; None if a code is not a full one (``abcd.ef``) or a material too big to pack."""
    joined = "".join(tally.codes)
    if len(joined) != 7 * len(tally.codes) or not joined.isascii():
        return None
    codes = np.frombuffer(joined.encode("ascii"), dtype="S7")
    counts = np.fromiter(tally.codes.values(), dtype=np.int64, count=len(codes))
    numbers = code_numbers(codes)
    order = np.argsort(numbers)
    codes, counts, numbers = codes[order].view(np.uint8).reshape(len(codes), 7), counts[order], numbers[order]
    # Every class first as its code says (no 9, one king a side), then the batch path's runs
    # of materials behind codes with a 9, then those python-chess read one by one.
    firsts = np.arange(len(codes))
    materials = np.ones(len(codes), dtype=np.int64)
    men, kings, times = [_men_of_codes(codes)], [np.ones((len(codes), 2), np.uint8)], [counts]
    size = len(codes)
    if tally.packed is not None:
        names, starts, lengths, packed_men, packed_times = tally.packed.men_runs()
        at = np.searchsorted(numbers, code_numbers(names))
        firsts[at], materials[at] = size + starts, lengths
        men.append(packed_men)
        kings.append(np.ones((len(packed_men), 2), np.uint8))
        times.append(packed_times)
        size += len(packed_men)
    for code in tally.hidden:  # few, and with any kings
        # Folding lists them in the order they were counted (ties keep it); else as listed.
        found = list(tally.materials(code).items()) if either_colour else tally._class_row(code).materials
        at = np.searchsorted(numbers, code_numbers(np.array([code], dtype="S7")))
        firsts[at], materials[at] = size, len(found)
        found_men = np.array([material.white + material.black for material, _ in found], np.int64)
        found_kings = np.array([material.kings for material, _ in found], np.int64)
        if found_men.max(initial=0) > _MOST or found_kings.max(initial=0) > _MOST:
            return None
        men.append(found_men.astype(np.uint8))
        kings.append(found_kings.astype(np.uint8))
        times.append(np.array([count for _, count in found], np.int64))
        size += len(found)
    columns = ClassColumns(codes, counts, firsts, materials, np.concatenate(men), np.concatenate(kings))
    if either_colour:
        columns = _folded(columns, np.concatenate(times))
    if sort != SortBy.CODE:  # without results every score is unknown: the most first, ties by code
        order = np.argsort(-columns.counts, kind="stable")
        columns.codes, columns.counts = columns.codes[order], columns.counts[order]
        columns.firsts, columns.materials = columns.firsts[order], columns.materials[order]
    return columns


def _folded(columns: ClassColumns, times: np.ndarray) -> ClassColumns:
    """Each class folded with its colour twin, as ``class_rows`` folds them: every material
    written with the stronger side as White (``stronger_first``), the same material from both
    twins counted once, the most frequent first and equal counts in the order of their men
    and kings (``np.unique``'s order of their bytes)."""
    line_of = np.repeat(np.arange(len(columns.codes)), columns.materials)
    place = np.arange(len(line_of)) - np.repeat(np.cumsum(columns.materials) - columns.materials, columns.materials)
    pool = columns.firsts[line_of] + place
    men, kings, times = columns.men[pool], columns.kings[pool], times[pool]
    codes = columns.codes[line_of].copy()
    # White weaker: the first type (Q R B N P) where the sides differ has fewer White men.
    differ = men[:, :5] != men[:, 5:]
    first = differ.argmax(1)
    rows = np.arange(len(men))
    weaker = differ[rows, first] & (men[rows, first] < men[rows, first + 5])
    digits = codes[weaker, :4].astype(np.int64) - ord("0")
    codes[weaker, :4] = np.where(digits == 9, 9, digits // 3 + 3 * (digits % 3)) + ord("0")
    codes[weaker, 5], codes[weaker, 6] = codes[weaker, 6].copy(), codes[weaker, 5].copy()
    men[weaker] = np.concatenate([men[weaker, 5:], men[weaker, :5]], 1)
    kings[weaker] = kings[weaker, ::-1]
    # One entry a material (its code follows from it), counts summed.
    packed = np.ascontiguousarray(np.concatenate([men, kings], 1)).view("V12").ravel()
    _, index, inverse = np.unique(packed, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    merged = np.bincount(inverse, weights=times).astype(np.int64)
    numbers = code_numbers(np.ascontiguousarray(codes[index]).view("S7").ravel())
    listed = np.lexsort((-merged, numbers))  # stable: equal counts keep np.unique's order
    numbers, index, merged = numbers[listed], index[listed], merged[listed]
    starts = np.flatnonzero(np.diff(numbers, prepend=np.uint64(0)) != 0)
    lengths = np.diff(np.append(starts, len(numbers)))
    return ClassColumns(
        codes[index[starts]],
        np.add.reduceat(merged, starts) if len(starts) else merged[:0],
        starts,
        lengths,
        men[index],
        kings[index],
    )


def _men_of_codes(codes: np.ndarray) -> np.ndarray:
    """The men behind codes without a 9 (as ``material_of_code``): each piece digit is
    ``white + 3 * black``, the pawn digits are the pawns."""
    digits = codes - np.uint8(ord("0"))  # the dot's column wraps round, unread
    men = np.empty((len(codes), _MEN), dtype=np.uint8)
    men[:, 0:4], men[:, 5:9] = digits[:, :4] % 3, digits[:, :4] // 3
    men[:, 4], men[:, 9] = digits[:, 5], digits[:, 6]
    return men


#: Pieces of text: a run of bytes, and where each piece starts in it and how long it is.
Pieces = tuple[np.ndarray, np.ndarray, np.ndarray]


def summary_lines(
    columns: ClassColumns,
    cells: Callable[[int], str],
    start: str = "",
    end: str = "\n",
    short: bool = False,
    code_width: int = 0,
    shown: int | None = None,
) -> tuple[bytes, int]:
    """Each class's line, UTF-8: ``start``, its code (short: ``0400`` for ``0400.00``)
    left-aligned in ``code_width``, ``cells(count)``, the first ``shown`` of its materials (all
    of them: None) with ``N more`` after them, then ``end``; and the longest run of materials."""
    classes = len(columns.codes)
    if not classes:
        return b"", 0
    listed = columns.materials if shown is None else np.minimum(columns.materials, shown)
    more = columns.materials > listed
    # A line's pieces: start, code, padding, cells, its materials, "N more" if any, end.
    entries = listed + more + 5
    firsts = np.cumsum(entries) - entries
    code_lengths = np.full(classes, 7, dtype=np.int64)
    if short:
        code_lengths[_short(columns.codes)] = 4
    everyone = np.zeros(classes, dtype=np.int64)
    codes = columns.codes.ravel(), np.arange(0, 7 * classes, 7), code_lengths
    padding = _texts([" " * code_width], everyone)
    padding[2][:] = np.maximum(code_width - code_lengths, 0)
    distinct, which = _distinct(columns.counts)
    line_of = np.repeat(np.arange(classes), listed)  # each material shown: its line, its place
    place = np.arange(len(line_of)) - np.repeat(np.cumsum(listed) - listed, listed)
    last = (place == listed[line_of] - 1) & ~more[line_of]
    pool = columns.firsts[line_of] + place
    names = _material_names(columns.men[pool], columns.kings[pool], ~last)
    left_out = np.flatnonzero(more)
    distinct_left, which_left = _distinct((columns.materials - listed)[left_out])
    left = _texts(list(map(more_materials_words, distinct_left.tolist())), which_left)
    widths = np.bincount(line_of, weights=names[2], minlength=classes)
    widths[left_out] += left[2]
    lines = _placed(
        int(entries.sum()),
        (firsts, _texts([start], everyone)),
        (firsts + 1, codes),
        (firsts + 2, padding),
        (firsts + 3, _texts([cells(count) for count in distinct.tolist()], which)),
        (firsts[line_of] + 4 + place, names),
        (firsts[left_out] + 4 + listed[left_out], left),
        (firsts + entries - 1, _texts([end], everyone)),
    )
    return lines, int(widths.max())


def _texts(texts: list[str], which: np.ndarray) -> Pieces:
    """``texts[which[i]]`` for each i, as UTF-8."""
    encoded = [text.encode("utf-8") for text in texts]
    lengths = np.array(list(map(len, encoded)), dtype=np.int64)
    offsets = np.cumsum(lengths) - lengths
    return np.frombuffer(b"".join(encoded), dtype=np.uint8), offsets[which], lengths[which]


def _placed(entries: int, *kinds: tuple[np.ndarray, Pieces]) -> bytes:
    """The pieces of each kind put at their places (entries numbered in the output's order),
    all copied in one gather from the runs of bytes laid end to end."""
    starts = np.zeros(entries, dtype=np.int64)
    lengths = np.zeros(entries, dtype=np.int64)
    base = 0
    for places, (data, kind_starts, kind_lengths) in kinds:
        starts[places] = kind_starts + base
        lengths[places] = kind_lengths
        base += len(data)
    source = np.concatenate([data for _, (data, _, _) in kinds])
    # Where each byte of the output comes from: one more than the byte before within a piece,
    # a jump at each piece's first byte; a running sum of those steps, in one array.
    shown = lengths > 0
    starts, lengths = starts[shown], lengths[shown]
    firsts = np.cumsum(lengths) - lengths
    steps = np.ones(int(firsts[-1] + lengths[-1]), dtype=np.int32)
    steps[firsts[1:]] = starts[1:] - (starts[:-1] + lengths[:-1] - 1)
    steps[0] = starts[0]
    np.cumsum(steps, out=steps)
    return source[steps].tobytes()


def _material_names(men: np.ndarray, kings: np.ndarray, separated: np.ndarray) -> Pieces:
    """Each material's name as ``Material.__str__`` writes it (``KBBP v KRNPP``, ``-`` for a
    side with nothing), with the separator after those ``separated``: a repeat of each letter."""
    letters = f"-{_KING}{TYPES}{SIDES_SEPARATOR}-{_KING}{TYPES}{MATERIALS_SEPARATOR}"
    side = 2 + len(TYPES)  # the runs of a side: "-" when it has nothing, its kings, its men
    black = side + len(SIDES_SEPARATOR)
    counts = np.ones((len(men), len(letters)), dtype=np.int64)
    for first, columns, king in ((0, slice(0, 5), 0), (black, slice(5, 10), 1)):
        counts[:, first + 1] = kings[:, king]
        counts[:, first + 2 : first + side] = men[:, columns]
        counts[:, first] = counts[:, first + 1 : first + side].sum(1) == 0
    counts[:, black + side :] = separated[:, None]
    alphabet = np.frombuffer(letters.encode("ascii"), dtype=np.uint8)
    data = np.repeat(np.broadcast_to(alphabet, counts.shape).ravel(), counts.ravel())
    lengths = counts.sum(1)
    return data, np.cumsum(lengths) - lengths, lengths
