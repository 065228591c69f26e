"""The fixes of the endgame-statistics issue: the start position is read from the tags alone,
one label for a board without one king a side, files that are no collection, the share of
games in ``all`` mode."""

from __future__ import annotations

import chess
import pytest

from gbr_tui.core.collection import BadRecord, ClassIndex, Collection, CollectionError, Record
from gbr_tui.core.collection.reading import NOT_A_COLLECTION
from gbr_tui.core.explanation import describe_board
from tests.support.process import final_line, run_gbr

KRP_V_KR = "8/8/8/4k3/8/1r6/P7/KR6 w - - 0 1"  # spec: KRP v KR is 0400.10


def read(path, **options) -> list:
    with Collection(path, **options) as collection:
        return list(collection.records())


# --- start: the movetext is not replayed -------------------------------------------------------


def test_a_study_with_a_damaged_solution_is_classified_from_its_start(tmp_path):
    path = tmp_path / "studies.pgn"
    # 1. Zz9 is no move at all; 1. Ra8 then 1...Kxa8? is impossible: neither matters at the start.
    path.write_text(
        f'[Event "Study"]\n[FEN "{KRP_V_KR}"]\n\n1. Zz9 Kd4 *\n\n[Event "b"]\n[FEN "{KRP_V_KR}"]\n\n1. e4 {{\n'
    )
    items = read(path)
    assert [(type(item), item.number, item.code) for item in items] == [(Record, 1, "0400.10"), (Record, 2, "0400.10")]
    assert items[0].fen == KRP_V_KR
    # Its final position needs the moves: there the same game is bad, at the line of the move.
    final = read(path, game_positions="final")
    assert isinstance(final[0], BadRecord) and final[0].line == 4 and "Zz9" in final[0].reason


def test_a_bad_start_tag_is_still_bad_at_the_start(tmp_path):
    path = tmp_path / "bad.pgn"
    path.write_text('[Event "a"]\n[FEN "8/8/8/8 w - - 0 1"]\n\n1. e4 *\n')
    (item,) = read(path)
    assert isinstance(item, BadRecord) and item.line == 2


def test_a_game_without_tags_is_still_replayed_at_the_start(tmp_path):
    # Its moves are all that makes it a game: text that is no movetext is bad.
    path = tmp_path / "bare.pgn"
    path.write_text("1. e4 e5 *\n\n1. e4 Zz9 *\n")
    items = read(path, format="pgn")
    assert [type(item) for item in items] == [Record, BadRecord]
    assert items[0].code == "4888.88"  # the standard start: spec section 4


# --- one label for the men of a board without one king a side ----------------------------------

NO_KINGS = "8/8/8/8/8/8/8/8 w - - 0 1"
TWO_WHITE_KINGS = "KK6/8/8/8/8/8/8/7k w - - 0 1"
KINGS_ONLY = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


def test_an_empty_board_reads_the_same_in_the_editor_classify_and_the_browser(tmp_path):
    # The editor names the men as they stand: no kings, no men on either side is "- v -".
    assert describe_board(chess.Board(None), None).men == "- v -"
    path = tmp_path / "kings.fen"
    path.write_text(f"{NO_KINGS}\n{TWO_WHITE_KINGS}\n{KINGS_ONLY}\n{KINGS_ONLY}\n")
    records = read(path)
    assert [str(record.material) for record in records] == ["- v -", "KK v K", "K v K", "K v K"]
    # The summary (a fast count of whole blocks) names the same materials, most frequent first.
    result = run_gbr("classify", str(path))
    (row,) = [line for line in result.stdout.splitlines() if line.startswith("0000.00")]
    assert row.split(None, 3)[3] == "K v K, - v -, KK v K"
    assert final_line(result) == (4, 4, 0)
    index = ClassIndex()
    with Collection(path) as collection:
        index.read(collection)
    (row,) = index.classes()
    assert {str(material): count for material, count in row.materials} == {"K v K": 2, "- v -": 1, "KK v K": 1}


def test_one_king_a_side_is_checked_in_the_placement_only(tmp_path):
    # Castling rights KQkq name kings too; the placement of this FEN has one king a side.
    path = tmp_path / "start.fen"
    path.write_text(f"{chess.STARTING_FEN}\n{KINGS_ONLY}\n")
    result = run_gbr("classify", str(path))
    assert "K v K" in result.stdout and "-" not in result.stdout.split("\n", 2)[2].replace("-------", "")


# --- a file that is no collection ---------------------------------------------------------------


def test_text_that_is_not_chess_is_no_collection(tmp_path):
    path = tmp_path / "letter.txt"
    path.write_text("".join(f"Dear reader, this is line {n} of a letter\n".replace(",", "") for n in range(500)))
    with pytest.raises(CollectionError, match="not a chess collection"):
        read(path)
    result = run_gbr("classify", str(path))
    assert result.status == 2
    assert result.stderr.count("\n") == 1 and "not a chess collection" in result.stderr
    assert f"first {NOT_A_COLLECTION} records" in result.stderr and "line 1" in result.stderr


def test_a_file_whose_first_records_are_bad_but_not_all_is_a_collection(tmp_path):
    path = tmp_path / "some.fen"
    bad_lines = ["not a fen"] * (NOT_A_COLLECTION - 1)
    path.write_text("\n".join([*bad_lines, KRP_V_KR, "not a fen"]) + "\n")
    items = read(path)
    assert [item.line for item in items if isinstance(item, BadRecord)] == [
        *range(1, NOT_A_COLLECTION),
        NOT_A_COLLECTION + 1,
    ]
    result = run_gbr("classify", str(path))
    assert final_line(result) == (NOT_A_COLLECTION + 1, 1, NOT_A_COLLECTION)


def test_a_short_file_of_bad_records_reports_them(tmp_path):
    path = tmp_path / "few.fen"
    path.write_text("not a fen\nnor this\n")
    assert [item.line for item in read(path)] == [1, 2]


def test_a_jpeg_is_no_collection(tmp_path):
    path = tmp_path / "picture.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01" + bytes(range(256)) * 40)
    result = run_gbr("classify", str(path))
    assert result.status == 2 and "not a chess collection" in result.stderr


# --- all: the share is of games ------------------------------------------------------------------


def test_all_says_the_share_is_of_games(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text('[Event "a"]\n\n1. e4 d5 2. exd5 *\n')
    result = run_gbr("classify", "--position", "all", str(path))
    # One game in two classes (4888.88, then 4888.87 after 2. exd5): 100% each.
    assert result.stdout.count("100.0%") == 2
    assert "of the 1 game" in result.stdout and "more than 100%" in result.stdout
    assert "of the" not in run_gbr("classify", str(path)).stdout
