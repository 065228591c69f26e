"""`gbr-tui check --tablebases`: stipulations and solutions held against the tables."""

from __future__ import annotations

import json

import pytest

from tests.support.process import run_gbr
from tests.support.tablebases import SAAVEDRA, SYZYGY


def game(event: str, black: str, movetext: str, stipulation: str | None = None) -> str:
    tag = f'[Stipulation "{stipulation}"]\n' if stipulation else ""
    return (
        f'[Event "{event}"]\n[Site "?"]\n[White "X"]\n[Black "{black}"]\n[Result "*"]\n{tag}'
        f'[SetUp "1"]\n[FEN "{SAAVEDRA}"]\n\n{movetext} *\n\n'
    )


PUBLISHED = "1. c7 Rd6+ 2. Kb5 Rd5+ 3. Kb4 Rd4+ 4. Kb3 Rd3+ 5. Kc2 Rd4 6. c8=R Ra4 7. Kb3"


@pytest.fixture
def studies(tmp_path):
    path = tmp_path / "studies.pgn"
    path.write_text(
        # An HHdb collection (recognised by its first games): the Black tag holds stipulation and code.
        game("Saavedra", "+0300.10b6a1", PUBLISHED)
        + game("Spoiled", "+0300.10b6a1", "1. c7 Rd6+ 2. Kc5 Rd1 3. Kb6", stipulation="Win")  # 2.Kc5? Rd1 draws
        + game("Planted dual", "+0300.10b6a1", "1. c7 Rd6+ 2. Kb5 Rd5+ 3. Kb4 Rd4+ 4. Kc3", stipulation="+")
        + game("Contradicted", "=0300.10b6a1", "1. c7")
        + game("No stipulation", "0300.10b6a1", "1. c7 Rd8")  # held to the table's result; 1...Rd8? is short
    )
    return path


def test_the_published_solution_has_one_real_dual_and_its_minor_ones_are_only_marked(studies):
    result = run_gbr("check", "--json", "--tablebases", str(SYZYGY), str(studies))
    saavedra = json.loads(result.lines[0])
    assert saavedra["tablebase"]["stipulation"] == "+"
    assert saavedra["tablebase"]["tablebase"] == {"wdl": 2, "dtz": 1, "dtm": None}
    marks = {move["move"]: move["mark"] for move in saavedra["tablebase"]["solution"]}
    assert marks["1.c7"] == "only move" and marks["1...Rd6+"] == "best"
    assert (marks["3.Kb4"], marks["4.Kb3"], marks["6.c8=R"]) == ("minor dual", "dual", "minor dual")
    # Only the real dual (4.Kc3, as short as 4.Kb3) is a disagreement.
    assert [(found["part"], found["printed"]) for found in saavedra["disagreements"]] == [("solution", "4.Kb3")]


def test_a_planted_spoiling_move_and_a_planted_dual_are_reported(studies):
    result = run_gbr("check", "--tablebases", str(SYZYGY), str(studies))
    assert result.status == 1
    out = result.stdout
    assert "    solution: 2.Kc5 spoils the win: now a draw\n" in out
    assert "    solution: 4.Kc3 dual (DTZ 4): also Kb3 (DTZ 4), Kb5 (DTZ 8, minor)\n" in out


def test_a_stipulation_the_table_contradicts_is_reported(studies):
    result = run_gbr("check", "--json", "--tablebases", str(SYZYGY), str(studies))
    contradicted = json.loads(result.lines[3])
    assert contradicted["disagreements"][0] == {
        "part": "stipulation",
        "printed": "=",
        "actual": "+",
        "detail": "White wins: DTZ 1",
    }
    # The moves are then held to the table's result: 1.c7 is not said to spoil the draw.
    assert [found["part"] for found in contradicted["disagreements"]] == ["stipulation"]
    summary = result.stderr.splitlines()[-1]
    assert summary == "checked 5 = agree 0 + disagree 5 (+ unchecked 0, bad 0)"


def test_a_black_move_that_is_not_the_longest_defence_is_reported(studies):
    result = run_gbr("check", "--json", "--tablebases", str(SYZYGY), str(studies))
    unstipulated = json.loads(result.lines[4])
    assert [(found["printed"], found["actual"]) for found in unstipulated["disagreements"]] == [
        ("1...Rd8", "not the longest defence")
    ]


def test_positions_with_a_caption_are_held_to_its_stipulation(tmp_path):
    path = tmp_path / "studies.epd"
    path.write_text(f'{SAAVEDRA[:-4]} c0 "=0300.10b6a1";\n{SAAVEDRA[:-4]} c0 "+0300.10b6a1";\n')
    result = run_gbr("check", "--tablebases", str(SYZYGY), "--tag", "c0", str(path))
    assert result.status == 1
    assert result.stdout.splitlines()[1] == "    stipulation: printed =, the tablebase gives + (White wins: DTZ 1)"
    assert result.stderr.splitlines()[-1] == "checked 2 = agree 1 + disagree 1 (+ unchecked 0, bad 0)"


def test_without_the_option_nothing_is_probed(studies):
    result = run_gbr("check", "--json", str(studies))
    assert all("tablebase" not in json.loads(line) for line in result.lines)
