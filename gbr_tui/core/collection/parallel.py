"""Counting one file's classes in worker processes: the file cut into byte ranges at record starts.

A FEN or EPD range starts at a line start; a PGN range at ``[Event`` at the start of a line
after a blank line (where ``pgn.split_games`` starts a game too, even after a comment left
open). Each worker tallies its range as a collection of its own; its bad records' numbers and
lines are then shifted by the records and lines of the ranges before it, so the results are the
ones a single process gives. Compressed files, pipes and CSV (whose header is in the first
range only) are read in one process. ``cluster`` hands the same tasks to a Dask cluster.

``records_with`` is the ordered stream of a file's records (for ``check`` and the browser):
ranges of ``STREAM_RANGE_BYTES`` read by worker processes, a few at a time, so memory stays
bounded on any file; the records come back in file order, numbered and placed as one process
numbers them.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import itertools
import multiprocessing
import operator
import os
import re
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING, Any, Protocol, cast

from gbr_tui.core.cluster_words import process_died_words
from gbr_tui.core.code import Rule
from gbr_tui.core.collection.formats import CollectionFormat
from gbr_tui.core.collection.readers import Collection, CollectionRequest
from gbr_tui.core.collection.reading import NOT_A_COLLECTION
from gbr_tui.core.collection.records import BadRecord, CollectionError, Item, Record
from gbr_tui.core.collection.tally import Tally
from gbr_tui.core.describe import not_a_collection
from gbr_tui.core.material import Material

if TYPE_CHECKING:
    from multiprocessing.synchronize import Event

    from _typeshed import WriteableBuffer

#: A file is cut into as many ranges as jobs, of at least this many bytes each.
MIN_RANGE_BYTES = 1 << 20
#: A worker's range of the count is handed out in up to this many pieces (``pieces``).
PIECES_PER_RANGE = 8
#: The ordered stream's ranges: a worker's task at a time, and what is held per range in flight.
STREAM_RANGE_BYTES = 1 << 19
_IN_FLIGHT = 2  # ranges in flight per worker process: one read, one waiting
_WAIT = 0.1  # seconds between two looks at ``cancelled`` while the workers read
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


class _Range(io.RawIOBase):
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
    stream = io.BufferedReader(_Range(path, start, end))
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


# --- the ordered stream -------------------------------------------------------------------------


@dataclass
class RangeRecords:
    """What a worker read in its range: the items (numbered from the range's start, as
    ``_packed`` packs them), each with what ``each`` gave for it; the lines and records the
    range holds; and the bad records before its first classified one (``leading_bad``; all of
    them when ``classified`` is false), from which the whole file's start is judged."""

    items: list[tuple[tuple[Any, ...], Any]]
    lines: int
    records: int
    leading_bad: int
    classified: bool


# An item as the tuple of its fields: a tenth of the time to unpickle that a dataclass takes,
# and the records' materials are pickled once each (``read_range`` shares equal ones).
_RECORD_FIELDS = operator.attrgetter(*(field.name for field in dataclasses.fields(Record)))
_BAD_FIELDS = operator.attrgetter(*(field.name for field in dataclasses.fields(BadRecord)))
_BAD_LENGTH = len(dataclasses.fields(BadRecord))


def _packed(item: Item, materials: dict[Material, Material]) -> tuple[Any, ...]:
    if type(item) is Record:
        fields: tuple[Any, ...] = _RECORD_FIELDS(item)
        material = materials.setdefault(item.material, item.material)
        return fields if material is item.material else (*fields[:3], material, *fields[4:])
    bad: tuple[Any, ...] = _BAD_FIELDS(item)
    return bad


_stop: Event | None = None  # in a worker process: the event that asks it to give up (``_ordered``)


def _set_stop(event: Event) -> None:
    global _stop
    _stop = event


def read_range(
    request: CollectionRequest,
    path: str,
    name: str,
    start: int,
    end: int,
    rule: Rule,
    each: Callable[[Record], Any] | None,
) -> RangeRecords | None:
    """A worker's task for the ordered stream: the records of one byte range, with ``each``'s
    result for each Record (None for a bad one); None when asked to stop part way."""
    items: list[tuple[tuple[Any, ...], Any]] = []
    materials: dict[Material, Material] = {}
    stream = io.BufferedReader(_Range(path, start, end))
    with request.open(stream, rule, name=name, part=True) as collection:
        for item in collection.records():
            found = each(item) if each is not None and type(item) is Record else None
            items.append((_packed(item, materials), found))
            if len(items) % 64 == 0 and _stop is not None and _stop.is_set():
                return None
        classified = collection.classified_any or collection.leading_bad < len(items)
        return RangeRecords(items, collection.source.line, collection.records_read, collection.leading_bad, classified)


