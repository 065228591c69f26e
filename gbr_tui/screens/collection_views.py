"""What the collection browser's lists show: the columns and cells of the classes and of the
bad records, and the view of a class's positions (``PositionsView``).

The columns are sized to their cells (from a sample of the rows: a list may have 100,000), and
a row's cells are made when it is drawn.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sqlite3
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, cast

import chess
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from gbr_tui.core import GbrError, board_from_fen
from gbr_tui.core.collection import FIELDS, ClassRow, CollectionRequest, IndexedRecord
from gbr_tui.core.collection.browsed import BrowsedIndex
from gbr_tui.core.collection.index import ClassListing
from gbr_tui.core.collection.readers import CAPTION_NAME
from gbr_tui.core.collection.source import READ_ERRORS
from gbr_tui.core.collection.tally import NO_RESULTS
from gbr_tui.core.describe import (
    DISAGREEMENT_MARK,
    RESULTS_HEADING,
    class_materials,
    disagreeing_words,
    disagreement_mark,
    index_source_words,
    not_legal_status_words,
    plural,
    printed_words,
    read_summary,
    score_words,
)
from gbr_tui.core.hhdb import (
    BLACK_TAG,
    NO_MARKS_WORDS,
    STUDIES_CYCLE,
    hhdb_words,
    kept,
    read_black,
    stipulation_from,
    studies_words,
    tags_only,
)
from gbr_tui.core.patterns import ClassPattern
from gbr_tui.core.publish.solution import study_at
from gbr_tui.core.setup import Arrangement
from gbr_tui.core.similar import duplicate_marks
from gbr_tui.core.text import printable
from gbr_tui.interfaces import GbrAppInterface
from gbr_tui.messages import FindSimilar, LoadPosition
from gbr_tui.widgets.board import BoardView
from gbr_tui.widgets.collection_lists import PositionList
from gbr_tui.widgets.reading_status import ReadingStatus
from gbr_tui.widgets.record_list import Column, RecordList

if TYPE_CHECKING:
    from gbr_tui.core.tablebases import Tablebases

MATERIALS_SHOWN = 3
#: A class's theory against play is taken from at most this many of its positions, probed
#: this many at a time between the app's other work.
THEORY_POSITIONS = 20_000
THEORY_BATCH = 200
SAMPLED_ROWS = 200  # rows measured to size the bad records' columns
FIELD_WIDTH = 24  # at most, for a header column
#: A class of at most this many positions has its duplicates marked (each position is read).
DUPLICATE_MARKS_LIMIT = 20_000
DUPLICATE_HEADING = "dup"
#: What reading a record back in a worker can raise: a file or index changed or damaged since.
READ_FAULTS = (GbrError, sqlite3.Error, OSError, *READ_ERRORS)


def shown_name(path: str) -> str:
    """A file's name as drawn: its last part, made printable."""
    return printable(os.path.basename(path))


def materials_text(row: ClassRow) -> str:
    return class_materials(row.materials, MATERIALS_SHOWN)


def results_text(row: ClassRow) -> str:
    """The games won by White, drawn, won by Black, of unknown result: ``3/1/0/2``."""
    return "/".join(map(str, row.results or NO_RESULTS))


def class_columns(rows: ClassListing, games: bool) -> list[Column]:
    """The class table's columns, for positions or for games (score and results), each as wide
    as its widest cell."""

    def widest(title: str, cells) -> int:
        return max(len(title), max(map(len, cells), default=0))

    columns = [
        Column("class", max(len("class"), rows.code_width)),
        Column("count", widest("count", [f"{max(rows.counts, default=0):,}"]), right=True),
        Column("share", len("100.0%"), right=True),
    ]
    if games:
        columns += [
            Column("score", len("100.0%"), right=True),
            Column(RESULTS_HEADING, widest(RESULTS_HEADING, map(results_text, rows))),
        ]
    materials = max(len("material"), rows.materials_width(MATERIALS_SHOWN))
    return [*columns, Column("material", materials)]


