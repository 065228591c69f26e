"""`gbr-tui similar` and `gbr-tui duplicates`, on files, on stdin and on indexes.

The collections are made here from the spec's published positions (section 4), each planted
again turned, mirrored or shifted by python-chess's own flips, and a man away: what each record
is, and so what must be found, is known from how it was made.
"""

from __future__ import annotations

import json
import sqlite3

import chess
import pytest

from tests.support.process import run_gbr

STUDY = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1"  # =0323.12g3g1, pawns
KNIGHTS = "8/K7/2nn4/8/8/1B1k4/1R6/8 w - - 0 1"  # a7d3 0116.00 b2b3c6d6, no pawns


def _fen(board: chess.BaseBoard, turn: str = "w") -> str:
    return f"{board.board_fen()} {turn} - - 0 1"


def _planted() -> list[tuple[str, int | None, str | None]]:
    """Lines of a FEN file: (FEN, its distance from STUDY, the transform of STUDY named)."""
    study, knights = chess.BaseBoard(STUDY.split()[0]), chess.BaseBoard(KNIGHTS.split()[0])
    study_moved = study.copy()
    study_moved.set_piece_at(chess.H7, study_moved.remove_piece_at(chess.H6))  # the h-pawn a square on
    knights_more = knights.copy()
    knights_more.set_piece_at(chess.H1, chess.Piece.from_symbol("q"))
    return [
        (STUDY, 0, "identity"),
        (_fen(study.transform(chess.flip_horizontal)), 0, "mirrored"),
        (_fen(study.transform(chess.flip_vertical)), None, None),  # pawns: never flipped top to bottom
        (_fen(study, "b"), None, None),  # the other side to move
        (_fen(study_moved.transform(chess.flip_horizontal)), 1, "mirrored"),
        (KNIGHTS, None, None),
        (_fen(knights.transform(chess.flip_vertical)), None, None),
        (_fen(knights_more), None, None),
    ]


@pytest.fixture
def studies(tmp_path):
    path = tmp_path / "studies.fen"
    lines = [fen for fen, _, _ in _planted()]
    lines.insert(3, "8/8/8/8 w - - 0 1")  # a bad record, line 4
    path.write_text("\n".join(lines) + "\n")
    return path


def test_similar_finds_the_transformed_copies_and_those_a_man_away(studies) -> None:
    result = run_gbr("similar", STUDY, str(studies), "--json")
    assert result.status == 1  # a bad record was read
    assert f"{studies}:4: record 4:" in result.stderr
    found = [json.loads(line) for line in result.lines]
    expected = [
        (fen, distance, transform) for fen, distance, transform in _planted() if distance is not None
    ]  # file order within each distance
    assert [(item["fen"], item["distance"], item["transform"]) for item in found] == expected
    lines = [line for line, (_, distance, _) in enumerate(_planted(), 1) if distance is not None]
    assert [item["line"] for item in found] == [line if line < 4 else line + 1 for line in lines]
    assert all(item["source"] == str(studies) and item["headers"] == {} for item in found)
    assert "found 3 records: 2 at distance 0, 1 at distance 1" in result.stderr


def test_exact_and_the_side_to_move(studies) -> None:
    exact = run_gbr("similar", STUDY, str(studies), "--json", "--exact", "--max-distance", "0")
    assert [json.loads(line)["line"] for line in exact.lines] == [1]
    either = run_gbr("similar", STUDY, str(studies), "--json", "--no-same-side", "--max-distance", "0")
    assert [json.loads(line)["line"] for line in either.lines] == [1, 2, 5]  # the black-to-move copy (line 5 now)


def test_a_code_with_every_square_and_a_table(studies) -> None:
    result = run_gbr("similar", "a7d3 0116.00 b2b3c6d6", str(studies), "--max-distance", "0")
    assert result.lines[0].split() == ["record", "distance", "transform", "headers"]
    # the bad record on line 4 is record 4: KNIGHTS is record 7, its flip (no pawns: allowed) 8
    assert [line.split() for line in result.lines[1:]] == [
        [f"{studies}:7", "#7", "0", "identity"],
        [f"{studies}:8", "#8", "0", "flipped", "top", "to", "bottom"],
    ]


def test_a_position_that_cannot_be_set_up_is_a_clear_error(studies) -> None:
    for position in ("=0323.12g3g1", "8/8/8/8/8/8/8/9 w - - 0 1", "Kz9"):
        result = run_gbr("similar", position, str(studies))
        assert result.status == 2
        assert result.stderr.startswith("gbr-tui similar: POSITION")


