"""Results, plies, either colour, families, JSON, sorting and bars in `gbr-tui classify`, on
small hand-made games whose captures and results are known."""

from __future__ import annotations

import json

import pytest

from tests.support.games import MOVES, START, game, mirrored
from tests.support.process import final_line, run_gbr


@pytest.fixture
def results_file(tmp_path):
    """The same game four times, with each kind of result."""
    path = tmp_path / "results.pgn"
    path.write_text("".join(game(START, MOVES, result) for result in ("1-0", "1/2-1/2", "0-1", "*")))
    return path


@pytest.fixture
def twins_file(tmp_path):
    """The game, won by White, and its colour twin, won by Black: the stronger side wins both."""
    path = tmp_path / "twins.pgn"
    twin_fen, twin_sans = mirrored(START, MOVES)
    path.write_text(game(START, MOVES, "1-0", "one") + game(twin_fen, twin_sans, "0-1", "twin"))
    return path


def summary(*args: str) -> list[dict]:
    result = run_gbr("classify", "--json", *args)
    assert result.status == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


# --- results ----------------------------------------------------------------------------------


@pytest.mark.parametrize("position", ["start", "final", "all"])
def test_results_per_class_for_each_position_mode(results_file, position):
    rows = summary("--position", position, str(results_file))
    # Each class the four games are in has one game of each result: 1.5 of 3 points, 50%.
    expected = {"start": ["0401.00"], "final": ["0100.00"], "all": ["0100.00", "0400.00", "0401.00"]}[position]
    assert [row["code"] for row in rows] == expected
    for row in rows:
        assert (row["count"], row["white_wins"], row["draws"], row["black_wins"], row["unknown"]) == (4, 1, 1, 1, 1)
        assert row["score"] == 50.0 and row["share"] == 1.0
    assert rows[-1]["material"] == {"start": "KRN v KR", "final": "KR v K", "all": "KRN v KR"}[position]


def test_results_in_the_table(results_file):
    result = run_gbr("classify", str(results_file))
    heading, _, row, *notes = result.stdout.splitlines()
    assert heading.split() == ["class", "count", "share", "White", "draw", "Black", "unknown", "score", "material"]
    assert row.split() == ["0401.00", "4", "100.0%", "1", "1", "1", "1", "50.0%", "KRN", "v", "KR"]
    assert any(note.startswith("score:") for note in notes)
    assert final_line(result) == (4, 4, 0)


def test_positions_have_no_results(tmp_path):
    path = tmp_path / "one.fen"
    path.write_text(START + "\n")
    (row,) = summary(str(path))
    assert row == {"code": "0401.00", "count": 1, "share": 1.0, "material": "KRN v KR"}


# --- plies ------------------------------------------------------------------------------------


def records(*args: str) -> list[dict]:
    result = run_gbr("classify", "--per-record", *args)
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_each_class_with_the_ply_it_was_entered_and_the_plies_it_was_held(results_file):
    found = [
        (row["record"], row["code"], row["ply"], row["plies"])
        for row in records("--position", "all", str(results_file))
    ]
    # 13 plies: 0401.00 from ply 0 to 10, 0400.00 from 10 to 11 (one ply), 0100.00 from 11 to 13.
    assert found[:3] == [(1, "0401.00", 0, 10), (1, "0400.00", 10, 1), (1, "0100.00", 11, 2)]
    assert len(found) == 12


def test_min_plies_keeps_the_classes_held_long_enough(results_file):
    kept = records("--position", "all", "--min-plies", "2", str(results_file))
    assert {(row["code"], row["plies"]) for row in kept} == {("0401.00", 10), ("0100.00", 2)}
    rows = summary("--position", "all", "--min-plies", "10", str(results_file))
    assert [(row["code"], row["count"]) for row in rows] == [("0401.00", 4)]
    # No class is held 11 plies: nothing is listed, but the games were read and classified.
    result = run_gbr("classify", "--position", "all", "--min-plies", "11", str(results_file))
    assert final_line(result) == (4, 4, 0) and "0401.00" not in result.stdout


def test_min_plies_needs_every_class(results_file):
    result = run_gbr("classify", "--min-plies", "2", str(results_file))
    assert result.status == 2 and "--position all" in result.stderr
    result = run_gbr("classify", "--position", "all", "--min-plies", "two", str(results_file))
    assert result.status == 2 and "not a number of plies" in result.stderr


# --- either colour ----------------------------------------------------------------------------


