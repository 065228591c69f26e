"""The summary's lines for tens of thousands of classes at once, with numpy.

A file of scattered positions has some 60,000 classes in 200,000 lines; one Python call a
class would cost more than reading the file. Here the classes of a tally are arrays (codes as
bytes, counts, and a pool of materials, the men of each in a row), and the output is made of
pieces (a line's head, a side of a material and what follows it), each distinct piece written
once (what depends on a count alone, its cells and share, by the caller, once per distinct
count; a side's name once per distinct side), then gathered as words of 8 bytes in the
output's order, a few thousand lines at a time. Grouping and ordering are counting passes and
radix sorts of small numbers (``fast.sorted_order``), not sorts of rows of bytes.

The lines are the ones ``Tally.classes`` and ``class_materials`` give (colour twins folded or
not); only tallies without games (no results) or patterns are listed here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import numpy as np

from gbr_tui.core.collection.tally import SortBy, Tally
from gbr_tui.core.describe import MATERIALS_SEPARATOR, more_materials_words
from gbr_tui.core.fast import code_indices, sorted_order, written_codes
from gbr_tui.core.material import SIDES_SEPARATOR, TYPES

_MEN = 10  # Q R B N P q r b n p
_MOST = 255  # men of a type, or kings of a side, in a material listed here: a byte each
_KING = "K"
#: A piece digit ``w + 3b`` of a code as the colour-swapped material's, ``b + 3w`` (a translate
#: table: every other byte, and a 9, stays as it is).
_SWAPPED_DIGITS = bytes(range(ord("0"))) + bytes(ord("0") + digit // 3 + 3 * (digit % 3) for digit in range(9))
_SWAPPED_DIGITS += bytes(range(ord("9"), 256))
#: Values up to this (and up to four times as many as there are) are told apart by counting them.
_COUNTED_AT_MOST = 1 << 20
#: Lines written at once (``summary_lines``).
_LINES_AT_ONCE = 4096


@dataclass
class ClassColumns:
    """A tally's classes in the summary's order: ``codes[i]`` (7 bytes) counted ``counts[i]``
    times, its materials at ``firsts[i] : firsts[i] + materials[i]`` (most frequent first) of
    ``men`` (a row each) with their ``kings`` (White's, Black's); or, folded, of ``sides``:
    each material's White and Black side as numbers, and the kings and men of each number's
    side (``_side_numbers``)."""

    codes: np.ndarray
    counts: np.ndarray
    firsts: np.ndarray
    materials: np.ndarray
    men: np.ndarray | None
    kings: np.ndarray | None
    sides: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def distinct_counts(self) -> list[int]:
        distinct: list[int] = distinct_values(self.counts)[0].tolist()
        return distinct

    def all_short(self) -> bool:
        """Whether every code ends in ``.00`` (its short form drops it)."""
        return bool(_short(self.codes).all())


def distinct_values(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values (ascending, not negative) and which of them each is: ``np.unique``,
    without its sort where the values are small numbers (counts, a side's men)."""
    if len(values) and values.max() > _COUNTED_AT_MOST + 4 * len(values):
        distinct, which = np.unique(values, return_inverse=True)
        return distinct, which.ravel()
    present = np.zeros(int(values.max(initial=0)) + 1, dtype=bool)
    present[values] = True
    distinct = np.flatnonzero(present)
    ranks = np.empty(len(present), dtype=np.intp)
    ranks[distinct] = np.arange(len(distinct))
    return distinct, ranks.take(values)


def _short(codes: np.ndarray) -> np.ndarray:
    short: np.ndarray = (codes[:, 4:] == np.frombuffer(b".00", np.uint8)).all(1)
    return short