def test_games_headers_are_shown(tmp_path) -> None:
    pgn = tmp_path / "studies.pgn"
    mirrored = _fen(chess.BaseBoard(STUDY.split()[0]).transform(chess.flip_horizontal))
    pgn.write_text(f'[Event "Shakhmaty"]\n[White "Kubbel"]\n[Result "1-0"]\n[SetUp "1"]\n[FEN "{mirrored}"]\n\n1-0\n')
    result = run_gbr("similar", STUDY, str(pgn), "--json")
    (found,) = [json.loads(line) for line in result.lines]
    assert (found["transform"], found["headers"]["White"], found["headers"]["Event"]) == (
        "mirrored",
        "Kubbel",
        "Shakhmaty",
    )
    table = run_gbr("similar", STUDY, str(pgn))
    assert "mirrored" in table.lines[1] and "White: Kubbel" in table.lines[1]


def test_an_index_answers_as_its_file(studies) -> None:
    assert run_gbr("index", str(studies)).status == 1
    index = f"{studies}.gbr-index"
    from_file = [json.loads(line) for line in run_gbr("similar", STUDY, str(studies), "--json").lines]
    from_index = [json.loads(line) for line in run_gbr("similar", STUDY, index, "--json").lines]
    assert [{**item, "fen": item["fen"].split()[:2]} for item in from_index] == [
        {**item, "fen": item["fen"].split()[:2]} for item in from_file
    ]
    for options in ([], ["--no-same-side"]):  # the keys kept, or the bitboards keyed again
        dupes = run_gbr("duplicates", index, "--json", *options)
        assert dupes.lines  # some groups
        assert [json.loads(line) for line in dupes.lines] == [
            json.loads(line) for line in run_gbr("duplicates", str(studies), "--json", *options).lines
        ]


def test_an_index_built_before_is_refused(studies) -> None:
    run_gbr("index", str(studies))
    index = f"{studies}.gbr-index"
    with sqlite3.connect(index) as database:
        database.execute("UPDATE meta SET value = '5' WHERE key = 'version'")
    for command in (["similar", STUDY], ["duplicates"]):
        result = run_gbr(*command, index)
        assert result.status == 2
        assert "an index of another version of gbr-tui; run `gbr-tui index` again" in result.stderr


def test_duplicates_across_files_and_stdin(tmp_path) -> None:
    study, knights = chess.BaseBoard(STUDY.split()[0]), chess.BaseBoard(KNIGHTS.split()[0])
    first = tmp_path / "one.fen"
    first.write_text(f"{STUDY}\n{KNIGHTS}\n{_fen(study.transform(chess.flip_vertical))}\n")
    rotated = _fen(knights.transform(lambda bits: chess.flip_vertical(chess.flip_diagonal(bits))))
    shifted = _fen(study.transform(chess.flip_horizontal), "b")  # Black to move: no duplicate
    stdin = f"{rotated}\n{_fen(study.transform(chess.flip_horizontal))}\n{shifted}\n"
    result = run_gbr("duplicates", str(first), "-", "--json", stdin=stdin)
    groups = [json.loads(line)["records"] for line in result.lines]
    assert [[(item["source"], item["line"], item["transform"]) for item in group] for group in groups] == [
        [(str(first), 1, "identity"), ("<stdin>", 2, "mirrored")],
        [(str(first), 2, "identity"), ("<stdin>", 1, "rotated 90°")],
    ]
    assert result.stderr.strip().endswith("2 groups of 4 records")
    exact = run_gbr("duplicates", str(first), "-", "--exact", stdin=stdin)
    assert exact.status == 0 and exact.lines == ["group  record  transform"]


def _hhdb_pgn(path, black_kings: str = "g3g1") -> None:
    """Two studies in HHdb's form: the spec's =0323.12g3g1 (marked anticipated) and a7d3 0116.00
    (marked unsound)."""
    path.write_text(
        f'[Event "EG #12 1997"]\n[White "Kubbel, Leonid 12"]\n[Black "=0323.12{black_kings} AN"]\n'
        f'[Result "1/2-1/2"]\n[SetUp "1"]\n[FEN "{STUDY}"]\n\n1/2-1/2\n\n'
        '[Event "#7"]\n[White "Troitzky, Alexey"]\n[Black "+0116.00a7d3 U2"]\n'
        f'[Result "1-0"]\n[SetUp "1"]\n[FEN "{KNIGHTS}"]\n\n1-0\n'
    )


def test_check_reads_an_hhdb_collections_codes_from_black(tmp_path) -> None:
    good, wrong = tmp_path / "hhdb.pgn", tmp_path / "wrong.pgn"
    _hhdb_pgn(good)
    _hhdb_pgn(wrong, "g3g2")  # the black king printed on the wrong square
    result = run_gbr("check", str(good))
    assert result.status == 0
    assert result.stderr.count("an HHdb study collection") == 1
    assert "checked 2 = agree 2 + disagree 0" in result.stderr
    result = run_gbr("check", str(wrong))
    assert result.status == 1 and "kings: printed g3g2, the position gives g3g1" in result.stdout