def records_with(
    collection: Collection,
    path: str | None,
    request: CollectionRequest,
    jobs: int | None,
    each: Callable[[Record], Any] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    range_bytes: int = STREAM_RANGE_BYTES,
) -> Generator[tuple[Item, Any, int | None], None, None]:
    """The collection's items in file order, each with ``each(record)`` (None for a bad one) and
    how many bytes of the file are read so far (None when that cannot be told): read by
    ``planned_jobs`` worker processes over byte ranges of about ``range_bytes`` when the file
    allows (``each`` then runs there, and must pickle), else by this process (always without a
    ``path``: workers open the file by it).

    ``cancelled()`` true stops the workers (it is asked before each range is handed out and
    while the workers are waited for); so does closing the iterator. Either way no worker
    process is left once it has ended."""
    size = collection.size
    workers = planned_jobs(collection, jobs) if path is not None else 1
    if path is None or size is None or workers <= 1:  # a size: planned_jobs gives 1 without one
        return (
            (item, each(item) if each is not None and type(item) is Record else None, collection.bytes_read)
            for item in collection.records()
        )
    step = max(1, min(range_bytes, -(-size // workers)))
    return _ordered(collection, path, size, request, workers, each, cancelled, step)


def _ordered(
    collection: Collection,
    path: str,
    size: int,
    request: CollectionRequest,
    workers: int,
    each: Callable[[Record], Any] | None,
    cancelled: Callable[[], bool],
    step: int,
) -> Generator[tuple[Item, Any, int], None, None]:
    """``records_with`` in worker processes: ranges of ``step`` bytes, at most ``_IN_FLIGHT``
    a worker submitted and not yet handed out."""
    request = dataclasses.replace(request, format=collection.format)
    task = partial(read_range, request, path, collection.name, rule=collection.rule, each=each)
    context = pool_context(collection.reader)
    stop = context.Event()
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_set_stop, initargs=(stop,))
    in_flight: deque[tuple[int, Future[RangeRecords | None]]] = deque()
    order = _InFileOrder(collection.name)
    try:
        with open(path, "rb") as raw:
            start = 0
            while start < size or in_flight:
                if start < size and len(in_flight) < workers * _IN_FLIGHT:
                    cut = record_start(raw, start + step, collection.reader) if start + step < size else None
                    end = cut if cut is not None and cut < size else size
                    try:
                        in_flight.append((end, pool.submit(task, start=start, end=end)))
                    except BrokenProcessPool:  # a worker died since the last range was handed out
                        raise CollectionError(process_died_words(collection.name)) from None
                    start = end
                    continue
                end, future = in_flight[0]
                if not _waited(future, cancelled):
                    return
                in_flight.popleft()
                for item, extra in order.items(_result(future, collection.name)):
                    yield item, extra, end
        for item, extra in order.rest():
            yield item, extra, size
    finally:
        stop.set()
        for _, future in in_flight:
            future.cancel()
        pool.shutdown(wait=True)


def _waited(future: Future[RangeRecords | None], cancelled: Callable[[], bool]) -> bool:
    """Whether the future is done before ``cancelled()`` says to give up."""
    while not cancelled():
        if wait([future], _WAIT).done:
            return True
    return False


def _result(future: Future[RangeRecords | None], name: str) -> RangeRecords:
    try:
        # A range is None only when its worker was asked to stop, which is done once no
        # result is read any more (``_ordered``'s ``finally``).
        return cast(RangeRecords, future.result())
    except BrokenProcessPool:
        raise CollectionError(process_died_words(name)) from None
    except OSError as error:  # the file gone or unreadable since it was opened
        raise CollectionError(f"{name}: cannot read: {error.strerror or error}") from None


class _InFileOrder:
    """The ranges' items numbered and placed in the whole file, and its start judged as one
    process judges it (``Reading.guarded``): bad records are held until a record is
    classified, and the file is no chess collection when the first ``NOT_A_COLLECTION`` are bad."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines = self.records = 0
        self.held: list[tuple[Item, Any]] | None = []  # None once a record is classified

    def items(self, part: RangeRecords) -> Iterator[tuple[Item, Any]]:
        lines, records = self.lines, self.records
        self.lines += part.lines
        self.records += part.records
        items = (_shifted_item(item, records, lines, extra) for item, extra in part.items)
        if self.held is not None:
            for _ in range(part.leading_bad):
                self.held.append(next(items))
                if len(self.held) == NOT_A_COLLECTION:
                    first = cast(BadRecord, self.held[0][0])  # a range's leading items are bad
                    raise CollectionError(not_a_collection(self.name, NOT_A_COLLECTION, first.line, first.reason))
            if not part.classified:
                return
            yield from self.rest()
        yield from items

    def rest(self) -> Iterator[tuple[Item, Any]]:
        """The bad records held: a file whose few records are all bad ends with them."""
        held, self.held = self.held or [], None
        yield from held


def _shifted_item(fields: tuple[Any, ...], records: int, lines: int, extra: Any) -> tuple[Item, Any]:
    """A packed item (``_packed``) as a Record or a BadRecord, numbered and placed in the file."""
    if len(fields) == _BAD_LENGTH:
        return shifted_bad(BadRecord(*fields), records, lines), extra
    number, line, *rest = fields
    return Record(number + records, line + lines, *rest), extra
