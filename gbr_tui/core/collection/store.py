"""A persistent index of collections: one SQLite file (Python's ``sqlite3``) that a later
``classify`` and the browser (``StoredIndex``) read instead of the sources.

Per record it keeps the source, the record's number, line, byte offset (uncompressed files) and
ply, its headers, and the men of each type on each side: so every rule, form and pattern is a
query, not a re-read. A record with a printed caption (``start`` and ``final``: a caption is
printed with one position of a game) also keeps the caption and its position as read, so that
``check INDEX`` and the browser check it without the file. It keeps the bad records as they
were reported, the ``--position`` and the caption's tag or column it was built with, and each
source's size and modification time: an index whose source has changed, or gone, is never used
(``StaleIndex`` says why).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import heapq
import itertools
import operator
import os
import re
import sqlite3
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gbr_tui.core.check import CaptionCheck, caption_checked, code_alone, record_check
from gbr_tui.core.code import Rule, encode
from gbr_tui.core.collection.index import FAMILY_ORDER, FIELDS, ClassListing, IndexedRecord, largest_families
from gbr_tui.core.collection.material_rows import tally_of_materials
from gbr_tui.core.collection.read_back import SourceFile, csv_prefix, read_back
from gbr_tui.core.collection.readers import CollectionRequest
from gbr_tui.core.collection.records import HEADERS, BadRecord, CollectionError, Format, GamePositions, Item, Record
from gbr_tui.core.collection.source import MAX_LINE, Cancelled
from gbr_tui.core.collection.tally import ClassRow, Results, SortBy, Tally, result_index
from gbr_tui.core.describe import caption_options_words, index_captions_words
from gbr_tui.core.errors import GbrError
from gbr_tui.core.families import family_of
from gbr_tui.core.material import Material
from gbr_tui.core.patterns import ClassPattern

MAGIC = b"SQLite format 3\x00"
#: Where ``gbr-tui index FILE`` writes its index unless told (and where the browser looks for one).
INDEX_SUFFIX = ".gbr-index"
#: 2: kings, plies and results; 3: the materials and families tables; 4: captions; 5: material
#: counts in parts
SCHEMA_VERSION = "5"
_MEN = ("wq", "wr", "wb", "wn", "wp", "bq", "br", "bb", "bn", "bp")
_HEADER_COLUMNS = tuple(f"h_{name.lower()}" for name in HEADERS)
_FIELD_COUNTS = tuple(f"f_{name.lower()}" for name in FIELDS)  # the records of a material with that header
_LINE_END = re.compile(rb"\r\n|\r|\n")
_CHUNK = 1 << 20
_TICK_RECORDS = 1024  # records (games) between two calls of ``build``'s ``tick``
_SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sources (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL, size INTEGER, mtime_ns INTEGER,
    classified INTEGER NOT NULL, bad INTEGER NOT NULL
);
CREATE TABLE records (
    source INTEGER NOT NULL, number INTEGER NOT NULL, line INTEGER NOT NULL, offset INTEGER, ply INTEGER,
    {", ".join(f"{name} INTEGER NOT NULL" for name in _MEN)},
    wk INTEGER NOT NULL, bk INTEGER NOT NULL, plies INTEGER, result INTEGER,
    {", ".join(f"{name} TEXT" for name in _HEADER_COLUMNS)}
);
CREATE TABLE bad (source INTEGER NOT NULL, number INTEGER NOT NULL, line INTEGER NOT NULL, reason TEXT NOT NULL);
CREATE TABLE materials (
    source INTEGER NOT NULL, {", ".join(f"{name} INTEGER NOT NULL" for name in (*_MEN, "wk", "bk"))},
    count INTEGER NOT NULL, games INTEGER NOT NULL, {", ".join(f"r{index} INTEGER NOT NULL" for index in range(4))},
    {", ".join(f"{name} INTEGER NOT NULL" for name in _FIELD_COUNTS)}, first INTEGER NOT NULL
);
CREATE TABLE families (source INTEGER NOT NULL, family TEXT NOT NULL, count INTEGER NOT NULL);
CREATE TABLE material_counts (
    source INTEGER NOT NULL, part INTEGER NOT NULL, rows INTEGER NOT NULL, counts BLOB NOT NULL,
    PRIMARY KEY (source, part)
);
CREATE TABLE captions (record INTEGER PRIMARY KEY, caption TEXT NOT NULL, position TEXT NOT NULL);
"""


