"""The ordered stream of a collection's records (``check``, ``classify --per-record``/``--csv``
and the browser), read by worker processes when ``--jobs`` allows, in the order one process
reads them, numbered and placed as it numbers them.

A plain file is cut into byte ranges of ``STREAM_RANGE_BYTES`` at record starts
(``parallel.record_start``), each opened by a worker; a stream (a compressed file, a pipe) is
decompressed and cut here into pieces of as many bytes (``streamed.pieces``), each sent to a
worker. Either way at most ``_IN_FLIGHT`` ranges a worker are handed out and not yet read, so
memory stays bounded on any file; when a stream stops at a fault, every whole record before it
is given, then the fault, as one process gives them.
"""

from __future__ import annotations

import dataclasses
import io
import operator
from collections import deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, BinaryIO, cast

from gbr_tui.core.cluster_words import process_died_words
from gbr_tui.core.collection.parallel import FileRange, planned_jobs, pool_context, record_start, shifted_bad
from gbr_tui.core.collection.readers import Collection, CollectionRequest
from gbr_tui.core.collection.reading import NOT_A_COLLECTION, fault_record
from gbr_tui.core.collection.records import BadRecord, CollectionError, Item, Record
from gbr_tui.core.collection.source import READ_ERRORS
from gbr_tui.core.describe import not_a_collection
from gbr_tui.core.material import Material

if TYPE_CHECKING:
    from multiprocessing.synchronize import Event

    from gbr_tui.core.code import Rule

#: The ordered stream's ranges: a worker's task at a time, and what is held per range in flight.
STREAM_RANGE_BYTES = 1 << 19
_IN_FLIGHT = 2  # ranges in flight per worker process: one read, one waiting
_WAIT = 0.1  # seconds between two looks at ``cancelled`` while the workers read


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


@dataclass
class RecordsRead:
    """What reading a file's records counted, once they are all given: the records (games) read,
    and the bad records that are no record but the unreadable rest of the file (``faults``)."""

    records: int = 0
    faults: int = 0


# An item as the tuple of its fields: a tenth of the time to unpickle that a dataclass takes,
# and the records' materials are pickled once each (``_read`` shares equal ones).
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
    fens: bool = True,
) -> RangeRecords | None:
    """A worker's task for a plain file: the records of one byte range, with ``each``'s result
    for each Record (None for a bad one); None when asked to stop part way. ``fens`` as for
    ``Collection.records``."""
    return _read(request, io.BufferedReader(FileRange(path, start, end)), name, rule, each, fens)


def read_piece(
    request: CollectionRequest,
    data: bytes,
    name: str,
    rule: Rule,
    each: Callable[[Record], Any] | None,
    fens: bool = True,
) -> RangeRecords | None:
    """A worker's task for a stream: the records of one piece of its text, as ``read_range``."""
    return _read(request, io.BytesIO(data), name, rule, each, fens)


