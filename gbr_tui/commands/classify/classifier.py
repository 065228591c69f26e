"""One run of ``gbr-tui classify``: the files read, their bad records and progress on stderr,
the summary or the records on stdout."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from gbr_tui.commands import EXIT_BAD_INPUT, EXIT_OK
from gbr_tui.commands.classify import dispatch, records
from gbr_tui.commands.classify.summary import Summary
from gbr_tui.commands.common import SHOWN_CHARACTERS, collection_request
from gbr_tui.commands.tablebase_options import open_tables, report_problems
from gbr_tui.core import Rule, hhdb
from gbr_tui.core.collection import BadRecord, Collection, CollectionError, Tally, store
from gbr_tui.core.collection.index import without_one_king_a_side
from gbr_tui.core.collection.tally import ONE_KING_A_SIDE, folded
from gbr_tui.core.collection.theory import Theory
from gbr_tui.core.describe import kingless_summary, read_summary
from gbr_tui.core.patterns import ClassPattern
from gbr_tui.core.text import printable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

REASON_CHARACTERS = 300  # of why a record is bad, at most this much is printed


class Classifier:
    """Reads the files, reports their bad records and shows progress on stderr, writes the
    summary or the records on stdout."""

    def __init__(self, args: argparse.Namespace, pattern: ClassPattern | None, errors: Console | PlainErrors) -> None:
        self.args = args
        self.pattern = pattern
        self.errors = errors
        self.request = collection_request(args)
        self.rule = Rule(args.rule)
        self.tally = Tally()
        self.progress: Progress | None = None
        self.task: Any = None
        self.done_before = 0  # bytes of the files already read
        self.cluster: Any = None  # a Dask client, with --dask
        self.tables = open_tables(args, "classify")
        self.theory = None if self.tables is None else Theory(self.tables)

    def classify(self) -> int:
        files = self.args.files
        total = None if "-" in files else sum(os.path.getsize(name) for name in files)
        # Only rich's Console may be a terminal.
        if not isinstance(self.errors, PlainErrors) and self.errors.is_terminal:
            from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                DownloadColumn(),
                TimeElapsedColumn(),
                console=self.errors,
                transient=True,
            )
            self.task = self.progress.add_task("classifying", total=total)
        per_record = self.args.per_record or self.args.csv
        with (
            dispatch.cluster_for(self.args, self.errors.print) as self.cluster,
            self.progress or contextlib.nullcontext(),
        ):
            if per_record:
                records.write_rows(self._rows(), self.args.csv)
            else:
                submitted = self._submitted_on_cluster()
                for position, name in enumerate(self.args.files):
                    if name != "-" and store.is_index(name):
                        self._tally_index(name)
                        continue
                    with self._open(name) as collection:
                        self._tally(name, collection, submitted.pop(position, None))
                        self._finish_file(collection)
                    if self.theory is not None and name != "-":  # stdin is read once
                        with self.request.open(name, self.rule) as collection:
                            self.theory.add_items(collection.records())
        if not per_record:
            self.tally.finish_counting()
            theory = None if self.theory is None else self.theory.classes(self.args.either_colour)
            Summary(self.tally, self.pattern, self.args, self.request.game_positions, theory).write()
            if self.tables is not None:
                report_problems(self.tables, "classify")
        tally = self.tally
        if not_legal := without_one_king_a_side(tally):
            self.errors.print(f"gbr-tui classify: {kingless_summary(not_legal)}")
        self.errors.print(read_summary(tally.classified, tally.bad))
        return EXIT_BAD_INPUT if tally.bad else EXIT_OK

    def _tally_index(self, index: str) -> None:
        """Count the classes an index holds, as reading its sources would (StaleIndex if not)."""
        positions, min_plies = self.request.game_positions, self.request.min_plies
        for source in store.read(index, positions, self.rule, self.args.either_colour, min_plies):
            for bad in source.bad:
                self._report(bad, source.name)
            self.tally.merge(source.tally)
        self.done_before += os.path.getsize(index)
        self._advance_to(self.done_before)

    def _submitted_on_cluster(self) -> dict[int, dispatch.Parts]:
        """With --dask, every file's tasks handed to the cluster before any result is read (a
        year of monthly files is counted at once, a file a task at least), by the file's place
        among the files; the files read here (stdin, pipes) are left to their turn."""
        submitted: dict[int, dispatch.Parts] = {}
        if self.cluster is None:
            return submitted
        from gbr_tui.core.collection import cluster

        for position, name in enumerate(self.args.files):
            if name == "-" or store.is_index(name):
                continue
            try:
                collection = self.request.open(name, self.rule)
            except CollectionError:
                break  # said when its turn comes, as without a cluster
            with collection:
                ranges = cluster.ranges(self.cluster, collection, name)
                if ranges is not None:
                    submitted[position] = cluster.tally_on(
                        self.cluster, collection, name, self.request, ranges, self.rule, self.args.either_colour
                    )
        return submitted

    def _tally(self, name: str, collection: Collection, submitted: dispatch.Parts | None = None) -> None:
        """Count one file's classes, in worker processes (or on a cluster) over byte ranges when
        it pays; ``submitted``: its tasks already handed to the cluster."""
        either_colour = self.args.either_colour
        if submitted is not None:
            parts: dispatch.Parts | None = submitted
        elif self.cluster is not None:
            parts = dispatch.parts_on_cluster(
                self.cluster, collection, name, self.request, self.rule, either_colour, self.errors.print
            )
        else:
            parts = dispatch.parts_in_workers(collection, name, self.request, self.rule, self.args.jobs, either_colour)
        if parts is None:
            report = functools.partial(self._report, file=collection.name)
            advance = functools.partial(self._advance, collection)
            self.tally.merge(collection.tally(report, advance, either_colour))
            return
        for end, part in parts:
            for bad in part.bad:
                self._report(bad, collection.name)
            self.tally.merge(part.tally)
            self._advance_to(self.done_before + end)

    def _rows(self) -> Iterator[dict]:
        """Each record's row (see ``records``), its bad ones reported, the files counted: read in
        order by worker processes when --jobs allows (``ordered.records_with``)."""
        from gbr_tui.core.collection import ordered

        tally = self.tally
        for name in self.args.files:
            with self._open(name) as collection:
                bad = 0
                if hhdb.looks_like_hhdb(collection.source.head):
                    self.errors.print(
                        f"gbr-tui classify: {hhdb.recognised_words(printable(collection.name, SHOWN_CHARACTERS))}"
                    )
                read = ordered.RecordsRead()
                # FEN and EPD lines: handing each record back from a worker cost more CPU than
                # one process reading them took (200,000 EPD lines), so only when --jobs says.
                jobs = self.args.jobs if self.args.jobs is not None or not collection.reader.BATCH else 1
                items = ordered.records_with(collection, name, self.request, jobs, read=read)
                for item, _, done in items:
                    if isinstance(item, BadRecord):
                        bad += 1
                        self._report(item, collection.name)
                        continue
                    if item.number % 1024 == 0 and done is not None:
                        self._advance_to(self.done_before + done)
                    code, material = item.code, item.material
                    if material.kings != ONE_KING_A_SIDE:
                        tally.add_hidden(code, material)  # counted as the summary counts them
                    if self.args.either_colour:
                        code, material, _ = folded(code, material, None)
                    if records.wanted(self.pattern, code, material, self.args.either_colour) and hhdb.kept(
                        item.headers, self.args.studies
                    ):
                        yield records.record_row(collection.name, item, code, material, self.args.short)
                # Every record read well, also a game whose classes were all too short to keep.
                tally.classified += read.records - (bad - read.faults)
                tally.bad += bad
                self._finish_file(collection)

    def _open(self, name: str) -> Collection:
        collection = self.request.open(name, self.rule)
        if self.progress is not None:
            self.progress.update(self.task, description=os.path.basename(collection.name))
        return collection

    def _report(self, bad: BadRecord, file: str) -> None:
        name = printable(file, SHOWN_CHARACTERS)
        reason = printable(bad.reason, REASON_CHARACTERS)
        self.errors.print(f"gbr-tui classify: {name}:{bad.line}: record {bad.number}: {reason}")

    def _advance(self, collection: Collection) -> None:
        if self.progress is not None:
            done = collection.bytes_read
            if done is not None:
                self.progress.update(self.task, completed=self.done_before + done)

    def _finish_file(self, collection: Collection) -> None:
        if collection.size is not None:
            self.done_before += collection.size
            self._advance_to(self.done_before)

    def _advance_to(self, completed: int) -> None:
        if self.progress is not None:
            self.progress.update(self.task, completed=completed)


def errors_console() -> Console | PlainErrors:
    """stderr as rich's Console wherever rich may take it for a terminal (the progress bar is
    drawn there), else plain lines: rich writes the printable lines given here as they are, and
    its import is some 0.1 s of a command's start."""
    if sys.stderr.isatty() or "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        from rich.console import Console

        return Console(stderr=True, highlight=False, markup=False, emoji=False, soft_wrap=True)
    return PlainErrors()


class PlainErrors:
    """stderr, not a terminal: each line written as given."""

    is_terminal = False

    def print(self, text: str) -> None:
        sys.stderr.write(text + "\n")
