"""Collections read into a ``ClassIndex`` in a worker process, for the browser.

A thread would share the app's interpreter: while a big file is read, drawing and keys would
wait their turn with the reading. A process reads beside the app instead, and can start before
the app has (``gbr-tui FILE`` starts it first: ``begin``). It says how far it has got, with the
largest classes so far for the chart, at most every ``PROGRESS_PAUSE`` seconds, and hands back
the index when done.

How the process starts matters. A fork copies a process's memory but only the thread that
forks: a lock another thread held stays held in the copy, and the copy can deadlock on it. So
a reader is forked only by ``begin``, on the command line's one thread before the app starts
(numpy's BLAS stops its own threads for a fork, and starts them again when next needed); the
app has threads (its workers, its driver's), so the readings it starts come from a fork server
(``forkserver``): a fresh process of one thread, started once, which has the reading modules
loaded and forks each reader from itself. Where neither exists (Windows), a reader is spawned.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.forkserver
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.context import ForkContext, ForkServerContext, SpawnContext
from typing import TYPE_CHECKING

from gbr_tui.core.code import Rule
from gbr_tui.core.collection.index import ClassIndex
from gbr_tui.core.collection.readers import CollectionRequest
from gbr_tui.core.collection.records import CollectionError
from gbr_tui.core.collection.source import Cancelled

if TYPE_CHECKING:
    from ctypes import c_int
    from multiprocessing.connection import Connection
    from multiprocessing.synchronize import Event

PROGRESS_PAUSE = 0.1  # seconds between two reports of the reading process
CHART_PAUSE = 0.5  # seconds between two looks at the largest classes
CHART_ROWS = 30  # classes (or families) in the chart, at most (as many as its height shows)
EITHER_COLOUR, FAMILIES = 1, 2  # what the chart wants (``Loading.chart``), bits
STOP_WAIT = 10  # seconds a reading process is given to stop its own workers and end


@dataclass(frozen=True)
class Progress:
    """How far the reading has got: bytes of the files, records, and the chart's bars."""

    done: int
    records: int
    bars: list[tuple[str, int]] | None = field(default=None)  # None: as they were


class Loading:
    """One collection being read in a worker process, under one rule."""

    def __init__(self, request: CollectionRequest, rule: Rule, chart: int = 0, forked: bool = False) -> None:
        """Start reading; ``forked``: by a fork of this process, which runs no other thread."""
        self.request, self.rule = request, rule
        context = _context(forked)
        if context.get_start_method() == "fork":
            # The batch path's modules (numpy) load before the fork: the reader needs them, and so
            # does this process for the index handed back; loaded once, not in both.
            import gbr_tui.core.fast  # noqa: F401
        self._reports, sender = context.Pipe(duplex=False)
        self._stop = context.Event()
        self._chart: c_int = context.Value("i", chart, lock=False)
        self._process = context.Process(
            target=_read, args=(request, rule, self._reports, sender, self._stop, self._chart)
        )
        self._process.start()
        sender.close()  # the reader's end only: when it ends, so does the pipe

    def wants(self, request: CollectionRequest, rule: Rule) -> bool:
        return (request, rule) == (self.request, self.rule) and not self._stop.is_set()

    @property
    def chart(self) -> int:
        return self._chart.value

    @chart.setter
    def chart(self, wanted: int) -> None:
        """What the chart's bars are (``EITHER_COLOUR``, ``FAMILIES``) from the next look on."""
        self._chart.value = wanted

    def next(self, timeout: float) -> Progress | ClassIndex | None:
        """The next report, or the index once read; None when there is none within ``timeout``
        seconds. CollectionError when the reading failed or its process died."""
        try:
            if not self._reports.poll(timeout):
                return None
            kind, value = self._reports.recv()
        except (EOFError, OSError):
            self.stop()
            raise CollectionError(f"{self.request.title}: the reading process stopped before the end") from None
        if kind == "error":
            self.stop()
            raise CollectionError(value)
        if kind == "done":
            self.stop()
        report: Progress | ClassIndex = value
        return report

    def followed(self, cancelled: Callable[[], bool], reported: Callable[[Progress], None]) -> ClassIndex | None:
        """The index once read, each report given to ``reported`` meanwhile; None when
        ``cancelled()`` first (a pipe or a device may never end). The reading stops either way."""
        try:
            while not cancelled():
                report = self.next(PROGRESS_PAUSE)
                if isinstance(report, Progress):
                    reported(report)
                elif report is not None:
                    return report
            return None
        finally:
            self.stop()

    def stop(self) -> None:
        """Stop reading, at the reader's next look (its next report fails: no one reads them any
        more), or after a few seconds by force, and let the process go."""
        self._stop.set()
        self._reports.close()
        self._process.join(STOP_WAIT)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join()