class StaleIndex(CollectionError):
    """An index that cannot stand for its sources any more (or is no index of ours)."""


@dataclass
class IndexedSource:
    """One source as the index gives it back: its name as it was read, its bad records in
    order, and its classes counted under the rule asked for."""

    name: str
    bad: list[BadRecord]
    tally: Tally = field(default_factory=Tally)


def is_index(path: str) -> bool:
    """Whether ``path`` is an SQLite file (and so, for gbr-tui, an index); a pipe or device is
    never looked into (what is read from it would be lost to the reader)."""
    if not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as file:
            return file.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


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
        database.executescript(_SCHEMA)
        database.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [
                ("version", SCHEMA_VERSION),
                ("position", request.game_positions.value),
                *((name, value or "") for name, value in _caption_meta(request)),
            ],
        )
        for source, path in enumerate(request.paths):
            progress = None if tick is None else functools.partial(_ticked, tick, done)
            found = _index_file(database, request, source, path, on_bad, progress)
            classified += found[0]
            bad += found[1]
            done += os.path.getsize(path)
        database.commit()
    except BaseException:
        database.close()
        Path(partial).unlink(missing_ok=True)
        raise
    database.close()
    os.replace(partial, output)
    return classified, bad


def _caption_meta(request: CollectionRequest) -> tuple[tuple[str, str | None], ...]:
    """Where the captions an index holds were read (the meta rows ``caption`` and ``code_column``)."""
    return ("caption", request.caption), ("code_column", request.code_column)


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
    status = os.stat(path)
    with request.open(path, Rule.COUNT) as collection:
        name = collection.name
        games = collection.format == Format.PGN
        offsets = not collection.source.compression and collection.size is not None
        rows: list[tuple] = []
        bads: list[BadRecord] = []
        captions: list[tuple] = []  # (the record's place in rows, its caption, its position)
        checked = request.game_positions != GamePositions.ALL  # as ``check`` and ``ClassIndex`` check
        game = classified = 0
        for item in collection.records(fens=request.game_positions == GamePositions.FINAL):
            if type(item) is BadRecord:
                bads.append(item)
                if on_bad is not None:
                    on_bad(name, item)
                continue
            if item.number != game:
                game = item.number
                classified += 1
                if tick is not None and game % _TICK_RECORDS == 0 and not tick(collection.bytes_read or 0):
                    raise Cancelled("index not built: cancelled")
            if checked and item.caption is not None:
                captions.append((len(rows), item.caption, item.fen))
            rows.append(_row(source, item, games))
    if offsets:
        starts = _line_starts(path, sorted({row[2] for row in rows}))
        rows = [(*row[:3], starts.get(row[2]), *row[4:]) for row in rows]
    placeholders = ", ".join("?" * (9 + len(_MEN) + len(_HEADER_COLUMNS)))
    (first,) = database.execute("SELECT COALESCE(MAX(rowid), 0) + 1 FROM records").fetchone()
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


#: Where a record's row (``_row``) holds its men and kings, its result, and its FIELDS.
_ROW_MEN = slice(5, 17)
_ROW_RESULT = 18
_ROW_FIELDS = [19 + HEADERS.index(name) for name in FIELDS]


def _materials(source: int, rows: list[tuple], first: int) -> list[tuple]:
    """The rows of ``materials``: per material its records, games and results, records with
    each of FIELDS, and the rowid of its first record (rows are numbered from ``first``), so
    that the browser lists the classes from a few rows a class, not from every record."""
    held: dict[tuple, list[int]] = {}
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


#: A material in ``material_counts``: the numbers of a ``materials`` row from its men to its
#: FIELDS counts (not its source, nor its first record), each a little-endian 64-bit integer.
_COUNTS_WIDTH = 12 + 6 + len(FIELDS)
#: Materials in one row of ``material_counts``: SQLite makes a whole blob in memory to give it,
#: so a part of some 800 KB, not a file's tens of MB, is in memory at a time.
_COUNTS_PART = 4096


