"""What ``classify INDEX`` and ``check INDEX`` read of an index: each source's classes under a
rule (``read``), and its records with a caption, checked (``captioned``), as reading the files
would give them.
"""

from __future__ import annotations

import functools
import heapq
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from gbr_tui.core.check import CaptionCheck, caption_checked, code_alone
from gbr_tui.core.code import Rule, encode
from gbr_tui.core.collection.readers import CollectionRequest
from gbr_tui.core.collection.records import HEADERS, BadRecord, GamePositions, Item, Record
from gbr_tui.core.collection.store.schema import (
    HEADER_COLUMNS,
    MATERIAL_COLUMNS,
    MEN,
    SQUARES,
    Selected,
    StaleIndex,
    caption_meta,
    check_fresh,
    material_of,
    not_ours,
    opened,
    ours,
    read_meta,
)
from gbr_tui.core.collection.tally import Tally
from gbr_tui.core.collection.walk import Games
from gbr_tui.core.describe import caption_options_words, index_captions_words
from gbr_tui.core.material import Material


@dataclass
class IndexedSource:
    """One source as the index gives it back: its name as it was read, its bad records in
    order, and its classes counted under the rule asked for."""

    name: str
    bad: list[BadRecord]
    tally: Tally = field(default_factory=Tally)


@dataclass
class CaptionedSource:
    """One source of an index as ``check`` reads it: its bad records and its records with a
    caption, each with its checked caption (None for a bad record), in file order (``items``),
    and how many records have no caption."""

    name: str
    items: Iterator[tuple[Item, CaptionCheck | str | None]]
    uncaptioned: int


class CaptionRow(NamedTuple):
    """A record with a caption: its rowid, its caption and position as read, its men."""

    record: int
    caption: str
    position: str
    men: tuple[int, ...]


class CheckedRow(NamedTuple):
    """A record with a caption, with what ``check`` prints of it."""

    record: int
    caption: str
    position: str
    men: tuple[int, ...]
    number: int
    line: int
    ply: int | None
    headers: tuple[str | None, ...]


Captioned = TypeVar("Captioned", CaptionRow, CheckedRow)


class MaterialCount(NamedTuple):
    men: tuple[int, ...]
    records: int  # not ``count``, which is tuple's method


#: Every record with a caption, in file order (``captioned_rows``).
CAPTIONS = Selected(CaptionRow, men=MATERIAL_COLUMNS)
_CHECKED = Selected(CheckedRow, men=MATERIAL_COLUMNS, headers=HEADER_COLUMNS)
# In the order each material was first met: a class lists equally frequent ones that way.
_MATERIALS = Selected(MaterialCount, men=MATERIAL_COLUMNS, records="COUNT(*)")
_BAD = "SELECT number, line, reason FROM bad WHERE source = ? ORDER BY rowid"


def read(
    index: str, position: GamePositions, rule: Rule, either_colour: bool = False, min_plies: int = 0
) -> Iterator[IndexedSource]:
    """The sources of an index, in order, with their classes under ``rule`` (games: with their
    results, ``either_colour`` and ``min_plies`` as the readers take them); StaleIndex when the
    index was built for other positions or a source has changed since."""
    database, _, sources = opened(index, position)
    try:
        for source in sources:
            check_fresh(index, source.path, source.size, source.mtime_ns)
            yield _source(database, source.id, source.name, source.classified, rule, either_colour, min_plies)
    finally:
        database.close()


def _source(
    database: sqlite3.Connection,
    source: int,
    name: str,
    classified: int,
    rule: Rule,
    either_colour: bool,
    min_plies: int,
) -> IndexedSource:
    bad = [BadRecord(number, line, reason) for number, line, reason in database.execute(_BAD, (source,))]
    found = IndexedSource(name, bad)
    games = database.execute("SELECT 1 FROM records WHERE source = ? AND result IS NOT NULL LIMIT 1", (source,))
    if games.fetchone() is not None:
        _add_games(database, source, found.tally, rule, either_colour, min_plies)
    else:
        men = ", ".join(MATERIAL_COLUMNS)
        query = f"SELECT {{columns}} FROM records WHERE source = ? GROUP BY {men} ORDER BY MIN(rowid)"
        for row in _MATERIALS.rows(database, query, (source,)):
            material = material_of(row.men)
            found.tally.add(encode(material, rule), material, row.records)
    found.tally.classified = classified
    found.tally.bad = len(bad)
    return found


