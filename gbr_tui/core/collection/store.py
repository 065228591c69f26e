"""A persistent index of collections: one SQLite file (Python's ``sqlite3``) that a later
``classify`` reads instead of the sources.

Per record it keeps the source, the record's number, line, byte offset (uncompressed files) and
ply, its headers, and the men of each type on each side: so every rule, form and pattern is a
query, not a re-read. It keeps the bad records as they were reported, the ``--position`` it
was built with, and each source's size and modification time: an index whose source has
changed, or gone, is never used (``StaleIndex`` says why).
"""

from __future__ import annotations

import itertools
import operator
import os
import re
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gbr_tui.core.code import Rule, encode
from gbr_tui.core.collection.readers import CollectionRequest
from gbr_tui.core.collection.records import HEADERS, BadRecord, CollectionError, Format, GamePositions, Record
from gbr_tui.core.collection.tally import Tally, result_index
from gbr_tui.core.material import Material

MAGIC = b"SQLite format 3\x00"
SCHEMA_VERSION = "2"  # 2: kings, plies and results
_MEN = ("wq", "wr", "wb", "wn", "wp", "bq", "br", "bb", "bn", "bp")
_HEADER_COLUMNS = tuple(f"h_{name.lower()}" for name in HEADERS)
_LINE_END = re.compile(rb"\r\n|\r|\n")
_CHUNK = 1 << 20
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
    request: CollectionRequest, output: str, on_bad: Callable[[str, BadRecord], None] | None = None
) -> tuple[int, int]:
    """Index ``request``'s files into ``output`` (written whole, then moved in place);
    (records classified, bad records)."""
    partial = f"{output}.part"
    Path(partial).unlink(missing_ok=True)
    database = sqlite3.connect(partial)
    classified = bad = 0
    try:
        database.executescript(_SCHEMA)
        database.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [("version", SCHEMA_VERSION), ("position", request.game_positions.value)],
        )
        for source, path in enumerate(request.paths):
            found = _index_file(database, request, source, path, on_bad)
            classified += found[0]
            bad += found[1]
        database.commit()
    finally:
        database.close()
    os.replace(partial, output)
    return classified, bad


def _index_file(
    database: sqlite3.Connection,
    request: CollectionRequest,
    source: int,
    path: str,
    on_bad: Callable[[str, BadRecord], None] | None,
) -> tuple[int, int]:
    status = os.stat(path)
    with request.open(path, Rule.COUNT) as collection:
        name = collection.name
        games = collection.format == Format.PGN
        offsets = not collection.source.compression and collection.size is not None
        rows: list[tuple] = []
        bads: list[BadRecord] = []
        game = classified = 0
        for item in collection.records(fens=False):
            if type(item) is BadRecord:
                bads.append(item)
                if on_bad is not None:
                    on_bad(name, item)
                continue
            if item.number != game:
                game = item.number
                classified += 1
            rows.append(_row(source, item, games))
    if offsets:
        starts = _line_starts(path, sorted({row[2] for row in rows}))
        rows = [(*row[:3], starts.get(row[2]), *row[4:]) for row in rows]
    placeholders = ", ".join("?" * (9 + len(_MEN) + len(_HEADER_COLUMNS)))
    database.executemany(f"INSERT INTO records VALUES ({placeholders})", rows)
    database.executemany(
        "INSERT INTO bad VALUES (?, ?, ?, ?)", [(source, bad.number, bad.line, bad.reason) for bad in bads]
    )
    database.execute(
        "INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?)",
        (source, name, os.path.abspath(path), status.st_size, status.st_mtime_ns, classified, len(bads)),
    )
    return classified, len(bads)


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
    try:
        database = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
        meta = dict(database.execute("SELECT key, value FROM meta"))
        sources = list(database.execute("SELECT id, name, path, size, mtime_ns, classified FROM sources ORDER BY id"))
    except sqlite3.Error as error:
        raise StaleIndex(f"{index}: not a gbr-tui index ({error})") from None
    try:
        if meta.get("version") != SCHEMA_VERSION:
            raise StaleIndex(f"{index}: an index of another version of gbr-tui; run `gbr-tui index` again")
        if meta.get("position") != position.value:
            raise StaleIndex(
                f"{index}: the index holds the classes of --position {meta.get('position')}, "
                f"not {position.value}; give --position {meta.get('position')} or index again"
            )
        for source, name, path, size, mtime_ns, classified in sources:
            _check_fresh(index, path, size, mtime_ns)
            yield _source(database, source, name, classified, rule, either_colour, min_plies)
    finally:
        database.close()


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