def class_cells(row: ClassRow, classified: int, games: bool) -> list[str]:
    cells = [row.code, f"{row.count:,}", f"{row.count / classified:.1%}"]
    if games:
        cells += [score_words(row.score), results_text(row)]
    return [*cells, materials_text(row)]


def bad_records(index: BrowsedIndex) -> tuple[list[Column], Callable[[int], list[str]]]:
    """The bad records' columns, and the cells of one of them (the file's too when several)."""
    bad = index.bad
    several = len(index.files) > 1
    last = bad[-1][1]  # the largest line and record numbers
    columns = [
        Column("line", max(4, len(str(last.line))), right=True),
        Column("record", max(6, len(str(last.number))), right=True),
        Column("reason", max(len(record.reason) for _, record in bad[:SAMPLED_ROWS])),
    ]
    if several:
        columns.insert(0, Column("file", min(FIELD_WIDTH, max(len(shown_name(f)) for f in index.files))))

    def row(number: int) -> list[str]:
        file, record = bad[number]
        cells = [str(record.line), str(record.number), record.reason]
        return [os.path.basename(file), *cells] if several else cells

    return columns, row


class BadRecordList(RecordList):
    """The bad records with their file, line and reason; Enter (or a click) shows the reason
    whole, which its column may cut at the screen's edge."""

    HELP_TITLE = "Bad records"
    BINDINGS = [
        Binding(
            "enter",
            "show_whole",
            "whole",
            tooltip="Show the reason of this bad record whole",
            priority=True,
            id="bad_records.show",
        )
    ]

    index: BrowsedIndex | None = None

    def show(self, index: BrowsedIndex) -> None:
        self.index = index
        columns, row = bad_records(index)
        self.set_records(columns, len(index.bad), row)

    def action_show_whole(self) -> None:
        self._show_whole(self.cursor)

    def on_record_list_selected(self, event: RecordList.Selected) -> None:
        event.stop()
        self._show_whole(event.index)

    def _show_whole(self, number: int) -> None:
        if (index := self.index) is None or not 0 <= number < len(index.bad):
            return
        file, record = index.bad[number]
        where = f"{shown_name(file)}, line {record.line} (record {record.number})"
        self.notify(printable(record.reason, 2000), title=printable(where), markup=False, timeout=20)


def summary_line(
    files: CollectionRequest, index: BrowsedIndex, rows: ClassListing, pattern: ClassPattern | None, modes: str
) -> str:
    """The status line once the classes are listed: what was read, how many classes (matching
    the filter), records and bad records, how they are listed (``modes``), and the index read."""
    classes = plural(len(rows), "class", "classes")
    if pattern is not None:
        classes += f" ({plural(rows.records, 'position')}) match {pattern.text.strip()}"
    counts = read_summary(index.classified, len(index.bad))
    failed = f" · {len(index.failures)} not read" if index.failures else ""
    if not_legal := rows.not_legal:
        failed += f" · {not_legal_status_words(not_legal)}"
    title, source = files.title, ""
    if index.index_file is not None:  # named by its files, which it stands for
        title = dataclasses.replace(files, paths=tuple(index.files)).title
        source = f" · {index_source_words(shown_name(index.index_file), index.position.value)}"
    return f"{title} · {classes} · {counts}{failed}{modes}{source}"


