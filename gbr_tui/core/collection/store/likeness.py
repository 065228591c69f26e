"""What ``similar`` and ``duplicates`` keep in an index and read back: each record's men as
twelve bitboards and its side to move (table ``boards``, in parts of numpy arrays in rowid
order, read at once), and its canonical key's hash (``records.similar_key``, indexed).

A search reads the bitboards (some 100 bytes a record) and compares them all with numpy: only
the records whose material is within the distance asked are transformed
(``similar.near``), so a search of 100,000 studies takes a moment.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

import chess
import numpy as np
from numpy.typing import NDArray

from gbr_tui.core.code import Rule
from gbr_tui.core.collection.anticipation import FoundRecord, NearRecords
from gbr_tui.core.collection.readers import CollectionRequest
from gbr_tui.core.collection.records import HEADERS
from gbr_tui.core.collection.store.browse import index_for
from gbr_tui.core.collection.store.schema import COMMENT_COLUMN, HEADER_COLUMNS, check_fresh, opened, ours
from gbr_tui.core.hhdb import with_kept_comment
from gbr_tui.core.similar import MEN, Boards, board_of, canonical_keys, key_hashes, near, placement_rows

_PART_ROWS = 1 << 16  # records in one row of ``boards``


def similar_columns(fens: Sequence[str | None]) -> tuple[Boards, list[int | None]]:
    """The rows of records' positions (a record without one: no men) and each one's
    ``similar_key`` (None without a position)."""
    placements = [" ".join(fen.split(None, 2)[:2]) if fen else "" for fen in fens]
    boards = placement_rows(placements)
    hashes = key_hashes(canonical_keys(boards).keys).tolist()
    return boards, [key if fen else None for key, fen in zip(hashes, fens)]


def board_parts(first: int, boards: Boards) -> list[tuple[int, int, bytes, bytes]]:
    """The rows of ``boards`` for records numbered (rowid) from ``first``."""
    return [
        (first + start, len(boards.turns[start : start + _PART_ROWS]), part.tobytes(), turns.tobytes())
        for start in range(0, len(boards), _PART_ROWS)
        for part, turns in [(boards.bits[start : start + _PART_ROWS], boards.turns[start : start + _PART_ROWS])]
    ]


@dataclass(frozen=True)
class IndexedBoards:
    """An index's records as rows: their boards and rowids; with ``places``, also their sources
    (an index into ``names``), numbers and lines."""

    names: list[str]
    boards: Boards
    rowids: NDArray[np.int64]
    sources: NDArray[np.int64]
    numbers: NDArray[np.int64]
    lines: NDArray[np.int64]


#: The records whose canonical key another record shares (the transforms allowed, the side kept).
_SHARED_KEYS = (
    "SELECT rowid, source, number, line FROM records WHERE similar_key IN "
    "(SELECT similar_key FROM records WHERE similar_key IS NOT NULL GROUP BY similar_key HAVING COUNT(*) > 1) "
    "ORDER BY rowid"
)
_EVERY_RECORD = "SELECT rowid, source, number, line FROM records ORDER BY rowid"


def indexed_boards(index: str, places: bool = True, shared_keys: bool = False) -> IndexedBoards:
    """The records of a fresh index of this version as rows (StaleIndex otherwise): every one,
    or with ``shared_keys`` only those whose canonical key (``similar_key``, under the
    transforms, the side to move kept) another shares, found by SQLite's index of the keys."""
    database, _, sources = opened(index, None)
    try:
        for source in sources:
            check_fresh(index, source.path, source.size, source.mtime_ns)
        with ours(index):
            parts = database.execute("SELECT first, rows, bits, turns FROM boards ORDER BY first").fetchall()
            query = _SHARED_KEYS if shared_keys else _EVERY_RECORD
            held = database.execute(query).fetchall() if places or shared_keys else []
    finally:
        database.close()
    bits = [np.frombuffer(part[2], dtype=np.uint64).reshape(part[1], len(MEN)) for part in parts]
    turns = [np.frombuffer(part[3], dtype=np.int8) for part in parts]
    rowids = np.concatenate([np.arange(part[0], part[0] + part[1]) for part in parts]) if parts else np.zeros(0)
    boards = Boards.joined([Boards(bit, turn) for bit, turn in zip(bits, turns)])
    found = np.array(held, dtype=np.int64).reshape(-1, 4)
    if shared_keys:  # the rows of those records only
        picked = np.searchsorted(rowids, found[:, 0])
        boards, rowids = Boards(boards.bits[picked], boards.turns[picked]), found[:, 0]
    by_id = np.zeros(max((source.id for source in sources), default=0) + 1, dtype=np.int64)
    for at, source in enumerate(sources):
        by_id[source.id] = at
    return IndexedBoards(
        [source.name for source in sources],
        boards,
        rowids.astype(np.int64),
        by_id[found[:, 1]],
        found[:, 2],
        found[:, 3],
    )


def similar_in_index(
    index: str, board: chess.BaseBoard, turn: int, max_distance: int, exact: bool, same_side: bool
) -> list[FoundRecord]:
    """The records of an index at most ``max_distance`` men from ``board`` (``similar.near``)."""
    held = indexed_boards(index, places=False)
    found = near(board, turn, held.boards, max_distance, exact, same_side)
    rowids = held.rowids[found.rows].tolist()
    records: dict[int, tuple[str, int, int, dict[str, str]]] = {}
    if rowids:
        database = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
        try:
            query = (
                f"SELECT records.rowid, sources.name, number, line, {COMMENT_COLUMN}, {', '.join(HEADER_COLUMNS)} "
                "FROM records JOIN sources ON sources.id = records.source "
                f"WHERE records.rowid IN ({', '.join('?' * len(rowids))})"
            )
            for rowid, name, number, line, comment, *values in database.execute(query, rowids):
                headers = {header: value for header, value in zip(HEADERS, values) if value is not None}
                records[rowid] = (name, number, line, with_kept_comment(headers, comment))
        finally:
            database.close()
    results = []
    for row, rowid, distance, transform in zip(found.rows.tolist(), rowids, found.distances.tolist(), found.transforms):
        placed = board_of(held.boards.bits[row].tolist()).board_fen()
        fen = f"{placed} {'b' if held.boards.turns[row] else 'w'}"
        name, number, line, headers = records[rowid]
        results.append(FoundRecord(name, number, line, fen, headers, distance, transform.name))
    return results


def similar_in_collection(
    request: CollectionRequest, board: chess.BaseBoard, turn: int, max_distance: int
) -> list[FoundRecord]:
    """The records of a collection at most ``max_distance`` men from ``board`` (the side to move
    kept, the transforms allowed), from its fresh index when it has one, else read through."""
    stored, _ = index_for(request)
    if stored is not None:
        return similar_in_index(stored, board, turn, max_distance, exact=False, same_side=True)
    search = NearRecords(board, turn, max_distance, exact=False, same_side=True)
    for path in request.paths:
        with request.open(path, Rule.COUNT) as collection:
            search.scan(collection)
    return search.sorted_found()
