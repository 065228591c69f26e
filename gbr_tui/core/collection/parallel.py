"""Counting one file's classes in worker processes: the file cut into byte ranges at record starts.

A FEN or EPD range starts at a line start; a PGN range at ``[Event`` at the start of a line
after a blank line (where ``pgn.split_games`` starts a game too, even after a comment left
open). Each worker tallies its range as a collection of its own; its bad records' numbers and
lines are then shifted by the records and lines of the ranges before it, so the results are the
ones a single process gives. Compressed files, pipes and CSV (whose header is in the first
range only) are read in one process. ``cluster`` hands the same tasks to a Dask cluster.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import itertools
import os
import re
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field

from gbr_tui.core.code import Rule
from gbr_tui.core.collection.readers import Collection, CollectionRequest
from gbr_tui.core.collection.records import BadRecord, Format
from gbr_tui.core.collection.tally import Tally

#: A file is cut into as many ranges as jobs, of at least this many bytes each.
MIN_RANGE_BYTES = 1 << 20
_LOOK_AHEAD = 1 << 16  # bytes read at a time when looking for a record start
_GAME_START = re.compile(rb"\n[ \t\r]*\n(?=\[Event )")
_GAME_LINE = re.compile(r"game from line (\d+): ")  # how a bad game's reason starts (readers.py)


@dataclass
class RangeTally:
    """What a worker found in its range: the counts, the bad records (numbered from the
    range's start), and how many lines and records the range holds."""

    tally: Tally
    bad: list[BadRecord] = field(default_factory=list)
    lines: int = 0
    records: int = 0


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def one_process_reason(collection: Collection) -> str | None:
    """Why a collection cannot be cut into byte ranges (compressed, a pipe, CSV), or None."""
    if collection.source.compression:
        return "compressed"
    if collection.size is None:
        return "a pipe or stdin"
    if collection.format == Format.CSV:
        return "CSV (its header is in the first range only)"
    return None


def byte_ranges(
    collection: Collection, path: str, jobs: int, at_least: int = MIN_RANGE_BYTES
) -> list[tuple[int, int]] | None:
    """Where to cut the collection's file (at ``path``) for ``jobs`` workers, in ranges of at
    least ``at_least`` bytes; None when it is read in one process (one job, a small, compressed
    or CSV file, a pipe)."""
    size = collection.size
    if jobs <= 1 or one_process_reason(collection) is not None:
        return None
    parts = min(jobs, size // max(at_least, 1))
    if parts <= 1:
        return None
    cuts = [0]
    with open(path, "rb") as raw:
        for part in range(1, parts):
            cut = _record_start(raw, max(size * part // parts, cuts[-1]), collection.format)
            if cut is not None and cut < size and cut > cuts[-1]:
                cuts.append(cut)
    cuts.append(size)
    return list(itertools.pairwise(cuts)) if len(cuts) > 2 else None


def _record_start(raw: io.BufferedReader, offset: int, format: Format) -> int | None:
    """The first record start at or after ``offset`` (never 0), None if there is none."""
    raw.seek(max(offset - 1, 0))
    carry = b""
    base = raw.tell()
    while chunk := raw.read(_LOOK_AHEAD):
        data = carry + chunk
        if format == Format.PGN:
            found = _GAME_START.search(data)
            if found is not None:
                return base + found.end()
            keep = min(len(data), 64)  # a blank line and "[Event " may straddle two chunks
        else:
            end = data.find(b"\n")
            if end >= 0:
                return base + end + 1
            keep = 0
        base += len(data) - keep
        carry = data[len(data) - keep :] if keep else b""
    return None


class _Range(io.RawIOBase):
    """Bytes ``start`` to ``end`` of a file, as a stream of their own."""

    def __init__(self, path: str, start: int, end: int) -> None:
        self._file = open(path, "rb")
        self._file.seek(start)
        self._left = end - start

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._left <= 0:
            return 0
        view = memoryview(buffer)[: min(len(buffer), self._left)]
        count = self._file.readinto(view)
        self._left -= count
        return count

    def close(self) -> None:
        self._file.close()
        super().close()


def tally_range(
    request: CollectionRequest, path: str, name: str, start: int, end: int, rule: Rule, either_colour: bool
) -> RangeTally:
    """A worker's job: the tally of one byte range (its format given: it is told from the file's
    start, not from the range's)."""
    found: list[BadRecord] = []
    stream = io.BufferedReader(_Range(path, start, end))
    with request.open(stream, rule, name=name) as collection:
        if start > 0:  # whether the file is a chess collection at all is told from its start only
            collection._classified_any = True
        tally = collection.tally(found.append, either_colour=either_colour)
        return RangeTally(tally, found, collection.source.line, collection._number)


def tally_in_ranges(
    collection: Collection,
    path: str,
    request: CollectionRequest,
    ranges: list[tuple[int, int]],
    rule: Rule,
    jobs: int,
    either_colour: bool = False,
) -> Iterator[tuple[int, RangeTally]]:
    """(end offset, tally) of each range in file order, its bad records numbered and placed as
    in the whole file, computed by up to ``jobs`` worker processes."""
    if collection.format in (Format.FEN, Format.EPD):
        importlib.import_module("gbr_tui.core.fast")  # once, here: forked workers inherit numpy
    with ProcessPoolExecutor(max_workers=min(jobs, len(ranges))) as pool:
        yield from tally_submitted(pool.submit, collection, path, request, ranges, rule, either_colour)


def tally_submitted(
    submit: Callable[..., Future],
    collection: Collection,
    path: str,
    request: CollectionRequest,
    ranges: list[tuple[int, int]],
    rule: Rule,
    either_colour: bool = False,
) -> Iterator[tuple[int, RangeTally]]:
    """``tally_in_ranges`` with each range's ``tally_range`` handed to ``submit`` (a process
    pool's, or a Dask client's: anything whose futures have ``result()``)."""
    request = dataclasses.replace(request, format=collection.format)
    lines = records = 0
    name = collection.name
    futures = [submit(tally_range, request, path, name, start, end, rule, either_colour) for start, end in ranges]
    for (_, end), future in zip(ranges, futures):
        part = future.result()
        part.bad = [BadRecord(bad.number + records, bad.line + lines, _shifted(bad.reason, lines)) for bad in part.bad]
        lines += part.lines
        records += part.records
        yield end, part


def _shifted(reason: str, lines: int) -> str:
    """A bad game's reason names the line its game starts on: counted from the file's start."""
    found = _GAME_LINE.match(reason)
    if found is None:
        return reason
    return f"game from line {int(found[1]) + lines}: {reason[found.end() :]}"
