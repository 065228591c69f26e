"""`index --jobs 2`: worker processes read the records (of a plain file's byte ranges, of a zstd
file's pieces) and this process writes the index: the same database, row for row, as `--jobs 1`
writes, and the same lines on stderr."""

from __future__ import annotations

import sqlite3

import pytest
import zstandard

from tests.support.process import run_gbr
from tests.support.seeded import seeded_file


def written(path, jobs: str, position: str, index) -> tuple[list[str], str]:
    result = run_gbr("index", "--jobs", jobs, "--position", position, "-o", str(index), str(path))
    assert result.status == 1 and ": record " in result.stderr  # bad records, reported
    return list(sqlite3.connect(index).iterdump()), result.stderr.replace(index.name, "INDEX")


@pytest.mark.parametrize(("codec", "position"), [("", "all"), (".zst", "final")])
def test_two_jobs_write_what_one_writes(tmp_path, codec: str, position: str) -> None:
    path = seeded_file(tmp_path, "pgn", 0)
    if codec:
        packed = path.with_name(path.name + codec)
        packed.write_bytes(zstandard.ZstdCompressor().compress(path.read_bytes()))
        path = packed
    one = written(path, "1", position, tmp_path / "one.sqlite")
    two = written(path, "2", position, tmp_path / "two.sqlite")
    assert any(line.startswith('INSERT INTO "records"') for line in one[0])
    # A caption is checked with one position of a game (start or final), not with every class.
    assert any(line.startswith('INSERT INTO "captions"') for line in one[0]) == (position == "final")
    assert two == one
