"""`gbr-tui encode` on stdin that is a pipe: compressed data decompressed as it comes, a line
typed answered at once, and a pipe that comes a little at a time still read by the batch path."""

from __future__ import annotations

import bz2
import gzip
import lzma
import select
import subprocess
import sys

import pytest
import zstandard

from gbr_tui.commands import common
from gbr_tui.core.batch import NUMPY_WORTH, FenEncoder
from gbr_tui.core.collection.codecs import CODECS
from tests.support.process import COMMAND, run_gbr

KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"  # spec section 3: =0323.12g3g1
KR_V_K = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"  # spec: KR v K is 0100
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  # 4888.88

COMPRESSORS = {
    "gzip": gzip.compress,
    "bz2": bz2.compress,
    "xz": lzma.compress,
    "zstd": zstandard.ZstdCompressor().compress,
}


@pytest.mark.parametrize("compress", COMPRESSORS.values(), ids=COMPRESSORS)
def test_compressed_stdin_is_decompressed(compress) -> None:
    result = run_gbr("encode", stdin=compress(f"{KUBBEL}\n{KR_V_K}\n\n{START}\n".encode()))
    assert (result.status, result.lines) == (0, ["0323.12", "0100.00", "4888.88"])


def test_every_codec_is_told_from_its_first_bytes_before_the_codecs_are_imported() -> None:
    # encode reads stdin without importing the collection package unless the start may be a codec's.
    assert all(common._may_be_compressed(codec.magic) for codec in CODECS)
    assert not any(common._may_be_compressed(text.encode()[:6]) for text in (KUBBEL, START, "Kg3 Ba2 / Kg1"))


def test_truncated_zstd_on_stdin_gives_every_whole_line_and_the_fault_once() -> None:
    lines = 20_000
    data = zstandard.ZstdCompressor().compress((f"{KR_V_K}\n" * lines).encode())
    cut = data[: len(data) // 2]
    # What `zstd -dc` recovers: the whole lines of what the decompressor gives for the cut data.
    whole = zstandard.ZstdDecompressor().decompressobj().decompress(cut).count(b"\n")
    assert 0 < whole < lines
    result = run_gbr("encode", stdin=cut)
    assert result.status == 1
    assert result.lines == ["0100.00"] * whole
    assert result.stderr.splitlines() == [
        f"gbr-tui encode: line {whole + 1}: cannot read further: the zstd data is truncated (the file ends inside it)"
    ]


def test_garbage_after_the_zstd_data_is_reported_after_its_lines() -> None:
    data = zstandard.ZstdCompressor().compress(f"{KR_V_K}\n{KUBBEL}\n".encode()) + b"not zstd\n"
    result = run_gbr("encode", stdin=data)
    assert (result.status, result.lines) == (1, ["0100.00", "0323.12"])
    assert result.stderr.startswith("gbr-tui encode: line 3: cannot read further: data after the end of the zstd")


def _read_line(stream, seconds: float = 30) -> bytes:
    ready, _, _ = select.select([stream], [], [], seconds)
    assert ready, "no answer while stdin stays open"
    return stream.readline()


def test_a_line_written_to_an_open_pipe_is_answered_at_once() -> None:
    with subprocess.Popen(
        [*COMMAND, "encode"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        for fen, code in ((KUBBEL, b"0323.12\n"), (KR_V_K, b"0100.00\n")):
            process.stdin.write(fen.encode() + b"\n")
            process.stdin.flush()  # and the pipe stays open: the answer must not wait for its end
            assert _read_line(process.stdout) == code
        process.stdin.close()
        assert process.wait(timeout=60) == 0


def test_a_pipe_that_comes_a_little_at_a_time_reaches_the_batch_path(monkeypatch) -> None:
    # numpy's import pays over the whole stream: blocks of a thousand lines are batched once the
    # encoder has been given NUMPY_WORTH lines in all (python-chess is asked only before that).
    monkeypatch.delitem(sys.modules, "gbr_tui.core.fast", raising=False)
    encoder = FenEncoder()
    block = [KR_V_K] * 1000
    vouched = [len(block) - len(encoder.vet(block).rejected) for _ in range(NUMPY_WORTH // 1000 + 2)]
    assert vouched == [0] * (NUMPY_WORTH // 1000) + [1000, 1000]
