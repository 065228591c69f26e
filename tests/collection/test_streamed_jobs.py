"""`classify --jobs` on a stream (a compressed file, a pipe): this process decompresses and cuts
the text at record starts while workers classify; the output is one process's, bad records'
numbers and lines included, also when the stream is cut short."""

from __future__ import annotations

import gzip
import io
import random

import pytest
import zstandard

from gbr_tui.core.code import Rule
from gbr_tui.core.collection import Collection, streamed
from gbr_tui.core.collection.readers import CollectionRequest
from gbr_tui.core.collection.records import GamePositions
from gbr_tui.core.collection.tally import Tally
from tests.support.process import run_gbr
from tests.support.seeded import pgn_text, position_lines


def seeded_text(kind: str) -> str:
    rng = random.Random(f"stream-{kind}")
    return pgn_text(rng, 400) if kind == "pgn" else position_lines(rng, 3000, kind == "epd")


def one_and_many(data: bytes, request: CollectionRequest) -> tuple[tuple, tuple]:
    """(tally, bad records) read by one process, and by two workers over 4 KB pieces."""
    found: list = []
    with request.open(io.BytesIO(data), Rule.COUNT) as collection:
        whole = collection.tally(found.append)
    with request.open(io.BytesIO(data), Rule.COUNT) as collection:
        parts = [part for _, part in streamed.tally_stream(collection, request, Rule.COUNT, 2, piece_bytes=4096)]
    merged = Tally()
    for part in parts:
        merged.merge(part.tally)
    assert len(parts) > 5  # the stream was cut
    return (whole, found), (merged, [bad for part in parts for bad in part.bad])


@pytest.mark.parametrize(
    ("kind", "position"), [("pgn", "start"), ("pgn", "final"), ("pgn", "all"), ("epd", "start"), ("fen", "start")]
)
def test_pieces_of_a_compressed_stream_count_what_one_process_counts(kind, position) -> None:
    data = zstandard.ZstdCompressor().compress(seeded_text(kind).encode())
    request = CollectionRequest(("-",), game_positions=GamePositions(position))
    one, many = one_and_many(data, request)
    assert one[1]  # there are bad records to number
    assert many == one


def test_a_cut_stream_counts_every_whole_record_and_the_fault_once() -> None:
    data = gzip.compress(seeded_text("pgn").encode())
    request = CollectionRequest(("-",), game_positions=GamePositions.FINAL)
    one, many = one_and_many(data[: len(data) * 2 // 3], request)
    assert "truncated" in one[1][-1].reason
    assert many == one


def test_the_pieces_start_at_records_and_make_up_the_text() -> None:
    text = seeded_text("pgn")
    with Collection(io.BytesIO(zstandard.ZstdCompressor().compress(text.encode()))) as collection:
        pieces = list(streamed.pieces(collection, 4096))
    assert b"".join(pieces).decode() == text
    assert all(piece.startswith(b'[Event "Game ') for piece in pieces)


@pytest.mark.parametrize("source", ["zst", "pipe"])
def test_two_jobs_on_a_stream_print_what_one_prints(tmp_path, source) -> None:
    text = seeded_text("fen") * 30  # 2.7 MB: three pieces
    data = text.encode()
    if source == "zst":
        path = tmp_path / "lines.fen.zst"
        path.write_bytes(zstandard.ZstdCompressor().compress(data))
        args, stdin = [str(path)], b""
    else:
        args, stdin = ["-"], data
    one = run_gbr("classify", "--jobs", "1", *args, stdin=stdin)
    two = run_gbr("classify", "--jobs", "2", *args, stdin=stdin)
    assert "record 89995: not a valid FEN" in one.stderr and "read 90,000 = " in one.stderr  # 3,000 lines x 30
    assert (two.status, two.stdout, two.stderr) == (one.status, one.stdout, one.stderr)
