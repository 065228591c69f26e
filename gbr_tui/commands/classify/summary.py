"""`gbr-tui classify FILE...`: index collections by GBR class.

A summary table by default (class, count, share, material); one JSON object or CSV row per
record on request. Bad records go to stderr with file and line, and the last line on stderr
sums up: read N = classified C + bad B.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import csv
import gc
import io
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from gbr_tui.commands import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE
from gbr_tui.commands.common import (
    SHOWN_CHARACTERS,
    add_collection_options,
    add_jobs_option,
    add_rule_option,
    collection_request,
    excerpt,
    write_json_lines,
)
from gbr_tui.core import GbrError, Rule, short_form
from gbr_tui.core.collection import HEADERS, BadRecord, ClassRow, Collection, GamePositions, Record, Tally, store
from gbr_tui.core.collection.records import Format
from gbr_tui.core.collection.tally import NO_RESULTS, FamilyRow, SortBy, family_rows, folded, swapped_code
from gbr_tui.core.describe import (
    EITHER_COLOUR_NOTE,
    PER_RECORD_HERE_WORDS,
    RESULT_HEADINGS,
    SCORE_NOTE,
    class_materials,
    one_process_words,
    read_summary,
    score_words,
    share_of_games_note,
)
from gbr_tui.core.material import Material
from gbr_tui.core.patterns import ClassPattern, parse_pattern
from gbr_tui.core.text import printable

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

REASON_CHARACTERS = 300  # of why a record is bad, at most this much is printed

CSV_FIELDS = ("file", "record", "line", "ply", "plies", "code", "material", "position", *HEADERS)
BAR_WIDTH = 10  # cells of a share bar
#: Classes from which the summary's numpy path pays numpy's import (some 0.1 s, against some
#: 9 us a class a row at a time); once numpy is loaded (the batch path ran), it is always used.
SUMMARY_NUMPY_WORTH = 20_000
_FAST_MODULE = "gbr_tui.core.fast"
#: FEN and EPD lines are counted by the batch path, some 50 MB of them a CPU second: a file is
#: cut for worker processes (by default) only from this many bytes a worker. On 35-60 MB files
#: (1M lines) two workers took 6-10% more CPU than one process and were no sooner done, on the
#: 2-core benchmark machine at load 3.5-4.6 (benchmarks/positions.py's inputs).
BATCH_RANGE_BYTES = 64 << 20
BATCH_FORMATS = (Format.FEN, Format.EPD)


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
        "--either-colour",
        action="store_true",
        help="fold each class with its colour twin (KRP v KR with KR v KRP), the stronger side as White",
    )
    parser.add_argument(
        "--min-plies",
        type=_plies,
        default=0,
        metavar="N",
        help="with --position all: keep only the classes a game stayed in for N plies or more",
    )
    parser.add_argument(
        "--by",
        choices=("class", "family"),
        default="class",
        help="summary by class (default) or by endgame family (rook endings, queen v rook, ...)",
    )
    parser.add_argument(
        "--sort",
        choices=[order.value for order in SortBy],
        default=SortBy.CODE.value,
        help="the summary's order: by code (default), count (most first) or score (best first)",
    )
    parser.add_argument("--bars", action="store_true", help="draw the share bars even when stdout is not a terminal")
    workers = parser.add_mutually_exclusive_group()  # processes here, or a cluster's
    add_jobs_option(workers, "--per-record/--csv", batch_megabytes=BATCH_RANGE_BYTES >> 20)
    workers.add_argument(
        "--dask",
        metavar="SCHEDULER",
        help=(
            "count on a Dask cluster: a scheduler's address (tcp://host:8786; the files at the same path on "
            "every worker) or local:N (N worker processes here); needs gbr-tui[dask]"
        ),
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="the summary as JSON Lines, one object per class or family")
    output.add_argument("--per-record", action="store_true", help="one JSON object per record (JSON Lines)")
    output.add_argument("--csv", action="store_true", help="one CSV row per record")
    parser.set_defaults(run=run)


def _plies(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"not a number of plies (0 or more): {printable(text, SHOWN_CHARACTERS)!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    errors = _errors_console()
    try:
        pattern = parse_pattern(args.match) if args.match is not None else None
    except GbrError as error:
        errors.print(f"gbr-tui classify: --match: {error.message}")
        if error.offset is not None:
            shown, caret = excerpt(args.match, error.offset)
            errors.print(f"    {shown}\n    {' ' * caret}^")
        return EXIT_USAGE
    if args.min_plies and args.position != GamePositions.ALL.value:
        errors.print("gbr-tui classify: --min-plies needs --position all (the plies a game stays in each class)")
        return EXIT_USAGE
    if args.by == "family" and (args.per_record or args.csv or pattern is not None):
        errors.print("gbr-tui classify: --by family is a summary of every class: not with --match, --per-record, --csv")
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

    def __init__(self, args: argparse.Namespace, pattern: ClassPattern | None, errors: Console | _PlainErrors) -> None:
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
        self.cluster = None  # a Dask client, with --dask

    def classify(self) -> int:
        sizes = [os.path.getsize(name) if name != "-" else None for name in self.args.files]
        total = None if None in sizes else sum(sizes)
        if self.errors.is_terminal:
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
        with self._on_cluster(), self.progress or contextlib.nullcontext():
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
            self.tally.finish_counting()
            self._write_summary()
        tally = self.tally
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

    @contextlib.contextmanager
    def _on_cluster(self) -> Iterator[None]:
        """With --dask, connected to the cluster (or a local one started) while the files are read."""
        if self.args.dask is None:
            yield
            return
        from gbr_tui.core.collection import cluster

        if self.args.per_record or self.args.csv:
            cluster.local_workers(self.args.dask)  # a bad --dask is still a usage error
            self.errors.print(f"gbr-tui classify: {PER_RECORD_HERE_WORDS}")
            yield
            return
        with cluster.connected(self.args.dask) as self.cluster:
            yield

    def _tally(self, name: str, collection: Collection) -> None:
        """Count one file's classes, in worker processes (or on a cluster) over byte ranges when it pays."""
        from gbr_tui.core.collection import parallel

        if self.cluster is not None:
            parts = self._tally_on_cluster(name, collection)
        else:
            per_worker = BATCH_RANGE_BYTES if collection.format in BATCH_FORMATS else parallel.MIN_RANGE_BYTES
            jobs = parallel.planned_jobs(collection, self.args.jobs, per_worker)
            ranges = parallel.byte_ranges(collection, name, jobs, at_least=1)
            parts = ranges and parallel.tally_in_ranges(
                collection, name, self.request, ranges, self.rule, jobs, self.args.either_colour
            )
        if parts is None:
            self.tally.merge(collection.tally(self._report, self._advance, self.args.either_colour))
            return
        for end, part in parts:
            for bad in part.bad:
                self._report(bad)
            self.tally.merge(part.tally)
            self._advance_to(self.done_before + end)

    def _tally_on_cluster(self, name: str, collection: Collection) -> Iterator | None:
        from gbr_tui.core.collection import cluster, parallel

        ranges = cluster.ranges(self.cluster, collection, name)
        if ranges is None:
            reason = parallel.one_process_reason(collection)
            self.errors.print(
                f"gbr-tui classify: {one_process_words(printable(collection.name, SHOWN_CHARACTERS), reason)}"
            )
            return None
        return cluster.tally_on(
            self.cluster, collection, name, self.request, ranges, self.rule, self.args.either_colour
        )

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
                bad = 0
                for item in collection.records():
                    if type(item) is BadRecord:
                        bad += 1
                        self._report(item)
                        continue
                    if item.number % 1024 == 0:
                        self._advance()
                    code, material = item.code, item.material
                    if self.args.either_colour:
                        code, material, _ = folded(code, material, None)
                    if self._wanted(code, material):
                        yield self._row(collection.name, item, code, material)
                # Every record read well, also a game whose classes were all too short to keep.
                tally.classified += collection.records_read - bad
                tally.bad += bad
                self._finish_file(collection)

    def _wanted(self, code: str, material: Material) -> bool:
        pattern = self.pattern
        if pattern is None or pattern.matches(code, material):
            return True
        return self.args.either_colour and pattern.matches(swapped_code(code), material.swapped())

    def _row(self, file: str, record: Record, code: str, material: Material) -> dict:
        """A record's row, its class as folded with ``--either-colour``."""
        row = {
            "file": file,
            "record": record.number,
            "line": record.line,
            "code": short_form(code) if self.args.short else code,
            "material": str(material),
            "position": record.fen,
        }
        if record.ply is not None:
            row["ply"] = record.ply
        if record.plies is not None:
            row["plies"] = record.plies
        row.update(record.headers)
        return row

    # --- summary -----------------------------------------------------------------------------

    def _summary_rows(self) -> list[ClassRow] | list[FamilyRow]:
        sort = SortBy(self.args.sort)
        if self.args.by == "family":
            return family_rows(self.tally, sort)
        return self.tally.classes(self.pattern, self.args.either_colour, sort)

    def _write_summary(self) -> None:
        """The summary as a table or as JSON Lines. A table is written in aligned columns, not
        as a rich Table (rich takes some 150 us a row, and a file of scattered positions has
        tens of thousands of classes); bars come from a few rich Bars rendered once each (a bar
        has ``BAR_WIDTH * 8 + 1`` sizes). The classes of positions (no results, no pattern)
        (folded or not) are written with numpy where it is loaded or pays
        (``SUMMARY_NUMPY_WORTH``), the rest a row at a time."""
        with _collection_paused():
            columns = self._class_columns()
            if columns is not None:
                self._write_class_columns(columns)
            elif self.args.json:
                write_json_lines(self._summary_objects())
            else:
                self._write_table()

    def _class_columns(self):
        if self.args.by == "family" or self.pattern is not None or self.tally.results:
            return None
        if not _summary_uses_numpy(self.tally):
            return None
        from gbr_tui.core.collection.summary_lines import class_columns

        return class_columns(self.tally, SortBy(self.args.sort), self.args.either_colour)

    def _write_class_columns(self, columns) -> None:
        """The summary of classes of positions, as ``_write_table`` or ``_summary_objects``
        write it, all lines at once."""
        from gbr_tui.core.collection.summary_lines import summary_lines

        classified, short, out = self.tally.classified, self.args.short, sys.stdout
        if self.args.json:  # as _summary_objects writes them

            def shown(count: int) -> str:  # numbers as json.dumps writes them: an int, a float's repr
                share = count / classified if classified else 0
                return f'", "count": {count}, "share": {share!r}, "material": "'

            _write_utf8(summary_lines(columns, shown, '{"code": "', '"}\n', short)[0])
            return
        counts = columns.distinct_counts()
        bar = _Bars(BAR_WIDTH) if self.args.bars or sys.stdout.isatty() else None
        shares = {count: self._share_cell(count, bar) for count in counts}
        code_width = (4 if short and columns.all_short() else 7) if len(columns.codes) else 0
        widths = [
            max(len("class"), code_width),
            max([len("count"), *(len(str(count)) for count in counts)]),
            max([len("share"), *map(len, shares.values())]),
        ]

        def cells(count: int) -> str:
            return f"  {count:>{widths[1]}}  {shares[count]:>{widths[2]}}  "

        lines, material_width = summary_lines(columns, cells, short=short, code_width=widths[0], shown=3)
        widths.append(max(len("material"), material_width))
        if self.args.either_colour:
            out.write(EITHER_COLOUR_NOTE + "\n")
        out.write(f"{'class':<{widths[0]}}  {'count':>{widths[1]}}  {'share':>{widths[2]}}  material\n")
        out.write("  ".join("-" * width for width in widths) + "\n")
        _write_utf8(lines)
        self._write_notes(games=False)

    def _share_cell(self, count: int, bar: _Bars | None) -> str:
        classified = self.tally.classified
        share = count / classified if classified else 0
        return f"{share:.1%}" if bar is None else f"{bar(share)} {share:.1%}"

    def _write_notes(self, games: bool) -> None:
        out = sys.stdout
        if self.request.game_positions == GamePositions.ALL and self.tally.classified:
            out.write(share_of_games_note(self.tally.classified, self.args.by) + "\n")
        if games:
            out.write(SCORE_NOTE + "\n")
        out.flush()

    def _write_table(self) -> None:
        rows = self._summary_rows()
        games = any(row.results is not None for row in rows)
        by_family = self.args.by == "family"
        headings = ["family" if by_family else "class", "count", "share"]
        if games:
            headings += RESULT_HEADINGS
        if not by_family:
            headings.append("material")
        bars = self.args.bars or sys.stdout.isatty()
        bar = _Bars(BAR_WIDTH) if bars else None
        columns = [[heading, *column] for heading, column in zip(headings, self._summary_columns(rows, games, bar))]
        widths = [max(map(len, column)) for column in columns]
        last = len(headings) - 1
        # Every column right-aligned but the first (names) and a last material column.
        formats = [
            f"{{:<{width}}}" if index == 0 or (index == last and not by_family) else f"{{:>{width}}}"
            for index, width in enumerate(widths)
        ]
        template = "  ".join(formats) + "\n"
        out = sys.stdout
        if self.args.either_colour:
            out.write(EITHER_COLOUR_NOTE + "\n")
        lines = [template.format(*cells).rstrip() + "\n" for cells in zip(*columns)]
        out.write(lines[0])
        out.write("  ".join("-" * width for width in widths) + "\n")
        out.writelines(lines[1:])
        self._write_notes(games)

    def _summary_columns(
        self, rows: list[ClassRow] | list[FamilyRow], games: bool, bar: _Bars | None
    ) -> list[list[str]]:
        """The table's cells, a column at a time."""
        if self.args.by == "family":
            names = [row.family.name for row in rows]
        else:
            names = [short_form(row.code) for row in rows] if self.args.short else [row.code for row in rows]
        counts = [row.count for row in rows]
        columns = [names, list(map(str, counts)), [self._share_cell(count, bar) for count in counts]]
        if games:
            results = [row.results or NO_RESULTS for row in rows]
            columns += [[str(held[index]) for held in results] for index in range(len(NO_RESULTS))]
            columns.append([score_words(row.score) for row in rows])
        if self.args.by != "family":
            columns.append([class_materials(row.materials) for row in rows])
        return columns

    def _summary_objects(self) -> Iterator[dict]:
        """The summary as objects: code (or family), count, share, material (for a family its
        definition), and for games the results and the score."""
        classified = self.tally.classified
        for row in self._summary_rows():
            if isinstance(row, FamilyRow):
                found = {"family": row.family.name}
                material = row.family.definition
            else:
                found = {"code": short_form(row.code) if self.args.short else row.code}
                material = class_materials(row.materials, len(row.materials))
            found.update(count=row.count, share=row.count / classified if classified else 0, material=material)
            if row.results is not None:
                white, draws, black, unknown = row.results
                found.update(white_wins=white, draws=draws, black_wins=black, unknown=unknown, score=row.score)
            yield found


