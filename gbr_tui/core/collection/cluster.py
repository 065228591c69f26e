"""`classify --dask`: the byte ranges of ``parallel`` counted on a Dask cluster, a compressed
file (a month of Lichess's database) as one task.

The same tasks as ``--jobs`` (``parallel.tally_range`` over ranges cut at record starts), handed
to a ``distributed.Client`` instead of a process pool, so the results are one process's, record
and line numbers included. The workers open the files themselves: the files must be at the same
path on every machine. dask and distributed are an optional extra (``gbr-tui[dask]``), imported
only when a cluster is asked for.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator
from concurrent.futures import CancelledError
from typing import TYPE_CHECKING

from gbr_tui.core.cluster_words import (
    DASK_MISSING,
    DASK_SPEC_WORDS,
    cluster_lost_words,
    no_workers_words,
    scheduler_unreachable_words,
    unshared_file_words,
    worker_died_words,
)
from gbr_tui.core.code import Rule
from gbr_tui.core.collection import parallel
from gbr_tui.core.collection.readers import Collection, CollectionRequest
from gbr_tui.core.collection.records import CollectionError

if TYPE_CHECKING:
    from distributed import Client

CONNECT_SECONDS = 10  # how long to try to reach a scheduler
RANGE_BYTES = 64 << 20  # ranges are at most this big: a lost worker loses little work
LOCAL = "local:"


class ClusterError(CollectionError):
    """The cluster cannot be reached, or cannot do the work (the extra missing, a worker died)."""


def local_workers(spec: str) -> int | None:
    """N of ``local:N`` (1 or more); None for a scheduler's address; ClusterError otherwise."""
    if not spec.startswith(LOCAL):
        if not spec.strip():
            raise ClusterError(DASK_SPEC_WORDS)
        return None
    count = spec[len(LOCAL) :]
    if not (count.isascii() and count.isdigit()) or int(count) < 1:
        raise ClusterError(DASK_SPEC_WORDS)
    return int(count)


@contextlib.contextmanager
def connected(spec: str, timeout: float = CONNECT_SECONDS) -> Iterator[Client]:
    """A client of the scheduler at ``spec``, or of a local cluster of N worker processes
    (``local:N``), closed (and the local cluster stopped) on leaving."""
    workers = local_workers(spec)
    try:
        import distributed
    except ImportError:
        raise ClusterError(DASK_MISSING) from None
    _quiet("distributed")
    if workers is not None:
        with (
            distributed.LocalCluster(
                # The dashboard on a free port: no warning on stderr when 8787 is taken.
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            yield client
        return
    try:
        client = distributed.Client(spec, timeout=timeout, set_as_default=False)
    except (OSError, ValueError, TypeError) as error:  # refused, timed out, not an address
        raise ClusterError(scheduler_unreachable_words(spec, timeout, str(error))) from None
    with client:
        try:
            client.wait_for_workers(1, timeout=timeout)  # with none, the ranges would wait forever
        except (TimeoutError, OSError):
            raise ClusterError(no_workers_words(spec, timeout)) from None
        yield client


def _quiet(package: str) -> None:
    """What goes wrong is said once, as a ClusterError, not also as the tracebacks the package
    logs on stderr (its loggers that have handlers of their own, set up on its import)."""
    for name, logger in list(logging.Logger.manager.loggerDict.items()):
        if (
            (name == package or name.startswith(package + "."))
            and isinstance(logger, logging.Logger)
            and logger.handlers
        ):
            logger.handlers = [logging.NullHandler()]


def ranges(client: Client, collection: Collection, path: str) -> list[tuple[int, int]] | None:
    """The ranges to send to the cluster: at least one per worker thread, at most
    ``RANGE_BYTES`` each, the whole file as one when it cannot be cut (compressed, CSV: the
    worker decompresses it); None for stdin and pipes, read in this process."""
    size = collection.size
    if size is None:
        return None
    if parallel.one_process_reason(collection) is not None:
        return [(0, size)]
    threads = sum(client.nthreads().values())
    cut = parallel.byte_ranges(collection, path, max(threads, -(-size // RANGE_BYTES)), at_least=1)
    return cut or [(0, size)]


def tally_on(
    client: Client,
    collection: Collection,
    path: str,
    request: CollectionRequest,
    cuts: list[tuple[int, int]],
    rule: Rule,
    either_colour: bool = False,
) -> Iterator[tuple[int, parallel.RangeTally]]:
    """``parallel.tally_in_ranges`` on the cluster, the ranges handed to it now (so that the
    next file's are handed out before this one's results are read); ClusterError when a worker
    dies, cannot read the file, or the scheduler is lost."""
    # The workers' working directories are not this one's.
    results = parallel.tally_submitted(
        client.submit, collection, os.path.abspath(path), request, cuts, rule, either_colour
    )
    return _results(collection.name, results)


def _results(
    name: str, results: Iterator[tuple[int, parallel.RangeTally]]
) -> Iterator[tuple[int, parallel.RangeTally]]:
    from distributed import KilledWorker

    try:
        yield from results
    except KilledWorker as error:
        raise ClusterError(worker_died_words(name, str(error))) from None
    except FileNotFoundError:
        raise ClusterError(unshared_file_words(name)) from None
    except (OSError, CancelledError) as error:  # the scheduler lost on the way
        raise ClusterError(cluster_lost_words(str(error))) from None