def class_columns(tally: Tally, sort: SortBy = SortBy.CODE, either_colour: bool = False) -> ClassColumns | None:
    """The classes ``tally.classes(either_colour=...)`` lists (a tally without results), as
    arrays; None if a code is not a full one (``abcd.ef``) or a material too big to pack."""
    counted = tally.code_counts()
    if counted is None:
        return None
    numbers, counts = counted  # by code
    codes = written_codes(numbers)
    # Every class first as its code says (no 9, one king a side), then the batch path's runs
    # of materials behind codes with a 9, then those python-chess read one by one.
    firsts = np.arange(len(codes))
    materials = np.ones(len(codes), dtype=np.int64)
    men, kings, times = [_men_of_codes(codes)], [np.ones((len(codes), 2), np.uint8)], [counts]
    size = len(codes)
    if tally.packed is not None:
        names, starts, lengths, packed_men, packed_times = tally.packed.men_runs()
        at = np.searchsorted(numbers, code_indices(names.view(np.uint8).reshape(len(names), 7)))
        firsts[at], materials[at] = size + starts, lengths
        men.append(packed_men)
        kings.append(np.ones((len(packed_men), 2), np.uint8))
        times.append(packed_times)
        size += len(packed_men)
    for code in tally.hidden:  # few, and with any kings
        # Folding orders them itself; else as listed.
        found = list(tally.materials(code).items()) if either_colour else tally.class_row(code).materials
        at = np.searchsorted(numbers, code_indices(np.frombuffer(code.encode("ascii"), np.uint8)[None]))
        firsts[at], materials[at] = size, len(found)
        found_men = np.array([material.white + material.black for material, _ in found], np.int64)
        found_kings = np.array([material.kings for material, _ in found], np.int64)
        if found_men.max(initial=0) > _MOST or found_kings.max(initial=0) > _MOST:
            return None
        men.append(found_men.astype(np.uint8))
        kings.append(found_kings.astype(np.uint8))
        times.append(np.array([count for _, count in found], np.int64))
        size += len(found)
    all_men, all_kings = np.concatenate(men), np.concatenate(kings)
    columns = ClassColumns(codes, counts, firsts, materials, all_men, all_kings)
    if either_colour:
        columns = _folded(columns, all_men, all_kings, np.concatenate(times))
    if sort != SortBy.CODE:  # without results every score is unknown: the most first, ties by code
        order = sorted_order(columns.counts.max(initial=0) - columns.counts)
        columns.codes, columns.counts = columns.codes.take(order, 0), columns.counts.take(order)
        columns.firsts, columns.materials = columns.firsts.take(order), columns.materials.take(order)
    return columns


def _folded(columns: ClassColumns, all_men: np.ndarray, all_kings: np.ndarray, times: np.ndarray) -> ClassColumns:
    """Each class folded with its colour twin, as ``class_rows`` folds them: every material
    written with the stronger side as White (``stronger_first``), the same material from both
    twins counted once, the most frequent first and equal counts in the order of their sides
    (White's kings and men, then Black's: ``_side_numbers``), whatever order they were counted in.

    A material's sides are numbered (``_side_numbers``), so that grouping and ordering are
    radix sorts of small numbers (``fast.sorted_order``), not sorts of rows of bytes."""
    classes = len(columns.codes)
    if not classes:
        return columns
    # Every material: its place in the pool. The arrays here hold a number a material (some
    # 120,000 in a summary of 60,000 classes): each is let go once used, so that the peak stays
    # low (new memory is faulted in page by page, as dear as the work on it).
    lengths = columns.materials
    pool = np.repeat(columns.firsts - (np.cumsum(lengths) - lengths), lengths)
    pool += np.arange(len(pool))
    times, men, kings = times.take(pool), all_men.take(pool, 0), all_kings.take(pool, 0)
    del pool
    # White weaker: the first type (Q R B N P) where the sides differ has fewer White men, so
    # White's men read as digits (queens first) make the smaller number. A side's number is
    # the same for either colour: a weaker White's material swaps its two.
    keys, radix = _men_numbers(men)
    del men
    weaker = keys[0] < keys[1]
    white, black, side_men = _side_numbers(keys, radix, kings)
    del keys, kings
    white[weaker], black[weaker] = black[weaker], white[weaker]
    codes = np.concatenate([columns.codes, _swapped_codes(columns.codes)])
    code_of = np.repeat(np.arange(classes), lengths)  # each material's class, then its code
    code_of += classes * weaker
    del weaker
    # One entry a material (its code follows from it), counts summed, in the order of its sides.
    order = sorted_order(black, white)
    new = np.ones(len(order), dtype=bool)
    sorted_sides = white.take(order)
    new[1:] = sorted_sides[1:] != sorted_sides[:-1]
    black.take(order, out=sorted_sides)
    new[1:] |= sorted_sides[1:] != sorted_sides[:-1]
    del sorted_sides
    merged = np.add.reduceat(times.take(order), np.flatnonzero(new))
    seen = order[new]  # an entry of each material
    del order, new, times
    seen_codes = code_of.take(seen)
    del code_of
    numbers = code_indices(codes).take(seen_codes)
    most = int(merged.max())  # by code, the most first: stable, equal counts keep the sides' order
    listed = sorted_order(numbers.astype(np.int64) * (most + 1) + (most - merged))
    seen, merged, numbers = seen.take(listed), merged.take(listed), numbers.take(listed)
    starts = np.flatnonzero(np.diff(numbers, prepend=-1) != 0)
    return ClassColumns(
        codes.take(seen_codes.take(listed.take(starts)), 0),
        np.add.reduceat(merged, starts),
        starts,
        np.diff(np.append(starts, len(seen))),
        None,
        None,
        (white.take(seen), black.take(seen), side_men),
    )