def test_classify_and_similar_show_hhdb_words_and_filter_soundness(tmp_path) -> None:
    path = tmp_path / "hhdb.pgn"
    _hhdb_pgn(path)
    rows = [json.loads(line) for line in run_gbr("classify", "--per-record", str(path)).lines]
    assert [(row["composer"], row["diagram"], row["stipulation"], row["marks"]) for row in rows] == [
        ("Kubbel, Leonid", 12, "White to play and draw", ["anticipated"]),
        ("Troitzky, Alexey", 7, "White to play and win", ["dualled after move 1 (U2)"]),
    ]
    unsound = run_gbr("classify", "--per-record", "--studies", "unsound", str(path))
    assert [json.loads(line)["record"] for line in unsound.lines] == [2]
    assert run_gbr("classify", "--studies", "sound", str(path)).status == 2  # a summary is not filtered
    table = run_gbr("similar", STUDY, str(path))
    assert "Kubbel, Leonid · diagram 12 · White to play and draw · anticipated" in table.lines[1]
    assert table.stderr.count("an HHdb study collection") == 1
    assert run_gbr("similar", KNIGHTS, str(path), "--studies", "sound").lines == [
        "record  distance  transform  headers"
    ]


def test_headers_from_the_file_are_made_printable(tmp_path) -> None:
    path = tmp_path / "hhdb.pgn"
    _hhdb_pgn(path)
    path.write_text(path.read_text().replace("Kubbel, Leonid 12", "Kubbel\x1b[31m 12"))
    table = run_gbr("similar", STUDY, str(path))
    assert "\x1b" not in table.stdout and "Kubbel\\x1b[31m" in table.lines[1]


# HHdb's form with a first comment, as CQL's hhdb filter reads it: the stipulation and the EG
# number there; the second study's comment says a win where its Black tag says a draw.
KUBBEL_HHDB = (
    f'[Event "#34"]\n[White "Kubbel 12"]\n[Black "=0323.12g3g1 U1"]\n[Result "1/2-1/2"]\n[SetUp "1"]\n'
    f'[FEN "{STUDY}"]\n\n{{stipulation: = EG#1234}} 1/2-1/2\n\n'
    f'[Event "#35"]\n[White "Troitzky"]\n[Black "=0116.00a7d3"]\n[Result "1/2-1/2"]\n[SetUp "1"]\n'
    f'[FEN "{KNIGHTS}"]\n\n{{stipulation: +. EG #77}} 1/2-1/2\n'
)


def test_the_first_comments_eg_number_and_stipulation_are_shown(tmp_path) -> None:
    path = tmp_path / "hhdb.pgn"
    path.write_text(KUBBEL_HHDB)
    rows = [json.loads(line) for line in run_gbr("classify", "--per-record", str(path)).lines]
    assert [(row["eg"], row["comment_stipulation"], row["stipulation"]) for row in rows] == [
        (1234, "=", "White to play and draw"),
        (77, "+", "White to play and draw"),  # the Black tag's
    ]
    assert "stipulation_disagreement" not in rows[0]
    assert rows[1]["stipulation_disagreement"].startswith("the first comment says White to play and win (+)")
    assert all("FirstComment" not in row for row in rows)  # the comment is read, not a tag
    table = run_gbr("similar", STUDY, str(path))
    assert "Kubbel · diagram 34 · EG 1234 · White to play and draw · dualled at move 1 (U1)" in table.lines[1]
    assert "EG numbers and stipulations from each study's first comment" in table.stderr
    found = json.loads(run_gbr("similar", KNIGHTS, str(path), "--json").lines[0])
    assert found["hhdb"]["eg"] == 77 and "FirstComment" not in found["headers"]
    # The CSV has the tags as columns, not HHdb's fields: no column for the comment.
    csv_lines = run_gbr("classify", "--csv", str(path)).lines
    assert csv_lines[0].split(",")[-1] == "id" and "1234" not in csv_lines[1]
    checked = [json.loads(line) for line in run_gbr("check", str(path), "--json").lines]
    assert [row["agree"] for row in checked] == [True, True] and all("FirstComment" not in row for row in checked)


def test_an_index_of_hhdb_studies_says_what_their_first_comments_say(tmp_path) -> None:
    path = tmp_path / "hhdb.pgn"
    path.write_text(KUBBEL_HHDB)
    run_gbr("index", str(path))
    index = f"{path}.gbr-index"
    for fen in (STUDY, KNIGHTS):
        from_file = [json.loads(line) for line in run_gbr("similar", fen, str(path), "--json").lines]
        from_index = [json.loads(line) for line in run_gbr("similar", fen, index, "--json").lines]
        assert [item["hhdb"] for item in from_index] == [item["hhdb"] for item in from_file]
    assert from_index[0]["hhdb"]["eg"] == 77  # the second study's: EG #77
    table = run_gbr("similar", STUDY, index)
    assert "Kubbel · diagram 34 · EG 1234 · White to play and draw · dualled at move 1 (U1)" in table.lines[1]
