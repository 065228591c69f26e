"""Positions that are the same, or nearly, under the board transforms of ``symmetry``, for many
positions at once with numpy.

A position is twelve bitboards, one a man type and colour (``MEN``: White's pawns to king,
then Black's), and its side to move (0 White, 1 Black): a row of ``Boards``. Its *canonical
key* is the least of its transformed rows (the side to move kept, or left out), so two
positions are the same under a transform exactly when their keys are equal. Its *distance* to
another is the fewest men to add, take away or move to make one of the searched position's
transforms into the other: 0 the same, 1 a man more, fewer, or on another square.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import chess
import numpy as np
from numpy.typing import NDArray

from gbr_tui.core.symmetry import DIHEDRAL, MIRRORED, WITH_PAWNS, WITHOUT_PAWNS, Transform, transforms_for

#: The man types in a row's order: White's, then Black's.
MEN = tuple(
    chess.Piece(piece_type, colour) for colour in (chess.WHITE, chess.BLACK) for piece_type in chess.PIECE_TYPES
)
PAWN_COLUMNS = [MEN.index(chess.Piece(chess.PAWN, colour)) for colour in (chess.WHITE, chess.BLACK)]
_COLUMN = {man.symbol().encode()[0]: column for column, man in enumerate(MEN)}
WHITE, BLACK = 0, 1  # a side to move as a row holds it
#: splitmix64's finaliser: every bit of a word reaches every bit of the hash.
_MIX = (np.uint64(30), np.uint64(0xBF58476D1CE4E5B9), np.uint64(27), np.uint64(0x94D049BB133111EB), np.uint64(31))


@dataclass
class Boards:
    """Positions as rows: ``bits`` (n, 12) uint64 bitboards, ``turns`` (n,) the sides to move."""

    bits: NDArray[np.uint64]
    turns: NDArray[np.int8]

    def __len__(self) -> int:
        return len(self.turns)

    @staticmethod
    def empty() -> Boards:
        return Boards(np.zeros((0, len(MEN)), dtype=np.uint64), np.zeros(0, dtype=np.int8))

    @staticmethod
    def joined(parts: Sequence[Boards]) -> Boards:
        if not parts:
            return Boards.empty()
        return Boards(np.concatenate([part.bits for part in parts]), np.concatenate([part.turns for part in parts]))


def row_of(board: chess.BaseBoard) -> list[int]:
    """A board's twelve bitboards, in ``MEN`` order."""
    return [board.pieces_mask(man.piece_type, man.color) for man in MEN]


def turn_of(fen: str | None) -> int:
    """The side to move a FEN gives (White when it gives only the placement)."""
    fields = (fen or "").split(None, 2)
    return BLACK if len(fields) > 1 and fields[1] == "b" else WHITE


def boards_of(boards: Sequence[chess.BaseBoard], turns: Sequence[int]) -> Boards:
    return Boards(
        np.array([row_of(board) for board in boards], dtype=np.uint64).reshape(len(boards), len(MEN)),
        np.array(turns, dtype=np.int8),
    )


def board_of(bits: Sequence[int]) -> chess.BaseBoard:
    """The python-chess board of a row's bitboards."""
    board = chess.BaseBoard.empty()
    for man, mask in zip(MEN, bits):
        for square in chess.SquareSet(int(mask)):
            board.set_piece_at(square, man)
    return board


def placement_rows(fens: Sequence[str]) -> Boards:
    """The rows of FENs whose placements are well formed (eight ranks of eight squares, as the
    batch path vouches for), all at once (``text_rows``)."""
    return text_rows("\n".join(fens) + "\n", len(fens))


def text_rows(lines: str, count: int) -> Boards:
    """The rows of ``count`` FENs in a text, a newline after each: each man's square is the
    squares before it in its placement, a prefix sum over the text."""
    text = np.frombuffer(lines.encode("ascii", "replace"), dtype=np.uint8)
    ends = text == ord("\n")
    line = np.cumsum(ends) - ends  # each byte's line
    spaces = text == ord(" ")
    starts = np.concatenate(([0], np.flatnonzero(ends)[:-1] + 1))
    spaces_before = np.cumsum(spaces) - spaces
    in_placement = (spaces_before - spaces_before[starts][line] == 0) & ~spaces & ~ends
    table = np.full(256, 255, dtype=np.uint8)
    for symbol, column in _COLUMN.items():
        table[symbol] = column
    column_of = table[text]
    digits = (text >= ord("1")) & (text <= ord("8"))
    width = np.where(digits, text - ord("0"), column_of != 255).astype(np.int64)  # a '~' takes no square
    width[~in_placement] = 0
    squares_before = np.cumsum(width) - width
    squares_before -= squares_before[starts][line]
    men = np.flatnonzero(in_placement & (column_of != 255))
    bits = np.zeros(count * len(MEN), dtype=np.uint64)
    square = squares_before[men] ^ 56  # FEN runs a8..h8, a7..: rank flipped
    np.add.at(bits, line[men] * len(MEN) + column_of[men], np.left_shift(np.uint64(1), square.astype(np.uint64)))
    first_spaces = np.flatnonzero(spaces & (spaces_before - spaces_before[starts][line] == 0))
    turns = np.zeros(count, dtype=np.int8)
    sides = first_spaces + 1
    turns[line[first_spaces]] = text[np.minimum(sides, len(text) - 1)] == ord("b")
    return Boards(bits.reshape(count, len(MEN)), turns)


