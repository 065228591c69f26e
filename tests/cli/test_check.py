"""`gbr-tui check` run as a user runs it: each kind of disagreement in PGN, EPD, CSV and JSON
Lines, records without a caption, bad records, --json, exit statuses.

The agreeing captions are spec section 4's published pairs. Each wrong one changes one part of
a published caption by hand; the comment beside it says what the position gives instead.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.cli.process import run_gbr

KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1"  # spec 4: =0323.12g3g1
ARVES = "8/K7/2nn4/8/8/1B1k4/1R6/8 w - - 0 1"  # spec 4: a7d3 0116.00 b2b3c6d6 3/3+
GERMAN = "k7/8/8/8/8/8/pp6/K7 w - - 0 1"  # spec 4: 0000.02.a1a8.a2b2
SUMMARY = re.compile(r"checked (\d+) = agree (\d+) \+ disagree (\d+) \(\+ unchecked (\d+), bad (\d+)\)")

#: (position, printed caption, the parts that disagree, what the position gives for each)
CASES = [
    (KUBBEL, "=0323.12g3g1", [], []),
    (ARVES, "a7d3 0116.00 b2b3c6d6 3/3+", [], []),
    (GERMAN, "0000.02.a1a8.a2b2", [], []),
    # A wrong digit: one Black knight (g8) and no White one is N = 3, not 4.
    (KUBBEL, "=0324.12g3g1", ["code"], ["0323.12"]),
    # A wrong count: K, R, B for White and K, N, N for Black are 3/3, kings included.
    (ARVES, "a7d3 0116.00 b2b3c6d6 3/4+", ["count"], ["3/3"]),
    # Swapped kings: the White king stands on a7, the Black one on d3.
    (ARVES, "d3a7 0116.00 b2b3c6d6 3/3+", ["kings"], ["a7d3"]),
    # A wrong square: Black's pawns are on a2 and b2, not a2 and b3.
    (GERMAN, "0000.02.a1a8.a2b3", ["squares"], ["a2b2"]),
]
NO_CAPTION = ARVES  # a record without one: unchecked
UNDECODABLE = "0116.0x"  # a bad record: its caption does not decode
BROKEN_FEN = "8/8/8/9/8/8/8/8 w - - 0 1"  # a bad record: its position does not read


def pgn_game(fen: str, caption: str | None, event: str) -> str:
    tags = [f'[Event "{event}"]', '[White "Composer"]', '[SetUp "1"]', f'[FEN "{fen}"]']
    if caption is not None:
        tags.append(f'[GBR "{caption}"]')
    return "\n".join(tags) + "\n\n*\n\n"


def write_pgn(path) -> list[int]:
    """The collection as PGN; the line where each record starts."""
    games = [pgn_game(fen, caption, f"case {n}") for n, (fen, caption, _, _) in enumerate(CASES)]
    games += [pgn_game(NO_CAPTION, None, "none"), pgn_game(ARVES, UNDECODABLE, "x"), pgn_game(BROKEN_FEN, "0000", "y")]
    lines, line = [], 1
    for game in games:
        lines.append(line)
        line += game.count("\n")
    path.write_text("".join(games))
    return lines


def write_epd(path) -> list[int]:
    def epd(fen: str, caption: str | None) -> str:
        operations = f' GBR "{caption}";' if caption is not None else ""
        return " ".join(fen.split()[:4]) + operations + f' id "r{len(rows)}";'

    rows: list[str] = []
    for fen, caption, _, _ in CASES:
        rows.append(epd(fen, caption))
    rows += [epd(NO_CAPTION, None), epd(ARVES, UNDECODABLE), epd(BROKEN_FEN, "0000")]
    path.write_text("\n".join(rows) + "\n")
    return list(range(1, len(rows) + 1))


def write_csv(path) -> list[int]:
    rows = ["fen,GBR"] + [f"{fen},{caption}" for fen, caption, _, _ in CASES]
    rows += [f"{NO_CAPTION},", f"{ARVES},{UNDECODABLE}", f"{BROKEN_FEN},0000"]
    path.write_text("\n".join(rows) + "\n")
    return list(range(2, len(rows) + 1))


def write_jsonl(path) -> list[int]:
    rows = [json.dumps({"fen": fen, "GBR": caption, "White": "Composer"}) for fen, caption, _, _ in CASES]
    rows += [json.dumps({"fen": NO_CAPTION}), json.dumps({"fen": ARVES, "GBR": UNDECODABLE}), '{"fen": "8/8"']
    path.write_text("\n".join(rows) + "\n")
    return list(range(1, len(rows) + 1))


WRITERS = {"pgn": write_pgn, "epd": write_epd, "csv": write_csv, "jsonl": write_jsonl}


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