def _counts_parts(source: int, summary: list[tuple]) -> list[tuple[int, int, int, bytes]]:
    """The numbers of a source's ``materials`` rows as arrays, a part of them each (source,
    part, rows, counts): what the browser reads to list an index's classes at once, not a row
    at a time."""
    import numpy as np

    held = np.array([row[1:-1] for row in summary], dtype="<i8").reshape(len(summary), _COUNTS_WIDTH)
    starts = range(0, len(held), _COUNTS_PART)
    return [
        (source, part, len(rows), rows.tobytes())
        for part, rows in enumerate(held[start : start + _COUNTS_PART] for start in starts)
    ]


def _families(source: int, rows: list[tuple]) -> list[tuple]:
    """The rows of ``families``: per family its records, a game counted once in a family
    however many of its classes it passes through (as the browser counts them)."""
    counts: Counter = Counter()
    of: dict[tuple, str] = {}
    for _, game in itertools.groupby(rows, key=operator.itemgetter(1)):  # by record (game) number
        families = set()
        for row in game:
            men = row[_ROW_MEN]
            family = of.get(men)
            if family is None:
                family = of[men] = family_of(Material(men[:5], men[5:10], men[10:]))
            families.add(family)
        counts.update(families)
    return [(source, family, count) for family, count in counts.items()]


def _row(source: int, record: Record, games: bool) -> tuple:
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


def read(
    index: str, position: GamePositions, rule: Rule, either_colour: bool = False, min_plies: int = 0
) -> Iterator[IndexedSource]:
    """The sources of an index, in order, with their classes under ``rule`` (games: with their
    results, ``either_colour`` and ``min_plies`` as the readers take them); StaleIndex when the
    index was built for other positions or a source has changed since."""
    database, _, sources = _opened(index, position)
    try:
        for source, name, path, size, mtime_ns, classified in sources:
            _check_fresh(index, path, size, mtime_ns)
            yield _source(database, source, name, classified, rule, either_colour, min_plies)
    finally:
        database.close()


def _opened(index: str, position: GamePositions | None) -> tuple[sqlite3.Connection, GamePositions, list[tuple]]:
    """The index opened read-only, the ``--position`` it was built with and its sources (id,
    name, path, size, mtime_ns, classified); StaleIndex when it is no index of this version, or
    was built for another ``position`` than one asked for."""
    database = None
    try:
        database = sqlite3.connect(f"file:{index}?mode=ro", uri=True, check_same_thread=False)
        meta = dict(database.execute("SELECT key, value FROM meta"))
        sources = list(database.execute("SELECT id, name, path, size, mtime_ns, classified FROM sources ORDER BY id"))
    except sqlite3.Error as error:
        if database is not None:
            database.close()
        raise StaleIndex(f"{index}: not a gbr-tui index ({error})") from None
    problem = None
    if meta.get("version") != SCHEMA_VERSION:
        problem = f"{index}: an index of another version of gbr-tui; run `gbr-tui index` again"
    elif meta.get("position") not in {kind.value for kind in GamePositions}:
        problem = f"{index}: not a gbr-tui index (it names no --position)"
    elif position is not None and meta["position"] != position.value:
        problem = (
            f"{index}: the index holds the classes of --position {meta['position']}, "
            f"not {position.value}; give --position {meta['position']} or index again"
        )
    if problem is not None:
        database.close()
        raise StaleIndex(problem)
    return database, GamePositions(meta["position"]), sources


def default_index(path: str) -> str:
    """Where ``gbr-tui index FILE`` writes FILE's index unless told (``-o``)."""
    return path + INDEX_SUFFIX


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


def stale_reason(index: str, position: GamePositions) -> str | None:
    """Why the index cannot stand for its sources read with ``position`` (None: it can)."""
    try:
        database, _, sources = _opened(index, position)
    except StaleIndex as error:
        return error.message
    database.close()
    try:
        for _, _, path, size, mtime_ns, _ in sources:
            _check_fresh(index, path, size, mtime_ns)
    except StaleIndex as error:
        return error.message
    return None


def _check_fresh(index: str, path: str, size: int, mtime_ns: int) -> None:
    try:
        status = os.stat(path)
    except OSError:
        raise StaleIndex(f"{index}: stale index: its source {path} is not there any more") from None
    if (status.st_size, status.st_mtime_ns) != (size, mtime_ns):
        raise StaleIndex(
            f"{index}: stale index: {path} has changed since it was indexed (its size or time differs); "
            "run `gbr-tui index` again"
        )


