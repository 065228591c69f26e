"""Writing an index (``gbr-tui index``, the browser's offer): every record of the files read once,
its row in ``records``, and what the browser lists the classes from at once (``materials``,
``material_counts``, ``families``).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import operator
import os
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from gbr_tui.core.code import Rule
from gbr_tui.core.collection.index import FIELDS
from gbr_tui.core.collection.readers import Collection, CollectionRequest
from gbr_tui.core.collection.records import HEADERS, BadRecord, GamePositions, Item, Record
from gbr_tui.core.collection.source import Cancelled
from gbr_tui.core.collection.store.likeness import board_parts, similar_columns
from gbr_tui.core.collection.store.schema import (
    COUNTS_WIDTH,
    HEADER_COLUMNS,
    MATERIAL_COLUMNS,
    SCHEMA,
    SCHEMA_VERSION,
    SIMILAR_KEY_INDEX,
    caption_meta,
    material_of,
)
from gbr_tui.core.collection.tally import result_index
from gbr_tui.core.collection.walk import Consumer, walk
from gbr_tui.core.families import family_of
from gbr_tui.core.hhdb import FIRST_COMMENT, kept_comment

_LINE_END = re.compile(rb"\r\n|\r|\n")
_CHUNK = 1 << 20
_TICK_RECORDS = 1024  # records (games) between two calls of ``build``'s ``tick``


def build(
    request: CollectionRequest,
    output: str,
    on_bad: Callable[[str, BadRecord], None] | None = None,
    tick: Callable[[int], bool] | None = None,
) -> tuple[int, int]:
    """Index ``request``'s files into ``output`` (written whole, then moved in place);
    (records classified, bad records). ``tick(bytes read so far)`` is called now and then; when
    it returns False, building stops (``Cancelled``) and nothing is written."""
    partial = f"{output}.part"
    Path(partial).unlink(missing_ok=True)
    database = sqlite3.connect(partial)
    classified = bad = done = 0
    try:
        database.executescript(SCHEMA)
        database.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [
                ("version", SCHEMA_VERSION),
                ("position", request.game_positions.value),
                *((name, value or "") for name, value in caption_meta(request)),
            ],
        )
        for source, path in enumerate(request.paths):
            progress = None if tick is None else functools.partial(_ticked, tick, done)
            found = _index_file(database, request, source, path, on_bad, progress)
            classified += found[0]
            bad += found[1]
            done += os.path.getsize(path)
        database.execute(SIMILAR_KEY_INDEX)
        database.commit()
    except BaseException:
        database.close()
        Path(partial).unlink(missing_ok=True)
        raise
    database.close()
    os.replace(partial, output)
    return classified, bad


def _ticked(tick: Callable[[int], bool], done: int, bytes_read: int) -> bool:
    return tick(done + bytes_read)


def _index_file(
    database: sqlite3.Connection,
    request: CollectionRequest,
    source: int,
    path: str,
    on_bad: Callable[[str, BadRecord], None] | None,
    tick: Callable[[int], bool] | None = None,
) -> tuple[int, int]:
    from gbr_tui.core.collection import ordered  # it loads multiprocessing

    status = os.stat(path)
    with request.open(path, Rule.COUNT) as collection:
        name = collection.name
        offsets = not collection.source.compression and collection.size is not None
        writer = _RowWriter(source, collection, request, on_bad, tick)
        # By ``request.jobs`` worker processes when the file allows, the rows written here.
        fens = request.game_positions == GamePositions.FINAL
        with contextlib.closing(ordered.records_with(collection, path, request, request.jobs, fens=fens)) as items:
            walk(writer.items_of(items), writer, games=False)
    rows, bads, captions, classified = writer.rows, writer.bads, writer.captions, writer.classified
    database.executemany("INSERT INTO comments VALUES (?, ?, ?)", writer.comments)
    boards, keys = similar_columns(writer.fens)
    if offsets:
        starts = _line_starts(path, sorted({row[_ROW_LINE] for row in rows}))
        rows = [
            (*row[:_ROW_OFFSET], starts.get(row[_ROW_LINE]), *row[_ROW_OFFSET + 1 :], key)
            for row, key in zip(rows, keys)
        ]
    else:
        rows = [(*row, key) for row, key in zip(rows, keys)]
    placeholders = ", ".join("?" * len(_RECORD_COLUMNS))
    (first,) = database.execute("SELECT COALESCE(MAX(rowid), 0) + 1 FROM records").fetchone()
    database.executemany("INSERT INTO boards VALUES (?, ?, ?, ?)", board_parts(first, boards))
    database.executemany(f"INSERT INTO records VALUES ({placeholders})", rows)
    database.executemany("INSERT INTO captions VALUES (?, ?, ?)", ((first + at, *held) for at, *held in captions))
    summary = _materials(source, rows, first)
    if summary:
        database.executemany(f"INSERT INTO materials VALUES ({', '.join('?' * len(summary[0]))})", summary)
    database.executemany("INSERT INTO material_counts VALUES (?, ?, ?, ?)", _counts_parts(source, summary))
    database.executemany("INSERT INTO families VALUES (?, ?, ?)", _families(source, rows))
    database.executemany(
        "INSERT INTO bad VALUES (?, ?, ?, ?)", [(source, bad.number, bad.line, bad.reason) for bad in bads]
    )
    database.execute(
        "INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?)",
        (source, name, os.path.abspath(path), status.st_size, status.st_mtime_ns, classified, len(bads)),
    )
    return classified, len(bads)


class _RowWriter(Consumer):
    """The rows of one file's records, its bad records and the captions to check, as the walk
    hands them over; ``tick(bytes read so far)`` every ``_TICK_RECORDS`` records (games), and
    building stops (``Cancelled``) when it returns False."""

    def __init__(
        self,
        source: int,
        collection: Collection,
        request: CollectionRequest,
        on_bad: Callable[[str, BadRecord], None] | None,
        tick: Callable[[int], bool] | None,
    ) -> None:
        self.source, self.collection, self.on_bad, self.tick = source, collection, on_bad, tick
        self.games = collection.reader.HOLDS_GAMES
        self.checked = request.game_positions != GamePositions.ALL  # as ``check`` and ``ClassIndex`` check
        self.rows: list[RecordRow] = []
        self.bads: list[BadRecord] = []
        self.captions: list[tuple[int, str, str | None]] = []  # (its place in rows, caption, position)
        self.comments: list[tuple[int, int, str]] = []  # (source, number, HHdb's first comment as kept)
        self.fens: list[str | None] = []
        self.classified = 0
        self.bytes_read = 0  # of the file, as far as can be told

    def items_of(self, items: Iterator[tuple[Item, Any, int | None]]) -> Iterator[Item]:
        """The items of ``ordered.records_with``'s triples, how far the file is read kept."""
        for item, _, done in items:
            self.bytes_read = done or self.bytes_read
            yield item

    def record(self, record: Record, first: bool) -> None:
        if first:
            self.classified += 1
            if FIRST_COMMENT in record.headers and (comment := kept_comment(record.headers)) is not None:
                self.comments.append((self.source, record.number, comment))
            tick = self.tick
            if tick is not None and record.number % _TICK_RECORDS == 0 and not tick(self.bytes_read):
                raise Cancelled("index not built: cancelled")
        if self.checked and record.caption is not None:
            self.captions.append((len(self.rows), record.caption, record.fen))
        self.rows.append(_row(self.source, record, self.games))
        self.fens.append(record.fen)

    def bad(self, bad: BadRecord) -> None:
        self.bads.append(bad)
        if self.on_bad is not None:
            self.on_bad(self.collection.name, bad)


