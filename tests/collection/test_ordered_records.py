"""The ordered record stream (``ordered.records_with``): worker processes over many small byte
ranges hand back what one process reads, in file order, numbers, lines and bad records included;
and no worker process is left when it is closed or cancelled part way."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
from functools import partial

import pytest

from gbr_tui.core.check import checked_record
from gbr_tui.core.code import Rule
from gbr_tui.core.collection import BadRecord, CollectionError, CollectionRequest, GamePositions, Record
from gbr_tui.core.collection.ordered import records_with
from tests.support.seeded import BAD_GAME, BAD_START, GOOD_GAME, seeded_file

KR_V_K = "8/8/8/4k3/8/8/8/KR6 w - -"  # spec: KR v K is 0100
EACH = partial(checked_record, rule=Rule.COUNT)


def read(path, jobs: int | None, range_bytes: int = 1, position: str = "start") -> list[tuple]:
    """Every (item, check) of the file: ``range_bytes=1`` makes each record a range of its own
    (a range ends at the first record start after its first byte), so that every bad record
    stands at a range's edge."""
    request = CollectionRequest((str(path),), game_positions=GamePositions(position))
    with request.open(str(path), Rule.COUNT) as collection:
        stream = records_with(collection, str(path), request, jobs, EACH, range_bytes=range_bytes)
        return [(item, found) for item, found, _ in stream]


# One seed by default; two more in the slow part.
@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow), pytest.param(2, marks=pytest.mark.slow)])
@pytest.mark.parametrize(
    ("kind", "position"),
    [("pgn", "start"), ("pgn", "final"), ("pgn", "all"), ("epd", "start"), ("fen", "start"), ("jsonl", "start")],
)
def test_many_ranges_give_what_one_process_gives(tmp_path, kind: str, position: str, seed: int) -> None:
    path = seeded_file(tmp_path, kind, seed)
    one = read(path, 1, position=position)
    many = read(path, 2, position=position)
    assert any(type(found) is str for _, found in one) or kind == "fen"  # captions that do not decode
    assert any(type(item) is BadRecord for item, _ in one)  # bad records to number and place
    assert many == one


def test_the_ranges_do_not_break_what_one_process_joins(tmp_path) -> None:
    """A game of tags alone takes the tags after its blank line for its own (pgn.split_games),
    a byte order mark at a line's start is part of that line, binary bytes in the middle are bad
    lines, and Windows line ends count once: none of it may read otherwise at a range's start."""
    games = f'[Event "Tags alone"]\n\n[Event "Its tags too"]\n[Site "x"]\n\n{GOOD_GAME}\n\n'
    games += f'[Event "Bad"]\n{BAD_START}\n{GOOD_GAME}\n\n[Event "Moves"]\n\n{BAD_GAME}\n\n' * 3
    (tmp_path / "joined.pgn").write_text(games.replace("\n", "\r\n"))
    # Enough good lines around the binary ones that the file is no binary file (source.looks_binary).
    lines = [KR_V_K] * 100 + ["\ufeff" + KR_V_K, "\x00\x01\x02\x03\x04\x05\x06\x07" * 8] + [KR_V_K] * 100
    (tmp_path / "joined.fen").write_text("\n".join(lines) + "\n")
    for position in ("start", "final"):
        one = read(tmp_path / "joined.pgn", 1, position=position)
        assert read(tmp_path / "joined.pgn", 2, position=position) == one
        assert one[0][0].headers["Site"] == "x"  # the second Event's tags in the first game
    one = read(tmp_path / "joined.fen", 1)
    assert [type(item) for item, _ in one][99:103] == [Record, BadRecord, BadRecord, Record]
    assert read(tmp_path / "joined.fen", 2) == one


@pytest.mark.parametrize("bad", [9, 10])
def test_a_file_that_starts_with_bad_records_is_judged_across_ranges(tmp_path, bad: int) -> None:
    """Ten bad records first make a file no chess collection (readers.NOT_A_COLLECTION), nine do
    not; here each is a range of its own."""
    path = tmp_path / "starts-bad.fen"
    path.write_text("\n".join(["8/8/8/8 w - -"] * bad + [KR_V_K] * 5) + "\n")
    if bad < 10:
        one = read(path, 1)
        assert len(one) == bad + 5 and read(path, 2) == one
        return
    with pytest.raises(CollectionError) as in_one:
        read(path, 1)
    with pytest.raises(CollectionError) as in_many:
        read(path, 2)
    assert in_many.value.message == in_one.value.message
    assert multiprocessing.active_children() == []