def _add_games(
    database: sqlite3.Connection, source: int, tally: Tally, rule: Rule, either_colour: bool, min_plies: int
) -> None:
    """Each game's classes with its result, as the readers count them (``Tally.add_game``),
    grouped into games where the readers' are (``walk.Games``)."""
    rows = database.execute(
        f"SELECT number, {', '.join(MEN)}, wk, bk, plies, result FROM records WHERE source = ? ORDER BY rowid",
        (source,),
    )
    codes: dict[Material, str] = {}
    games = Games(functools.partial(tally.add_game, either_colour=either_colour))
    for number, *counts, white_kings, black_kings, plies, result in rows:
        if plies is not None and plies < min_plies:
            continue
        material = Material(tuple(counts[:5]), tuple(counts[5:]), (white_kings, black_kings))
        code = codes.get(material)
        if code is None:
            code = codes[material] = encode(material, rule)
        games.add(number, code, material, result)
    games.close()


def captioned(index: str, request: CollectionRequest, rule: Rule) -> Iterator[CaptionedSource]:
    """The sources of an index, in order, as ``check FILE...`` reads them with ``request``:
    each record with a caption checked under ``rule`` (``caption_checked``); StaleIndex when the
    index was built for other positions or from captions elsewhere than ``request``'s, or a
    source has changed since."""
    database, _, sources = opened(index, request.game_positions)
    try:
        with ours(index):
            meta = read_meta(database)
            held = caption_options_words(*(meta.get(name) for name, _ in caption_meta(request)))
            asked = caption_options_words(*(value for _, value in caption_meta(request)))
            if held != asked:
                raise StaleIndex(index_captions_words(index, held, asked))
            for source in sources:
                check_fresh(index, source.path, source.size, source.mtime_ns)
            for source in sources:
                (count,) = database.execute(
                    "SELECT COUNT(*) FROM captions JOIN records ON records.rowid = record WHERE source = ?",
                    (source.id,),
                ).fetchone()
                bad = database.execute(_BAD, (source.id,))
                bads: Iterator[tuple[Item, CaptionCheck | str | None]] = (
                    (BadRecord(*row), None) for row in bad.fetchall()
                )
                records: Iterator[tuple[Item, CaptionCheck | str | None]] = _checked_records(
                    database, index, rule, source.id
                )
                items = heapq.merge(bads, records, key=lambda item: item[0].number)
                yield CaptionedSource(source.name, _guarded(index, items), source.classified - count)
    finally:
        database.close()


def _checked_records(
    database: sqlite3.Connection, index: str, rule: Rule, source: int
) -> Iterator[tuple[Record, CaptionCheck | str]]:
    """Each record of ``source`` with a caption, as the readers gave it (its code under
    ``rule``), and its caption checked, in file order."""
    rows = captioned_rows(database, index, _CHECKED, "WHERE source = ?", (source,))
    codes: dict[Material, str] = {}
    for row, material, found in checked_captions(index, rule, rows, caption_checked):
        if not (type(row.number) is int and type(row.line) is int and type(row.ply) in (int, type(None))):
            raise not_ours(index, row.record)
        code = codes.get(material)
        if code is None:
            code = codes[material] = encode(material, rule)
        headers = {name: value for name, value in zip(HEADERS, row.headers) if type(value) is str}
        yield (
            Record(row.number, row.line, code, material, row.position, row.ply, headers=headers, caption=row.caption),
            found,
        )


def captioned_rows(
    database: sqlite3.Connection,
    index: str,
    selected: Selected[Captioned],
    where: str = "",
    parameters: tuple[Any, ...] = (),
) -> Iterator[Captioned]:
    """Each record with a caption, in file order, as ``selected`` (a CaptionRow or more)."""
    query = "SELECT {columns} FROM captions JOIN records ON records.rowid = record " + where + " ORDER BY record"
    for row in selected.rows(database, query, parameters):
        if type(row.caption) is not str or type(row.position) is not str:
            raise not_ours(index, row.record)
        yield row


def checked_captions(
    index: str, rule: Rule, rows: Iterator[Captioned], check: Callable[[str, str, Rule, Material], Any]
) -> Iterator[tuple[Captioned, Material, Any]]:
    """Each of ``captioned_rows`` with its material and ``check(caption, position, rule,
    material)``: a caption that prints a code alone is checked once for each material it is
    printed with (``code_alone``), not once a record."""
    materials: dict[tuple[int, ...], Material] = {}
    known: dict[tuple[str, tuple[int, ...]], Any] = {}
    for row in rows:
        caption, men = row.caption, row.men
        material = materials.get(men)
        if material is None:
            if not all(type(count) is int and 0 <= count <= SQUARES for count in men):
                raise not_ours(index, row.record)
            material = materials[men] = material_of(men)
        key = (caption, men)
        found = known.get(key)
        if found is None:
            found = check(caption, row.position, rule, material)
            if code_alone(caption, rule):
                known[key] = found
        yield row, material, found


_Item = TypeVar("_Item")


def _guarded(index: str, items: Iterator[_Item]) -> Iterator[_Item]:
    with ours(index):
        yield from items
