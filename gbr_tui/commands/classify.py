"""`gbr-tui classify FILE...`: index collections by GBR class.

A summary table by default (class, count, share, material); one JSON object or CSV row per
record on request. Bad records go to stderr with file and line, and the last line on stderr
sums up: read N = classified C + bad B.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from collections.abc import Iterator
from contextlib import nullcontext

from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeElapsedColumn

from gbr_tui.commands import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE
from gbr_tui.commands.common import (
    SHOWN_CHARACTERS,
    add_collection_options,
    add_rule_option,
    collection_request,
    excerpt,
    write_json_lines,
)
from gbr_tui.core import GbrError, Rule, short_form
from gbr_tui.core.collection import HEADERS, BadRecord, ClassRow, Collection, Record, Tally, store
from gbr_tui.core.describe import class_materials, read_summary
from gbr_tui.core.patterns import ClassPattern, parse_pattern
from gbr_tui.core.text import printable

REASON_CHARACTERS = 300  # of why a record is bad, at most this much is printed

CSV_FIELDS = ("file", "record", "line", "ply", "code", "material", "position", *HEADERS)


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "classify",
        help="index collections (PGN, EPD, FEN lines, CSV; gzip/bz2/xz too) by GBR class",
        description="Count the GBR classes of a collection, or list each record's class.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="collection files; '-' reads stdin")
    add_collection_options(parser)
    add_rule_option(parser)
    parser.add_argument("--short", action="store_true", help="write 0400 for 0400.00")
    parser.add_argument(
        "--match",
        metavar="PATTERN",
        help="keep only classes matching a code with wildcards (0?0?.1*, 04*) or material (KR v KR)",
    )
    parser.add_argument(
        "--jobs",
        type=_job_count,
        metavar="N",
        help=(
            "worker processes per file (default: one per core, for files of 1 MB a worker or more; "
            "1 reads in this process); compressed files, pipes, CSV and --per-record/--csv are read in one"
        ),
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--per-record", action="store_true", help="one JSON object per record (JSON Lines)")
    output.add_argument("--csv", action="store_true", help="one CSV row per record")
    parser.set_defaults(run=run)


def _job_count(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a number of jobs (1 or more): {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    errors = Console(stderr=True, highlight=False, markup=False, emoji=False, soft_wrap=True)
    try:
        pattern = parse_pattern(args.match) if args.match is not None else None
    except GbrError as error:
        errors.print(f"gbr-tui classify: --match: {error.message}")
        if error.offset is not None:
            shown, caret = excerpt(args.match, error.offset)
            errors.print(f"    {shown}\n    {' ' * caret}^")
        return EXIT_USAGE
    if args.files.count("-") > 1:
        errors.print("gbr-tui classify: '-' (stdin) is named more than once: stdin can be read only once")
        return EXIT_USAGE
    for name in args.files:
        if name != "-" and (os.path.isdir(name) or not os.path.exists(name)):  # devices and pipes are read
            reason = "is a directory, not a file" if os.path.isdir(name) else "no such file"
            errors.print(f"gbr-tui classify: {printable(name, SHOWN_CHARACTERS)}: {reason}")
            return EXIT_USAGE
    if (args.per_record or args.csv) and any(name != "-" and store.is_index(name) for name in args.files):
        errors.print("gbr-tui classify: --per-record and --csv read the collections themselves, not an index")
        return EXIT_USAGE
    try:
        return _Classifier(args, pattern, errors).classify()
    except GbrError as error:  # a file that cannot be read as a collection at all
        errors.print(f"gbr-tui classify: {printable(error.message, REASON_CHARACTERS)}")
        return EXIT_USAGE


class _Classifier:
    """One run of the command: reads the files, reports their bad records and shows progress on
    stderr, writes the summary or the records on stdout."""

    def __init__(self, args: argparse.Namespace, pattern: ClassPattern | None, errors: Console) -> None:
        self.args = args
        self.pattern = pattern
        self.errors = errors
        self.request = collection_request(args)
        self.rule = Rule(args.rule)
        self.tally = Tally()
        self.progress: Progress | None = None
        self.task = None
        self.collection: Collection | None = None  # the file being read
        self.done_before = 0  # bytes of the files already read

    def classify(self) -> int:
        sizes = [os.path.getsize(name) if name != "-" else None for name in self.args.files]
        total = None if None in sizes else sum(sizes)
        if self.errors.is_terminal:
            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                DownloadColumn(),
                TimeElapsedColumn(),
                console=self.errors,
                transient=True,
            )
            self.task = self.progress.add_task("classifying", total=total)
        with self.progress or nullcontext():
            if self.args.per_record or self.args.csv:
                self._write_records()
            else:
                for name in self.args.files:
                    if name != "-" and store.is_index(name):
                        self._tally_index(name)
                        continue
                    with self._open(name) as collection:
                        self.collection = collection
                        self._tally(name, collection)
                        self._finish_file(collection)
        if not (self.args.per_record or self.args.csv):
            self._print_table()
        tally = self.tally
        self.errors.print(read_summary(tally.classified, tally.bad))
        return EXIT_BAD_INPUT if tally.bad else EXIT_OK

    def _tally_index(self, index: str) -> None:
        """Count the classes an index holds, as reading its sources would (StaleIndex if not)."""
        for source in store.read(index, self.request.game_positions, self.rule):
            for bad in source.bad:
                self._report(bad, source.name)
            self.tally.merge(source.tally)
        self.done_before += os.path.getsize(index)
        self._advance_to(self.done_before)

    def _tally(self, name: str, collection: Collection) -> None:
        """Count one file's classes, in worker processes over byte ranges when it pays."""
        from gbr_tui.core.collection import parallel

        jobs = self.args.jobs or parallel.default_jobs()
        at_least = parallel.MIN_RANGE_BYTES if self.args.jobs is None else 1  # a number given is obeyed
        ranges = parallel.byte_ranges(collection, name, jobs, at_least)
        if ranges is None:
            self.tally.merge(collection.tally(self._report, self._advance))
            return
        for end, part in parallel.tally_in_ranges(collection, name, self.request, ranges, self.rule, jobs):
            for bad in part.bad:
                self._report(bad)
            self.tally.merge(part.tally)
            self._advance_to(self.done_before + end)

    def _open(self, name: str) -> Collection:
        collection = self.request.open(name, self.rule)
        if self.progress is not None:
            self.progress.update(self.task, description=os.path.basename(collection.name))
        return collection

    def _report(self, bad: BadRecord, file: str | None = None) -> None:
        name = printable(file or self.collection.name, SHOWN_CHARACTERS)
        reason = printable(bad.reason, REASON_CHARACTERS)
        self.errors.print(f"gbr-tui classify: {name}:{bad.line}: record {bad.number}: {reason}")

    def _advance(self) -> None:
        if self.progress is not None:
            done = self.collection.bytes_read
            if done is not None:
                self.progress.update(self.task, completed=self.done_before + done)

    def _finish_file(self, collection: Collection) -> None:
        if collection.size is not None:
            self.done_before += collection.size
            self._advance_to(self.done_before)

    def _advance_to(self, completed: int) -> None:
        if self.progress is not None:
            self.progress.update(self.task, completed=completed)

    # --- per record --------------------------------------------------------------------------

    def _write_records(self) -> None:
        out = sys.stdout
        if self.args.csv:
            writer = csv.DictWriter(out, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
            writer.writeheader()
            for row in self._rows():
                writer.writerow(row)
        else:
            write_json_lines(self._rows(), out)

    def _rows(self) -> Iterator[dict]:
        tally = self.tally
        for name in self.args.files:
            with self._open(name) as collection:
                self.collection = collection
                game = 0
                for item in collection.records():
                    if type(item) is BadRecord:
                        tally.bad += 1
                        self._report(item)
                        continue
                    if item.number != game:
                        game = item.number
                        tally.classified += 1
                        if game % 1024 == 0:
                            self._advance()
                    if self.pattern is None or self.pattern.matches(item.code, item.material):
                        yield self._row(collection.name, item)
                self._finish_file(collection)

    def _row(self, file: str, record: Record) -> dict:
        row = {
            "file": file,
            "record": record.number,
            "line": record.line,
            "code": short_form(record.code) if self.args.short else record.code,
            "material": str(record.material),
            "position": record.fen,
        }
        if record.ply is not None:
            row["ply"] = record.ply
        row.update(record.headers)
        return row

    # --- summary -----------------------------------------------------------------------------

    def _print_table(self) -> None:
        """The summary, sorted by code, in aligned columns.

        Written line by line, not as a rich Table: rich takes some 150 us a row, and a file of
        scattered positions has tens of thousands of classes. The rows are kept, no more than the
        tally holds; their lines are formatted twice (widths first) rather than kept.
        """
        rows = self.tally.classes(self.pattern)
        headings = ("class", "count", "share", "material")
        widths = [len(heading) for heading in headings]
        for cells in map(self._summary_cells, rows):
            widths = [max(width, len(cell)) for width, cell in zip(widths, cells)]
        code_width, count_width, share_width, _ = widths

        def line(cells: tuple[str, str, str, str]) -> str:
            code, count, share, material = cells
            return f"{code:<{code_width}}  {count:>{count_width}}  {share:>{share_width}}  {material}\n"

        out = sys.stdout
        out.write(line(headings))
        out.write("  ".join("-" * width for width in widths) + "\n")
        out.writelines(line(self._summary_cells(row)) for row in rows)
        out.flush()

    def _summary_cells(self, row: ClassRow) -> tuple[str, str, str, str]:
        classified = self.tally.classified
        share = row.count / classified if classified else 0
        code = short_form(row.code) if self.args.short else row.code
        return code, str(row.count), f"{share:.1%}", class_materials(row.materials)
