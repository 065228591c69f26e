"""Counting one file's classes in worker processes: the file cut into byte ranges at record starts.

A FEN or EPD range starts at a line start; a PGN range at ``[Event`` at the start of a line
after a blank line (where ``pgn.split_games`` starts a game too, even after a comment left
open). Each worker tallies its range as a collection of its own; its bad records' numbers and
lines are then shifted by the records and lines of the ranges before it, so the results are the
ones a single process gives. A stream (a compressed file, a pipe) is cut by ``streamed`` as it
is read instead, and CSV (whose header is in the first range only) is read in one process.
``cluster`` hands the same tasks to a Dask cluster; ``ordered`` reads a file's records in
order over the same cuts.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import itertools
import multiprocessing
import os
import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING, Any, Protocol

from gbr_tui.core.code import Rule
from gbr_tui.core.collection.formats import CollectionFormat
from gbr_tui.core.collection.readers import Collection, CollectionRequest
from gbr_tui.core.collection.records import BadRecord
from gbr_tui.core.collection.tally import Tally

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

#: A file is cut into as many ranges as jobs, of at least this many bytes each.
MIN_RANGE_BYTES = 1 << 20
#: A worker's range of the count is handed out in up to this many pieces (``pieces``).
PIECES_PER_RANGE = 8
_LOOK_AHEAD = 1 << 16  # bytes read at a time when looking for a record start
_BATCH_MODULE = "gbr_tui.core.fast"  # what the batch path imports (numpy)
_GAME_LINE = re.compile(r"game from line (\d+): ")  # how a bad game's reason starts (formats/pgn.py)


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


def pool_context(reader: CollectionFormat) -> BaseContext:
    """How worker processes start, never left to the default (which newer Pythons change):
    ``fork`` from the main thread of a process running no other thread, the modules a worker
    needs imported here first, once (numpy, for a format read by the batch path); else
    ``forkserver`` (``spawn`` where there is none), its server importing them: a process
    forked while another thread runs (an app's) can deadlock on a lock that thread held."""
    needed = [_BATCH_MODULE] if reader.BATCH else []
    methods = multiprocessing.get_all_start_methods()
    alone = threading.current_thread() is threading.main_thread() and threading.active_count() == 1
    if "fork" in methods and alone:
        for module in needed:
            importlib.import_module(module)  # forked workers inherit it
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(needed)
        return context
    return multiprocessing.get_context("spawn")


def planned_jobs(collection: Collection, jobs: int | None, per_worker: int = MIN_RANGE_BYTES) -> int:
    """How many worker processes read the collection: ``jobs`` when given, else one per core
    for files of at least ``per_worker`` bytes a worker; 1 (this process) when it cannot be cut."""
    size = collection.size
    if size is None or one_process_reason(collection) is not None:
        return 1
    at_least = per_worker if jobs is None else 1  # a number given is obeyed
    return max(1, min(jobs or default_jobs(), size // at_least))


def one_process_reason(collection: Collection) -> str | None:
    """Why a collection cannot be cut into byte ranges (compressed, a pipe, its format's
    ``UNCUT_REASON``: CSV), or None."""
    if collection.source.compression:
        return "compressed"
    if collection.size is None:
        return "a pipe or stdin"
    return collection.reader.UNCUT_REASON


def byte_ranges(
    collection: Collection, path: str, jobs: int, at_least: int = MIN_RANGE_BYTES
) -> list[tuple[int, int]] | None:
    """Where to cut the collection's file (at ``path``) for ``jobs`` workers, in ranges of at
    least ``at_least`` bytes; None when it is read in one process (one job, a small, compressed
    or CSV file, a pipe)."""
    size = collection.size
    if jobs <= 1 or size is None or one_process_reason(collection) is not None:
        return None
    parts = min(jobs, size // max(at_least, 1))
    if parts <= 1:
        return None
    with open(path, "rb") as raw:
        cuts = _cuts(raw, collection.reader, 0, size, parts)
    return list(itertools.pairwise(cuts)) if len(cuts) > 2 else None


def _cuts(raw: io.BufferedReader, reader: CollectionFormat, start: int, end: int, parts: int) -> list[int]:
    """``start``, the record starts that cut the bytes up to ``end`` into about ``parts`` equal
    ranges, and ``end``."""
    cuts = [start]
    for part in range(1, parts):
        cut = record_start(raw, max(start + (end - start) * part // parts, cuts[-1]), reader)
        if cut is not None and cut < end and cut > cuts[-1]:
            cuts.append(cut)
    cuts.append(end)
    return cuts


def pieces(
    collection: Collection, path: str, ranges: list[tuple[int, int]], at_least: int = MIN_RANGE_BYTES
) -> list[tuple[int, int]]:
    """The ranges cut again at record starts, into up to ``PIECES_PER_RANGE`` pieces of at
    least ``at_least`` bytes each: a worker done with its piece takes the next one, so no
    worker waits long for another that the machine's other work slows down."""
    found: list[tuple[int, int]] = []
    with open(path, "rb") as raw:
        for start, end in ranges:
            parts = max(1, min(PIECES_PER_RANGE, (end - start) // max(at_least, 1)))
            found.extend(itertools.pairwise(_cuts(raw, collection.reader, start, end, parts)))
    return found


def record_start(raw: io.BufferedReader, offset: int, reader: CollectionFormat) -> int | None:
    """The first record start at or after ``offset`` (never 0) where a range may start (the
    format's ``may_start_range``), None if there is none."""
    while True:
        cut = _next_start(raw, offset, reader)
        if cut is None or reader.may_start_range(raw, cut):
            return cut
        offset = cut + 1


def _next_start(raw: io.BufferedReader, offset: int, reader: CollectionFormat) -> int | None:
    """The first record start at or after ``offset`` (never 0), None if there is none."""
    raw.seek(max(offset - 1, 0))
    carry = b""
    base = raw.tell()
    keep = reader.START_OVERLAP
    while chunk := raw.read(_LOOK_AHEAD):
        data = carry + chunk
        found = reader.record_start(data)
        if found is not None:
            return base + found
        kept = min(len(data), keep)
        base += len(data) - kept
        carry = data[len(data) - kept :] if kept else b""
    return None


class FileRange(io.RawIOBase):
    """Bytes ``start`` to ``end`` of a file, as a stream of their own."""

    def __init__(self, path: str, start: int, end: int) -> None:
        self._file = open(path, "rb")
        self._file.seek(start)
        self._left = end - start

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        if self._left <= 0:
            return 0
        whole = memoryview(buffer)
        view = whole[: min(len(whole), self._left)]
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
    stream = io.BufferedReader(FileRange(path, start, end))
    # Whether the file is a chess collection at all is told from its start only.
    with request.open(stream, rule, name=name, part=start > 0) as collection:
        tally = collection.tally(found.append, either_colour=either_colour)
        return RangeTally(tally, found, collection.source.line, collection.records_read)


def tally_in_ranges(
    collection: Collection,
    path: str,
    request: CollectionRequest,
    ranges: list[tuple[int, int]],
    rule: Rule,
    jobs: int,
    either_colour: bool = False,
) -> Iterator[tuple[int, RangeTally]]:
    """(end offset, tally) of each piece of the ranges (``pieces``) in file order, its bad
    records numbered and placed as in the whole file, computed by up to ``jobs`` worker processes."""
    context = pool_context(collection.reader)
    cut = pieces(collection, path, ranges)
    with ProcessPoolExecutor(max_workers=min(jobs, len(ranges)), mp_context=context) as pool:
        yield from tally_submitted(pool.submit, collection, path, request, cut, rule, either_colour)


def tally_submitted(
    submit: Callable[..., _Pending],
    collection: Collection,
    path: str,
    request: CollectionRequest,
    ranges: list[tuple[int, int]],
    rule: Rule,
    either_colour: bool = False,
) -> Iterator[tuple[int, RangeTally]]:
    """``tally_in_ranges`` with each range's ``tally_range`` handed to ``submit`` (a process
    pool's, or a Dask client's: anything whose futures have ``result()``) now, their results
    read as the iterator is."""
    request = dataclasses.replace(request, format=collection.format)
    name = collection.name
    futures = [submit(tally_range, request, path, name, start, end, rule, either_colour) for start, end in ranges]
    return _in_file_order(ranges, futures)


def _in_file_order(ranges: list[tuple[int, int]], futures: list[_Pending]) -> Iterator[tuple[int, RangeTally]]:
    lines = records = 0
    for (_, end), future in zip(ranges, futures):
        part: RangeTally = future.result()
        part.bad = [shifted_bad(bad, records, lines) for bad in part.bad]
        lines += part.lines
        records += part.records
        yield end, part


def shifted_bad(bad: BadRecord, records: int, lines: int) -> BadRecord:
    """A range's bad record numbered and placed in the whole file."""
    return BadRecord(bad.number + records, bad.line + lines, _shifted(bad.reason, lines))


def _shifted(reason: str, lines: int) -> str:
    """A bad game's reason names the line its game starts on: counted from the file's start."""
    found = _GAME_LINE.match(reason)
    if found is None:
        return reason
    return f"game from line {int(found[1]) + lines}: {reason[found.end() :]}"


class _Pending(Protocol):
    """A future as ``tally_submitted`` waits on it: a process pool's or a Dask client's."""

    def result(self) -> Any: ...