def _swapped_codes(codes: np.ndarray) -> np.ndarray:
    """The codes of the colour-swapped materials (as ``swapped_code``): each piece digit
    ``w + 3b`` becomes ``b + 3w`` (a 9 stays a 9), the pawn digits change places."""
    swapped = np.frombuffer(bytearray(codes.tobytes().translate(_SWAPPED_DIGITS)), np.uint8).reshape(codes.shape)
    swapped[:, 5], swapped[:, 6] = codes[:, 6], codes[:, 5]
    return swapped


def _men_of_codes(codes: np.ndarray) -> np.ndarray:
    """The men behind codes without a 9 (as ``material_of_code``): each piece digit is
    ``white + 3 * black``, the pawn digits are the pawns."""
    digits = codes - np.uint8(ord("0"))  # the dot's column wraps round, unread
    men = np.empty((len(codes), _MEN), dtype=np.uint8)
    men[:, 0:4], men[:, 5:9] = digits[:, :4] % 3, digits[:, :4] // 3
    men[:, 4], men[:, 9] = digits[:, 5], digits[:, 6]
    return men


def summary_lines(
    columns: ClassColumns,
    cells: Callable[[int], str],
    start: str = "",
    end: str = "\n",
    short: bool = False,
    code_width: int = 0,
    shown: int | None = None,
) -> tuple[list[np.ndarray], int]:
    """Each class's line, UTF-8: ``start``, its code (short: ``0400`` for ``0400.00``)
    left-aligned in ``code_width``, ``cells(count)``, the first ``shown`` (at least one) of its
    materials (all of them: None) with ``N more`` after them, then ``end``; in parts of some
    thousand lines (arrays of bytes), and the longest run of materials.

    The output is made of pieces: a line's head (start, code, cells), then two pieces for each
    material shown: its White side and the sides' separator; its Black side and what follows
    it (the separator, or ``N more`` and the end). Each distinct piece is written once,
    NUL-padded to whole words of 8 bytes; the pieces' words are gathered in the output's order
    and the NULs dropped (no text here holds one). A part's temporaries are a few hundred kB,
    used again by the next part: large ones would be faulted in page by page, as dear as the
    work on them."""
    classes = len(columns.codes)
    if not classes:
        return [], 0
    listed = columns.materials if shown is None else np.minimum(columns.materials, shown)
    line_of = np.repeat(np.arange(classes), listed)  # each material shown: its line, its place
    firsts = np.cumsum(listed) - listed
    place = np.arange(len(line_of)) - np.repeat(firsts, listed)
    pool = columns.firsts.take(line_of) + place
    if columns.sides is None:
        # Unfolded columns hold the men and kings of each material (only folding drops them).
        all_men, all_kings = cast(np.ndarray, columns.men), cast(np.ndarray, columns.kings)
        white, black, named = _side_numbers(*_men_numbers(all_men.take(pool, 0)), all_kings.take(pool, 0))
    else:
        white, black, named = columns.sides[0].take(pool), columns.sides[1].take(pool), columns.sides[2]
    sides, side_lengths = _side_names(named)
    # What follows a material: the separator, or after the last "N more" (if any) and the end.
    distinct_left, which_left = distinct_values(columns.materials - listed)
    more = [MATERIALS_SEPARATOR + more_materials_words(left) if left else "" for left in distinct_left.tolist()]
    follows = [MATERIALS_SEPARATOR] + [text + end for text in more]
    follow = np.where(place == listed.take(line_of) - 1, 1 + which_left.take(line_of), 0)
    pairs, pair = distinct_values(black * len(follows) + follow)
    lengths = side_lengths.take(white) + side_lengths.take(black) + len(SIDES_SEPARATOR)
    lengths += np.array([len(text.encode("utf-8")) for text in [MATERIALS_SEPARATOR, *more]]).take(follow)
    # The kinds of pieces after a line's head: each a table of rows of words, the words each
    # row uses, and which row each piece is; all the tables in one run of words, followed by
    # room for a part's heads (written there in place).
    pair_sides = pairs // len(follows)
    kinds = (
        (*_words(_followed(sides, side_lengths, [SIDES_SEPARATOR], np.zeros(len(sides), np.intp))), white),
        (
            *_words(_followed(sides.take(pair_sides, 0), side_lengths.take(pair_sides), follows, pairs % len(follows))),
            pair,
        ),
    )
    distinct, which = distinct_values(columns.counts)
    fields = [
        np.frombuffer(start.encode("utf-8"), np.uint8),
        _code_field(columns.codes, short, code_width),
        _table([cells(count) for count in distinct.tolist()]),
    ]
    head_words = -(-sum(field.shape[-1] for field in fields) // 8)
    tables = sum(table.size for table, _, _ in kinds)
    words = np.empty(tables + head_words * min(classes, _LINES_AT_ONCE), dtype=np.uint64)
    np.concatenate([table.ravel() for table, _, _ in kinds], out=words[:tables])

    def part(lines: slice) -> np.ndarray:
        """The lines of the classes ``lines``."""
        heads_here = lines.stop - lines.start
        head = words[tables : tables + head_words * heads_here].view(np.uint8).reshape(heads_here, 8 * head_words)
        head[:] = 0
        at = 0
        for field in (fields[0], fields[1][lines], fields[2].take(which[lines], 0)):
            head[:, at : at + field.shape[-1]] = field
            at += field.shape[-1]
        # The pieces in the output's order: a head, then two pieces a material shown.
        names = slice(firsts[lines.start], firsts[lines.start] + int(listed[lines].sum()))
        heads = np.arange(heads_here) + 2 * (firsts[lines] - names.start)
        named = heads.take(line_of[names] - lines.start) + 1 + 2 * place[names]
        sources = np.empty(heads_here + 2 * (names.stop - names.start), dtype=np.intp)
        sizes = np.empty_like(sources)
        sources[heads], sizes[heads] = np.arange(tables, tables + head_words * heads_here, head_words), head_words
        base = 0
        for (table, used, rows), at in zip(kinds, (named, named + 1)):
            rows = rows[names]
            sources[at], sizes[at] = base + table.shape[1] * rows, used.take(rows)
            base += table.size
        # Where each word of the output comes from: one more than the word before within a
        # piece, a jump at each piece's first word; a running sum of those steps.
        placed = np.cumsum(sizes)
        steps = np.ones(int(placed[-1]), dtype=np.intp)
        steps[0] = sources[0]
        sizes -= 1
        sizes += sources
        steps[placed[:-1]] = sources[1:] - sizes[:-1]
        output = words.take(np.cumsum(steps, out=steps)).view(np.uint8)
        text: np.ndarray = output[output != 0]
        return text

    parts = [part(slice(first, min(first + _LINES_AT_ONCE, classes))) for first in range(0, classes, _LINES_AT_ONCE)]
    # The longest run of materials: their names, separators and "N more", not the end.
    return parts, int(np.add.reduceat(lengths, firsts).max())


def _followed(texts: np.ndarray, lengths: np.ndarray, after: list[str], which: np.ndarray) -> np.ndarray:
    """NUL-padded rows of texts ``lengths`` long, each right after it ``after[which[i]]``."""
    encoded = _table(after)
    rows = np.zeros((len(texts), texts.shape[1] + encoded.shape[1]), dtype=np.uint8)
    rows[:, : texts.shape[1]] = texts
    chosen = encoded.take(which, 0)
    for column in range(encoded.shape[1]):
        rows[np.arange(len(rows)), lengths + column] = chosen[:, column]
    return rows


def _words(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A table of NUL-padded rows of bytes as rows of 8-byte words, and the words each row
    uses (up to its last byte that is not a NUL)."""
    width = table.shape[1]
    padded = np.zeros((len(table), -(-width // 8) * 8), dtype=np.uint8)
    padded[:, :width] = table
    used = width - (table[:, ::-1] != 0).argmax(1)
    return padded.view(np.uint64), -(-used // 8)


def _code_field(codes: np.ndarray, short: bool, code_width: int) -> np.ndarray:
    """Each code (short: without ``.00``) and spaces after it up to ``code_width``, NUL-padded."""
    if not short and code_width <= 7:
        return codes
    lengths = np.full(len(codes), 7, dtype=np.int64)
    if short:
        lengths[_short(codes)] = 4
    field = np.zeros((len(codes), max(7, code_width)), dtype=np.uint8)
    field[:, :7] = codes
    place = np.arange(field.shape[1])
    field[place >= lengths[:, None]] = 0
    field[(place >= lengths[:, None]) & (place < code_width)] = ord(" ")
    return field


def _table(texts: list[str]) -> np.ndarray:
    """The texts in UTF-8, a row each, NUL-padded to the longest."""
    encoded = [text.encode("utf-8") for text in texts]
    width = max(1, *map(len, encoded))
    return np.array(encoded, dtype=f"S{width}").view(np.uint8).reshape(len(encoded), width)


_SIDE_TYPES = 6  # a side's kings, then its men Q R B N P


def _men_numbers(men: np.ndarray) -> tuple[np.ndarray, int]:
    """The men of each material's sides (White's, Black's) as numbers, a digit a type (Q R B N
    P, queens first) in the base returned."""
    radix = int(men.max(initial=0)) + 1
    keys = np.zeros((2, len(men)), dtype=np.int64)
    for side, key in enumerate(keys):
        for column in range(5 * side, 5 * side + 5):
            key *= radix
            key += men[:, column]
    return keys, radix


def _side_numbers(keys: np.ndarray, men_radix: int, kings: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each material's sides numbered, equal sides alike (White's and Black's side of each
    material, from their men's numbers ``_men_numbers`` and their kings), and the kings and men
    (Q R B N P) of each number's side."""
    keys = kings.T.astype(np.int64) * men_radix**5 + keys  # a side's kings, then its men, as digits
    distinct, which = distinct_values(keys.ravel())
    counts = np.empty((len(distinct), _SIDE_TYPES), dtype=np.int64)
    for column in range(_SIDE_TYPES - 1, 0, -1):
        distinct, counts[:, column] = np.divmod(distinct, men_radix)
    counts[:, 0] = distinct
    return which[: len(kings)], which[len(kings) :], counts


def _side_names(sides: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The names of sides (rows of kings and men Q R B N P, ``_side_numbers``) as
    ``Material.__str__`` writes them (``KBBP``, ``-`` for a side with nothing): a NUL-padded
    row each, and their lengths."""
    ends = np.cumsum(sides, 1)
    lengths = np.maximum(ends[:, -1], 1)
    # A name's byte at each place: the first type whose run ends after it, "-" where none.
    place = np.arange(int(lengths.max(initial=1)))
    types = np.zeros((len(sides), len(place)), dtype=np.uint8)
    for end in ends.T:
        types += end[:, None] <= place
    names = np.frombuffer(f"{_KING}{TYPES}\0".encode("ascii"), np.uint8).take(types)
    names[ends[:, -1] == 0, 0] = ord("-")
    return names, lengths
