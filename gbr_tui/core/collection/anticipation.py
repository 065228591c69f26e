"""Was it anticipated? Two record consumers of one streaming walk over a collection (no index
needed): ``NearRecords`` keeps the records at most a few men from a searched position under the
board transforms (``similar``), ``KeyedRecords`` every record's canonical key, to group the
records that are the same position (``duplicates``).

Records come a block at a time: the batch path's vouched lines as numpy arrays (their
placements read at once, ``similar.placement_rows``), the others one by one, gathered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import chess
import numpy as np
from numpy.typing import NDArray

from gbr_tui.core.collection.formats.base import BatchFormat
from gbr_tui.core.collection.positions import TextLines, VouchedLines
from gbr_tui.core.collection.readers import Collection
from gbr_tui.core.collection.records import BadRecord, Item, Record
from gbr_tui.core.collection.walk import Consumer, walk
from gbr_tui.core.similar import (
    PAWN_COLUMNS,
    Boards,
    Near,
    boards_of,
    canonical_keys,
    groups,
    key_hashes,
    near,
    placement_rows,
    relative_transform,
    text_rows,
    turn_of,
)

_BLOCK = 8192  # records gathered before they are compared at once
_SECOND_SEED = 0x9E3779B97F4A7C15


@dataclass(frozen=True)
class FoundRecord:
    """A record found: where it is, its position, headers, distance and the transform named."""

    source: str
    record: int
    line: int
    fen: str
    headers: Mapping[str, str]
    distance: int
    transform: str


def collection_items(collection: Collection) -> Iterator[Item | VouchedLines]:
    """A collection's records, the batch path's runs of vouched lines as such."""
    reader = collection.reader
    if reader.BATCH:
        return collection.guarded(cast(BatchFormat, reader).vouched(collection))
    return collection.records(fens=True)


@dataclass
class _Block:
    """Records gathered: their rows, and for each its number, line, FEN and headers (read when
    asked: a vouched line's text is cut out only for the records found)."""

    parts: list[Boards] = field(default_factory=list)
    numbers: list[Any] = field(default_factory=list)
    lines: list[Any] = field(default_factory=list)
    texts: list[Callable[[int], tuple[str, Mapping[str, str]]]] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    pending: list[Record] = field(default_factory=list)

    def __len__(self) -> int:
        return sum(self.sizes) + len(self.pending)

    def add_vouched(self, lines: VouchedLines, rows: Boards) -> None:
        self.close_pending()  # the rows in file order
        texts, indices = lines.texts, lines.indices
        self.parts.append(rows)
        self.numbers.append(lines.numbers)
        self.lines.append(lines.lines)
        self.texts.append(lambda at: (texts[int(indices[at])], {}))
        self.sizes.append(len(indices))

    def close_pending(self) -> None:
        """The records gathered one by one, as one part."""
        records = self.pending
        if not records:
            return
        self.pending = []
        fens = [record.fen or "" for record in records]
        self.parts.append(boards_of([chess.BaseBoard(fen.split()[0]) for fen in fens], [turn_of(fen) for fen in fens]))
        self.numbers.append(np.array([record.number for record in records]))
        self.lines.append(np.array([record.line for record in records]))
        self.texts.append(lambda at: (fens[at], dict(records[at].headers)))
        self.sizes.append(len(records))

    def rows(self) -> Boards:
        self.close_pending()
        return Boards.joined(self.parts)

    def text(self, row: int) -> tuple[str, Mapping[str, str]]:
        for size, text in zip(self.sizes, self.texts):
            if row < size:
                return text(row)
            row -= size
        raise IndexError(row)


class _Blocks(Consumer):
    """Records gathered into blocks, each handed to ``done`` when full and at the end."""

    def __init__(self) -> None:
        self.block = _Block()
        self.text_block: tuple[TextLines | list[str], Boards] | None = None  # the last text block read, its rows

    def record(self, record: Record, first: bool) -> None:
        if record.fen is None:
            return
        self.block.pending.append(record)
        if len(self.block) >= _BLOCK:
            self.flush()

    def vouched(self, lines: VouchedLines) -> None:
        texts, indices = lines.texts, lines.indices
        whole = texts.newline_text if isinstance(texts, TextLines) else None
        if whole is None:
            rows = placement_rows([texts[index] for index in indices.tolist()])
        else:  # the block's text read at once, once for all its runs
            if self.text_block is None or self.text_block[0] is not texts:
                self.text_block = (texts, text_rows(whole, whole.count("\n")))
            every = self.text_block[1]
            rows = Boards(every.bits[indices], every.turns[indices])
        self.block.add_vouched(lines, rows)
        if len(self.block) >= _BLOCK:
            self.flush()

    def flush(self) -> None:
        block, self.block = self.block, _Block()
        if len(block):
            self.done(block)

    def done(self, block: _Block) -> None:
        raise NotImplementedError


class NearRecords(_Blocks):
    """The records at most ``max_distance`` men from ``board`` (``similar.near``), in file order
    within each distance once ``sorted_found`` is asked; bad records are handed to ``on_bad``."""

    def __init__(
        self,
        board: chess.BaseBoard,
        turn: int,
        max_distance: int,
        exact: bool,
        same_side: bool,
        on_bad: Callable[[BadRecord], None] | None = None,
    ) -> None:
        super().__init__()
        self.board, self.turn, self.max_distance = board, turn, max_distance
        self.exact, self.same_side, self.on_bad = exact, same_side, on_bad
        self.source = ""
        self.found: list[FoundRecord] = []

    def bad(self, bad: BadRecord) -> None:
        if self.on_bad is not None:
            self.on_bad(bad)

    def scan(self, collection: Collection) -> None:
        """One collection's records searched."""
        self.source = collection.name
        walk(collection_items(collection), self, games=False)
        self.flush()

    def done(self, block: _Block) -> None:
        found: Near = near(self.board, self.turn, block.rows(), self.max_distance, self.exact, self.same_side)
        numbers, lines = np.concatenate(block.numbers), np.concatenate(block.lines)
        for row, distance, transform in zip(found.rows.tolist(), found.distances.tolist(), found.transforms):
            fen, headers = block.text(row)
            self.found.append(
                FoundRecord(self.source, int(numbers[row]), int(lines[row]), fen, headers, distance, transform.name)
            )

    def sorted_found(self) -> list[FoundRecord]:
        return sorted(self.found, key=lambda found: found.distance)  # stable: file order kept


@dataclass(frozen=True)
class GroupMember:
    """A record of a group of duplicates, and the transform that makes the group's first
    record's position into its own."""

    source: str
    record: int
    line: int
    transform: str


class KeyedRecords(_Blocks):
    """Each record's canonical key (two 64-bit hashes of it: some 40 bytes a record whatever
    its size), and where the record is; ``duplicate_groups`` at the end."""

    def __init__(self, exact: bool, same_side: bool, on_bad: Callable[[BadRecord], None] | None = None) -> None:
        super().__init__()
        self.exact, self.same_side, self.on_bad = exact, same_side, on_bad
        self.sources: list[str] = []
        self.parts: list[tuple[NDArray[Any], ...]] = []  # hashes, flips, shifts, pawns, source, number, line

    def bad(self, bad: BadRecord) -> None:
        if self.on_bad is not None:
            self.on_bad(bad)

    def scan(self, collection: Collection) -> None:
        self.sources.append(collection.name)
        walk(collection_items(collection), self, games=False)
        self.flush()

    def done(self, block: _Block) -> None:
        source = np.full(len(block), len(self.sources) - 1, dtype=np.int64)
        self._add(block.rows(), source, np.concatenate(block.numbers), np.concatenate(block.lines))

    def add_rows(self, names: list[str], boards: Boards, sources: NDArray[Any], numbers: Any, lines: Any) -> None:
        """Records read elsewhere (an index): their rows, and sources as indices into ``names``."""
        self._add(boards, sources + len(self.sources), numbers, lines)
        self.sources += names

    def _add(self, rows: Boards, sources: NDArray[Any], numbers: Any, lines: Any) -> None:
        kept = (rows.bits != 0).any(axis=1)  # a record without a position has no men
        if not kept.all():
            rows, sources, numbers, lines = (
                Boards(rows.bits[kept], rows.turns[kept]),
                sources[kept],
                numbers[kept],
                lines[kept],
            )
        canonical = canonical_keys(rows, self.exact, self.same_side)
        hashes = np.column_stack([key_hashes(canonical.keys), key_hashes(canonical.keys, _SECOND_SEED)])
        pawns = (rows.bits[:, PAWN_COLUMNS] != 0).any(axis=1)
        self.parts.append((hashes.view(np.uint64), canonical.flips, canonical.shifts, pawns, sources, numbers, lines))

    def duplicate_groups(self) -> list[list[GroupMember]]:
        """Every group of records of one key, in the order of their first records."""
        if not self.parts:
            return []
        hashes, flips, shifts, pawns, sources, numbers, lines = (
            np.concatenate([part[column] for part in self.parts]) for column in range(7)
        )
        found_groups = groups(hashes)
        if not found_groups:
            return []
        rows = np.concatenate(found_groups)
        firsts = np.repeat([group[0] for group in found_groups], [len(group) for group in found_groups])
        # The transform from each group's first record to each member, named once per kind.
        flip, shift = flips.astype(np.int64), shifts.astype(np.int64)
        kinds = (((flip[firsts] * 8 + shift[firsts]) * 8 + flip[rows]) * 8 + shift[rows]) * 2 + pawns[rows]
        names = {}
        for kind in np.unique(kinds).tolist():
            flip_a, shift_a, flip_b, shift_b, pawned = (
                kind >> 10,
                (kind >> 7) & 7,
                (kind >> 4) & 7,
                (kind >> 1) & 7,
                kind & 1,
            )
            names[kind] = (
                "identity"
                if self.exact
                else relative_transform((flip_a, shift_a), (flip_b, shift_b), bool(pawned)).name
            )
        members = [
            GroupMember(self.sources[source], number, line, names[kind])
            for source, number, line, kind in zip(
                sources[rows].tolist(), numbers[rows].tolist(), lines[rows].tolist(), kinds.tolist()
            )
        ]
        found = []
        start = 0
        for group in found_groups:
            found.append(members[start : start + len(group)])
            start += len(group)
        return found
