"""`check --jobs`: worker processes print what one process prints (each disagreement, --json,
the bad records, the summary, the exit status); a stream is cut as it is read, CSV read in one
process, as --help says."""

from __future__ import annotations

import gzip

import pytest

from tests.support.process import run_gbr
from tests.support.seeded import seeded_file

# KR v K is 0100 (spec).
KR_V_K = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"


#: Each format and position once, plain or --json in turn; the other of the two in the slow part.
CASES = [("pgn", "start", False), ("pgn", "final", True), ("epd", "start", False), ("jsonl", "start", True)]


@pytest.mark.parametrize(
    ("kind", "position", "json"),
    [
        *CASES,
        *(pytest.param(kind, position, not json, marks=pytest.mark.slow) for kind, position, json in CASES),
    ],
)
def test_two_jobs_print_what_one_prints(tmp_path, kind: str, position: str, json: bool) -> None:
    path = seeded_file(tmp_path, kind, 1)
    options = ["--json"] if json else []
    one = run_gbr("check", "--jobs", "1", "--position", position, *options, str(path))
    two = run_gbr("check", "--jobs", "2", "--position", position, *options, str(path))
    # Bad records (unreadable, or a caption that does not decode), disagreements, and agreements.
    assert one.status == 1 and ": record " in one.stderr and "(+ unchecked" in one.stderr
    assert '"agree": false' in one.stdout if json else "printed" in one.stdout
    assert (two.status, two.stdout, two.stderr) == (one.status, one.stdout, one.stderr)


def test_streams_and_csv_print_what_one_process_prints(tmp_path) -> None:
    # EPD lines (the FEN without its counters); every third caption is wrong: 0010 is a bishop.
    text = "".join(
        f'{KR_V_K[:-4]} id "p{number}"; GBR "{"0010" if number % 3 == 0 else "0100"}";\n' for number in range(400)
    )
    (tmp_path / "positions.epd.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "positions.csv").write_text("fen,GBR\n" + "".join(f"{KR_V_K},0010\n" for _ in range(400)))
    for name in ("positions.epd.gz", "positions.csv"):
        one = run_gbr("check", "--jobs", "1", str(tmp_path / name))
        two = run_gbr("check", "--jobs", "2", str(tmp_path / name))
        assert "disagree" in one.stderr and one.stdout
        assert (two.status, two.stdout, two.stderr) == (one.status, one.stdout, one.stderr)
    one = run_gbr("check", "--jobs", "1", "-", stdin=text)
    two = run_gbr("check", "--jobs", "2", "-", stdin=text)
    assert (two.status, two.stdout, two.stderr) == (one.status, one.stdout, one.stderr)
    said = " ".join(run_gbr("check", "--help").stdout.split())
    assert "a compressed file or a pipe is decompressed and cut here while the workers classify" in said
    assert "CSV is read in one" in said


def test_a_bad_job_count_is_a_usage_error(tmp_path) -> None:
    path = tmp_path / "one.epd"
    path.write_text(f'{KR_V_K} GBR "0100";\n')
    result = run_gbr("check", "--jobs", "none", str(path))
    assert result.status == 2 and "not a number of jobs" in result.stderr
