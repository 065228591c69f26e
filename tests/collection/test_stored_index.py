"""The browser's reading of an index (``StoredIndex``): what ``ClassIndex`` gives from the file
itself, record for record; an index that cannot stand for its file is refused or said."""

from __future__ import annotations

import bz2
import os
import random
import sqlite3
from pathlib import Path

import pytest

from gbr_tui.core import Rule
from gbr_tui.core.collection import ClassIndex, CollectionError, CollectionRequest, GamePositions, store
from gbr_tui.core.collection.browsed import BrowsedIndex
from gbr_tui.core.collection.read_back import read_back
from gbr_tui.core.collection.source import Cancelled
from gbr_tui.core.collection.store import NoOffsets, StaleIndex, StoredIndex, browse, building
from tests.support.captions import WRITERS
from tests.support.seeded import pgn_text, position_lines, seeded_file

# A header and a record whose quoted field spans two lines: read back, the header comes first.
CSV_TEXT = (
    'id,fen,note\np1,8/8/8/4k3/8/8/8/KR6 w - - 0 1,"two\nlines"\n'
    "p2,not a fen,x\np3,k7/8/8/8/8/8/8/KQQ5 w - - 0 1,y\np4,8/8/8/4k3/8/1r6/P7/KR6 b - - 0 1,z\n"
)
JSONL_TEXT = (
    '{"fen": "8/8/8/4k3/8/8/8/KR6 w - - 0 1", "Event": "one"}\n{"fen": 3}\n{"fen": "k7/8/8/8/8/8/8/KQQ5 w - - 0 1"}\n'
)


def collection(tmp_path: Path, kind: str) -> Path:
    rng = random.Random(f"stored-{kind}")
    texts = {
        "pgn": lambda: pgn_text(rng, 120),
        "epd": lambda: position_lines(rng, 300, True),
        "fen": lambda: position_lines(rng, 300, False).replace("\n", "\r\n"),
        "csv": lambda: CSV_TEXT,
        "jsonl": lambda: JSONL_TEXT,
    }
    path = tmp_path / f"mixed.{kind}"
    path.write_bytes(texts[kind]().encode())
    return path


def opened_both_ways(path: Path, position: GamePositions, rule: Rule = Rule.COUNT) -> tuple[ClassIndex, StoredIndex]:
    request = CollectionRequest((str(path),), game_positions=position)
    store.build(request, store.default_index(str(path)))
    from_file = ClassIndex()
    with request.open(str(path), rule) as read:
        from_file.read(read)
    return from_file, StoredIndex(store.default_index(str(path)), request, rule)


CASES = [
    *(("pgn", position) for position in GamePositions),
    ("epd", GamePositions.START),
    ("fen", GamePositions.START),
    ("csv", GamePositions.START),
    ("jsonl", GamePositions.START),
]


def test_the_browser_reads_either_index_by_the_same_protocol(tmp_path):
    path = collection(tmp_path, "pgn")
    from_file, from_index = opened_both_ways(path, GamePositions.FINAL)
    from_file = ClassIndex(GamePositions.FINAL)  # as the reading process makes it
    assert isinstance(from_file, BrowsedIndex) and isinstance(from_index, BrowsedIndex)
    assert (from_file.position, from_file.index_file) == (GamePositions.FINAL, None)
    assert (from_index.position, from_index.index_file) == (GamePositions.FINAL, store.default_index(str(path)))
    from_file.close()
    from_index.close()
    with pytest.raises(CollectionError, match="cannot be read"):
        from_index.positions(from_index.classes()[0])  # closed


@pytest.mark.parametrize("kind, position", CASES)
def test_an_index_gives_the_browser_what_the_file_gives(tmp_path, kind, position):
    from_file, from_index = opened_both_ways(collection(tmp_path, kind), position, Rule.PROMOTED)
    assert from_index.position == position
    assert from_index.classified == from_file.classified and from_index.bad == from_file.bad
    assert from_index.files == from_file.files and from_index.fields == from_file.fields
    assert from_index.games == from_file.games
    assert from_index.largest_families(30) == from_file.largest_families(30)
    assert from_file.bad, "the inputs have bad records"
    for either_colour in (False, True):
        rows = from_file.classes(either_colour=either_colour)
        assert from_index.classes(either_colour=either_colour) == rows and rows
        for row in rows:
            records = [from_file.record(record) for record in from_file.positions(row, either_colour)]
            read_back = [from_index.record(record) for record in from_index.positions(row, either_colour)]
            assert read_back == records  # the same places, headers and positions, in file order
    from_index.close()