def _read(
    request: CollectionRequest,
    stream: BinaryIO,
    name: str,
    rule: Rule,
    each: Callable[[Record], Any] | None,
    fens: bool,
) -> RangeRecords | None:
    items: list[tuple[tuple[Any, ...], Any]] = []
    materials: dict[Material, Material] = {}
    with request.open(stream, rule, name=name, part=True) as collection:
        for item in collection.records(fens):
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
    read: RecordsRead | None = None,
    fens: bool = True,
) -> Generator[tuple[Item, Any, int | None], None, None]:
    """The collection's items in file order, each with ``each(record)`` (None for a bad one) and
    how many bytes of the file are read so far (None when that cannot be told): read by worker
    processes over ranges of about ``range_bytes`` when the collection allows (``each`` then runs
    there, and must pickle), else by this process. A plain file is cut when its ``path`` is given
    (the workers open it by it), by ``planned_jobs`` workers; a stream (a compressed file, a pipe)
    by ``streamed.stream_jobs`` workers. ``read`` is filled in once every item is given;
    ``fens`` as for ``Collection.records``.

    ``cancelled()`` true stops the workers (it is asked before each range is handed out and
    while the workers are waited for); so does closing the iterator. Either way no worker
    process is left once it has ended."""
    from gbr_tui.core.collection import streamed

    read = read if read is not None else RecordsRead()
    if jobs is None and collection.reader.BATCH:
        # FEN and EPD records come out of the batch path faster than a worker hands them back
        # (check and index on 12 and 95 MB of EPD took more time, and twice the CPU, with two).
        jobs = 1
    request = dataclasses.replace(request, format=collection.format)
    rule = collection.rule
    size = collection.size
    if size is None or collection.source.compression is not None:
        workers = streamed.stream_jobs(collection, jobs)
        if workers > 1:
            task = partial(read_piece, request, name=collection.name, rule=rule, each=each, fens=fens)
            pieces = ((partial(task, data), collection.bytes_read) for data in streamed.pieces(collection, range_bytes))
            return _ordered(collection, pieces, workers, cancelled, read)
    elif path is not None and (workers := planned_jobs(collection, jobs)) > 1:
        step = max(1, min(range_bytes, -(-size // workers)))
        task = partial(read_range, request, path, collection.name, rule=rule, each=each, fens=fens)
        return _ordered(collection, _ranges(collection, path, size, step, task), workers, cancelled, read)
    return _here(collection, each, read, fens)


def _here(
    collection: Collection, each: Callable[[Record], Any] | None, read: RecordsRead, fens: bool
) -> Generator[tuple[Item, Any, int | None], None, None]:
    """``records_with`` in this process."""
    for item in collection.records(fens):
        yield item, each(item) if each is not None and type(item) is Record else None, collection.bytes_read
    read.records, read.faults = collection.records_read, collection.faults


def _ranges(
    collection: Collection, path: str, size: int, step: int, task: Callable[..., RangeRecords | None]
) -> Iterator[tuple[Callable[[], RangeRecords | None], int]]:
    """A plain file's tasks: its ranges of ``step`` bytes cut at record starts, each with where
    it ends; each range cut only when it is to be handed out."""
    with open(path, "rb") as raw:
        start = 0
        while start < size:
            cut = record_start(raw, start + step, collection.reader) if start + step < size else None
            end = cut if cut is not None and cut < size else size
            yield partial(task, start=start, end=end), end
            start = end


def _ordered(
    collection: Collection,
    tasks: Iterator[tuple[Callable[[], RangeRecords | None], int | None]],
    workers: int,
    cancelled: Callable[[], bool],
    read: RecordsRead,
) -> Generator[tuple[Item, Any, int | None], None, None]:
    """``records_with`` in worker processes: the ``tasks`` (each with how far the file is read
    once it is handed out), at most ``_IN_FLIGHT`` a worker handed out and not yet read."""
    context = pool_context(collection.reader)
    stop = context.Event()
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_set_stop, initargs=(stop,))
    in_flight: deque[tuple[int | None, Future[RangeRecords | None]]] = deque()
    order = _InFileOrder(collection.name)
    fault: Exception | None = None
    more = True
    try:
        while more or in_flight:
            if more and len(in_flight) < workers * _IN_FLIGHT:
                try:
                    task, end = next(tasks)
                except StopIteration:
                    more = False
                    continue
                except READ_ERRORS as error:  # every whole line before it was handed out
                    fault, more = error, False
                    continue
                try:
                    in_flight.append((end, pool.submit(task)))
                except BrokenProcessPool:  # a worker died since the last range was handed out
                    raise CollectionError(process_died_words(collection.name)) from None
                continue
            end, future = in_flight[0]
            if not _waited(future, cancelled):
                return
            in_flight.popleft()
            for item, extra in order.items(_result(future, collection.name)):
                yield item, extra, end
        end = collection.bytes_read if collection.size is None else collection.size
        for item, extra in order.rest():
            yield item, extra, end
        if fault is not None:
            # The fault's line is one process's: the lines read, those of a game cut short too.
            yield fault_record(order.records, collection.source.line, fault), None, end
        read.records, read.faults = order.records, int(fault is not None)
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