def _source(
    database: sqlite3.Connection,
    source: int,
    name: str,
    classified: int,
    rule: Rule,
    either_colour: bool,
    min_plies: int,
) -> IndexedSource:
    bad = [
        BadRecord(number, line, reason)
        for number, line, reason in database.execute(
            "SELECT number, line, reason FROM bad WHERE source = ? ORDER BY rowid", (source,)
        )
    ]
    found = IndexedSource(name, bad)
    men = ", ".join(_MEN)
    games = database.execute("SELECT 1 FROM records WHERE source = ? AND result IS NOT NULL LIMIT 1", (source,))
    if games.fetchone() is not None:
        _add_games(database, source, found.tally, rule, either_colour, min_plies)
    else:
        # In the order each material was first met: a class lists equally frequent ones that way.
        groups = database.execute(
            f"SELECT {men}, wk, bk, COUNT(*) FROM records WHERE source = ? GROUP BY {men}, wk, bk ORDER BY MIN(rowid)",
            (source,),
        )
        for *counts, white_kings, black_kings, count in groups:
            material = Material(tuple(counts[:5]), tuple(counts[5:]), (white_kings, black_kings))
            found.tally.add(encode(material, rule), material, count)
    found.tally.classified = classified
    found.tally.bad = len(bad)
    return found


def _add_games(
    database: sqlite3.Connection, source: int, tally: Tally, rule: Rule, either_colour: bool, min_plies: int
) -> None:
    """Each game's classes with its result, as the readers count them (``Tally.add_game``)."""
    rows = database.execute(
        f"SELECT number, {', '.join(_MEN)}, wk, bk, plies, result FROM records WHERE source = ? ORDER BY rowid",
        (source,),
    )
    codes: dict[Material, str] = {}
    for _, game in itertools.groupby(rows, key=operator.itemgetter(0)):
        game = list(game)
        result = game[0][-1]  # the game's, on each of its rows
        classes = []
        for _, *counts, white_kings, black_kings, plies, _ in game:
            if plies is not None and plies < min_plies:
                continue
            material = Material(tuple(counts[:5]), tuple(counts[5:]), (white_kings, black_kings))
            code = codes.get(material)
            if code is None:
                code = codes[material] = encode(material, rule)
            classes.append((code, material))
        if classes:
            tally.add_game(classes, result, either_colour)


@dataclass
class CaptionedSource:
    """One source of an index as ``check`` reads it: its bad records and its records with a
    caption, each with its checked caption (None for a bad record), in file order (``items``),
    and how many records have no caption."""

    name: str
    items: Iterator[tuple[Item, CaptionCheck | str | None]]
    uncaptioned: int


def captioned(index: str, request: CollectionRequest, rule: Rule) -> Iterator[CaptionedSource]:
    """The sources of an index, in order, as ``check FILE...`` reads them with ``request``:
    each record with a caption checked under ``rule`` (``caption_checked``); StaleIndex when the
    index was built for other positions or from captions elsewhere than ``request``'s, or a
    source has changed since."""
    database, _, sources = _opened(index, request.game_positions)
    try:
        with _ours(index):
            meta = dict(database.execute("SELECT key, value FROM meta"))
            held = caption_options_words(*(meta.get(name) for name, _ in _caption_meta(request)))
            asked = caption_options_words(*(value for _, value in _caption_meta(request)))
            if held != asked:
                raise StaleIndex(index_captions_words(index, held, asked))
            for _, _, path, size, mtime_ns, _ in sources:
                _check_fresh(index, path, size, mtime_ns)
            for source, name, _, _, _, classified in sources:
                (count,) = database.execute(
                    "SELECT COUNT(*) FROM captions JOIN records ON records.rowid = record WHERE source = ?", (source,)
                ).fetchone()
                bad = database.execute(
                    "SELECT number, line, reason FROM bad WHERE source = ? ORDER BY rowid", (source,)
                )
                bads = ((BadRecord(*row), None) for row in bad.fetchall())
                records = _checked_records(database, index, rule, source)
                items = heapq.merge(bads, records, key=lambda item: item[0].number)
                yield CaptionedSource(name, _guarded(index, items), classified - count)
    finally:
        database.close()


