"""`gbr-tui check` run as a user runs it: each kind of disagreement in PGN, EPD, CSV and JSON
Lines, records without a caption, bad records, --json, exit statuses (the collections:
tests/support/captions.py)."""

from __future__ import annotations

import json
import re

import pytest

from tests.support.captions import ARVES, CASES, UNDECODABLE, WRITERS, pgn_game, write_csv, write_pgn
from tests.support.process import run_gbr

SUMMARY = re.compile(r"checked (\d+) = agree (\d+) \+ disagree (\d+) \(\+ unchecked (\d+), bad (\d+)\)")


def summary(stderr: str) -> tuple[int, ...]:
    checked, agree, disagree, unchecked, bad = map(int, SUMMARY.fullmatch(stderr.strip().splitlines()[-1]).groups())
    assert checked == agree + disagree
    return checked, agree, disagree, unchecked, bad


@pytest.mark.parametrize("kind", WRITERS)
def test_each_disagreement_in_each_format(tmp_path, kind: str) -> None:
    path = tmp_path / f"studies.{kind}"
    starts = WRITERS[kind](path)
    result = run_gbr("check", str(path))
    assert result.status == 1
    # Seven records with a caption, three of them published pairs; one without; two bad.
    assert summary(result.stderr) == (7, 3, 4, 1, 2)
    # Each disagreeing record: its place and caption, then one line for each part.
    blocks = re.split(r"\n(?=\S)", result.stdout.strip())
    wrong = [(n, case) for n, case in enumerate(CASES) if case[2]]
    assert len(blocks) == len(wrong)
    for block, (number, (_, caption, parts, actuals)) in zip(blocks, wrong):
        head, *lines = block.splitlines()
        assert head.startswith(f"{path}:{starts[number]}: record {number + 1}")
        assert head.endswith(f"printed '{caption}'")
        assert [line.split(":")[0].strip() for line in lines] == parts
        for line, actual in zip(lines, actuals):
            assert f"the position gives {actual}" in line
    # The bad records on stderr with their lines; reading went on past them.
    undecodable, broken = starts[len(CASES) + 1], starts[len(CASES) + 2]
    if kind == "pgn":
        broken += 3  # a game's bad start position is reported at its FEN tag, the fourth line
    assert (
        f"{path}:{undecodable}: record {len(CASES) + 2}: the caption '{UNDECODABLE}' does not decode" in result.stderr
    )
    assert re.search(rf"{re.escape(str(path))}:{broken}: record {len(CASES) + 3}: ", result.stderr)


def test_pgn_headers_are_shown(tmp_path) -> None:
    path = tmp_path / "studies.pgn"
    write_pgn(path)
    result = run_gbr("check", str(path))
    first = result.stdout.splitlines()[0]
    assert "Event: case 3 · White: Composer" in first


def test_agreeing_collection_exits_0_and_prints_nothing(tmp_path) -> None:
    path = tmp_path / "good.epd"
    path.write_text("".join(f'{" ".join(fen.split()[:4])} GBR "{caption}";\n' for fen, caption, parts, _ in CASES[:3]))
    result = run_gbr("check", str(path))
    assert (result.status, result.stdout) == (0, "")
    assert summary(result.stderr) == (3, 3, 0, 0, 0)


def test_json_gives_one_object_per_checked_record(tmp_path) -> None:
    path = tmp_path / "studies.csv"
    write_csv(path)
    result = run_gbr("check", "--json", str(path))
    assert result.status == 1
    objects = [json.loads(line) for line in result.lines]
    assert [obj["caption"] for obj in objects] == [caption for _, caption, _, _ in CASES]
    for obj, (_, _, parts, actuals) in zip(objects, CASES):
        assert obj["agree"] is (not parts)
        assert [d["part"] for d in obj["disagreements"]] == parts
        assert [d["actual"] for d in obj["disagreements"]] == actuals
    # The wrong count: 3/4 printed, 3/3 in the position.
    assert {"part": "count", "printed": "3/4", "actual": "3/3", "detail": ""} in objects[4]["disagreements"]
    assert summary(result.stderr) == (7, 3, 4, 1, 2)


def test_tag_and_code_column_name_the_caption(tmp_path) -> None:
    pgn = tmp_path / "studies.pgn"
    pgn.write_text(pgn_game(ARVES, None, "e").replace("[SetUp", '[Code "d3a7 0116.00"]\n[SetUp'))
    by_tag = run_gbr("check", "--tag", "Code", str(pgn))
    assert "kings: printed d3a7, the position gives a7d3" in by_tag.stdout
    untagged = run_gbr("check", str(pgn))  # no GBR tag: unchecked, and said
    assert (untagged.status, summary(untagged.stderr)) == (0, (0, 0, 0, 1, 0))
    assert f"{pgn}: no record has a caption (no GBR tag" in untagged.stderr
    assert "no record has a caption" not in by_tag.stderr
    csv = tmp_path / "studies.csv"
    csv.write_text(f"{ARVES},source,0116.00\n{ARVES},source,0106.00\n")  # no header: by number only
    by_column = run_gbr("check", "--code-column", "3", str(csv))
    assert summary(by_column.stderr) == (2, 1, 1, 0, 0)
    assert run_gbr("check", "--code-column", "printed", str(csv)).status == 2  # a name needs a header


def test_rule_option(tmp_path) -> None:
    # Spec 5.2: two White queens are 2000 by the count rule, 9000 by the promoted rule.
    path = tmp_path / "queens.csv"
    path.write_text("fen,GBR\nk7/8/8/8/8/8/8/KQQ5 w - - 0 1,9000\n")
    counted = run_gbr("check", str(path))
    assert counted.status == 1 and "the promoted rule gives the printed code" in counted.stdout
    assert run_gbr("check", "--rule", "promoted", str(path)).status == 0


def test_stdin_and_printable_output() -> None:
    game = pgn_game(ARVES, "d3a7 0116.00", "evil\x1b]0;title\x07").encode()
    result = run_gbr("check", "-", stdin=game)
    assert result.status == 1
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "evil\\x1b]0;title\\x07" in result.stdout


@pytest.mark.parametrize(
    "args",
    [["missing.pgn"], ["--position", "all", "-"], ["--tag", " ", "-"], ["-", "-"], []],
)
def test_usage_errors_exit_2(tmp_path, args: list[str]) -> None:
    result = run_gbr("check", *[str(tmp_path / arg) if arg.endswith(".pgn") else arg for arg in args])
    assert result.status == 2
    assert result.stderr.strip()


def test_damaged_input_keeps_going(tmp_path) -> None:
    path = tmp_path / "damaged.epd"
    epd = " ".join(ARVES.split()[:4])
    path.write_bytes(
        f'{epd} GBR "d3a7 0116.00";\n'.encode()
        + b"\xff\xfe not utf-8\n"
        + b"x" * (1 << 21)
        + b"\n"
        + f'{epd} GBR "a7d3 0116.00";\n'.encode()
    )
    result = run_gbr("check", str(path))
    assert result.status == 1
    # The first and the last record are checked; the line that is not UTF-8 and the over-long
    # one are bad records, with their lines.
    assert summary(result.stderr) == (2, 1, 1, 0, 2)
    assert f"{path}:2: record 2" in result.stderr and f"{path}:3: record 3" in result.stderr
