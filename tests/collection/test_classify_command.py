"""`gbr-tui classify` run as a user runs it: exit codes, output, the final line."""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import re
import subprocess
import sys

import pytest

from tests.support.process import COMMAND, final_line, run_gbr

KR_V_K = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"  # spec: KR v K is 0100
KRP_V_KR = "8/8/8/4k3/8/1r6/P7/KR6 w - - 0 1"  # spec: KRP v KR is 0400.10
TWO_QUEENS = "k7/8/8/8/8/8/8/KQQ5 w - - 0 1"  # spec 5.2: 2000 by count, 9000 by the promoted rule


@pytest.fixture
def positions(tmp_path):
    path = tmp_path / "positions.fen"
    path.write_text(f"{KRP_V_KR}\n{KR_V_K}\n{KRP_V_KR}\n")
    return path


def test_summary_table_sorted_by_code(positions):
    result = run_gbr("classify", str(positions))
    assert result.status == 0
    rows = [line.split() for line in result.stdout.splitlines() if re.match(r"\s*\d{4}", line)]
    # Two of three records are KRP v KR (0400.10), one KR v K (0100.00); codes sort as strings.
    assert rows == [["0100.00", "1", "33.3%", "KR", "v", "K"], ["0400.10", "2", "66.7%", "KRP", "v", "KR"]]
    assert "class" in result.stdout and "material" in result.stdout
    assert final_line(result) == (3, 3, 0)
    assert "\r" not in result.stderr  # no progress bar when stderr is not a terminal


def test_per_record_json_lines(positions):
    result = run_gbr("classify", "--per-record", "--short", str(positions))
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["record"], r["line"], r["code"], r["material"]) for r in records] == [
        (1, 1, "0400.10", "KRP v KR"),
        (2, 2, "0100", "KR v K"),
        (3, 3, "0400.10", "KRP v KR"),
    ]
    assert records[0]["file"] == str(positions)


