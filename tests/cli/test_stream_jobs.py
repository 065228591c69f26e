"""`check --jobs 2` and `classify --per-record/--csv --jobs 2` on streams (a gzip or zstd file,
zstd data or plain text on stdin): the command's process decompresses and cuts, workers read;
the output is `--jobs 1`'s byte for byte, bad records, their numbers and lines, and the fault of
a stream cut short included."""

from __future__ import annotations

import gzip
import random

import pytest
import zstandard

from tests.support.process import FINAL, run_gbr
from tests.support.seeded import position_lines, with_captions


@pytest.fixture(scope="module")
def epd(tmp_path_factory) -> dict[str, bytes]:
    """12,000 EPD lines (some 600 KB: two of the ordered stream's 512 KB pieces) with captions
    right, wrong and not decoding, and bad lines: as text, gzip data cut at two thirds, zstd data."""
    rng = random.Random("stream-jobs")
    text = with_captions(position_lines(rng, 12_000, epd=True), rng, epd=True).encode()
    assert len(text) > 2 * 512 * 1024 * 0.55
    packed = gzip.compress(text)
    return {"text": text, "cut.gz": packed[: len(packed) * 2 // 3], "zst": zstandard.ZstdCompressor().compress(text)}


def test_check_on_a_cut_gzip_file_and_on_stdin(tmp_path, epd) -> None:
    path = tmp_path / "positions.epd.gz"
    path.write_bytes(epd["cut.gz"])
    one = run_gbr("check", "--jobs", "1", str(path))
    two = run_gbr("check", "--jobs", "2", str(path))
    fault = one.stderr.splitlines()[-2]
    assert "cannot read further: the gzip data is truncated" in fault and "printed" in one.stdout
    assert (two.status, two.stdout, two.stderr) == (one.status, one.stdout, one.stderr)
    piped = run_gbr("check", "--jobs", "2", "-", stdin=epd["cut.gz"])
    assert piped.stderr == one.stderr.replace(str(path), "<stdin>")
    assert piped.stdout == one.stdout.replace(str(path), "<stdin>")


def test_records_of_a_zstd_file_and_of_a_pipe(tmp_path, epd) -> None:
    path = tmp_path / "positions.epd.zst"
    path.write_bytes(epd["zst"])
    one = run_gbr("classify", "--per-record", "--jobs", "1", str(path))
    two = run_gbr("classify", "--per-record", "--jobs", "2", str(path))
    assert len(one.lines) > 10_000 and ": record " in one.stderr
    assert (two.status, two.stdout, two.stderr) == (one.status, one.stdout, one.stderr)
    one = run_gbr("classify", "--csv", "--jobs", "1", str(path))
    piped = run_gbr("classify", "--csv", "--jobs", "2", "-", stdin=epd["text"])
    assert piped.stdout == one.stdout.replace(str(path), "<stdin>")
    assert piped.stderr == one.stderr.replace(str(path), "<stdin>")


def test_records_of_a_cut_stream_are_counted_as_the_summary_counts_them(tmp_path, epd) -> None:
    """The fault is a bad record, and every record before it was read: the last line of
    --per-record is the summary's."""
    path = tmp_path / "positions.epd.gz"
    path.write_bytes(epd["cut.gz"])
    rows = run_gbr("classify", "--per-record", "--jobs", "2", str(path))
    summary = run_gbr("classify", "--jobs", "1", str(path))
    read, classified, bad = map(int, FINAL.search(summary.stderr.replace(",", "")).groups())
    assert read == classified + bad and classified == len(rows.lines)
    assert rows.stderr.splitlines()[-1] == summary.stderr.splitlines()[-1]
