"""The browser's reading of an index (``StoredIndex``), and which index it reads for a
collection (``index_for``) or offers to write (``index_offer``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import heapq
import os
import sqlite3
import threading
from array import array
from collections.abc import Iterator, Sequence
from typing import NamedTuple, cast

from gbr_tui.core.check import record_check
from gbr_tui.core.code import Rule
from gbr_tui.core.collection.formats import format_module
from gbr_tui.core.collection.index import FAMILY_ORDER, FIELDS, ClassListing, IndexedRecord, largest_families
from gbr_tui.core.collection.material_rows import tally_of_materials
from gbr_tui.core.collection.read_back import SourceFile, csv_prefix, read_back
from gbr_tui.core.collection.readers import CollectionRequest
from gbr_tui.core.collection.records import BadRecord, CollectionError
from gbr_tui.core.collection.source import MAX_LINE
from gbr_tui.core.collection.store.query import CAPTIONS, captioned_rows, checked_captions
from gbr_tui.core.collection.store.schema import (
    COMMENT_COLUMN,
    COUNTS_WIDTH,
    FIELD_COLUMNS,
    MATERIAL_COLUMNS,
    SQUARES,
    Selected,
    SourceRow,
    StaleIndex,
    check_fresh,
    default_index,
    is_index,
    material_of,
    not_ours,
    opened,
    stale_reason,
)
from gbr_tui.core.collection.tally import ClassRow, Results, SortBy
from gbr_tui.core.errors import GbrError
from gbr_tui.core.hhdb import with_kept_comment
from gbr_tui.core.material import Material
from gbr_tui.core.patterns import ClassPattern


def index_for(request: CollectionRequest) -> tuple[str | None, str | None]:
    """The index the browser reads for ``request``, and why a default index found is not used:
    the request's one path when it is an index (checked when opened), or the fresh default
    index of its one file built with the same ``--position``; else None."""
    if len(request.paths) != 1:
        return None, None
    (path,) = request.paths
    if is_index(path):
        return path, None
    index = default_index(path)
    if not is_index(index):
        return None, None
    problem = stale_reason(index, request.game_positions)
    return (None, problem) if problem else (index, None)


def index_offer(request: CollectionRequest, at_least: int) -> str | None:
    """Where the browser offers to write an index of ``request``'s one file: its default index,
    when nothing is there yet (a stale index or another file is never overwritten unasked) and
    the file is plain (no index of a compressed file has offsets to read records at) and of at
    least ``at_least`` bytes; else None."""
    if len(request.paths) != 1:
        return None
    (path,) = request.paths
    index = default_index(path)
    if not os.path.isfile(path) or os.path.getsize(path) < at_least or is_index(path) or os.path.lexists(index):
        return None
    try:
        with request.open(path, Rule.COUNT) as collection:
            if collection.source.compression:
                return None
    except (CollectionError, OSError):
        return None
    return index


class NoOffsets(CollectionError):
    """An index of a compressed file: it holds no byte offsets to read a record back at, so
    the browser reads the files themselves (``request``)."""

    def __init__(self, message: str, request: CollectionRequest) -> None:
        super().__init__(message)
        self.request = request


_VARIABLES = 900  # materials asked for in one query (12 numbers each, under SQLite's 32766)
_MOST = 1 << 40  # no count in an index of ours is above this (a larger one: no index of ours)
#: Of a material in ``material_counts``: its men, then its counts.
_COUNTS_BOUNDS = [SQUARES] * len(MATERIAL_COLUMNS) + [_MOST] * (COUNTS_WIDTH - len(MATERIAL_COLUMNS))
_MATERIAL = ", ".join(MATERIAL_COLUMNS)


class RecordRow(NamedTuple):
    """A record as the browser shows it."""

    source: int
    number: int
    line: int
    offset: int
    ply: int | None
    men: tuple[int, ...]
    fields: tuple[str | None, ...]  # its FIELDS
    comment: str | None  # HHdb's first comment as kept (``hhdb.kept_comment``)


class NextRecord(NamedTuple):
    source: int
    offset: int | None


_RECORD = Selected(RecordRow, men=MATERIAL_COLUMNS, fields=FIELD_COLUMNS, comment=COMMENT_COLUMN)
_NEXT = Selected(NextRecord)


class StoredIndex:
    """An index opened for the browser: what ``ClassIndex`` answers, by queries on the index.

    The classes are one query under the rule asked for; a class's positions a query for its
    materials; a record's position is read back from its source at its offset (a game replayed
    to its ply) and checked against the men the index holds, so a record is never shown
    other than the index counted it. Stale sources raise StaleIndex when opened (never used),
    compressed ones NoOffsets. The captions the index keeps are checked when it is opened.
    """

    sampled_rows = 20  # records read back to size a position list's columns (ClassIndex: 200)

    def __init__(self, index: str, request: CollectionRequest, rule: Rule) -> None:
        self.path = index
        self._rule = rule
        self._lock = threading.Lock()  # the screen asks from its thread workers and its own
        self._database, self.position, sources = opened(index, None)
        try:
            self._sources = self._checked_sources(sources, request)
            self._read_classes()
            self._check_captions()
        except sqlite3.Error as error:
            self._database.close()
            raise StaleIndex(f"{index}: not a gbr-tui index ({error})") from None
        except BaseException:
            self._database.close()
            raise
        self.record = functools.lru_cache(maxsize=4096)(self._record)
        self.failures: list[str] = []

    def _checked_sources(self, sources: list[SourceRow], request: CollectionRequest) -> dict[int, SourceFile]:
        checked = {}
        self.files: list[str] = []
        self.classified = 0
        compressed = []
        for source in sources:
            check_fresh(self.path, source.path, source.size, source.mtime_ns)
            with request.open(source.path, self._rule) as collection:
                form = collection.format
                if collection.source.compression:
                    compressed.append(source.path)
            prefix = b""
            if format_module(form).HEADER_BEFORE_RECORDS:  # a header line, read before its first record
                first = self._database.execute(
                    "SELECT offset FROM records WHERE source = ? ORDER BY rowid LIMIT 1", (source.id,)
                )
                prefix = csv_prefix(source.path, (first.fetchone() or (0,))[0] or 0)
            wanted = dataclasses.replace(
                request, paths=(source.path,), format=form, game_positions=self.position, min_plies=0
            )
            checked[source.id] = SourceFile(source.name, source.path, source.size, source.mtime_ns, wanted, prefix)
            self.files.append(source.name)
            self.classified += source.classified
        if compressed:
            raise NoOffsets(
                f"{self.path}: an index of compressed files holds no offsets to read records at: "
                "the files themselves are read",
                dataclasses.replace(
                    request, paths=tuple(source.path for source in checked.values()), game_positions=self.position
                ),
            )
        names = {source: found.name for source, found in checked.items()}
        self.bad = [
            (names.get(source, self.path), BadRecord(number, line, reason))
            for source, number, line, reason in self._database.execute(
                "SELECT source, number, line, reason FROM bad ORDER BY source, rowid"
            )
        ]
        return checked

    def _read_classes(self) -> None:
        """Every material's records and results, from the few rows a class the index keeps
        (``materials``), counted as ``classify`` counts them."""
        import numpy as np

        # Arrays of a part of a source's materials each (the tally adds up a material's rows of
        # several sources), each part kept as what the tally needs of it: its men and kings a
        # byte each (at most 64), records and results; what the FIELDS counts say, summed.
        men_parts: list[np.ndarray] = []
        record_parts: list[np.ndarray] = []
        played: list[tuple[np.ndarray, np.ndarray]] = []  # the rows of the materials of games, their results
        fields = np.zeros(len(FIELDS), dtype=np.int64)
        bounds = np.array(_COUNTS_BOUNDS)
        count = 0
        parts = self._database.execute("SELECT source, rows, counts FROM material_counts ORDER BY source, part")
        for source, rows, blob in parts:
            if type(rows) is not int or type(blob) is not bytes or rows < 0 or len(blob) != 8 * COUNTS_WIDTH * rows:
                raise StaleIndex(f"{self.path}: not a gbr-tui index (the material counts of source {source})")
            held = np.frombuffer(blob, dtype="<i8").reshape(rows, COUNTS_WIDTH)
            wrong = np.flatnonzero(((held < 0) | (held > bounds)).any(axis=1))
            if len(wrong):
                raise StaleIndex(
                    f"{self.path}: not a gbr-tui index (its material counts hold {held[wrong[0]].tolist()})"
                )
            men_parts.append(held[:, :12].astype(np.uint8))
            record_parts.append(held[:, 12].copy())
            games = np.flatnonzero(held[:, 13] > 0)
            if len(games):
                played.append((count + games, held[games, 14:18]))
            fields += held[:, 18:].sum(axis=0)
            count += rows
        men = np.concatenate(men_parts) if men_parts else np.zeros((0, 12), dtype=np.uint8)
        records = np.concatenate(record_parts) if record_parts else np.zeros(0, dtype=np.int64)
        self.games = bool(played)
        results: list[Results | None] | None = None
        if played:
            results = [None] * count
            for rows, counts in played:
                for row, held in zip(rows.tolist(), counts.tolist()):
                    results[row] = (held[0], held[1], held[2], held[3])
        try:
            self._tally = tally_of_materials(men[:, :10], men[:, 10:12], records, results, self._rule)
        except GbrError as error:
            raise StaleIndex(f"{self.path}: not a gbr-tui index ({error.message})") from None
        self.fields = {name for name, found in zip(FIELDS, fields.tolist()) if found}
        families = self._database.execute("SELECT family, SUM(count) FROM families GROUP BY family")
        self._families = {family: count for family, count in families if family in FAMILY_ORDER and type(count) is int}

    def _check_captions(self) -> None:
        """The records with a caption, checked as ``ClassIndex`` checks them: how many, and
        those that disagree (by record id: the caption, and each part that disagrees in words)."""
        self.captions_checked = 0
        self.disagreements: dict[int, tuple[str, list[tuple[str, str]]]] = {}
        rows = captioned_rows(self._database, self.path, CAPTIONS)
        for row, _, found in checked_captions(self.path, self._rule, rows, record_check):
            self.captions_checked += 1
            if found:
                self.disagreements[row.record] = (row.caption, found)

    @property
    def index_file(self) -> str:
        return self.path

    def close(self) -> None:
        with self._lock:
            self._database.close()

    @contextlib.contextmanager
    def _queries(self) -> Iterator[sqlite3.Connection]:
        """The database, to one thread at a time; a damaged one raises CollectionError."""
        with self._lock:
            try:
                yield self._database
            except sqlite3.Error as error:
                raise CollectionError(f"{self.path}: the index cannot be read ({error})") from None

    def classes(
        self, pattern: ClassPattern | None = None, either_colour: bool = False, sort: SortBy = SortBy.CODE
    ) -> ClassListing:
        """The classes with a wanted material (see ``ClassListing``)."""
        return ClassListing.of(self._tally, pattern, either_colour, sort)

    def largest_families(self, count: int) -> list[tuple[str, int]]:
        """As ``ClassIndex.largest_families``."""
        return largest_families(self._families, count)

    def positions(self, row: ClassRow, either_colour: bool = False) -> Sequence[int]:
        """The records (their ids) of a class's materials (and of their twins with
        ``either_colour``), in file order."""
        materials: dict[Material, None] = {}  # in order, each once
        for material, _ in row.materials:
            materials[material] = None
            if either_colour:
                materials[material.swapped()] = None
        wanted = [(*material.white, *material.black, *material.kings) for material in materials]
        runs = []
        with self._queries() as database:
            for start in range(0, len(wanted), _VARIABLES):
                part = wanted[start : start + _VARIABLES]
                values = ", ".join(["(" + ", ".join("?" * 12) + ")"] * len(part))
                found = database.execute(
                    f"SELECT rowid FROM records WHERE ({_MATERIAL}) IN (VALUES {values}) ORDER BY rowid",
                    [number for men in part for number in men],
                )
                runs.append(array("q", (rowid for (rowid,) in found)))
        return runs[0] if len(runs) == 1 else array("q", heapq.merge(*runs))

    def _record(self, rowid: int) -> IndexedRecord:
        """One record, its position read back from its file (or why it cannot be: ``problem``)."""
        try:
            with self._queries() as database:
                row = next(_RECORD.rows(database, "SELECT {columns} FROM records WHERE rowid = ?", (rowid,)), None)
                if row is None:
                    raise not_ours(self.path, rowid)
                # Where the record ends: where the next one in file order starts (the next rowid
                # past it, its offset; several positions of one game share theirs), or its file's end.
                after = next(
                    _NEXT.rows(
                        database,
                        "SELECT {columns} FROM records WHERE rowid > ? AND (source != ? OR offset > ?) "
                        "ORDER BY rowid LIMIT 1",
                        (rowid, row.source, row.offset),
                    ),
                    None,
                )
            stored = self._sources.get(row.source)
            if stored is None or not all(
                type(held) is int for held in (row.number, row.line, row.offset, row.ply or 0)
            ):
                raise not_ours(self.path, rowid)
        except CollectionError as error:
            return IndexedRecord(self.path, 0, 0, "", {}, error.message)
        headers = {name: str(value)[:MAX_LINE] for name, value in zip(FIELDS, row.fields) if value}
        with_kept_comment(headers, row.comment)
        end = (
            after.offset
            if after is not None and after.source == row.source and type(after.offset) is int
            else stored.size
        )
        try:
            fen = self._read_back(stored, row, end)
        except CollectionError as error:
            return IndexedRecord(stored.name, row.number, row.line, "", headers, error.message)
        return IndexedRecord(stored.name, row.number, row.line, fen, headers)

    def _read_back(self, source: SourceFile, row: RecordRow, end: int) -> str:
        """The record's position, read at its offset up to ``end``; CollectionError when the
        file has changed since it was indexed (or the record is not what the index holds)."""
        check_fresh(self.path, source.path, source.size, source.mtime_ns)
        if not 0 <= row.offset < end <= source.size:
            raise CollectionError(f"{self.path}: not a gbr-tui index (record {row.number} is not within its file)")
        material = material_of(row.men)
        found = read_back(source, row.number, row.line, row.offset, end, row.ply, material, "run `gbr-tui index` again")
        return cast(str, found.fen)  # read back with its FEN (``records()`` gives them by default)