#: A record's row as ``_row`` makes it (and ``records`` holds it): plain tuples, many of them;
#: their places named from the columns.
RecordRow = tuple[Any, ...]
_RECORD_COLUMNS = (
    "source",
    "number",
    "line",
    "offset",
    "ply",
    *MATERIAL_COLUMNS,
    "plies",
    "result",
    *HEADER_COLUMNS,
    "similar_key",
)
_AT = {name: place for place, name in enumerate(_RECORD_COLUMNS)}
_ROW_NUMBER, _ROW_LINE, _ROW_OFFSET, _ROW_RESULT = _AT["number"], _AT["line"], _AT["offset"], _AT["result"]
_ROW_MEN = slice(_AT[MATERIAL_COLUMNS[0]], _AT[MATERIAL_COLUMNS[-1]] + 1)
_ROW_FIELDS = [_AT[f"h_{name.lower()}"] for name in FIELDS]


def _materials(source: int, rows: list[RecordRow], first: int) -> list[tuple[Any, ...]]:
    """The rows of ``materials``: per material its records, games and results, records with
    each of FIELDS, and the rowid of its first record (rows are numbered from ``first``), so
    that the browser lists the classes from a few rows a class, not from every record."""
    held: dict[tuple[int, ...], list[int]] = {}
    for rowid, row in enumerate(rows, first):
        key = row[_ROW_MEN]
        counts = held.get(key)
        if counts is None:
            counts = held[key] = [0] * (6 + len(FIELDS)) + [rowid]
        counts[0] += 1
        result = row[_ROW_RESULT]
        if result is not None:
            counts[1] += 1
            counts[2 + result] += 1
        for place, column in enumerate(_ROW_FIELDS, 6):
            if row[column] is not None:
                counts[place] += 1
    return [(source, *key, *counts) for key, counts in held.items()]


