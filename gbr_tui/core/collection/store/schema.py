"""The index's tables, its version, and opening it: checked to be ours, of this version, built
for the positions asked for, and fresh (its sources unchanged since).

Rows are read by name: a query's columns are made from a NamedTuple's fields (``Selected``),
a group of columns (a material's twelve men, the headers) read back as one tuple.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from gbr_tui.core.collection.index import FIELDS
from gbr_tui.core.collection.readers import CollectionRequest
from gbr_tui.core.collection.records import HEADERS, CollectionError, GamePositions
from gbr_tui.core.material import Material

MAGIC = b"SQLite format 3\x00"
#: Where ``gbr-tui index FILE`` writes its index unless told (and where the browser looks for one).
INDEX_SUFFIX = ".gbr-index"
#: 2: kings, plies and results; 3: the materials and families tables; 4: captions; 5: material
#: counts in parts; 6: each record's men as bitboards and its canonical key under the board
#: transforms (``similar``, ``duplicates``); 7: what HHdb's first comment says (``comments``)
SCHEMA_VERSION = "7"
MEN = ("wq", "wr", "wb", "wn", "wp", "bq", "br", "bb", "bn", "bp")
#: A Material's twelve numbers as ``records`` and ``materials`` hold them (``material_of``).
MATERIAL_COLUMNS = (*MEN, "wk", "bk")
HEADER_COLUMNS = tuple(f"h_{name.lower()}" for name in HEADERS)
FIELD_COLUMNS = tuple(f"h_{name.lower()}" for name in FIELDS)  # the headers shown in the browser
_FIELD_COUNTS = tuple(f"f_{name.lower()}" for name in FIELDS)  # the records of a material with that header
#: A material in ``material_counts``: the numbers of a ``materials`` row from its men to its
#: FIELDS counts (not its source, nor its first record), each a little-endian 64-bit integer.
COUNTS_WIDTH = len(MATERIAL_COLUMNS) + 6 + len(FIELDS)
SQUARES = 64  # no count of men of one type in an index of ours is above this

SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sources (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL, size INTEGER, mtime_ns INTEGER,
    classified INTEGER NOT NULL, bad INTEGER NOT NULL
);
CREATE TABLE records (
    source INTEGER NOT NULL, number INTEGER NOT NULL, line INTEGER NOT NULL, offset INTEGER, ply INTEGER,
    {", ".join(f"{name} INTEGER NOT NULL" for name in MATERIAL_COLUMNS)}, plies INTEGER, result INTEGER,
    {", ".join(f"{name} TEXT" for name in HEADER_COLUMNS)}, similar_key INTEGER
);
CREATE TABLE bad (source INTEGER NOT NULL, number INTEGER NOT NULL, line INTEGER NOT NULL, reason TEXT NOT NULL);
CREATE TABLE materials (
    source INTEGER NOT NULL, {", ".join(f"{name} INTEGER NOT NULL" for name in MATERIAL_COLUMNS)},
    count INTEGER NOT NULL, games INTEGER NOT NULL, {", ".join(f"r{index} INTEGER NOT NULL" for index in range(4))},
    {", ".join(f"{name} INTEGER NOT NULL" for name in _FIELD_COUNTS)}, first INTEGER NOT NULL
);
CREATE TABLE families (source INTEGER NOT NULL, family TEXT NOT NULL, count INTEGER NOT NULL);
CREATE TABLE material_counts (
    source INTEGER NOT NULL, part INTEGER NOT NULL, rows INTEGER NOT NULL, counts BLOB NOT NULL,
    PRIMARY KEY (source, part)
);
CREATE TABLE captions (record INTEGER PRIMARY KEY, caption TEXT NOT NULL, position TEXT NOT NULL);
CREATE TABLE boards (first INTEGER PRIMARY KEY, rows INTEGER NOT NULL, bits BLOB NOT NULL, turns BLOB NOT NULL);
CREATE TABLE comments (
    source INTEGER NOT NULL, number INTEGER NOT NULL, comment TEXT NOT NULL, PRIMARY KEY (source, number)
) WITHOUT ROWID;
"""
#: A record's HHdb first comment as ``comments`` keeps it (``hhdb.kept_comment``): a row a game
#: (record number) that has one, not a row a record; a column of a query on ``records``.
COMMENT_COLUMN = (
    "(SELECT comment FROM comments WHERE comments.source = records.source AND comments.number = records.number)"
)
#: Made once the records are in (an index built as rows are added is slower to build).
SIMILAR_KEY_INDEX = "CREATE INDEX records_similar_key ON records (similar_key)"

