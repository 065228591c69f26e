"""Very long inputs: the messages stay short, time and memory grow no faster than the input."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.process import COMMAND, run_gbr

EXCERPT = 100  # characters of a long input shown around the bad spot (README: a window)
ENOUGH = 4 * EXCERPT  # one line of stderr: the place, the message and the excerpt


def test_a_long_result_text_is_kept_but_not_shown_whole() -> None:
    # 'aaa...' after the code is a result text (issue 12: kept as printed, not an error): the
    # JSON keeps it whole, the lines in words show a window of it.
    text = "0323.12 " + "a" * 1_000_000
    (record,) = map(json.loads, run_gbr("decode", "--json", stdin=text + "\n").lines)
    assert record["result"] == "a" * 1_000_000
    result = run_gbr("decode", stdin=text + "\n")
    assert result.status == 0
    (line,) = [line for line in result.lines if line.startswith("Result")]
    assert len(line) < ENOUGH


def test_a_long_bad_argument_is_not_repeated_whole() -> None:
    result = run_gbr("decode", "x" * 100_000)
    assert result.status == 1
    assert all(len(line) < ENOUGH for line in result.stderr.splitlines())


def test_json_of_a_long_bad_input_holds_a_window_of_it() -> None:
    result = run_gbr("encode", "--json", stdin="9" * 1_000_000 + "\n")
    (record,) = map(json.loads, result.lines)
    assert len(record["input"]) < ENOUGH
    # One row, not eight: python-chess wants more rows, so the spot is the placement's end.
    assert (record["offset"], record["column"]) == (1_000_000, 1_000_001)


def test_a_fen_with_millions_of_fields_costs_what_its_size_does() -> None:
    """5M extra fields (10 MB): python-chess's message repeats the FEN it is given; it is given
    seven fields. The whole command stays well under 300 MB (it took 800 MB)."""
    fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1" + " 1" * 5_000_000 + "\n"
    code = (
        "import resource, subprocess, sys; "
        "done = subprocess.run(sys.argv[1:], input=sys.stdin.buffer.read(), capture_output=True); "
        "print(done.returncode, len(done.stderr), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *COMMAND, "encode"], input=fen.encode(), capture_output=True, timeout=120
    )
    status, stderr_size, peak_kb = map(int, done.stdout.split())
    assert status == 1
    assert stderr_size < 3 * ENOUGH
    assert peak_kb < 300_000