def test_colour_twins_apart_and_folded(twins_file):
    apart = summary(str(twins_file))
    # The twin: Black has KRN (R digit 3 + 1 = 4, N digit 3): 0403.00, a win for Black.
    assert [(row["code"], row["material"], row["white_wins"], row["black_wins"]) for row in apart] == [
        ("0401.00", "KRN v KR", 1, 0),
        ("0403.00", "KR v KRN", 0, 1),
    ]
    folded = summary("--either-colour", str(twins_file))
    # Folded, the stronger side (a knight more) is White and won both games.
    assert [(row["code"], row["count"], row["material"], row["white_wins"], row["black_wins"]) for row in folded] == [
        ("0401.00", 2, "KRN v KR", 2, 0)
    ]
    table = run_gbr("classify", "--either-colour", str(twins_file)).stdout
    assert table.startswith("either colour:") and "stronger side as White" in table


@pytest.mark.parametrize("pattern", ["KR v KRN", "KRN v KR", "0403", "0401"])
def test_match_with_either_colour_matches_both_twins(twins_file, pattern):
    rows = summary("--either-colour", "--match", pattern, str(twins_file))
    assert [(row["code"], row["count"]) for row in rows] == [("0401.00", 2)]


def test_per_record_with_either_colour_writes_the_folded_class(twins_file):
    found = [(row["Event"], row["code"], row["material"]) for row in records("--either-colour", str(twins_file))]
    assert found == [("one", "0401.00", "KRN v KR"), ("twin", "0401.00", "KRN v KR")]


# --- families ---------------------------------------------------------------------------------


def test_families_count_each_game_once(twins_file):
    rows = summary("--by", "family", "--position", "all", str(twins_file))
    # KRN v KR is a rook and a minor piece against a rook; KR v KR and KR v K are both rook
    # endings, counted once a game.
    assert [(row["family"], row["count"], row["white_wins"], row["black_wins"]) for row in rows] == [
        ("rook endings", 2, 1, 1),
        ("rook and minor piece v rook", 2, 1, 1),
    ]
    folded = summary("--by", "family", "--either-colour", str(twins_file))
    assert [(row["family"], row["white_wins"], row["black_wins"]) for row in folded] == [
        ("rook and minor piece v rook", 2, 0)
    ]
    assert folded[0]["material"] == "a rook and a bishop or a knight against one rook"


def test_families_of_positions(tmp_path):
    path = tmp_path / "positions.fen"
    # KR v K and KRP v KR: rook endings; KQ v KR: queen v rook.
    path.write_text(
        "8/8/8/4k3/8/8/8/KR6 w - - 0 1\n8/8/8/4k3/8/1r6/P7/KR6 w - - 0 1\n8/8/8/4k3/8/1r6/8/KQ6 w - - 0 1\n"
    )
    table = run_gbr("classify", "--by", "family", str(path)).stdout.splitlines()
    assert [line.split("  ")[0] for line in table[2:]] == ["rook endings", "queen v rook"]
    assert table[2].split()[-2:] == ["2", "66.7%"]


# --- sorting and bars -------------------------------------------------------------------------


def test_sort_by_count_and_by_score(tmp_path):
    path = tmp_path / "sorted.pgn"
    kq = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"  # 1000.00
    kr = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"  # 0100.00
    kn = "8/8/8/4k3/8/8/8/KN6 w - - 0 1"  # 0001.00
    path.write_text(
        game(kq, [], "1-0") + game(kr, [], "1/2-1/2") + game(kr, [], "0-1") + game(kn, [], "*") + game(kn, [], "*")
    )
    codes = lambda *args: [row["code"] for row in summary(*args, str(path))]  # noqa: E731
    assert codes() == ["0001.00", "0100.00", "1000.00"]
    # Counts 2, 2, 1: ties keep the code order.
    assert codes("--sort", "count") == ["0001.00", "0100.00", "1000.00"]
    # Scores: 1000.00 100%, 0100.00 25% (a draw and a loss), 0001.00 none known: last.
    assert codes("--sort", "score") == ["1000.00", "0100.00", "0001.00"]


def test_bars_in_the_share_column(results_file, tmp_path):
    path = tmp_path / "shares.fen"
    path.write_text("8/8/8/4k3/8/8/8/KR6 w - - 0 1\n" * 3 + "8/8/8/4k3/8/8/8/KQ6 w - - 0 1\n")
    lines = run_gbr("classify", "--bars", str(path)).stdout.splitlines()
    # 0100.00 has 3 of 4: 75% of ten cells is 7.5 cells, 1000.00 a quarter: 2.5 cells.
    assert "███████▌   75.0%" in lines[2] and "██▌        25.0%" in lines[3]
    assert "█" not in run_gbr("classify", str(path)).stdout  # not on a pipe unless asked


def test_the_share_note_of_families_speaks_of_families(twins_file):
    # Two games; by family, a game counts once in each family it passes through.
    note = run_gbr("classify", "--by", "family", "--position", "all", str(twins_file)).stdout.splitlines()
    assert "share: of the 2 games; a game counts once in each family it passes through" in "\n".join(note)