def _write_utf8(parts: list) -> None:
    """Parts of UTF-8 text (any buffers) on stdout: as they are where stdout writes UTF-8 and
    its line ends are "\n" (no copy as a str of some MB, none encoded back), else as text."""
    out = sys.stdout
    buffer = getattr(out, "buffer", None)
    if buffer is None or os.linesep != "\n" or codecs.lookup(out.encoding or "ascii").name != "utf-8":
        out.write("".join(bytes(part).decode("utf-8") for part in parts))
        return
    out.flush()
    for part in parts:
        buffer.write(part)


def _summary_uses_numpy(tally: Tally) -> bool:
    return _FAST_MODULE in sys.modules or len(tally.codes) >= SUMMARY_NUMPY_WORTH


def _errors_console() -> Console | _PlainErrors:
    """stderr as rich's Console wherever rich may take it for a terminal (the progress bar is
    drawn there), else plain lines: rich writes the printable lines given here as they are, and
    its import is some 0.1 s of a command's start."""
    if sys.stderr.isatty() or "FORCE_COLOR" in os.environ or "TTY_COMPATIBLE" in os.environ:
        from rich.console import Console

        return Console(stderr=True, highlight=False, markup=False, emoji=False, soft_wrap=True)
    return _PlainErrors()


class _PlainErrors:
    """stderr, not a terminal: each line written as given."""

    is_terminal = False

    def print(self, text: str) -> None:
        sys.stderr.write(text + "\n")


@contextlib.contextmanager
def _collection_paused() -> Iterator[None]:
    """Python's cycle collector paused while the summary is built: its tens of thousands of rows
    hold no cycles, and each collection would walk all of them (two thirds of the summary's
    time with 60,000 classes)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class _Bars:
    """Share bars as text: a rich ``Bar`` rendered once for each of its sizes."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.steps = width * 8
        self._rendered: dict[int, str] = {}
        from rich.console import Console

        self._console = Console(width=width, color_system=None, legacy_windows=False, file=io.StringIO())

    def __call__(self, share: float) -> str:
        step = round(share * self.steps)
        text = self._rendered.get(step)
        if text is None:
            from rich.bar import Bar

            with self._console.capture() as capture:
                self._console.print(Bar(self.steps, 0, step, width=self.width), end="")
            text = self._rendered[step] = capture.get().rstrip("\n").ljust(self.width)
        return text
