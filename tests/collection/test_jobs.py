"""`classify --jobs`: worker processes over byte ranges give exactly one process's output, bad
records' numbers and lines included."""

from __future__ import annotations

import gzip
import itertools
import random
from concurrent.futures import Future

import chess
import pytest

from gbr_tui.core.code import Rule
from gbr_tui.core.collection import Collection, parallel
from gbr_tui.core.collection.parallel import byte_ranges
from gbr_tui.core.collection.readers import CollectionRequest
from gbr_tui.core.collection.records import GamePositions
from gbr_tui.core.collection.tally import Tally
from gbr_tui.core.material import Material
from tests.support.positions import placement
from tests.support.process import run_gbr
from tests.support.seeded import bad_middle_file, mixed_file, pgn_text, position_lines

KR_V_K = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"  # spec: KR v K is 0100


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


def test_a_range_may_start_with_many_bad_records(tmp_path) -> None:
    path = bad_middle_file(tmp_path)
    one = run_gbr("classify", "--jobs", "1", str(path))
    two = run_gbr("classify", "--jobs", "2", str(path))
    assert "classified 80 + bad 40" in one.stderr
    assert (two.status, two.stdout, two.stderr) == (one.status, one.stdout, one.stderr)


def test_the_ranges_start_at_records(collection_path) -> None:
    with Collection(collection_path) as collection:
        ranges = byte_ranges(collection, str(collection_path), jobs=3, at_least=1)
    assert ranges is not None and len(ranges) == 3
    assert_cut_at_records(collection_path, ranges)


def assert_cut_at_records(path, ranges: list[tuple[int, int]]) -> None:
    """The ranges cover the file one after the other, each from a record's start."""
    data = path.read_bytes()
    assert ranges[0][0] == 0 and ranges[-1][1] == len(data)
    for (_, end), (start, _) in itertools.pairwise(ranges):
        assert end == start
        if path.suffix == ".pgn":
            assert data[start:].startswith(b"[Event ") and data[:start].endswith(b"\n\n")
        else:
            assert data[start - 1 : start] == b"\n"


def done_now(task, *args) -> Future:
    """A pool's ``submit`` that runs the task at once, in this process."""
    future: Future = Future()
    future.set_result(task(*args))
    return future


def test_pieces_of_the_ranges_count_what_one_process_counts(collection_path) -> None:
    """The workers take the ranges a piece at a time; the pieces start at records and their
    tallies add up to one process's, bad records numbered and placed as in the whole file."""
    request = CollectionRequest((str(collection_path),), game_positions=GamePositions.FINAL)
    with request.open(str(collection_path), Rule.COUNT) as collection:
        ranges = byte_ranges(collection, str(collection_path), jobs=2, at_least=1)
        pieces = parallel.pieces(collection, str(collection_path), ranges, at_least=1)
        parts = list(parallel.tally_submitted(done_now, collection, str(collection_path), request, pieces, Rule.COUNT))
    assert len(pieces) == 2 * parallel.PIECES_PER_RANGE
    assert [start for start, _ in pieces[:: parallel.PIECES_PER_RANGE]] == [start for start, _ in ranges]
    assert_cut_at_records(collection_path, pieces)
    found, merged = [], Tally()
    with request.open(str(collection_path), Rule.COUNT) as collection:
        whole = collection.tally(found.append)
    for _, part in parts:
        merged.merge(part.tally)
    assert merged == whole
    assert [record for _, part in parts for record in part.bad] == found and found


def test_compressed_files_are_not_cut_into_byte_ranges(tmp_path) -> None:
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
    ``MIN_RANGE_BYTES``; a --jobs given is obeyed. (``MIN_RANGE_BYTES`` set to 64 KB here: the
    file is read whole, and 3 MB of it took seconds.)"""
    from gbr_tui.cli import prepare
    from gbr_tui.commands.classify.dispatch import BATCH_RANGE_BYTES
    from gbr_tui.core.collection import parallel

    monkeypatch.setattr(parallel, "MIN_RANGE_BYTES", 1 << 16)
    rng = random.Random(f"workers-{kind}")
    text = pgn_text(rng, 400) if kind == "pgn" else position_lines(rng, 3000, False)
    path = tmp_path / f"big.{kind}"
    path.write_text(text * (3 * parallel.MIN_RANGE_BYTES // len(text) + 1))  # more than two ranges' worth
    assert 2 * parallel.MIN_RANGE_BYTES < path.stat().st_size < 2 * BATCH_RANGE_BYTES
    monkeypatch.setattr(parallel, "default_jobs", lambda: 2)
    cut: list[int] = []
    monkeypatch.setattr(parallel, "byte_ranges", lambda *args, **kwargs: cut.append(args[2]))  # None: one process
    prepare(["classify", *options, str(path)])()
    assert (cut[0] > 1) == workers


# Folded colour twins: materials of equal count listed in the order of their men and kings,
# whatever order the classes were counted in (a worker's range may start anywhere).
# KKNP v KP (two White kings) is 0001.11 (spec: the knight digit 1, a pawn a side); its twin
# KKP v KNP is 0003.11 (Black's knight counts 3), folded with White the stronger: KNP v KKP.
TWO_WHITE_KINGS = Material((0, 0, 0, 1, 1), (0, 0, 0, 0, 1), (2, 1))
TWIN_OF_IT = Material((0, 0, 0, 0, 1), (0, 0, 0, 1, 1), (2, 1))


@pytest.mark.parametrize("first", ["0001.11", "0003.11"])
def test_folded_twins_of_equal_count_come_in_the_order_of_their_men(first) -> None:
    tally = Tally()
    for code in (first, *({"0001.11", "0003.11"} - {first})):
        tally.add(code, TWO_WHITE_KINGS if code == "0001.11" else TWIN_OF_IT)
    (row,) = tally.classes(either_colour=True)
    assert row.code == "0001.11"
    # Same men; kings (1, 2) before (2, 1).
    assert [str(material) for material, _ in row.materials] == ["KNP v KKP", "KKNP v KP"]


# The JSON summary prints the same merged tally: it runs in the slow part.
@pytest.mark.parametrize(
    "options", [pytest.param([], id="plain"), pytest.param(["--json"], marks=pytest.mark.slow, id="json")]
)
def test_two_jobs_fold_twins_as_one_does(tmp_path, options: list[str]) -> None:
    """Scattered men and some positions with two kings of a side (read by python-chess, the
    rest by the batch path), in a file that two workers cut (it must be over twice
    MIN_RANGE_BYTES, which a gbr-tui process does not let a test lower): the same folded
    summary."""
    rng = random.Random("twins")
    lines = []
    for _ in range(50_000):
        squares = rng.sample(chess.SQUARES, 13)
        kings = "KkK" if rng.random() < 0.05 else "Kk"
        men = {}
        for square, symbol in zip(squares, kings + "".join(rng.choices("NBPnbp", k=10)), strict=False):
            if symbol not in "Pp" or chess.square_rank(square) not in (0, 7):
                men[square] = symbol
        lines.append(placement(men) + " w - - 0 1")  # as chess.Board writes it, faster
    path = tmp_path / "twins.fen"
    path.write_text("\n".join(lines) + "\n")
    assert path.stat().st_size > 2 * parallel.MIN_RANGE_BYTES  # two ranges
    one = run_gbr("classify", "--either-colour", *options, "--jobs", "1", str(path))
    two = run_gbr("classify", "--either-colour", *options, "--jobs", "2", str(path))
    assert (two.status, two.stdout, two.stderr) == (one.status, one.stdout, one.stderr)
    assert "KK" in one.stdout  # positions with two kings are among the materials listed