@pytest.mark.parametrize("kind, position", [("pgn", GamePositions.ALL), ("epd", GamePositions.START)])
def test_material_counts_kept_in_parts_list_the_same_classes(tmp_path, monkeypatch, kind, position):
    """SQLite makes a whole blob in memory to give it: the counts are kept a part at a time."""
    monkeypatch.setattr(building, "_COUNTS_PART", 2)
    from_file, from_index = opened_both_ways(collection(tmp_path, kind), position)
    with sqlite3.connect(from_index.path) as database:
        parts = database.execute("SELECT part, rows FROM material_counts ORDER BY part").fetchall()
    assert len(parts) >= 2 and [part for part, _ in parts] == list(range(len(parts)))
    assert all(rows == 2 for _, rows in parts[:-1]) and 0 < parts[-1][1] <= 2
    assert from_index.games == (kind == "pgn") and from_index.fields == from_file.fields
    for either_colour in (False, True):
        assert from_index.classes(either_colour=either_colour) == from_file.classes(either_colour=either_colour)
    from_index.close()


def test_a_changed_file_is_refused_when_opened_and_said_when_a_record_is_read(tmp_path):
    path = collection(tmp_path, "fen")
    _, from_index = opened_both_ways(path, GamePositions.START)
    row = from_index.classes()[0]
    first = from_index.positions(row)[0]
    with open(path, "a") as file:
        file.write("8/8/8/4k3/8/8/8/KR6 w - - 0 1\n")
    problem = from_index.record(first).problem
    assert problem is not None and "stale index" in problem and "has changed" in problem
    with pytest.raises(StaleIndex, match="has changed since it was indexed"):
        StoredIndex(store.default_index(str(path)), CollectionRequest((str(path),)), Rule.COUNT)
    os.remove(path)
    with pytest.raises(StaleIndex, match="is not there any more"):
        StoredIndex(store.default_index(str(path)), CollectionRequest((str(path),)), Rule.COUNT)


def test_an_index_of_a_compressed_file_sends_the_browser_to_the_file(tmp_path):
    path = tmp_path / "mixed.fen.bz2"
    path.write_bytes(bz2.compress(position_lines(random.Random(1), 50, False).encode()))
    request = CollectionRequest((str(path),), game_positions=GamePositions.FINAL)
    store.build(request, str(tmp_path / "packed.idx"))
    with pytest.raises(NoOffsets) as raised:
        StoredIndex(str(tmp_path / "packed.idx"), CollectionRequest((str(tmp_path / "packed.idx"),)), Rule.COUNT)
    assert raised.value.request.paths == (str(path),)
    assert raised.value.request.game_positions == GamePositions.FINAL  # as the index was built


def test_the_default_index_is_used_only_when_fresh_and_of_the_same_position(tmp_path):
    path = collection(tmp_path, "pgn")
    request = CollectionRequest((str(path),))
    assert store.index_for(request) == (None, None)
    store.build(request, store.default_index(str(path)))
    assert store.index_for(request) == (store.default_index(str(path)), None)
    assert store.index_for(CollectionRequest((store.default_index(str(path)),))) == (
        store.default_index(str(path)),
        None,
    )
    index, why = store.index_for(CollectionRequest((str(path),), game_positions=GamePositions.FINAL))
    assert index is None and "--position start, not final" in why
    os.utime(path, ns=(1, 1))
    index, why = store.index_for(request)
    assert index is None and "has changed" in why


def test_an_index_is_offered_for_a_big_plain_file_with_nothing_at_its_default_name(tmp_path):
    path = collection(tmp_path, "epd")
    request = CollectionRequest((str(path),))
    size = path.stat().st_size
    assert store.index_offer(request, size) == store.default_index(str(path))
    assert store.index_offer(request, size + 1) is None  # smaller than asked
    packed = tmp_path / "mixed.epd.bz2"
    packed.write_bytes(bz2.compress(path.read_bytes()))
    assert store.index_offer(CollectionRequest((str(packed),)), 1) is None
    Path(store.default_index(str(path))).write_text("someone's file")
    assert store.index_offer(request, 1) is None  # never written over


def test_a_cancelled_build_leaves_no_index(tmp_path):
    path = collection(tmp_path, "pgn")
    seen = []

    def tick(bytes_read: int) -> bool:
        seen.append(bytes_read)
        return False

    with pytest.raises(Cancelled):
        # Ticks come every 1024 games: the file is made long enough for one.
        path.write_text(path.read_text() * 10)
        store.build(CollectionRequest((str(path),)), store.default_index(str(path)), tick=tick)
    assert seen and 0 < seen[0] <= path.stat().st_size
    assert not os.path.exists(store.default_index(str(path)))
    assert not os.path.exists(store.default_index(str(path)) + ".part")