def _checked_records(
    database: sqlite3.Connection, index: str, rule: Rule, source: int
) -> Iterator[tuple[Record, CaptionCheck | str]]:
    """Each record of ``source`` with a caption, as the readers gave it (its code under
    ``rule``), and its caption checked, in file order."""
    columns = ("number", "line", "ply", *_HEADER_COLUMNS)
    rows = _captioned_rows(database, index, columns, "WHERE source = ?", (source,))
    codes: dict[Material, str] = {}
    for row, material, found in _checked(index, rule, rows, caption_checked):
        number, line, ply, *headers = row[15:]
        if not (type(number) is int and type(line) is int and type(ply) in (int, type(None))):
            raise StaleIndex(f"{index}: not a gbr-tui index (its record {row[0]} is none of ours)")
        code = codes.get(material)
        if code is None:
            code = codes[material] = encode(material, rule)
        headers = {name: value for name, value in zip(HEADERS, headers) if type(value) is str}
        yield Record(number, line, code, material, row[2], ply, headers=headers, caption=row[1]), found


def _captioned_rows(
    database: sqlite3.Connection, index: str, columns: Sequence[str] = (), where: str = "", parameters: tuple = ()
) -> Iterator[tuple]:
    """Each record with a caption, in file order: its rowid, caption, position and men (a
    Material's twelve numbers), then its ``columns`` of ``records``."""
    rows = database.execute(
        f"SELECT record, caption, position, {_MATERIAL}{''.join(', ' + name for name in columns)} "
        f"FROM captions JOIN records ON records.rowid = record {where} ORDER BY record",
        parameters,
    )
    for row in rows:
        if type(row[1]) is not str or type(row[2]) is not str:
            raise StaleIndex(f"{index}: not a gbr-tui index (its record {row[0]} is none of ours)")
        yield row


def _checked(index: str, rule: Rule, rows: Iterator[tuple], check: Callable) -> Iterator[tuple[tuple, Material, Any]]:
    """Each of ``_captioned_rows`` with its material and ``check(caption, position, rule,
    material)``: a caption that prints a code alone is checked once for each material it is
    printed with (``code_alone``), not once a record."""
    materials: dict[tuple, Material] = {}
    known: dict[tuple, Any] = {}
    for row in rows:
        men = row[3:15]
        material = materials.get(men)
        if material is None:
            if not all(type(count) is int and 0 <= count <= _SQUARES for count in men):
                raise StaleIndex(f"{index}: not a gbr-tui index (its record {row[0]} is none of ours)")
            material = materials[men] = Material(men[:5], men[5:10], men[10:])
        key = (row[1], men)
        found = known.get(key)
        if found is None:
            found = check(row[1], row[2], rule, material)
            if code_alone(row[1], rule):
                known[key] = found
        yield row, material, found


@contextlib.contextmanager
def _ours(index: str) -> Iterator[None]:
    """An index that SQLite cannot read as ours (a table or column missing): StaleIndex."""
    try:
        yield
    except sqlite3.Error as error:
        raise StaleIndex(f"{index}: not a gbr-tui index ({error})") from None


def _guarded(index: str, items: Iterator) -> Iterator:
    with _ours(index):
        yield from items


class NoOffsets(CollectionError):
    """An index of a compressed file: it holds no byte offsets to read a record back at, so
    the browser reads the files themselves (``request``)."""

    def __init__(self, message: str, request: CollectionRequest) -> None:
        super().__init__(message)
        self.request = request