def test_progress_is_each_range_end(tmp_path) -> None:
    path = seeded_file(tmp_path, "fen", 0)
    request = CollectionRequest((str(path),))
    with request.open(str(path), Rule.COUNT) as collection:
        ends = [end for _, _, end in records_with(collection, str(path), request, 2, range_bytes=1000)]
    assert ends == sorted(ends) and ends[-1] == path.stat().st_size
    assert len(set(ends)) > 5  # about a range every thousand bytes


@pytest.mark.parametrize("how", ["closed", "cancelled"])
def test_no_worker_is_left_when_reading_stops(tmp_path, how: str) -> None:
    path = seeded_file(tmp_path, "pgn", 0)
    request = CollectionRequest((str(path),), game_positions=GamePositions.FINAL)
    with request.open(str(path), Rule.COUNT) as collection:
        stop = []
        stream = records_with(collection, str(path), request, 2, cancelled=lambda: bool(stop), range_bytes=1)
        first = list(itertools.islice(stream, 3))
        assert [item.number for item, _, _ in first] == [1, 2, 3]
        assert len(multiprocessing.active_children()) == 2
        if how == "closed":
            stream.close()
        else:
            stop.append(True)
            rest = list(stream)
            assert len(rest) < 147  # it stopped before the end
    assert multiprocessing.active_children() == []


def test_one_job_and_files_that_cannot_be_cut_are_read_here(tmp_path) -> None:
    path = seeded_file(tmp_path, "epd", 0)
    csv = tmp_path / "positions.csv"
    csv.write_text("fen,GBR\n" + "\n".join(f"{KR_V_K} 0 1,0100.00" for _ in range(50)) + "\n")
    for source, jobs in ((path, 1), (csv, 2)):
        request = CollectionRequest((str(source),))
        with request.open(str(source), Rule.COUNT) as collection:
            stream = records_with(collection, str(source), request, jobs, EACH, range_bytes=1)
            next(stream)
            assert multiprocessing.active_children() == []


def test_by_default_fen_and_epd_records_are_read_here_and_games_by_workers(tmp_path, monkeypatch) -> None:
    """FEN and EPD records come out of the batch path faster than a worker hands them back
    (check and index took more time with two workers), so by default they are read here; games
    of the same size go to workers, and ``--jobs 2`` is obeyed."""
    monkeypatch.setattr("gbr_tui.core.collection.parallel.default_jobs", lambda: 2)
    size = 2 * (1 << 20) + 1  # two workers' worth of 1 MB
    epd = tmp_path / "positions.epd"
    epd.write_text(f'{KR_V_K} id "x";\n' * (size // len(KR_V_K) + 1))
    pgn = tmp_path / "games.pgn"
    game = '[Event "x"]\n[Result "*"]\n\n1. e4 e5 *\n\n'
    pgn.write_text(game * (size // len(game) + 1))
    for source, jobs, workers in ((epd, None, False), (pgn, None, True), (epd, 2, True)):
        request = CollectionRequest((str(source),))
        with request.open(str(source), Rule.COUNT) as collection:
            stream = records_with(collection, str(source), request, jobs, EACH)
            next(stream)
            assert bool(multiprocessing.active_children()) == workers, (source.name, jobs)
            stream.close()
    assert multiprocessing.active_children() == []


def test_a_worker_that_dies_is_said_not_raised(tmp_path) -> None:
    path = seeded_file(tmp_path, "pgn", 0)
    request = CollectionRequest((str(path),), game_positions=GamePositions.FINAL)
    with request.open(str(path), Rule.COUNT) as collection:
        stream = records_with(collection, str(path), request, 2, range_bytes=1)
        next(stream)
        os.kill(multiprocessing.active_children()[0].pid, signal.SIGKILL)
        with pytest.raises(CollectionError, match="a worker process died while reading it"):
            list(stream)
    assert multiprocessing.active_children() == []
