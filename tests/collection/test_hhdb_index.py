"""An index of an HHdb collection keeps what each study's first comment says (its EG number,
its stipulation, with the MC mark its composers), so that the browser and ``similar`` read
from the index what they read from the file; an index of the schema before, which kept no
comment, is refused as before (the browser reads the file instead)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import chess
import pytest

from gbr_tui.core import Rule
from gbr_tui.core.collection import ClassIndex, CollectionRequest, GamePositions, store
from gbr_tui.core.collection.store import StaleIndex, StoredIndex
from gbr_tui.core.hhdb import hhdb_fields, hhdb_words, tags_only
from gbr_tui.core.similar import WHITE
from tests.support.published import HHDB_STUDY, hhdb_study

MOVES = "1. h7 Nf6 2. h8=Q 1/2-1/2"  # a promotion: a second class under --position all


def _study(event: str, white: str, black: str, comment: str) -> str:
    return hhdb_study(event, white, black, comment, MOVES)


HHDB_PGN = (
    _study("#34", "Kubbel 12", "=0323.12g3g1 U1", "{stipulation: Win. EG#1234. 1st Prize, Shakhmaty 1925} ")
    + _study("#35", "Kubbel, Leonid", "=0323.12g3g1 MC", "{Kubbel and Troitzky. stipulation: =. EG#1235} ")
    + _study("#36", "Rinck", "=0323.12g3g1 AN", "")  # no comment
    + _study("#37", "Troitzky", "=0323.12g3g1", "{a remark and nothing HHdb's} ")
)


def _written(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "hhdb.pgn"
    path.write_text(HHDB_PGN)
    return path, store.default_index(str(path))


def _shown(index: ClassIndex | StoredIndex) -> list[tuple]:
    """Every record of every class as the browser shows it: place, position, tags, HHdb's fields
    and words."""
    shown = []
    for row in index.classes():
        for record in index.positions(row):
            found = index.record(record)
            headers = found.headers
            shown.append(
                (found.number, found.line, found.fen, tags_only(headers), hhdb_fields(headers), hhdb_words(headers))
            )
    return shown


@pytest.mark.parametrize("position", [GamePositions.START, GamePositions.ALL])
def test_the_browser_reads_the_first_comment_from_the_index_as_from_the_file(tmp_path, position) -> None:
    path, index = _written(tmp_path)
    request = CollectionRequest((str(path),), game_positions=position)
    store.build(request, index)
    from_file = ClassIndex(position)
    with request.open(str(path), Rule.COUNT) as read:
        from_file.read(read)
    from_index = StoredIndex(index, request, Rule.COUNT)
    shown = _shown(from_file)
    assert _shown(from_index) == shown
    from_index.close()
    by_number = {number: fields for number, _, _, _, fields, _ in shown}
    # As HHdb writes them: EG#N and "stipulation: ..." in the comment; with MC, the names
    # before its first full stop.
    assert (by_number[1]["eg"], by_number[1]["comment_stipulation"]) == (1234, "Win")
    assert "the first comment says White to play and win (Win)" in by_number[1]["stipulation_disagreement"]
    assert (by_number[2]["eg"], by_number[2]["composer"]) == (1235, "Kubbel and Troitzky")
    assert "eg" not in by_number[3] and "eg" not in by_number[4]
    with sqlite3.connect(index) as database:  # a row a study that says something, not a row a class
        kept = database.execute("SELECT source, number, comment FROM comments ORDER BY number").fetchall()
    assert kept == [
        (0, 1, "stipulation: Win. EG#1234"),
        (0, 2, "Kubbel and Troitzky. stipulation: =. EG#1235"),
    ]


def test_similar_reads_the_first_comment_from_the_index_as_from_the_file(tmp_path) -> None:
    path, index = _written(tmp_path)
    request = CollectionRequest((str(path),))
    board = chess.BaseBoard(HHDB_STUDY.split()[0])
    from_file = store.similar_in_collection(request, board, WHITE, 0)  # no index yet: the file
    store.build(request, index)
    from_index = store.similar_in_index(index, board, WHITE, 0, exact=False, same_side=True)
    assert [hhdb_fields(found.headers) for found in from_index] == [hhdb_fields(found.headers) for found in from_file]
    assert [hhdb_fields(found.headers).get("eg") for found in from_index] == [1234, 1235, None, None]


def test_an_index_of_schema_6_is_refused_and_the_browser_reads_the_file(tmp_path) -> None:
    path, index = _written(tmp_path)
    request = CollectionRequest((str(path),))
    store.build(request, index)
    with sqlite3.connect(index) as database:  # as schema 6 wrote it: no comments
        database.execute("DROP TABLE comments")
        database.execute("UPDATE meta SET value = '6' WHERE key = 'version'")
    refused = "an index of another version of gbr-tui; run `gbr-tui index` again"
    with pytest.raises(StaleIndex) as raised:
        StoredIndex(index, request, Rule.COUNT)
    assert refused in raised.value.message
    with pytest.raises(StaleIndex):
        next(store.read(index, GamePositions.START, Rule.COUNT))
    used, why = store.index_for(request)
    assert used is None and why is not None and refused in why
    board = chess.BaseBoard(HHDB_STUDY.split()[0])  # read from the file: the EG numbers are there
    found = store.similar_in_collection(request, board, WHITE, 0)
    assert [hhdb_fields(item.headers).get("eg") for item in found] == [1234, 1235, None, None]