class PositionsView(Horizontal):
    """The positions of a class (or the records whose printed code disagrees), and beside them
    the board and details of the highlighted one; Enter or a click loads it into the editor."""

    HELP_TITLE = "Positions"
    BINDINGS = [
        Binding(
            "a",
            "find_duplicates",
            "duplicates",
            tooltip="List the records of this position, turned or reflected (CQL's similarposition)",
            show=False,
            id="positions.duplicates",
        ),
        Binding(
            "u",
            "studies",
            "sound studies",
            tooltip="Show all the positions, HHdb's sound studies only, or its unsound ones (U1-U5), in turn",
            show=False,
            id="positions.studies",
        ),
    ]

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.index: BrowsedIndex | None = None
        self.shown_class: ClassRow | None = None  # None: the records whose printed code disagrees
        self.positions: Sequence[int] = ()  # the records shown
        self.listed: Sequence[int] = ()  # the records of the class (shown unless filtered)
        self.duplicates: dict[int, int] = {}  # row shown -> its group of duplicates, once found
        self.studies: str | None = None  # HHdb's studies shown: "sound", "unsound" or all (None)
        self.soundness: list[bool] | None = None  # each record listed sound (HHdb), once read

    def compose(self) -> ComposeResult:
        yield PositionList(id="position-list")
        board = BoardView(id="position-board")
        board.set_reactive(BoardView.show_cursor, False)
        with Vertical(id="position-side"):
            yield board
            yield Static(id="position-details", markup=False)
            yield Static(id="class-theory", markup=False)

    def show(
        self, index: BrowsedIndex, row: ClassRow | None, positions: Sequence[int], either_colour: bool = False
    ) -> None:
        self.index, self.shown_class, self.listed, self.soundness = index, row, positions, None
        if self.studies is None:
            self._list(positions)
        else:  # the filter chosen for another class holds for this one
            self._list(())
            self.query_one("#position-details", Static).update(
                f"Reading the marks of {plural(len(positions), 'record')} ..."
            )
            self._filter_studies(index, positions, self.studies)
        theory = self.query_one("#class-theory", Static)
        theory.display = False
        tables = cast(GbrAppInterface, self.app).tablebases.tables()
        if row is not None and tables is not None:
            self._class_theory(index, row, positions, tables, either_colour)

    def _list(self, positions: Sequence[int]) -> None:
        """The records shown: the class's, or those the studies' filter keeps."""
        if (index := self.index) is None:
            return
        self.positions = positions
        self.duplicates = {}
        self.query_one(PositionList).set_records(self._columns(index), len(positions), partial(self._cells, index))
        if not positions and self.studies:
            self.query_one(BoardView).set_board(chess.Board(None))  # no record shown: no board either
            self.query_one("#position-details", Static).update(studies_words(self.studies, 0, len(self.listed)))
        if len(positions) <= DUPLICATE_MARKS_LIMIT:
            self._mark_duplicates(index, positions)
        self._note_filter()

    def action_studies(self) -> None:
        """All the records, HHdb's sound studies, its unsound ones, in turn (an HHdb collection
        only: elsewhere the key says there are no HHdb marks)."""
        if (index := self.index) is None or not self.listed:
            return
        sample = self.listed[: max(1, index.sampled_rows)]
        if self.studies is None and not any(read_black(index.record(r).headers.get(BLACK_TAG)) for r in sample):
            self.notify(NO_MARKS_WORDS, severity="warning", markup=False)
            return
        self.studies = STUDIES_CYCLE[(STUDIES_CYCLE.index(self.studies) + 1) % len(STUDIES_CYCLE)]
        if self.studies is None:
            self._list(self.listed)
            return
        if self.soundness is None:  # each record is read once for its marks: a big class takes a while
            for status in self.screen.query(ReadingStatus):
                status.note(f"{self.studies} studies: reading the marks of {plural(len(self.listed), 'position')} ...")
        self._filter_studies(index, self.listed, self.studies)

    @work(thread=True, exclusive=True, group="studies-filter", exit_on_error=False)
    def _filter_studies(self, index: BrowsedIndex, positions: Sequence[int], studies: str) -> None:
        """The records the filter keeps, each record's marks read once for the class."""
        soundness = self.soundness if positions is self.listed else None
        if soundness is None:
            try:
                soundness = [kept(index.record(record).headers, "sound") for record in positions]
            except READ_FAULTS as fault:
                self.app.call_from_thread(self._say_fault, fault)
                return
        wanted = studies == "sound"
        shown = [record for record, sound in zip(positions, soundness) if sound == wanted]
        self.app.call_from_thread(self._show_filtered, positions, soundness, studies, shown)

    def _show_filtered(self, positions: Sequence[int], soundness: list[bool], studies: str, shown: list[int]) -> None:
        if positions is not self.listed or studies != self.studies:  # another class, or filter, since
            return
        self.soundness = soundness
        self._list(shown)

    def _note_filter(self) -> None:
        """The status line says the filter on, and how many records it keeps."""
        words = studies_words(self.studies, len(self.positions), len(self.listed)) if self.studies else ""
        for status in self.screen.query(ReadingStatus):
            status.note(words)

    def on_show(self) -> None:
        self._note_filter()

    def on_hide(self) -> None:  # the classes listed again: their status line, without the note
        for status in self.screen.query(ReadingStatus):
            status.note("")

    @work(thread=True, exclusive=True, group="duplicate-marks", exit_on_error=False)
    def _mark_duplicates(self, index: BrowsedIndex, positions: Sequence[int]) -> None:
        """The positions a class holds more than once, under a transform, marked ``=N``: a
        duplicate has the same material, so it is in the same class."""
        try:
            marks = duplicate_marks([index.record(record).fen for record in positions])
        except READ_FAULTS as fault:
            self.app.call_from_thread(self._say_fault, fault)
            return
        if marks:
            self.app.call_from_thread(self._show_marks, positions, marks)

    def _say_fault(self, fault: Exception) -> None:
        """A record that a worker could not read back (the file or index changed or damaged)."""
        words = fault.message if isinstance(fault, GbrError) else str(fault)
        self.notify(printable(words), title="Cannot read a record", severity="error", markup=False)

    def _show_marks(self, positions: Sequence[int], marks: dict[int, int]) -> None:
        if positions is not self.positions or self.index is None:  # another class shown since
            return
        self.duplicates = marks
        width = max(len(DUPLICATE_HEADING), *(len(f"={number}") for number in marks.values()))
        columns = [*self._columns(self.index)]
        columns.insert(-1, Column(DUPLICATE_HEADING, width))
        self.query_one(PositionList).set_columns(columns, partial(self._cells, self.index))

    @work(exclusive=True, group="class-theory", exit_on_error=False)
    async def _class_theory(
        self, index: BrowsedIndex, row: ClassRow, positions: Sequence[int], tables: Tablebases, either_colour: bool
    ) -> None:
        """Theory against play for the class shown, from its first THEORY_POSITIONS positions
        that give a side to move, probed a batch at a time between the app's other work (here,
        where the index is read: a stored index's connection stays on this thread); with
        ``either_colour`` counted for the stronger side, as classify counts a folded class."""
        from gbr_tui.core.collection.theory import Theory

        theory = Theory(tables)
        for start in range(0, min(len(positions), THEORY_POSITIONS), THEORY_BATCH):
            for record in positions[start : start + THEORY_BATCH]:
                entry = index.record(record)
                if entry.problem is None and " " in entry.fen:  # a placement alone has no side to move
                    try:
                        board = board_from_fen(entry.fen)
                    except GbrError:
                        continue
                    theory.add_listed(row.code, board, entry.headers.get("Result"), either_colour)
            await asyncio.sleep(0)
        found = theory.classes(either_colour).get(row.code)
        if found is not None and found.positions:
            shown = self.query_one("#class-theory", Static)
            of = f"of {THEORY_POSITIONS:,} positions, " if len(positions) > THEORY_POSITIONS else ""
            shown.update(f"Tablebase ({of}{found.positions:,} within the tables): {found.words()}")
            shown.display = True

    def _columns(self, index: BrowsedIndex) -> list[Column]:
        """Sized to the class's records (the same whatever the filter keeps)."""
        sample = [index.record(record) for record in self.listed[: index.sampled_rows]]
        last = index.record(self.listed[-1])
        columns = [
            Column("#", max(1, len(str(last.number)), *(len(str(entry.number)) for entry in sample)), right=True),
            Column("line", max(4, len(str(last.line))), right=True),
        ]
        if len(index.files) > 1:
            columns.insert(0, Column("file", min(FIELD_WIDTH, max(len(shown_name(f)) for f in index.files))))
        if index.captions_checked:
            longest = max((len(disagreement_mark(parts)) for _, parts in index.disagreements.values()), default=0)
            columns.append(Column(DISAGREEMENT_MARK, min(FIELD_WIDTH, max(len(DISAGREEMENT_MARK), longest))))
        for name in FIELDS:
            if name in index.fields:
                longest = max((len(printable(entry.headers.get(name, ""))) for entry in sample), default=0)
                columns.append(Column(name, min(FIELD_WIDTH, max(len(name), longest))))
        columns.append(Column("position", max(len(entry.fen or entry.problem or "") for entry in sample)))
        return columns

    def _cells(self, index: BrowsedIndex, row: int) -> list[str]:
        record = self.positions[row]
        entry = index.record(record)
        cells = [str(entry.number), str(entry.line)]
        if len(index.files) > 1:
            cells.insert(0, os.path.basename(entry.file))
        if index.captions_checked:
            found = index.disagreements.get(record)
            cells.append(disagreement_mark(found[1]) if found else "")
        cells += [entry.headers.get(name, "") for name in FIELDS if name in index.fields]
        if self.duplicates:
            cells.append(f"={self.duplicates[row]}" if row in self.duplicates else "")
        cells.append(entry.fen or entry.problem or "")
        return cells

    @on(RecordList.Highlighted, "#position-list")
    def _highlighted(self, event: RecordList.Highlighted) -> None:
        index = self.index
        if index is None:  # no positions shown yet
            return
        record = self.positions[event.index]
        entry = index.record(record)
        place = f"{shown_name(entry.file)}:{entry.line} · record {entry.number}"
        row = self.shown_class
        if row is not None:
            lines = [place, f"{row.code} {materials_text(row)} · {plural(len(self.positions), 'position')}"]
        else:
            lines = [place, disagreeing_words(len(self.positions))]
        lines += [f"{printable(name)}: {printable(value)}" for name, value in tags_only(entry.headers).items()]
        if studied := hhdb_words(entry.headers):  # HHdb's conventions in words
            lines.append(printable(studied))
        if record in index.disagreements:
            caption, parts = index.disagreements[record]
            lines += [printed_words(caption), *(words for _, words in parts)]
        try:
            if entry.problem is not None:
                raise GbrError(entry.problem)
            self.query_one(BoardView).set_board(board_from_fen(entry.fen))
        except GbrError as error:
            lines.append(printable(error.message))
        self.query_one("#position-details", Static).update("\n".join(lines))

    def action_find_duplicates(self) -> None:
        """The app lists the records of the highlighted one's position under a transform."""
        records = self.query_one(PositionList)
        if not records.count or self.index is None:
            return
        entry = self.index.record(self.positions[records.cursor])
        try:
            if entry.problem is not None:
                raise GbrError(entry.problem)
            board = board_from_fen(entry.fen)
        except GbrError as error:
            self.notify(printable(error.message), severity="error", markup=False)
            return
        self.post_message(FindSimilar(board, 0, f"Duplicates of record {entry.number}"))

    def load_highlighted(self) -> None:
        records = self.query_one(PositionList)
        if records.count and self.index is not None:
            self._load(self.index.record(self.positions[records.cursor]))

    @on(RecordList.Selected, "#position-list")
    def _clicked(self, event: RecordList.Selected) -> None:
        if self.index is not None:
            self._load(self.index.record(self.positions[event.index]))

    def _load(self, entry: IndexedRecord) -> None:
        try:
            if entry.problem is not None:
                raise GbrError(entry.problem)
            board = board_from_fen(entry.fen)
        except GbrError as error:
            self.notify(printable(error.message), severity="error", markup=False)
            return
        where = f"{shown_name(entry.file)}:{entry.line}, record {entry.number}"
        what = self.shown_class.code if self.shown_class is not None else "a wrong printed code"
        how = f"{what} from {where} · F4 or l: back to the list"
        solution = None
        try:
            solution = study_at(entry.file, entry.line, board)
        except GbrError as error:  # the position is loaded all the same, without its solution
            self.notify(printable(error.message), title="No solution", severity="warning", markup=False)
        if solution is not None:
            how += " · v: its solution"
        stipulation = stipulation_from(entry.headers, entry.headers.get(CAPTION_NAME))
        self.post_message(LoadPosition(Arrangement(board, stipulation, how), solution=solution))