def _lowest_file(occupied: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """The lowest file (0 for a) holding a man, per row (8 for an empty board)."""
    files = occupied | (occupied >> np.uint64(32))
    files |= files >> np.uint64(16)
    files |= files >> np.uint64(8)
    files &= np.uint64(0xFF)
    lowest = files & (~files + np.uint64(1))
    return np.asarray(np.bitwise_count(lowest - np.uint64(1)), dtype=np.uint64)


def _least(candidates: list[NDArray[np.uint64]]) -> tuple[NDArray[np.uint64], NDArray[np.int8]]:
    """Per row, the lexicographically least of the candidates' rows, and which candidate it is
    (the first of equal ones)."""
    best = candidates[0].copy()
    chosen = np.zeros(len(best), dtype=np.int8)
    rows = np.arange(len(best))
    for index, candidate in enumerate(candidates[1:], 1):
        differ = candidate != best
        first = differ.argmax(axis=1)
        less = differ.any(axis=1) & (candidate[rows, first] < best[rows, first])
        best[less] = candidate[less]
        chosen[less] = index
    return np.asarray(best, dtype=np.uint64), chosen


@dataclass(frozen=True)
class Canonical:
    """Canonical keys (n, 13): each row's least transformed row, then its side to move (0 for
    all when the side is left out); and the transform that gives it: ``flips`` (an index into
    ``DIHEDRAL``) then a shift of ``shifts`` files to the left."""

    keys: NDArray[np.uint64]
    flips: NDArray[np.int8]
    shifts: NDArray[np.int8]


_MIRRORED = 4  # in DIHEDRAL


def canonical_keys(boards: Boards, exact: bool = False, same_side: bool = True) -> Canonical:
    """Each row's canonical key (``exact``: the row itself). With pawns the least of a row's
    shifts is the one with a man on the a-file, so two candidates are tried (the row and its
    mirror); without pawns the eight rotations and reflections."""
    bits = boards.bits
    count = len(bits)
    flips, shifts = np.zeros(count, dtype=np.int8), np.zeros(count, dtype=np.int8)
    if not exact and count:
        with_pawns = (bits[:, PAWN_COLUMNS] != 0).any(axis=1)
        keys = bits.copy()
        if with_pawns.any():
            pawned = bits[with_pawns]
            candidates: list[NDArray[np.uint64]] = []
            lowest_files = []
            for flipped in (pawned, np.asarray(chess.flip_horizontal(pawned), dtype=np.uint64)):
                lowest = _lowest_file(np.bitwise_or.reduce(flipped, axis=1))
                candidates.append(flipped >> lowest[:, None])
                lowest_files.append(lowest.astype(np.int8))
            keys[with_pawns], chosen = _least(candidates)
            flips[with_pawns] = np.where(chosen == 1, _MIRRORED, 0)
            shifts[with_pawns] = np.where(chosen == 1, lowest_files[1], lowest_files[0])
        if not with_pawns.all():
            plain = bits[~with_pawns]
            keys[~with_pawns], flips[~with_pawns] = _least(
                [np.asarray(flip(plain), dtype=np.uint64) for _, flip in DIHEDRAL]
            )
        bits = keys
    side = boards.turns.astype(np.uint64) if same_side else np.zeros(count, dtype=np.uint64)
    keys = np.column_stack([bits, side]) if count else np.zeros((0, len(MEN) + 1), dtype=np.uint64)
    return Canonical(keys, flips, shifts)


#: Squares no rotation or reflection but the identity leaves as they are.
_PROBE = chess.BB_A1 | chess.BB_B1 | chess.BB_C1 | chess.BB_A2


def relative_transform(first: tuple[int, int], other: tuple[int, int], pawns: bool) -> Transform:
    """The transform that makes one position into another of the same key, from the (flip,
    shift) that made each its key: the first's key is ``shift(flip(A))``, the other's the same."""
    (flip_a, shift_a), (flip_b, shift_b) = first, other
    if not pawns:  # X with flip_b(X(p)) == flip_a(p)
        target = DIHEDRAL[flip_a][1](_PROBE)
        return next(t for t in WITHOUT_PAWNS if DIHEDRAL[flip_b][1](t(_PROBE)) == target)
    # B = flip_b(shifted left by (shift_a - shift_b)(flip_a(A))); a mirror turns a left shift right.
    mirrored = (flip_a == _MIRRORED) != (flip_b == _MIRRORED)
    files = shift_a - shift_b if flip_b == _MIRRORED else shift_b - shift_a
    return next(t for t in WITH_PAWNS if t.files == files and (t.flip is MIRRORED.flip) == mirrored)


def key_hashes(keys: NDArray[np.uint64], seed: int = 0x243F6A8885A308D3) -> NDArray[np.int64]:
    """A 64-bit hash of each key, as SQLite's signed integers: each word in turn mixed into the
    hash with splitmix64's finaliser (a bijection, so two keys meet only by a 64-bit chance at
    one word), the seed first; two seeds give two hashes as good as independent."""
    first, multiplier, second, other, third = _MIX
    hashes = np.full(len(keys), seed, dtype=np.uint64)
    for column in keys.T:
        hashes ^= column
        hashes ^= hashes >> first
        hashes *= multiplier
        hashes ^= hashes >> second
        hashes *= other
        hashes ^= hashes >> third
    return hashes.view(np.int64)


def groups(keys: NDArray[np.uint64]) -> list[NDArray[np.intp]]:
    """The rows (indices) of each key held by more than one row, each group in row order,
    the groups in the order of their first rows. ``keys``: canonical keys, or (n, 2) of two
    hashes of them where the keys are too many to keep."""
    if not len(keys):
        return []
    hashes = key_hashes(keys)
    order = np.argsort(hashes, kind="stable")  # equal hashes in row order
    ordered = hashes[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    sizes = np.diff(np.append(starts, len(order)))
    shared = sizes > 1
    starts, sizes = starts[shared], sizes[shared]
    if not len(starts):
        return []
    members = np.repeat(starts, sizes) + (np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes))
    rows = order[members]
    firsts = np.repeat(order[starts], sizes)
    same = (keys[rows] == keys[firsts]).all(axis=1)
    found = np.split(rows, np.cumsum(sizes)[:-1])
    if not same.all():  # two keys with one hash: those groups told apart exactly
        told: list[NDArray[np.intp]] = []
        for group in found:
            by_key: dict[bytes, list[int]] = {}
            for row in group.tolist():
                by_key.setdefault(keys[row].tobytes(), []).append(row)
            told += [np.array(held, dtype=np.intp) for held in by_key.values() if len(held) > 1]
        found = told
    found.sort(key=lambda group: int(group[0]))
    return found


@dataclass(frozen=True)
class Near:
    """The rows within the distance asked of a searched position: each row's distance and the
    transform of the searched position that comes nearest."""

    rows: NDArray[np.intp]
    distances: NDArray[np.intp]
    transforms: list[Transform]


def near(
    board: chess.BaseBoard,
    turn: int,
    boards: Boards,
    max_distance: int = 1,
    exact: bool = False,
    same_side: bool = True,
) -> Near:
    """The rows of ``boards`` at most ``max_distance`` from ``board`` (nearest first, then in
    row order). A man's count per type bounds the distance from below whatever the transform,
    so only the rows whose material is near enough are transformed."""
    query = np.array(row_of(board), dtype=np.uint64)
    bits = boards.bits
    counts = np.bitwise_count(bits).astype(np.intp)
    bound = np.abs(counts - np.bitwise_count(query).astype(np.intp)).sum(axis=1)
    kept = bound <= max_distance
    if same_side:
        kept &= boards.turns == turn
    rows = np.flatnonzero(kept)
    candidates = bits[rows]
    transforms = transforms_for(board, exact)
    best = np.full(len(rows), np.iinfo(np.intp).max, dtype=np.intp)
    chosen = np.zeros(len(rows), dtype=np.intp)
    for index, transform in enumerate(transforms):
        moved = np.array([transform(int(mask)) for mask in query.tolist()], dtype=np.uint64)
        missing = np.bitwise_count(moved & ~candidates).astype(np.intp)
        extra = np.bitwise_count(candidates & ~moved).astype(np.intp)
        distance = np.maximum(missing, extra).sum(axis=1)
        better = distance < best
        best[better], chosen[better] = distance[better], index
    within = best <= max_distance
    rows, best, chosen = rows[within], best[within], chosen[within]
    order = np.lexsort((rows, best))
    return Near(rows[order], best[order], [transforms[index] for index in chosen[order].tolist()])


def duplicate_marks(fens: Sequence[str | None]) -> dict[int, int]:
    """Each row whose position another row has too (under a transform, the side to move kept)
    with its group's number, counted from 1 in the order of the groups' first rows; a row
    without a position (None) is in none."""
    placements = [" ".join(fen.split(None, 2)[:2]) if fen else "" for fen in fens]
    rows = placement_rows(placements)
    held = np.flatnonzero((rows.bits != 0).any(axis=1))
    keys = canonical_keys(Boards(rows.bits[held], rows.turns[held])).keys
    return {int(held[row]): number for number, group in enumerate(groups(keys), 1) for row in group.tolist()}
