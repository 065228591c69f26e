"""Where a file's classes are counted: in worker processes over byte ranges when it pays, on a
Dask cluster with ``--dask``, else (``None``) in this process."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from gbr_tui.commands.common import SHOWN_CHARACTERS
from gbr_tui.core import Rule
from gbr_tui.core.cluster_words import PER_RECORD_HERE_WORDS, one_process_words
from gbr_tui.core.collection import Collection, CollectionRequest
from gbr_tui.core.text import printable

if TYPE_CHECKING:
    from gbr_tui.core.collection.parallel import RangeTally

#: A file's counts as (end of a byte range, that range's tally), in file order.
Parts = Iterator[tuple[int, "RangeTally"]]

#: FEN and EPD lines are counted by the batch path, some 50 MB of them a CPU second: a file is
#: cut for worker processes (by default) only from this many bytes a worker. On 35-60 MB files
#: (1M lines) two workers took 6-10% more CPU than one process and were no sooner done, on the
#: 2-core benchmark machine at load 3.5-4.6 (benchmarks/positions.py's inputs).
BATCH_RANGE_BYTES = 64 << 20
#: Why a file is not sent to a cluster: its workers open the files by their paths.
STREAM_REASON = "a pipe or stdin"


@contextlib.contextmanager
def cluster_for(args: argparse.Namespace, say: Callable[[str], object]) -> Iterator[Any]:
    """With --dask, a client of the cluster (or of a local one started) while the files are read;
    else None. Records written one by one (--per-record, --csv) are read here all the same."""
    if args.dask is None:
        yield None
        return
    from gbr_tui.core.collection import cluster

    if args.per_record or args.csv:
        cluster.local_workers(args.dask)  # a bad --dask is still a usage error
        say(f"gbr-tui classify: {PER_RECORD_HERE_WORDS}")
        yield None
        return
    with cluster.connected(args.dask) as client:
        yield client


def parts_in_workers(
    collection: Collection, name: str, request: CollectionRequest, rule: Rule, jobs: int | None, either_colour: bool
) -> Parts | None:
    """A file's counts from worker processes, as (how far it is read, part): a byte range each
    of a plain file, a piece each of a stream (a compressed file, a pipe) that this process
    decompresses and cuts; None where one process reads it (too small a file, one job, CSV)."""
    from gbr_tui.core.collection import parallel

    if collection.size is None or collection.source.compression is not None:
        from gbr_tui.core.collection import streamed

        workers = streamed.stream_jobs(collection, jobs)
        if workers <= 1:
            return None
        return streamed.tally_stream(collection, request, rule, workers, either_colour)
    per_worker = BATCH_RANGE_BYTES if collection.reader.BATCH else parallel.MIN_RANGE_BYTES
    workers = parallel.planned_jobs(collection, jobs, per_worker)
    ranges = parallel.byte_ranges(collection, name, workers, at_least=1)
    if ranges is None:
        return None
    return parallel.tally_in_ranges(collection, name, request, ranges, rule, workers, either_colour)


def parts_on_cluster(
    client: Any,
    collection: Collection,
    name: str,
    request: CollectionRequest,
    rule: Rule,
    either_colour: bool,
    say: Callable[[str], object],
) -> Parts | None:
    """A file's counts from the cluster's workers, as ``parts_in_workers``, its tasks handed out
    now; None (and ``say`` why) where this process reads it (stdin, a pipe)."""
    from gbr_tui.core.collection import cluster

    ranges = cluster.ranges(client, collection, name)
    if ranges is None:
        say(f"gbr-tui classify: {one_process_words(printable(collection.name, SHOWN_CHARACTERS), STREAM_REASON)}")
        return None
    return cluster.tally_on(client, collection, name, request, ranges, rule, either_colour)
