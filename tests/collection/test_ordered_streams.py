"""The ordered record stream (``ordered.records_with``) and the count (``streamed.tally_stream``)
on a stream (a compressed file, a pipe): this process decompresses and cuts the text at record
starts while workers read the pieces; the items are one process's, numbers, lines, bad records
and the fault of a stream cut short included, wherever the cut falls (in a game's tags, in its
wrapped movetext, in a comment over a blank line, between two games)."""

from __future__ import annotations

import gzip
import io
import multiprocessing
import random
import re
from concurrent.futures import Future
from functools import partial

import pytest
import zstandard

from gbr_tui.core.check import checked_record
from gbr_tui.core.code import Rule
from gbr_tui.core.collection import BadRecord, CollectionRequest, GamePositions, Record, ordered, streamed
from gbr_tui.core.collection.tally import Tally
from tests.support.pgn_shapes import capture_game, lichess_game
from tests.support.seeded import CAPTIONS, pgn_text, position_lines, with_captions

EACH = partial(checked_record, rule=Rule.COUNT)
PIECE = 2048  # bytes a piece: many pieces of a small text


def mixed_games() -> str:
    """Seeded games of three kinds in turn: bad ones and comments over a blank line
    (``pgn_text``), Lichess's one-line movetext with clock comments, wrapped capture games;
    each with a caption."""
    rng = random.Random("ordered-streams")
    parts = []
    for number in range(12):
        parts.append(pgn_text(rng, 3).replace('[Event "Game ', f'[Event "Game {number}-'))
        parts.append(lichess_game(rng, number))
        parts.append(capture_game(rng, number) + "\n")
    # Captions right, wrong and not decoding (KR v K's: seeded.CAPTIONS) for the check to give.
    return re.sub(r'(\[Site "[^"]*"\]\n)', lambda found: f'{found[1]}[GBR "{rng.choice(CAPTIONS)}"]\n', "".join(parts))


TEXT = mixed_games().encode()


class _Here:
    """A process pool that runs each task at once in this process: many cuts read cheaply."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def submit(self, task, *args, **kwargs) -> Future:
        future: Future = Future()
        future.set_result(task(*args, **kwargs))
        return future

    def shutdown(self, wait: bool = True) -> None:
        pass

    def __enter__(self) -> _Here:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def items(data: bytes, request: CollectionRequest, jobs: int) -> list[tuple]:
    with request.open(io.BytesIO(data), Rule.COUNT) as collection:
        read = ordered.RecordsRead()
        found = [
            (item, check)
            for item, check, _ in ordered.records_with(
                collection, "-", request, jobs, EACH, range_bytes=PIECE, read=read
            )
        ]
        return [*found, (read.records, read.faults)]


def counts(data: bytes, request: CollectionRequest, jobs: int) -> tuple[Tally, list[BadRecord]]:
    with request.open(io.BytesIO(data), Rule.COUNT) as collection:
        if jobs == 1:
            bad: list[BadRecord] = []
            return collection.tally(bad.append), bad
        tally = Tally()
        bad = []
        for _, part in streamed.tally_stream(collection, request, Rule.COUNT, jobs, piece_bytes=PIECE):
            tally.merge(part.tally)
            bad.extend(part.bad)
        return tally, bad


def test_the_text_is_cut_into_many_pieces_at_game_starts() -> None:
    with CollectionRequest(("-",)).open(io.BytesIO(gzip.compress(TEXT)), Rule.COUNT) as collection:
        pieces = list(streamed.pieces(collection, PIECE))
    assert len(pieces) > 10 and b"".join(pieces) == TEXT
    assert all(piece.startswith(b"[Event ") for piece in pieces)


@pytest.mark.parametrize("position", ["start", "final", pytest.param("all", marks=pytest.mark.slow)])
def test_every_cut_of_a_stream_reads_as_one_process_reads_it(monkeypatch, position: str) -> None:
    """Thirty cuts of the gzip data, the pieces read in this process (``_Here``): the records
    and counts of two jobs are one job's, the fault last."""
    monkeypatch.setattr(ordered, "ProcessPoolExecutor", _Here)
    monkeypatch.setattr(streamed, "ProcessPoolExecutor", _Here)
    request = CollectionRequest(("-",), game_positions=GamePositions(position))
    data = gzip.compress(TEXT)
    for cut in range(len(data) // 40, len(data), len(data) // 30):
        one = items(data[:cut], request, 1)
        assert items(data[:cut], request, 2) == one, cut
        assert "truncated" in one[-2][0].reason and one[-1][1] == 1  # the fault, last
        assert counts(data[:cut], request, 2) == counts(data[:cut], request, 1), cut
    whole = items(data, request, 1)
    assert any(type(item) is BadRecord for item, _ in whole) and any(type(found) is str for _, found in whole)
    assert items(data, request, 2) == whole


@pytest.fixture(scope="module")
def epd_zst() -> bytes:
    """EPD lines with captions (right, wrong, not decoding) and bad lines, as zstd data of
    more than one block (128 KB), so that a cut keeps the blocks before it."""
    rng = random.Random("ordered-streams-epd")
    text = with_captions(position_lines(rng, 5000, epd=True), rng, epd=True)
    return zstandard.ZstdCompressor().compress(text.encode())


@pytest.mark.parametrize("cut", [False, True])
def test_workers_read_a_stream_in_order(epd_zst: bytes, cut: bool) -> None:
    """Two worker processes (a pool of them), the stream whole or cut short."""
    data = epd_zst[: len(epd_zst) * 2 // 3] if cut else epd_zst
    request = CollectionRequest(("-",))
    one = items(data, request, 1)
    assert items(data, request, 2) == one
    assert [type(item) for item, _ in one[:-1]].count(Record) > 100
    assert ("truncated" in str(one[-2][0])) == cut
    assert multiprocessing.active_children() == []
