"""Damaged collections: every record before a fault is read, the fault is reported once with its
line, and reading goes on where it can; nothing grows without bound."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import threading
import time
import tracemalloc
import zlib

import pytest

from gbr_tui.core.collection import BadRecord, Collection, Format, Record
from gbr_tui.core.collection.source import Cancelled

KR_V_K = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"  # spec: KR v K is 0100
TWO_PAWNS = "k7/8/8/8/8/8/pp6/K7"  # spec: 0000.02


def read(path, **options) -> list:
    with Collection(path, **options) as collection:
        return list(collection.records())


def records(items) -> list:
    return [(item.number, item.line) for item in items if isinstance(item, Record)]


def bad(items) -> list:
    return [(item.number, item.line) for item in items if isinstance(item, BadRecord)]


# --- compressed files ------------------------------------------------------------------------


@pytest.mark.parametrize("lines", [2_000, 50_000])
def test_a_truncated_gzip_gives_every_line_the_decompressor_delivers(tmp_path, lines):
    data = gzip.compress((f"{KR_V_K}\n" * lines).encode())
    cut = data[: len(data) // 2]
    # What `gzip -dc` recovers: the whole lines of what zlib gives for the first half.
    whole = zlib.decompressobj(31).decompress(cut).count(b"\n")
    assert 0 < whole < lines
    path = tmp_path / "cut.fen.gz"
    path.write_bytes(cut)
    items = read(path)
    assert records(items) == [(n, n) for n in range(1, whole + 1)]
    assert bad(items) == [(whole + 1, whole + 1)]  # the cut line, reported once with the fault
    assert "truncated" in items[-1].reason and f"the {whole} records before were read" in items[-1].reason


def test_tally_counts_what_a_truncated_gzip_delivers(tmp_path):
    data = gzip.compress((f"{KR_V_K}\n" * 2_000).encode())
    cut = data[: len(data) // 2]
    whole = zlib.decompressobj(31).decompress(cut).count(b"\n")
    path = tmp_path / "cut.fen.gz"
    path.write_bytes(cut)
    with Collection(path) as collection:
        tally = collection.tally()
    assert (tally.classified, tally.bad) == (whole, 1)


def test_data_after_a_gzip_member_is_reported_after_its_last_record(tmp_path):
    path = tmp_path / "tail.fen.gz"
    path.write_bytes(gzip.compress((f"{KR_V_K}\n" * 100).encode()) + b"this is no gzip data\n")
    items = read(path)
    assert records(items) == [(n, n) for n in range(1, 101)]
    assert bad(items) == [(101, 101)]
    assert "data after the end of the gzip data" in items[-1].reason


@pytest.mark.parametrize(
    "compress, padding",
    [(gzip.compress, b"\0" * 1000), (bz2.compress, b""), (lzma.compress, b"\0" * 4)],
)
def test_concatenated_members_and_zero_padding_are_read_whole(tmp_path, compress, padding):
    path = tmp_path / "two.gz"
    path.write_bytes(compress(f"{KR_V_K}\n".encode()) + compress(f"{TWO_PAWNS}\n".encode()) + padding)
    items = read(path)
    assert [(item.line, item.code) for item in items] == [(1, "0100.00"), (2, "0000.02")]


# --- PGN -------------------------------------------------------------------------------------


def test_an_unclosed_comment_ends_at_the_next_game(tmp_path):
    path = tmp_path / "games.pgn"
    games = ['[Event "broken"]\n\n1. e4 {never closed e5\n\n2. Nf3 Nc6 *\n']
    games += [f'[Event "g{n}"]\n\n1. d4 d5 *\n' for n in range(2, 1002)]
    path.write_text("\n".join(games))
    items = read(path, game_positions="final")
    # The broken game is lines 1-6 (its "{" is on line 3); each later game takes 4 lines.
    assert bad(items) == [(1, 3)]
    assert "never closed" in items[0].reason
    assert records(items) == [(n, 7 + 4 * (n - 2)) for n in range(2, 1002)]


def test_a_game_longer_than_16_mb_is_cut_and_reported(tmp_path):
    path = tmp_path / "endless.pgn"
    with path.open("w") as out:
        out.write('[Event "a"]\n\n1. e4 {\n')  # a comment never closed, and no game after it
        out.write(("x" * 99 + "\n") * 200_000)  # 20 MB
    items = read(path, game_positions="final")  # at the start, the movetext is not needed
    # The game's text is counted without line ends: "1. e4 {" is 7 characters, each line after it
    # 99; the fault is at the first line that takes it past 2**24.
    past = (2**24 - 7) // 99 + 1
    assert bad(items) == [(1, 3 + past)]
    assert "over 16 MB" in items[0].reason


def test_a_bad_fen_or_variant_tag_is_reported_at_its_line(tmp_path):
    path = tmp_path / "tags.pgn"
    path.write_text(
        '[Event "a"]\n[FEN "8/8/8/8 w - - 0 1"]\n[SetUp "1"]\n\n1. e4 *\n\n'  # lines 1-5
        '[Event "b"]\n[Site "s"]\n[Variant "no such variant"]\n\n1. e4 *\n\n'  # lines 7-11
        '[Event "c"]\n[SetUp "1"]\n\n1. e4 *\n'  # lines 13-16
    )
    items = read(path)
    assert bad(items) == [(1, 2), (2, 9), (3, 14)]


def test_an_overlong_line_in_a_game_is_reported_and_the_next_game_read(tmp_path):
    path = tmp_path / "long.pgn"
    path.write_text('[Event "a"]\n\n1. e4 ' + "x" * 2_000_000 + '\n\n[Event "b"]\n\n1. e4 *\n')
    items = read(path, game_positions="final")
    assert bad(items) == [(1, 3)] and "over 1 MB" in items[0].reason
    assert records(items) == [(2, 5)]


# --- lines that never end --------------------------------------------------------------------


def test_an_overlong_line_is_one_bad_record_and_memory_stays_bounded(tmp_path):
    path = tmp_path / "long.fen"
    with path.open("w") as out:
        out.write(f"{KR_V_K}\n")
        for _ in range(20):
            out.write("x" * 500_000)  # one 10 MB line
        out.write(f"\n{TWO_PAWNS}\n")
    tracemalloc.start()
    try:
        items = read(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert records(items) == [(1, 1), (3, 3)]
    assert bad(items) == [(2, 2)] and "over 1 MB" in items[1].reason
    assert peak < 6_000_000  # the 10 MB line is never held


def test_an_overlong_last_line_without_a_newline_is_one_bad_record(tmp_path):
    path = tmp_path / "endless.fen"
    path.write_text(f"{KR_V_K}\n" + "8" * 3_000_000)
    with Collection(path) as collection:
        tally = collection.tally()
    assert (tally.classified, tally.bad) == (1, 1)


# --- CSV -------------------------------------------------------------------------------------


def test_an_unclosed_csv_quote_is_one_bad_record_and_later_rows_are_read(tmp_path):
    path = tmp_path / "puzzles.csv"
    rows = ["id,fen", '1,"8/8/8/4k3/8/8/8/KR6 w - - 0 1'] + [f"{n},{KR_V_K}" for n in range(2, 2002)]
    path.write_text("\n".join(rows) + "\n")
    items = read(path)
    assert bad(items) == [(1, 2)] and "never closed" in items[0].reason
    assert records(items) == [(n, n + 1) for n in range(2, 2002)]


def test_an_unclosed_csv_quote_at_the_end_is_a_bad_record(tmp_path):
    path = tmp_path / "puzzles.csv"
    path.write_text(f'id,fen\n1,{KR_V_K}\n2,"{KR_V_K}\n')
    items = read(path)
    assert records(items) == [(1, 2)]
    assert bad(items) == [(2, 3)]


def test_a_quoted_csv_field_may_span_lines(tmp_path):
    path = tmp_path / "notes.csv"
    path.write_text(f'fen,note\n{KR_V_K},"two\nlines"\n{KR_V_K},plain\n')
    assert records(read(path)) == [(1, 2), (2, 4)]


def test_a_huge_csv_field_is_a_bad_record_not_a_crash(tmp_path):
    path = tmp_path / "big.csv"
    path.write_text(f'fen,note\n{KR_V_K},"{"n" * 200_000}"\n{KR_V_K},plain\n')
    items = read(path)
    assert bad(items) == [(1, 2)]
    assert records(items) == [(2, 3)]


@pytest.mark.parametrize("column", ["\u0663", "\u00b2"])  # ARABIC-INDIC DIGIT THREE, SUPERSCRIPT TWO
def test_only_ascii_digits_are_a_column_number(tmp_path, column):
    path = tmp_path / "puzzles.csv"
    path.write_text(f"a,b,fen\nx,y,{KR_V_K}\n")
    from gbr_tui.core.collection import CollectionError

    with pytest.raises(CollectionError, match="no column named"):
        read(path, fen_column=column)


# --- format detection ------------------------------------------------------------------------


def test_an_epd_whose_first_line_is_bad_is_read_as_epd(tmp_path):
    path = tmp_path / "tests.epd"
    path.write_text(f'garbage\n{KR_V_K.rsplit(" ", 2)[0]} id "a";\n{TWO_PAWNS} b - - id "b";\n')
    with Collection(path) as collection:
        assert collection.format == Format.EPD
        items = list(collection.records())
    assert bad(items) == [(1, 1)]
    assert [item.headers["id"] for item in items if isinstance(item, Record)] == ["a", "b"]


# --- not chess at all ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 40,  # an executable's start
        b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(128, 256)) * 80,  # a JPEG's start
        b"\x00" * 100_000,  # a NUL file, no newline
    ],
    ids=["elf", "jpeg", "nul"],
)
def test_binary_data_is_not_a_chess_collection(tmp_path, data):
    path = tmp_path / "data.fen"
    path.write_bytes(data)
    from gbr_tui.core.collection import CollectionError

    with pytest.raises(CollectionError, match="not a chess collection"):
        read(path)


def test_binary_data_inside_gzip_is_not_a_chess_collection(tmp_path):
    path = tmp_path / "data.gz"
    path.write_bytes(gzip.compress(b"\x00\x01\x02\x03" * 10_000))
    from gbr_tui.core.collection import CollectionError

    with pytest.raises(CollectionError, match="not a chess collection: binary data \\(after gzip"):
        read(path)


def test_a_corrupt_bz2_stops_at_once_with_its_reason(tmp_path):
    data = bytearray(bz2.compress((f"{KR_V_K}\n" * 10_000).encode()))
    for at in range(60, 80):  # inside the first block's Huffman-coded data
        data[at] ^= 0x55
    path = tmp_path / "bad.fen.bz2"
    path.write_bytes(bytes(data))
    items = read(path)
    assert len(items) == 1 and "corrupt bz2 data" in items[0].reason


def test_a_bz2_with_a_damaged_signature_is_refused_not_read_as_text(tmp_path):
    data = bz2.compress("".join(f"{n}. {KR_V_K}\n" for n in range(10_000)).encode())
    path = tmp_path / "bad.fen.bz2"
    path.write_bytes(b"BZx" + data[3:])
    from gbr_tui.core.collection import CollectionError

    with pytest.raises(CollectionError, match="not a chess collection: binary data \\(corrupt bz2 data"):
        read(path)


def test_latin1_accents_are_not_binary(tmp_path):
    path = tmp_path / "names.pgn"
    path.write_bytes('[Event "a"]\n[White "Müller, Jörg"]\n\n1. e4 *\n'.encode("latin-1"))
    assert len(read(path)) == 1  # one game, bad for its bytes, but read


def test_a_pipe_is_read_whole_when_given_a_way_to_give_up(tmp_path):
    # The browser's way of reading pipes and devices: what the writer sends is all read.
    fifo = tmp_path / "positions.fen"
    os.mkfifo(fifo)
    lines = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1\n" * 3  # K+R v K: 0100.00 (spec section 2)

    def write() -> None:
        with open(fifo, "w") as writer:
            writer.write(lines)

    writer = threading.Thread(target=write)
    writer.start()
    with Collection(str(fifo), cancelled=lambda: False) as collection:
        codes = [item.code for item in collection.records()]
    writer.join(5)
    assert codes == ["0100.00"] * 3


def test_a_pipe_nobody_writes_to_is_given_up_when_asked(tmp_path):
    fifo = tmp_path / "silent.fen"
    os.mkfifo(fifo)
    give_up = threading.Event()
    threading.Timer(0.3, give_up.set).start()
    started = time.monotonic()
    with pytest.raises(Cancelled):
        Collection(str(fifo), cancelled=give_up.is_set)
    assert time.monotonic() - started < 5