#: The modules the fork server loads once for all the readers it starts: the reader's, the batch
#: path's (numpy), and the app's main module (the ``gbr-tui`` script), which each reader would
#: else run again (as ``__mp_main__``) to be started like the app. As forkserver and spawn ask
#: of any main module, a script that opens the browser does its work under
#: ``if __name__ == "__main__":`` (``gbr-tui``, ``python -m`` and ``python -c`` do).
_READER_MODULES = ["__main__", __name__, "gbr_tui.core.fast"]


def _context(forked: bool) -> ForkContext | ForkServerContext | SpawnContext:
    """How a reading process starts (see the module's docstring)."""
    methods = multiprocessing.get_all_start_methods()
    if forked and "fork" in methods:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_READER_MODULES)
        _start_fork_server()
        return context
    return multiprocessing.get_context("spawn")


def _start_fork_server() -> None:
    """Start the fork server, if not yet. It starts multiprocessing's resource tracker first,
    which is handed ``sys.stderr``'s file descriptor: in the running app that is the app's
    capture of prints, which has none (-1, and the tracker is not started), so the process's
    own stderr stands in while they start (once: they serve every later reading)."""
    captured = sys.stderr
    try:
        if captured is not None and captured.fileno() < 0:
            sys.stderr = sys.__stderr__
    except (AttributeError, OSError, ValueError):  # no file descriptor at all: the tracker goes without
        pass
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        sys.stderr = captured


#: The reading ``gbr-tui FILE`` started before the app, until the browser takes it over.
_early: list[Loading] = []


def begin(request: CollectionRequest, rule: Rule) -> None:
    """Start reading ``request`` now, for the browser the app opens on it (``taken``). Called
    on the command line's one thread, before the app starts others: the reader is forked, the
    quickest start (beside another thread, it comes from the fork server)."""
    alone = threading.current_thread() is threading.main_thread() and threading.active_count() == 1
    _early.append(Loading(request, rule, forked=alone))


def taken(request: CollectionRequest, rule: Rule) -> Loading | None:
    """The reading ``begin`` started, when it reads ``request`` under ``rule``; any other is
    stopped (the app reads what it wants itself)."""
    found = None
    while _early:
        loading = _early.pop()
        if found is None and loading.wants(request, rule):
            found = loading
        else:
            loading.stop()
    return found


def _read(
    request: CollectionRequest, rule: Rule, reports: Connection, sender: Connection, stop: Event, chart: c_int
) -> None:
    """The reading process: every file of ``request`` into one index, reports sent as it goes."""
    reports.close()  # the app's end, copied here: once the app closes it, sending fails at once
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the app's to act on: it stops this reading
    if "fork" in multiprocessing.get_all_start_methods():
        # This process runs one thread: its worker processes (``--jobs``) are forked from it, its
        # children, with what it has loaded (started from the fork server, it would else start
        # them from there too).
        multiprocessing.set_start_method("fork", force=True)
    # Its parent is the app, or the fork server, which ends with the app: when it has gone, so
    # has the reader of the reports.
    app = os.getppid()
    index = ClassIndex(request.game_positions)
    reported = charted = 0.0
    done = 0  # bytes of the files read before this one
    try:
        for path in request.paths:
            try:
                # A pipe or a device may never end: reading stops when told to.
                collection = request.open(path, rule, cancelled=stop.is_set)
            except CollectionError as error:
                index.failures.append(error.message)
                continue
            except Cancelled:
                break
            with collection:

                def tick(records: int, bytes_read: int | None, done: int = done) -> bool:
                    nonlocal reported, charted
                    now = time.monotonic()
                    if now >= reported:
                        bars = None
                        if now >= charted:  # the chart follows, not at every report
                            bars, charted = _bars(index, chart.value), now + CHART_PAUSE
                        sender.send(("progress", Progress(done + (bytes_read or 0), records, bars)))
                        reported = now + PROGRESS_PAUSE
                    return not stop.is_set() and os.getppid() == app

                if not index.read(collection, tick, request, path):
                    break
            done += os.path.getsize(path)
        if not stop.is_set():
            sender.send(("progress", Progress(done, index.classified + len(index.bad), _bars(index, chart.value))))
            sender.send(("done", index))
    except BrokenPipeError:
        pass  # the app has gone, or stopped the reading
    except CollectionError as error:
        sender.send(("error", error.message))
    except Exception as error:  # as a thread worker's would be: said, the app goes on
        sender.send(("error", f"{request.title}: {error}"))
    finally:
        sender.close()


def _bars(index: ClassIndex, chart: int) -> list[tuple[str, int]]:
    if chart & FAMILIES:
        return index.largest_families(CHART_ROWS)
    return index.largest(CHART_ROWS, bool(chart & EITHER_COLOUR))