#: Materials in one row of ``material_counts``: SQLite makes a whole blob in memory to give it,
#: so a part of some 800 KB, not a file's tens of MB, is in memory at a time.
_COUNTS_PART = 4096


def _counts_parts(source: int, summary: list[tuple[Any, ...]]) -> list[tuple[int, int, int, bytes]]:
    """The numbers of a source's ``materials`` rows as arrays, a part of them each (source,
    part, rows, counts): what the browser reads to list an index's classes at once, not a row
    at a time."""
    import numpy as np

    held = np.array([row[1:-1] for row in summary], dtype="<i8").reshape(len(summary), COUNTS_WIDTH)
    starts = range(0, len(held), _COUNTS_PART)
    return [
        (source, part, len(rows), rows.tobytes())
        for part, rows in enumerate(held[start : start + _COUNTS_PART] for start in starts)
    ]


def _families(source: int, rows: list[RecordRow]) -> list[tuple[int, str, int]]:
    """The rows of ``families``: per family its records, a game counted once in a family
    however many of its classes it passes through (as the browser counts them)."""
    counts: Counter[str] = Counter()
    of: dict[tuple[int, ...], str] = {}
    for _, game in itertools.groupby(rows, key=operator.itemgetter(_ROW_NUMBER)):  # by record (game) number
        families: set[str] = set()
        for row in game:
            men = row[_ROW_MEN]
            family = of.get(men)
            if family is None:
                family = of[men] = family_of(material_of(men))
            families.add(family)
        counts.update(families)
    return [(source, family, count) for family, count in counts.items()]


def _row(source: int, record: Record, games: bool) -> RecordRow:
    """A record's row; for games also its plies (every class) and its result (``result_index``)."""
    material = record.material
    headers = record.headers
    return (
        source,
        record.number,
        record.line,
        None,  # the offset, filled in from the line once the file has been read
        record.ply,
        *material.white,
        *material.black,
        *material.kings,
        record.plies,
        result_index(headers.get("Result")) if games else None,
        *(headers.get(name) for name in HEADERS),
    )


def _line_starts(path: str, lines: list[int]) -> dict[int, int]:
    """The byte offset where each of ``lines`` (sorted, 1-based) starts; line ends as the
    readers take them (LF, CR LF or CR)."""
    starts: dict[int, int] = {}
    wanted = iter(lines)
    target = next(wanted, None)
    line, start, base = 1, 0, 0
    with open(path, "rb") as file:
        while target is not None and (chunk := file.read(_CHUNK)):
            if chunk.endswith(b"\r"):  # never cut a CR LF in two
                chunk += file.read(1)
            for end in _LINE_END.finditer(chunk):
                while target is not None and target == line:
                    starts[target] = start
                    target = next(wanted, None)
                line, start = line + 1, base + end.end()
            base += len(chunk)
    if target == line:  # the last line, without a line end
        starts[target] = start
    return starts