_VARIABLES = 900  # materials asked for in one query (12 numbers each, under SQLite's 32766)
_MOST = 1 << 40  # no count in an index of ours is above this (a larger one: no index of ours)
_SQUARES = 64  # nor men of one type
_COUNTS_BOUNDS = [_SQUARES] * 12 + [_MOST] * (6 + len(FIELDS))  # of a material in ``material_counts``
_MATERIAL = ", ".join((*_MEN, "wk", "bk"))


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
        self._database, self.position, sources = _opened(index, None)
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

    def _checked_sources(self, sources: list[tuple], request: CollectionRequest) -> dict[int, SourceFile]:
        checked = {}
        self.files: list[str] = []
        self.classified = 0
        compressed = []
        for source, name, path, size, mtime_ns, classified in sources:
            _check_fresh(self.path, path, size, mtime_ns)
            with request.open(path, self._rule) as collection:
                form = collection.format
                if collection.source.compression:
                    compressed.append(path)
            prefix = b""
            if form == Format.CSV:
                first = self._database.execute("SELECT offset FROM records WHERE source = ? LIMIT 1", (source,))
                prefix = csv_prefix(path, (first.fetchone() or (0,))[0] or 0)
            wanted = dataclasses.replace(request, paths=(path,), format=form, game_positions=self.position, min_plies=0)
            checked[source] = SourceFile(name, path, size, mtime_ns, wanted, prefix)
            self.files.append(name)
            self.classified += classified
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
        men, records, played = [], [], []  # played: the rows of the materials of games, their results
        fields = np.zeros(len(FIELDS), dtype=np.int64)
        bounds = np.array(_COUNTS_BOUNDS)
        count = 0
        parts = self._database.execute("SELECT source, rows, counts FROM material_counts ORDER BY source, part")
        for source, rows, blob in parts:
            if type(rows) is not int or type(blob) is not bytes or rows < 0 or len(blob) != 8 * _COUNTS_WIDTH * rows:
                raise StaleIndex(f"{self.path}: not a gbr-tui index (the material counts of source {source})")
            held = np.frombuffer(blob, dtype="<i8").reshape(rows, _COUNTS_WIDTH)
            wrong = np.flatnonzero(((held < 0) | (held > bounds)).any(axis=1))
            if len(wrong):
                raise StaleIndex(
                    f"{self.path}: not a gbr-tui index (its material counts hold {held[wrong[0]].tolist()})"
                )
            men.append(held[:, :12].astype(np.uint8))
            records.append(held[:, 12].copy())
            games = np.flatnonzero(held[:, 13] > 0)
            if len(games):
                played.append((count + games, held[games, 14:18]))
            fields += held[:, 18:].sum(axis=0)
            count += rows
        men = np.concatenate(men) if men else np.zeros((0, 12), dtype=np.uint8)
        records = np.concatenate(records) if records else np.zeros(0, dtype=np.int64)
        self.games = bool(played)
        results: list[Results | None] | None = None
        if played:
            results = [None] * count
            for rows, counts in played:
                for row, held in zip(rows.tolist(), counts.tolist()):
                    results[row] = tuple(held)
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
        rows = _captioned_rows(self._database, self.path)
        for row, _, found in _checked(self.path, self._rule, rows, record_check):
            self.captions_checked += 1
            if found:
                self.disagreements[row[0]] = (row[1], found)

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
        materials = {}
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
                row = database.execute(
                    f"SELECT source, number, line, offset, ply, {_MATERIAL}, "
                    f"{', '.join(f'h_{name.lower()}' for name in FIELDS)} FROM records WHERE rowid = ?",
                    (rowid,),
                ).fetchone()
                after = database.execute(
                    "SELECT source, offset FROM records WHERE rowid > ? AND (source != ? OR offset > ?) LIMIT 1",
                    (rowid, row[0], row[3]),  # its source and offset
                ).fetchone()
            source, number, line, offset, ply = row[:5]
            stored = self._sources.get(source)
            if stored is None or not all(type(held) is int for held in (number, line, offset, ply or 0)):
                raise CollectionError(f"{self.path}: not a gbr-tui index (its record {rowid} is none of ours)")
        except CollectionError as error:
            return IndexedRecord(self.path, 0, 0, "", {}, error.message)
        headers = {name: str(value)[:MAX_LINE] for name, value in zip(FIELDS, row[17:]) if value}
        end = after[1] if after is not None and after[0] == source and type(after[1]) is int else stored.size
        try:
            fen = self._read_back(stored, number, line, offset, end, ply, Material(row[5:10], row[10:15], row[15:17]))
        except CollectionError as error:
            return IndexedRecord(stored.name, number, line, "", headers, error.message)
        return IndexedRecord(stored.name, number, line, fen, headers)

    def _read_back(
        self, source: SourceFile, number: int, line: int, offset: int, end: int, ply: int | None, material: Material
    ) -> str:
        """The record's position, read at its offset; CollectionError when the file has changed
        since it was indexed (or the record is not what the index holds)."""
        _check_fresh(self.path, source.path, source.size, source.mtime_ns)
        if not 0 <= offset < end <= source.size:
            raise CollectionError(f"{self.path}: not a gbr-tui index (record {number} is not within its file)")
        return read_back(source, number, line, offset, end, ply, material, "run `gbr-tui index` again").fen
