"""Counting a stream's classes in worker processes (``--jobs`` on a compressed file or a pipe):
a pipeline in which this process decompresses the text and cuts it at record starts (where
``parallel`` cuts a plain file's byte ranges) while the workers classify the pieces.

The pieces are handed out in order, at most ``_IN_FLIGHT`` a worker at a time, so memory stays
bounded whatever the stream's length; their bad records are numbered and placed in the whole
stream as ``parallel`` places a range's. When reading stops at a fault, every whole line
before it is classified, as one process classifies them, and the fault is the last bad record.
"""

from __future__ import annotations

import dataclasses
import io
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import cast

from gbr_tui.core.cluster_words import process_died_words
from gbr_tui.core.code import Rule
from gbr_tui.core.collection.formats import CollectionFormat
from gbr_tui.core.collection.parallel import (
    MIN_RANGE_BYTES,
    RangeTally,
    default_jobs,
    pool_context,
    record_start,
    shifted_bad,
)
from gbr_tui.core.collection.readers import Collection, CollectionRequest
from gbr_tui.core.collection.reading import fault_record
from gbr_tui.core.collection.records import BadRecord, CollectionError
from gbr_tui.core.collection.source import READ_ERRORS, lines_of
from gbr_tui.core.collection.tally import Tally

#: Text handed to a worker at a time: its classifying outweighs the pickling many times over.
PIECE_BYTES = 1 << 20
_IN_FLIGHT = 2  # pieces in flight per worker process: one read, one waiting


def tally_piece(
    request: CollectionRequest, data: bytes, name: str, part: bool, rule: Rule, either_colour: bool
) -> RangeTally:
    """A worker's job: the tally of one piece of the stream's text (its format given)."""
    found: list[BadRecord] = []
    with request.open(io.BytesIO(data), rule, name=name, part=part) as collection:
        tally = collection.tally(found.append, either_colour=either_colour)
        return RangeTally(tally, found, collection.source.line, collection.records_read)


def pieces(collection: Collection, piece_bytes: int = PIECE_BYTES) -> Iterator[bytes]:
    """The collection's text (UTF-8, its bad bytes as they were) in pieces of about
    ``piece_bytes`` cut at record starts. Raises what reading raised (``READ_ERRORS``) once every
    whole record before it is given (``_whole_records``)."""
    reader = collection.reader
    held: list[bytes] = []
    size = 0
    try:
        for _, text, _ in collection.source.text_blocks():
            held.append(text.encode("utf-8", "surrogateescape"))
            size += len(held[-1])
            if size < piece_bytes:
                continue
            data = b"".join(held)
            raw = cast(io.BufferedReader, io.BytesIO(data))  # the cut points seek and read in it
            start = 0
            while len(data) - start >= piece_bytes:
                cut = record_start(raw, start + piece_bytes, reader)
                if cut is None:  # no record starts after the piece's size yet: it waits for more text
                    break
                yield data[start:cut]
                start = cut
            held = [data[start:]]
            size = len(held[0])
    except READ_ERRORS:
        if held and (whole := _whole_records(b"".join(held), reader)):
            yield whole
        raise
    if held:
        yield b"".join(held)


def _whole_records(data: bytes, reader: CollectionFormat) -> bytes:
    """The text up to where a fault cut the stream, less what one process never gives when
    reading stops there: the game it was reading (``pgn.split_games`` gives a game once a blank
    line or the next game's tags end it). Every whole line of a line format is a record."""
    if not reader.HOLDS_GAMES:
        return data
    from gbr_tui.core import pgn

    lines = lines_of(data.decode("utf-8", "surrogateescape"))
    taken = 0  # lines split_games has taken
    ended = 0  # lines of the games it has given

    def counted() -> Iterator[str]:
        nonlocal taken
        for line in lines:
            taken += 1
            yield line
        taken = -1  # all taken: what it gives now, one process never reached

    for _ in pgn.split_games(counted()):
        if taken < 0:
            break
        last = lines[taken - 1]  # a blank line ends its game; a tag line starts the next
        ended = taken if not last or last.isspace() else taken - 1
    cut = 0
    for _ in range(ended):
        cut = data.index(b"\n", cut) + 1
    return data[:cut]


def stream_jobs(collection: Collection, jobs: int | None) -> int:
    """How many worker processes classify a stream: ``jobs`` when given (a pipe's length is not
    known beforehand), else one for a pipe and a core's for each ``MIN_RANGE_BYTES`` of a
    compressed file; 1 for a format whose files are never cut (CSV: its header)."""
    if collection.reader.UNCUT_REASON is not None:
        return 1
    if jobs is not None:
        return jobs
    compressed = collection.source.size
    return 1 if compressed is None else max(1, min(default_jobs(), compressed // MIN_RANGE_BYTES))


def tally_stream(
    collection: Collection,
    request: CollectionRequest,
    rule: Rule,
    jobs: int,
    either_colour: bool = False,
    piece_bytes: int = PIECE_BYTES,
) -> Iterator[tuple[int, RangeTally]]:
    """(bytes of the stream read so far, tally) of each piece (``pieces``) in order, its bad
    records numbered and placed as in the whole stream, computed by ``jobs`` worker processes."""
    request = dataclasses.replace(request, format=collection.format)
    name = collection.name
    lines = records = 0

    def placed(future: Future[RangeTally]) -> tuple[int, RangeTally]:
        nonlocal lines, records
        try:
            part = future.result()
        except BrokenProcessPool:
            raise CollectionError(process_died_words(name)) from None
        part.bad = [shifted_bad(bad, records, lines) for bad in part.bad]
        lines += part.lines
        records += part.records
        return collection.bytes_read or 0, part

    in_flight: deque[Future[RangeTally]] = deque()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=pool_context(collection.reader)) as pool:
        try:
            for number, data in enumerate(pieces(collection, piece_bytes)):
                in_flight.append(pool.submit(tally_piece, request, data, name, number > 0, rule, either_colour))
                if len(in_flight) >= jobs * _IN_FLIGHT:
                    yield placed(in_flight.popleft())
        except READ_ERRORS as fault:
            while in_flight:
                yield placed(in_flight.popleft())
            # The fault's line is one process's: the lines read, the cut game's too.
            fault_line = collection.source.line
            yield collection.bytes_read or 0, RangeTally(Tally(bad=1), [fault_record(records, fault_line, fault)])
            return
        while in_flight:
            yield placed(in_flight.popleft())
