"""`classify --jobs`: worker processes over byte ranges give exactly one process's output, bad
records' numbers and lines included."""

from __future__ import annotations

import gzip
import itertools
import random

import pytest

from gbr_tui.core.collection import Collection
from gbr_tui.core.collection.parallel import byte_ranges
from tests.cli.process import run_gbr

KR_V_K = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"  # spec: KR v K is 0100
GOOD_GAME = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 *"
BAD_GAME = "1. e4 e5 2. Ke3 Nc6 *"  # 2. Ke3 is no legal move
BAD_START = '[SetUp "1"]\n[FEN "8/8/8/4k3/8/8/8/KR7 w - - 0 1"]\n'  # nine squares on the first rank
RESULTS = ("1-0", "1/2-1/2", "0-1", "*")


def pgn_text(rng: random.Random, games: int) -> str:
    parts = []
    for number in range(1, games + 1):
        movetext = BAD_GAME if rng.random() < 0.05 else GOOD_GAME
        # A bad start position is a bad record in every --position; a bad move only past the start.
        start = BAD_START if rng.random() < 0.03 else ""
        result = rng.choice(RESULTS)
        comment = " {a comment\n\nover a blank line}" if rng.random() < 0.05 else ""
        parts.append(f'[Event "Game {number}"]\n[Site "Here"]\n[Result "{result}"]\n{start}\n{movetext}{comment}\n\n')
    return "".join(parts)


def position_lines(rng: random.Random, lines: int, epd: bool) -> str:
    fens = ["8/8/8/4k3/8/8/8/KR6 w - -", "8/8/8/4k3/8/1r6/P7/KR6 b - -", "k7/8/8/8/8/8/8/KQQ5 w - -"]
    out = []
    for number in range(lines):
        fen = rng.choice(fens)
        if rng.random() < 0.03:
            fen = fen.replace("/", "9/", 1)  # a bad rank
        elif rng.random() < 0.02:
            out.append("")  # a blank line: no record
        out.append(f'{fen} id "p{number}";' if epd else f"{fen} 0 1")
    return "\n".join(out) + "\n"


def mixed_file(directory, kind: str):
    rng = random.Random(kind)
    text = pgn_text(rng, 400) if kind == "pgn" else position_lines(rng, 3000, kind == "epd")
    path = directory / f"mixed.{kind}"
    path.write_text(text)
    return path


@pytest.fixture(params=["pgn", "epd", "fen"])
def collection_path(request, tmp_path):
    return mixed_file(tmp_path, request.param)


@pytest.mark.parametrize(
    ("kind", "position"), [("pgn", "start"), ("pgn", "final"), ("pgn", "all"), ("epd", "start"), ("fen", "start")]
)
def test_two_jobs_print_what_one_prints(tmp_path, kind: str, position: str) -> None:
    path = mixed_file(tmp_path, kind)
    one = run_gbr("classify", "--jobs", "1", "--position", position, str(path))
    two = run_gbr("classify", "--jobs", "2", "--position", position, str(path))
    assert "record" in one.stderr  # there are bad records to number
    assert (two.status, two.stdout, two.stderr) == (one.status, one.stdout, one.stderr)


def bad_middle_file(directory):
    """Good games around a run of bad ones, so that a range cut at the middle starts with more
    bad records than a file may start with and still be a chess collection (readers.py:
    NOT_A_COLLECTION)."""
    path = directory / "bad-middle.pgn"
    games = [(BAD_START if 40 <= number < 80 else "", GOOD_GAME) for number in range(120)]
    path.write_text(
        "".join(f'[Event "Game {number}"]\n{start}\n{moves}\n\n' for number, (start, moves) in enumerate(games))
    )
    return path


def test_a_range_may_start_with_many_bad_records(tmp_path) -> None:
    path = bad_middle_file(tmp_path)
    one = run_gbr("classify", "--jobs", "1", str(path))
    two = run_gbr("classify", "--jobs", "2", str(path))
    assert "classified 80 + bad 40" in one.stderr
    assert (two.status, two.stdout, two.stderr) == (one.status, one.stdout, one.stderr)


def test_the_ranges_start_at_records(collection_path) -> None:
    with Collection(collection_path) as collection:
        ranges = byte_ranges(collection, str(collection_path), jobs=3, at_least=1)
    data = collection_path.read_bytes()
    assert ranges is not None and len(ranges) == 3
    assert ranges[0][0] == 0 and ranges[-1][1] == len(data)
    for (_, end), (start, _) in itertools.pairwise(ranges):
        assert end == start
        if collection_path.suffix == ".pgn":
            assert data[start:].startswith(b"[Event ") and data[:start].endswith(b"\n\n")
        else:
            assert data[start - 1 : start] == b"\n"


def test_compressed_files_are_read_in_one_process(tmp_path) -> None:
    path = tmp_path / "many.fen.gz"
    path.write_bytes(gzip.compress((KR_V_K + "\n").encode() * 1000))
    with Collection(path) as collection:
        assert byte_ranges(collection, str(path), jobs=2, at_least=1) is None
    result = run_gbr("classify", "--jobs", "2", str(path))
    assert "0100.00" in result.stdout and "classified 1,000" in result.stderr


def test_a_bad_job_count_is_a_usage_error(tmp_path) -> None:
    path = tmp_path / "one.fen"
    path.write_text(KR_V_K + "\n")
    result = run_gbr("classify", "--jobs", "0", str(path))
    assert result.status == 2 and "not a number of jobs" in result.stderr


@pytest.mark.parametrize(
    ("kind", "options", "workers"), [("fen", [], False), ("fen", ["--jobs", "2"], True), ("pgn", [], True)]
)
def test_fen_files_below_a_batch_range_a_worker_are_read_in_one_process(tmp_path, monkeypatch, kind, options, workers):
    """By default a FEN (or EPD) file is cut for workers only from ``BATCH_RANGE_BYTES`` a
    worker (the batch path reads it fast: a second process did not pay); a PGN file from
    ``MIN_RANGE_BYTES``; a --jobs given is obeyed."""
    from gbr_tui.cli import prepare
    from gbr_tui.commands import classify
    from gbr_tui.core.collection import parallel

    rng = random.Random(f"workers-{kind}")
    text = pgn_text(rng, 400) if kind == "pgn" else position_lines(rng, 3000, False)
    path = tmp_path / f"big.{kind}"
    path.write_text(text * (3 * parallel.MIN_RANGE_BYTES // len(text) + 1))  # more than 2 MB
    assert path.stat().st_size < 2 * classify.BATCH_RANGE_BYTES
    monkeypatch.setattr(parallel, "default_jobs", lambda: 2)
    cut: list[int] = []
    monkeypatch.setattr(parallel, "byte_ranges", lambda *args, **kwargs: cut.append(args[2]))  # None: one process
    prepare(["classify", *options, str(path)])()
    assert (cut[0] > 1) == workers
