"""Zstandard data (Lichess's monthly ``.pgn.zst`` databases): told by its first bytes, streamed,
and read by classify, check, index and the browser; damaged data loses no whole record and its
fault is said once, as for gzip (``test_damaged_collections``)."""

from __future__ import annotations

import io
import re

import pytest
import zstandard

from gbr_tui.core.collection import BadRecord, Collection, Record
from tests.support.browser import STUDIES_CLASSES, STUDIES_PGN, browser, loaded, shown_classes
from tests.support.captions import write_epd
from tests.support.process import final_line, run_gbr

KR_V_K = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"  # spec: KR v K is 0100
TWO_PAWNS = "k7/8/8/8/8/8/pp6/K7"  # spec: 0000.02


def compress(text: str) -> bytes:
    return zstandard.ZstdCompressor().compress(text.encode())


def read(source, **options) -> list:
    with Collection(source, **options) as collection:
        return list(collection.records())


def records(items) -> list:
    return [(item.number, item.line) for item in items if isinstance(item, Record)]


def bad(items) -> list:
    return [(item.number, item.line) for item in items if isinstance(item, BadRecord)]


def test_zstd_is_told_by_its_first_bytes_not_its_name(tmp_path):
    path = tmp_path / "positions.txt"
    path.write_bytes(compress(f"{KR_V_K}\n{TWO_PAWNS}\n"))
    with Collection(path) as collection:
        assert collection.source.compression == "zstd"
        assert [(item.line, item.code) for item in collection.records()] == [(1, "0100.00"), (2, "0000.02")]


def test_a_stream_written_without_its_size_is_read(tmp_path):
    # What `zstd` writes to a pipe, and Lichess's files: frames that do not say their size.
    out = io.BytesIO()
    with zstandard.ZstdCompressor().stream_writer(out, closefd=False) as writer:
        writer.write(f"{KR_V_K}\n".encode() * 20_000)
    assert [item.code for item in read(io.BytesIO(out.getvalue()))] == ["0100.00"] * 20_000


def test_a_cut_frame_gives_every_line_the_decompressor_delivers(tmp_path):
    lines = 50_000
    data = compress(f"{KR_V_K}\n" * lines)
    cut = data[: len(data) // 2]
    # What `zstd -dc` recovers: the whole lines of what the decompressor gives for the cut data.
    whole = zstandard.ZstdDecompressor().decompressobj().decompress(cut).count(b"\n")
    assert 0 < whole < lines
    path = tmp_path / "cut.fen.zst"
    path.write_bytes(cut)
    items = read(path)
    assert records(items) == [(n, n) for n in range(1, whole + 1)]
    assert bad(items) == [(whole + 1, whole + 1)]  # the cut line, reported once with the fault
    assert "zstd data is truncated" in items[-1].reason


def test_garbage_after_the_frame_is_reported_after_its_last_record(tmp_path):
    path = tmp_path / "tail.fen.zst"
    path.write_bytes(compress(f"{KR_V_K}\n" * 100) + b"this is no zstd data\n")
    items = read(path)
    assert records(items) == [(n, n) for n in range(1, 101)]
    assert bad(items) == [(101, 101)]
    assert "data after the end of the zstd data" in items[-1].reason


def test_corrupt_data_inside_the_frame_is_a_fault_not_a_crash(tmp_path):
    # With a checksum, as `zstd` writes it: the damage is found at the latest at the frame's end.
    text = "".join(f"8/8/8/4k3/8/8/8/KR6 w - - 0 {n}\n" for n in range(1, 20_000))
    data = bytearray(zstandard.ZstdCompressor(write_checksum=True).compress(text.encode()))
    data[len(data) // 2 : len(data) // 2 + 64] = b"\xff" * 64
    items = read(io.BytesIO(bytes(data)))
    assert isinstance(items[-1], BadRecord) and "corrupt zstd data" in items[-1].reason
    assert records(items) == [(n, n) for n in range(1, len(items))]  # every record before it


def test_concatenated_frames_and_a_frame_per_game_are_read_whole(tmp_path):
    games = [f'[Event "g{n}"]\n[SetUp "1"]\n[FEN "{KR_V_K}"]\n\n1. Rb8 *\n\n' for n in range(3)]
    path = tmp_path / "games.pgn.zst"
    path.write_bytes(b"".join(compress(game) for game in games))
    assert [(item.line, item.code) for item in read(path)] == [(1, "0100.00"), (7, "0100.00"), (13, "0100.00")]


def test_a_comment_never_closed_inside_the_stream_ends_at_the_next_game(tmp_path):
    games = ['[Event "broken"]\n\n1. e4 {never closed e5\n\n2. Nf3 Nc6 *\n']
    games += [f'[Event "g{n}"]\n\n1. d4 d5 *\n' for n in range(2, 1002)]
    path = tmp_path / "games.pgn.zst"
    path.write_bytes(compress("\n".join(games)))
    items = read(path, game_positions="final")
    # The broken game is lines 1-6 (its "{" is on line 3); each later game takes 4 lines.
    assert bad(items) == [(1, 3)] and "never closed" in items[0].reason
    assert records(items) == [(n, 7 + 4 * (n - 2)) for n in range(2, 1002)]


def test_classify_reads_a_zst_file_and_zstd_on_stdin_alike(tmp_path):
    path = tmp_path / "positions.fen.zst"
    path.write_bytes(compress(f"{KR_V_K}\n{TWO_PAWNS}\n{KR_V_K}\n"))
    from_file = run_gbr("classify", str(path))
    from_stdin = run_gbr("classify", "-", stdin=path.read_bytes())
    assert final_line(from_file) == (3, 3, 0) and from_file.stdout == from_stdin.stdout
    assert re.search(r"0100\.00\s+2\s+66\.7%", from_file.stdout)
    assert re.search(r"0000\.02\s+1\s+33\.3%", from_file.stdout)


def test_check_and_index_read_a_zst_file_as_its_plain_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_epd(tmp_path / "studies.epd")
    (tmp_path / "studies.epd.zst").write_bytes(compress((tmp_path / "studies.epd").read_text()))
    plain = run_gbr("check", "studies.epd")
    packed = run_gbr("check", "studies.epd.zst")
    assert packed.stdout == plain.stdout.replace("studies.epd:", "studies.epd.zst:")
    # Seven captions, four of them wrong; one record without; two bad (test_check).
    assert packed.stderr.endswith("checked 7 = agree 3 + disagree 4 (+ unchecked 1, bad 2)\n")
    assert "wrote studies.epd.zst.gbr-index" in run_gbr("index", "studies.epd.zst").stderr
    from_index = run_gbr("check", "studies.epd.zst.gbr-index")
    assert (from_index.stdout, from_index.stderr) == (packed.stdout, packed.stderr)


@pytest.mark.parametrize("name", ["studies.pgn.zst", "studies.pgn"])
async def test_the_browser_lists_a_zst_file_classes(tmp_path, name):
    path = tmp_path / name  # the second name says nothing of the compression
    path.write_bytes(compress(STUDIES_PGN))
    async with browser(path).run_test(size=(100, 30)) as pilot:
        assert shown_classes(await loaded(pilot)) == STUDIES_CLASSES