def test_csv_output_with_pgn_headers_and_match(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(
        '[Event "One"]\n[White "A"]\n[Black "B"]\n\n1. e4 d5 2. exd5 *\n\n'
        '[Event "Two"]\n[FEN "' + KRP_V_KR + '"]\n\n1. a4 *\n'
    )
    result = run_gbr("classify", "--csv", "--match", "04*", "--position", "final", str(path))
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    # Game one ends as 4888.87 (2. exd5 took a pawn): only game two (0400.10) matches 04*.
    assert [(r["record"], r["line"], r["code"], r["Event"], r["ply"]) for r in rows] == [
        ("2", "7", "0400.10", "Two", "1")
    ]
    assert rows[0]["FEN"] == KRP_V_KR
    assert final_line(result) == (2, 2, 0)


def test_rule_option(tmp_path):
    path = tmp_path / "queens.fen"
    path.write_text(TWO_QUEENS + "\n")
    assert "2000.00" in run_gbr("classify", str(path)).stdout
    assert "9000.00" in run_gbr("classify", "--rule", "promoted", str(path)).stdout


def test_bad_records_reported_with_file_and_line_and_exit_1(tmp_path):
    path = tmp_path / "mixed.fen"
    path.write_bytes(f"{KR_V_K}\nnot a fen\n{KR_V_K}\n8/8/\xff\n".encode("latin-1"))
    result = run_gbr("classify", str(path))
    assert result.status == 1
    assert f"{path}:2: record 2:" in result.stderr
    assert f"{path}:4: record 4:" in result.stderr and "UTF-8" in result.stderr
    assert final_line(result) == (4, 2, 2)
    assert "0100.00" in result.stdout


def test_several_files_and_stdin_compressed(tmp_path, positions):
    data = gzip.compress(f"{KR_V_K}\n".encode())
    result = run_gbr("classify", str(positions), "-", stdin=data)
    assert result.status == 0
    assert final_line(result) == (4, 4, 0)
    assert re.search(r"0100\.00\s+2\s+50\.0%", result.stdout)


def test_all_positions_count_games_not_classes(tmp_path):
    path = tmp_path / "game.pgn"
    path.write_text("1. e4 d5 2. exd5 Qxd5 *\n")
    result = run_gbr("classify", "--position", "all", str(path))
    # One game passing through three classes: 4888.88, 4888.87 and 4888.77.
    assert [line.split()[0] for line in result.stdout.splitlines() if line.startswith("4888")] == [
        "4888.77",
        "4888.87",
        "4888.88",
    ]
    assert final_line(result) == (1, 1, 0)


@pytest.mark.parametrize(
    "args, message",
    [
        (["absent.pgn"], "absent.pgn: no such file"),
        (["."], "is a directory"),
        (["--match", "04.10", "FILE"], "4 piece digits"),
        (["--format", "tsv", "FILE"], "invalid choice"),
        (["--fen-column", "Position", "CSV"], "no column named 'Position'"),
        ([], "required"),
    ],
)
def test_usage_errors_exit_2_without_traceback(tmp_path, positions, args, message):
    table = tmp_path / "table.csv"
    table.write_text(f"id,FEN\n1,{KR_V_K}\n")
    args = [{"FILE": str(positions), "CSV": str(table)}.get(arg, arg) for arg in args]
    result = run_gbr("classify", *args, cwd=tmp_path)  # which also finds no traceback
    assert result.status == 2
    assert message in result.stderr


def test_dev_null_is_read_as_an_empty_collection():
    result = run_gbr("classify", "/dev/null")
    assert result.status == 0, result.stderr
    assert final_line(result) == (0, 0, 0)


def test_dev_stdin_and_a_pipe_are_read(tmp_path):
    result = run_gbr("classify", "/dev/stdin", stdin=f"{KR_V_K}\n{KRP_V_KR}\n".encode())
    assert final_line(result) == (2, 2, 0)
    fifo = tmp_path / "positions.fifo"
    os.mkfifo(fifo)
    process = subprocess.Popen([*COMMAND, "classify", str(fifo)], stderr=subprocess.PIPE)
    fifo.write_text(f"{KR_V_K}\n")
    err = process.communicate(timeout=60)[1].decode()
    assert process.returncode == 0 and "read 1 = classified 1 + bad 0" in err


@pytest.mark.parametrize("column", ["\u0663", "\u00b2"])  # ARABIC-INDIC THREE, SUPERSCRIPT TWO
def test_a_column_number_is_ascii_digits_only(tmp_path, column):
    path = tmp_path / "puzzles.csv"
    path.write_text(f"a,b,fen\nx,y,{KR_V_K}\n")
    result = run_gbr("classify", "--fen-column", column, str(path))
    assert result.status == 2
    assert f"no column named {column!r}" in result.stderr


def test_a_huge_csv_field_is_a_bad_record(tmp_path):
    path = tmp_path / "big.csv"
    path.write_text(f'fen,note\n{KR_V_K},"{"n" * 200_000}"\n{KR_V_K},plain\n')
    result = run_gbr("classify", str(path))
    assert final_line(result) == (2, 1, 1)
    assert f"{path}:2: record 1:" in result.stderr


def test_binary_file_is_refused_at_once():
    result = run_gbr("classify", sys.executable)
    assert result.status == 2
    assert result.stderr.count("\n") == 1 and "not a chess collection" in result.stderr


def test_stderr_that_is_no_terminal_is_written_without_rich(tmp_path):
    """Not a terminal: classify writes its messages itself and does not import rich; they are
    the very bytes rich's Console writes (``TTY_COMPATIBLE=0`` asks for rich's Console, which
    then finds no terminal), bad records with odd characters and cut reasons among them."""
    path = tmp_path / "mixed.fen"
    lines = [KR_V_K, "not a fen \x1b[2J", "8/8/8/4k3/8/8/8/KR6 w - - 0 1 é…", KRP_V_KR, "x" * 400, "\tK7/8 w"]
    path.write_text("\n".join(lines) + "\n")
    program = (
        "import sys; from gbr_tui.cli import prepare; code = prepare(['classify', sys.argv[1]])(); "
        "print(sorted(name for name in sys.modules if name.split('.')[0] == 'rich'), file=sys.stderr)"
    )
    plain_env = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    runs = [
        subprocess.run([sys.executable, "-c", program, str(path)], capture_output=True, env=env)
        for env in (plain_env, {**plain_env, "TTY_COMPATIBLE": "0"})
    ]
    plain, rich = (run.stderr.decode().splitlines() for run in runs)
    assert plain[-1] == "[]" and rich[-1] != "[]"  # the modules of rich each loaded
    assert plain[:-1] == rich[:-1]
    assert plain[-2] == "read 6 = classified 2 + bad 4"
    assert runs[0].stdout == runs[1].stdout


#: The issue's position without a Black king (KP v R, 0300.10: a Black rook counts 3, one White
#: pawn), Kubbel's study (0323.12, spec section 3) and two White kings against one (0000.00).
NOT_LEGAL_FENS = [
    "8/8/1KP5/3r4/8/8/8/8 w - - 0 1",
    "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1",
    "8/8/8/8/8/8/8/KK5k w - - 0 1",
]


def test_positions_without_one_king_a_side_are_counted_and_said(tmp_path):
    """Fails before: they were in "classified" and not a word said, where the editor warns."""
    path = tmp_path / "kings.fen"
    path.write_text("\n".join(NOT_LEGAL_FENS) + "\n")
    result = run_gbr("classify", str(path))
    assert "2 positions are not legal (no king, or more than one, on a side)" in result.stderr
    assert final_line(result) == (3, 3, 0)  # still classified: their codes are defined
    rows = [json.loads(line) for line in run_gbr("classify", "--per-record", str(path)).lines]
    assert [row.get("warnings") for row in rows] == [["Black has no king"], None, ["a side has more than one king"]]


def test_positions_without_one_king_a_side_are_counted_in_a_big_file_and_across_jobs(tmp_path):
    """Numpy's batch path (thousands of lines) and worker processes count them too."""
    path = tmp_path / "many.fen"
    path.write_text("\n".join(NOT_LEGAL_FENS * 4000) + "\n")
    for jobs in ("1", "2"):
        result = run_gbr("classify", "--jobs", jobs, str(path))
        assert "8,000 positions are not legal" in result.stderr, jobs
        assert result.stderr.splitlines()[-1] == "read 12,000 = classified 12,000 + bad 0"