Row = TypeVar("Row", bound=tuple[Any, ...])


class Selected(Generic[Row]):
    """The columns of a query, made from the fields of ``row`` (a NamedTuple): each field is
    the column of its name, or what ``columns`` gives for it: an expression, or a group of
    columns read back as one tuple. ``rows`` runs the query with its rows of that type."""

    def __init__(self, row: type[Row], **columns: str | tuple[str, ...]) -> None:
        self._row = row
        names: list[str] = []
        self._places: list[int | slice] = []
        for name in row._fields:  # type: ignore[attr-defined]  # a NamedTuple's: no TypeVar bound can say so
            held = columns.get(name, name)
            if isinstance(held, tuple):
                self._places.append(slice(len(names), len(names) + len(held)))
                names += held
            else:
                self._places.append(len(names))
                names.append(held)
        self.columns = ", ".join(names)

    def rows(self, database: sqlite3.Connection, query: str, parameters: Sequence[Any] = ()) -> Iterator[Row]:
        """The rows of ``query`` (its columns written ``{columns}``)."""
        cursor = database.cursor()
        cursor.row_factory = self._made
        return cursor.execute(query.format(columns=self.columns), parameters)

    def _made(self, _: sqlite3.Cursor, values: tuple[Any, ...]) -> Row:
        return self._row(*(values[place] for place in self._places))


class SourceRow(NamedTuple):
    """One source of an index as ``sources`` holds it."""

    id: int
    name: str
    path: str
    size: int
    mtime_ns: int
    classified: int


_SOURCES = Selected(SourceRow)


class StaleIndex(CollectionError):
    """An index that cannot stand for its sources any more (or is no index of ours)."""


def material_of(men: Sequence[int]) -> Material:
    """The Material of a row's twelve numbers (``MATERIAL_COLUMNS``)."""
    return Material(tuple(men[:5]), tuple(men[5:10]), (men[10], men[11]))


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


def default_index(path: str) -> str:
    """Where ``gbr-tui index FILE`` writes FILE's index unless told (``-o``)."""
    return path + INDEX_SUFFIX


def caption_meta(request: CollectionRequest) -> tuple[tuple[str, str | None], ...]:
    """Where the captions an index holds were read (the meta rows ``caption`` and ``code_column``)."""
    return ("caption", request.caption), ("code_column", request.code_column)


def opened(index: str, position: GamePositions | None) -> tuple[sqlite3.Connection, GamePositions, list[SourceRow]]:
    """The index opened read-only, the ``--position`` it was built with and its sources;
    StaleIndex when it is no index of this version, or was built for another ``position``
    than one asked for."""
    database = None
    try:
        database = sqlite3.connect(f"file:{index}?mode=ro", uri=True, check_same_thread=False)
        meta = read_meta(database)
        sources = list(_SOURCES.rows(database, "SELECT {columns} FROM sources ORDER BY id"))
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


def read_meta(database: sqlite3.Connection) -> Mapping[str, str]:
    return {key: value for key, value in database.execute("SELECT key, value FROM meta")}


def stale_reason(index: str, position: GamePositions) -> str | None:
    """Why the index cannot stand for its sources read with ``position`` (None: it can)."""
    try:
        database, _, sources = opened(index, position)
    except StaleIndex as error:
        return error.message
    database.close()
    try:
        for source in sources:
            check_fresh(index, source.path, source.size, source.mtime_ns)
    except StaleIndex as error:
        return error.message
    return None


def check_fresh(index: str, path: str, size: int, mtime_ns: int) -> None:
    """StaleIndex when the source at ``path`` has gone or changed since it was indexed."""
    try:
        status = os.stat(path)
    except OSError:
        raise StaleIndex(f"{index}: stale index: its source {path} is not there any more") from None
    if (status.st_size, status.st_mtime_ns) != (size, mtime_ns):
        raise StaleIndex(
            f"{index}: stale index: {path} has changed since it was indexed (its size or time differs); "
            "run `gbr-tui index` again"
        )


@contextlib.contextmanager
def ours(index: str) -> Iterator[None]:
    """An index that SQLite cannot read as ours (a table or column missing): StaleIndex."""
    try:
        yield
    except sqlite3.Error as error:
        raise StaleIndex(f"{index}: not a gbr-tui index ({error})") from None


def not_ours(index: str, record: int) -> StaleIndex:
    return StaleIndex(f"{index}: not a gbr-tui index (its record {record} is none of ours)")