def test_a_tampered_index_is_refused_or_said_never_raised(tmp_path):
    path = collection(tmp_path, "epd")
    index = store.default_index(str(path))
    request = CollectionRequest((str(path),))
    store.build(request, index)
    with sqlite3.connect(index) as database:  # a record's offset past its file's end
        database.execute("UPDATE records SET offset = 1 << 40 WHERE rowid = 1")
    stored = StoredIndex(index, request, Rule.COUNT)
    problem = stored.record(1).problem
    assert problem is not None and "not within its file" in problem
    stored.close()
    with sqlite3.connect(index) as database:  # 100 White rooks (the second number): no board holds them
        (counts,) = database.execute("SELECT counts FROM material_counts").fetchone()
        rooks = (100).to_bytes(8, "little")
        database.execute("UPDATE material_counts SET counts = ?", (counts[:8] + rooks + counts[16:],))
    with pytest.raises(StaleIndex, match=r"not a gbr-tui index \(its material counts hold \[\d+, 100,"):
        StoredIndex(index, request, Rule.COUNT)
    with sqlite3.connect(index) as database:  # cut short
        database.execute("UPDATE material_counts SET counts = ?", (counts[:-8],))
    with pytest.raises(StaleIndex, match=r"not a gbr-tui index \(the material counts of source 0\)"):
        StoredIndex(index, request, Rule.COUNT)
    with sqlite3.connect(index) as database:
        database.execute("DROP TABLE material_counts")
    with pytest.raises(StaleIndex, match=r"not a gbr-tui index \(no such table: material_counts"):
        StoredIndex(index, request, Rule.COUNT)


def captioned_file(tmp_path: Path, kind: str) -> Path:
    """A collection with captions that agree, disagree and do not decode, among bad records."""
    if kind == "csv":
        path = tmp_path / "studies.csv"
        WRITERS["csv"](path)
        return path
    return seeded_file(tmp_path, kind, 0)


def by_place(index: ClassIndex | StoredIndex) -> dict[tuple, tuple]:
    """The disagreements by the file, number and line of their records (the ids differ)."""
    return {
        (found.file, found.number, found.line): value
        for key, value in index.disagreements.items()
        if (found := index.record(key))
    }


@pytest.mark.parametrize(
    "kind, position",
    [("pgn", "start"), ("pgn", "final"), ("pgn", "all"), ("epd", "start"), ("jsonl", "start"), ("csv", "start")],
)
def test_an_index_checks_the_captions_the_file_checks(tmp_path, kind, position):
    path = captioned_file(tmp_path, kind)
    for rule in Rule:
        from_file, from_index = opened_both_ways(path, GamePositions(position), rule)
        assert from_index.captions_checked == from_file.captions_checked
        assert by_place(from_index) == by_place(from_file)
        from_index.close()
    # A caption is printed with one position of a game, not with every class it passes through.
    if position == "all":
        assert from_file.captions_checked == 0
    else:
        parts = {part for _, found in from_file.disagreements.values() for part, _ in found}
        assert from_file.disagreements and "caption" in parts  # some disagree, some do not decode


def test_a_tampered_caption_is_refused(tmp_path):
    path = captioned_file(tmp_path, "epd")
    index = store.default_index(str(path))
    store.build(CollectionRequest((str(path),)), index)
    with sqlite3.connect(index) as database:  # bytes, not text: no caption of ours
        database.execute("UPDATE captions SET position = x'00ff' WHERE record = (SELECT MAX(record) FROM captions)")
    with pytest.raises(StaleIndex, match="not a gbr-tui index"):
        StoredIndex(index, CollectionRequest((str(path),)), Rule.COUNT)


@pytest.mark.parametrize(
    "kind, position", [("pgn", GamePositions.ALL), ("fen", GamePositions.START), ("csv", GamePositions.START)]
)
def test_records_read_back_whatever_order_sqlite_gives_unordered_rows(tmp_path, monkeypatch, kind, position):
    """A record is read up to the next record's offset in file order, and a CSV file's header
    before its first record: asked for in that order, since SQLite gives the rows of a query
    without ORDER BY in any order it likes (here the reverse of its usual one)."""
    path = collection(tmp_path, kind)
    request = CollectionRequest((str(path),), game_positions=position)
    store.build(request, store.default_index(str(path)))
    connect = sqlite3.connect

    def reversing(*args, **kwargs) -> sqlite3.Connection:
        database = connect(*args, **kwargs)
        database.execute("PRAGMA reverse_unordered_selects = ON")
        return database

    ranges = set()

    def ranged(source, number, line, offset, end, *rest):
        ranges.add((offset, end))
        return read_back(source, number, line, offset, end, *rest)

    monkeypatch.setattr(sqlite3, "connect", reversing)
    monkeypatch.setattr(browse, "read_back", ranged)
    from_file = ClassIndex()
    with request.open(str(path), Rule.COUNT) as read:
        from_file.read(read)
    from_index = StoredIndex(store.default_index(str(path)), request, Rule.COUNT)
    for row in from_file.classes():
        records = [from_file.record(record) for record in from_file.positions(row)]
        assert [from_index.record(record) for record in from_index.positions(row)] == records
    from_index.close()
    offsets = sorted({offset for offset, _ in ranges})
    assert len(offsets) > 1 and sorted(ranges) == list(zip(offsets, [*offsets[1:], path.stat().st_size]))
