"""The collection browser: a file's classes, a class's positions, a position into the editor.

The files are read by a worker process into a ``ClassIndex`` (``loading``), followed by a
thread worker, and the index is held by the screen; a timer shows how far reading has got, and
keys keep working meanwhile. An SQLite index
(``gbr-tui index``), named or found fresh beside the file, is read instead (``StoredIndex``); for
a big file without one, writing it is offered. The screen is installed under
``COLLECTION_SCREEN``: going to the editor and back keeps what it shows. When the app's rule
changes, the file is read again under the new one.

What its lists show and the view of a class's positions are in ``collection_views``, the
status line in ``widgets.reading_status``; writing the offered index in ``index_writing``.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from typing import cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Header, Input, Static
from textual.worker import Worker, WorkerState, get_current_worker

from gbr_tui.core import GbrError, Rule
from gbr_tui.core.collection import (
    ClassIndex,
    ClassRow,
    CollectionError,
    CollectionRequest,
    GamePositions,
    loading,
    store,
)
from gbr_tui.core.collection.browsed import BrowsedIndex
from gbr_tui.core.collection.index import ClassListing
from gbr_tui.core.collection.loading import CHART_ROWS, Loading, Progress
from gbr_tui.core.collection.store import NoOffsets, StoredIndex
from gbr_tui.core.collection.tally import SortBy, Tally
from gbr_tui.core.describe import (
    browser_modes,
    disagreeing_words,
    index_not_used_words,
    index_offer_words,
    index_reading_words,
    plural,
)
from gbr_tui.core.patterns import ClassPattern, parse_pattern
from gbr_tui.core.text import printable
from gbr_tui.interfaces import GbrAppInterface
from gbr_tui.screens.collection_views import (
    BadRecordList,
    PositionsView,
    class_cells,
    class_columns,
    shown_name,
    summary_line,
)
from gbr_tui.screens.index_writing import IndexWriter
from gbr_tui.widgets.bounded_input import BoundedInput
from gbr_tui.widgets.class_chart import ClassChart
from gbr_tui.widgets.collection_lists import ClassTable, PositionList
from gbr_tui.widgets.key_footer import KeyFooter
from gbr_tui.widgets.reading_status import ReadingStatus
from gbr_tui.widgets.record_list import Column, RecordList

FILTER_PAUSE = 0.15  # seconds of no typing before the class table is refilled
CHART_MIN_WIDTH = 76  # columns: in a narrower screen the chart is hidden, the table takes it all
#: From this size on, a file without an index is offered one. Measured on the 2-core machine:
#: ``ClassIndex.read`` took 2.6 s for 11 MB of positions (about 4 MB a second, idle; the app
#: then fills its table besides), and the index of that file opened in 0.4 s; so from 50 MB on
#: (some 12 s of reading at each opening) writing the index, one more reading, pays by the
#: second opening.
INDEX_OFFER_BYTES = 50_000_000
NOT_LISTED = ClassListing(Tally(), [], [])  # the classes before the first listing


class CollectionScreen(Screen):
    """The classes of a collection (filterable), the positions of one class, the bad records."""

    CSS_PATH = "../styles/collection.tcss"

    HELP_TITLE = "Collection"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide"), (150, "-wider")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    AUTO_FOCUS = "#class-table"

    BINDINGS = [
        Binding(
            "backspace,escape",
            "back",
            "back",
            tooltip="Back: from positions or bad records to the classes, from the classes to the editor",
            # Like the lists' own keys (Enter, the arrows), so that keys typed ahead act in the
            # order they came; not while the filter is typed in (check_action).
            priority=True,
            id="collection.back",
        ),
        Binding("escape", "leave_filter", "back", show=False, id="collection.leave_filter"),
        Binding(
            "slash",
            "filter",
            "filter",
            tooltip="Filter the classes: a code with wildcards or a material",
            priority=True,  # see ClassTable; a pattern has no '/' to type
            id="collection.filter",
        ),
        Binding(
            "b", "bad_records", "bad", tooltip="List the bad records with their file and line", id="collection.bad"
        ),
        Binding("f3,o", "app.open_collection", "open", tooltip="Open another collection file", id="collection.open"),
        Binding(
            "w",
            "disagreements",
            "wrong codes",
            tooltip="List the records whose printed code disagrees with their position",
            id="collection.disagreements",
        ),
        Binding(
            "e",
            "either_colour",
            "colours",
            tooltip="Fold each class with its colour twin, the stronger side as White (again: unfold)",
            id="collection.either_colour",
        ),
        Binding("s", "sort", "sort", tooltip="Sort the classes by code, count or score, in turn", id="collection.sort"),
        Binding(
            "i",
            "build_index",
            "index",
            tooltip="Write an index of this big file, which opens at once next time (again: cancel)",
            id="collection.index",
        ),
        Binding(
            "m",
            "chart_families",
            "families",
            tooltip="The chart of the largest families (rook endings, ...) or of the largest classes, in turn",
            id="collection.families",
        ),
    ]

    class Loaded(Message):
        """The classes are listed, the first time."""

    index_offer_bytes = INDEX_OFFER_BYTES  # see INDEX_OFFER_BYTES

    def __init__(self, files: CollectionRequest) -> None:
        super().__init__()
        self.files = files
        self.index: BrowsedIndex | None = None  # once loaded
        self.stored: str | None = None  # the index read instead of the files (set when mounted)
        self.index_offer: str | None = None  # where an index of the big file can be written
        self.building = False  # an index is being written
        self.listed = False  # the classes have been listed once
        self.pattern: ClassPattern | None = None
        self.class_rows = NOT_LISTED  # as listed in the table
        self.progress: tuple[int, int] = (0, 0)  # (bytes, records) read so far, set by the loader
        self.either_colour = False  # colour twins folded, the stronger side as White
        self.sort = SortBy.CODE
        self.chart_bars: list[tuple[str, int]] = []  # the largest classes so far, set by the loader
        self._charted: list[tuple[str, int]] | None = None  # the bars the chart shows while reading
        self._reading: Loading | None = None  # the files' reading process, while they are read
        self.chart_families = False  # the chart shows families, not classes

    def compose(self) -> ComposeResult:
        yield Header()
        yield ReadingStatus(id="collection-reading")
        with ContentSwitcher(initial="classes", id="views"), Vertical(id="classes"):
            yield BoundedInput(placeholder="/ filter: 04* · 0?0?.1* · 0400 · KR v KR", id="class-filter")
            yield Static(id="filter-error", markup=False)
            with Horizontal(id="class-area"):
                yield ClassTable(id="class-table", zebra_stripes=True)
                yield ClassChart(id="class-chart")
        yield KeyFooter()

    async def _made(self, view: str) -> None:
        """The view of a class's positions (``positions``) or of the bad records
        (``bad-records``), composed the first time it is shown: most openings show the classes
        alone, and the start does not wait for what they do not show."""
        switcher = self.query_one(ContentSwitcher)
        if switcher.query_children(f"#{view}"):
            return
        if view == "positions":
            await switcher.add_content(PositionsView(id=view))
        else:
            await switcher.add_content(BadRecordList(id=view))

    def on_mount(self) -> None:
        self.sub_title = printable(f"{self.files.title} by class")
        self.query_one(ClassTable).set_records(class_columns(NOT_LISTED, games=False), 0, self._class_row)
        self._ticker = self.set_interval(0.1, self._show_progress, pause=True)
        self.stored, not_used = store.index_for(self.files)
        if not_used is not None:
            self.notify(printable(index_not_used_words(not_used, self.files.title)), severity="warning", markup=False)
        if self.stored is None and self._gbr_app.offers("build_index"):
            self.index_offer = store.index_offer(self.files, self.index_offer_bytes)
        if self.index_offer is not None:
            size = os.path.getsize(self.files.paths[0])
            offer = index_offer_words(self.files.title, size, shown_name(self.index_offer))
            self.notify(printable(offer), title="Big file", markup=False, timeout=15)
        self.watch(self.app, "rule", self._read_under)

    def on_unmount(self) -> None:
        if self.index is not None:
            self.index.close()

    # --- reading ------------------------------------------------------------------------------

    def _read_under(self, rule: Rule) -> None:
        """(Re)read the files (or the index), classified under ``rule``; the classes show again
        when done."""
        if self.index is not None:
            self.index.close()
        self.index, self.class_rows, self.chart_bars = None, NOT_LISTED, []
        self.query_one(ClassTable).clear()
        self.query_one(ClassChart).show([], 0)
        self.refresh_bindings()
        self.query_one(ContentSwitcher).current = "classes"
        self.query_one(ReadingStatus).begin(sum(os.path.getsize(path) for path in self.files.paths))
        self.progress = (0, 0)
        if self.stored is not None:
            self._status(index_reading_words(self.files.title, shown_name(self.stored)))
            self.read_stored(self.stored, rule)
            return
        self._status(f"Reading {self.files.title} ...")
        self._ticker.resume()
        self.read_collection(rule)

    @work(thread=True, exclusive=True, exit_on_error=False, group="read")
    def read_stored(self, stored: str, rule: Rule) -> StoredIndex:
        """The classes from the index at ``stored`` (queries: no record is read but those shown)."""
        return StoredIndex(stored, self.files, rule)

    @work(thread=True, exclusive=True, exit_on_error=False, group="read")
    def read_collection(self, rule: Rule) -> ClassIndex | None:
        """The files read into an index by a worker process (``loading``: the one the command
        line started, when it reads these files under this rule), followed from here."""
        worker = get_current_worker()
        reading = loading.taken(self.files, rule) or Loading(self.files, rule, self._chart_wanted())
        reading.chart = self._chart_wanted()
        self._reading = reading
        try:  # until the worker is cancelled (a new rule, another file, the app ending)
            return reading.followed(lambda: worker.is_cancelled, self._reported)
        finally:
            self._reading = None

    def _reported(self, report: Progress) -> None:
        self.progress = (report.done, report.records)
        if report.bars is not None:
            self.chart_bars = report.bars

    def _chart_wanted(self) -> int:
        """What the chart shows while the files are read (``loading``'s bits)."""
        return (loading.FAMILIES if self.chart_families else 0) | (loading.EITHER_COLOUR if self.either_colour else 0)

    def _show_progress(self) -> None:
        done, records = self.progress
        self.query_one(ReadingStatus).count(done, f"Reading {self.files.title}: {records:,} records")
        if self.chart_bars is not self._charted:  # the reader looks again every CHART_PAUSE
            self._charted = self.chart_bars
            self.query_one(ClassChart).show(self.chart_bars, records)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "read" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        self._ticker.pause()
        if self.stored is None:
            self._show_progress()
        self.query_one(ReadingStatus).end()
        if isinstance(event.worker.error, NoOffsets):  # an index of compressed files: read them
            self.notify(printable(event.worker.error.message), severity="warning", markup=False)
            self.stored, self.files = None, event.worker.error.request
            self._read_under(self._gbr_app.rule)
            return
        if event.state == WorkerState.ERROR:
            self._status(f"Could not read {self.files.title}: {event.worker.error}")
            self.notify(printable(str(event.worker.error)), title="Not read", severity="error", markup=False)
            return
        if (index := event.worker.result) is None:  # the reading was given up (``followed``)
            return
        self.index = index
        for failure in index.failures:
            self.notify(printable(failure), title="Not read", severity="error", markup=False, timeout=10)
        if index.bad:
            self.notify(f"{plural(len(index.bad), 'bad record')}: b lists them", severity="warning", markup=False)
        if index.disagreements:
            self.notify(
                f"{disagreeing_words(len(index.disagreements))}: w lists them", severity="warning", markup=False
            )
        self._fill_classes()
        self.refresh_bindings()

    # --- the classes --------------------------------------------------------------------------

    @work(exclusive=True, group="classes")
    async def _fill_classes(self, pause: float = 0) -> None:
        """List the classes that match the filter, after ``pause`` seconds (typing may go on; the
        next keystroke cancels this for a new listing). The table draws only the rows on screen,
        so listing costs the same for ten classes or fifty thousand."""
        await asyncio.sleep(pause)
        if (index := self.index) is None:  # not loaded yet, or reading again
            return
        rows, columns = await asyncio.to_thread(self._listed_classes, index)
        if not self.is_attached:  # taken down (the app ends, another file opens) while they were listed
            return
        self.class_rows = rows
        try:
            self._show_chart(index, rows)
            self.query_one(ClassTable).set_records(columns, len(rows), self._class_row)
            modes = browser_modes(self.either_colour, self.sort.value, index.position == GamePositions.ALL)
            self._status(summary_line(self.files, index, rows, self.pattern, modes))
        except NoMatches:  # being taken down all the same: its widgets go before it does
            return
        if not self.listed:
            self.listed = True
            self.post_message(self.Loaded())

    def _listed_classes(self, index: BrowsedIndex) -> tuple[ClassListing, list[Column]]:
        """The classes to list (in a thread: a query of the index, or the tally sorted), and the
        columns sized to them."""
        rows = index.classes(self.pattern, self.either_colour, self.sort)
        return rows, class_columns(rows, index.games)

    def _class_row(self, row: int) -> list[str]:
        index = self.index  # None: no class is listed yet
        return [] if index is None else class_cells(self.class_rows[row], index.classified, index.games)

    def _show_chart(self, index: BrowsedIndex, rows: ClassListing) -> None:
        """The chart of the largest classes listed (the filter's), or of the largest families."""
        if self.chart_families:
            bars = index.largest_families(CHART_ROWS)
        else:
            bars = rows.largest(CHART_ROWS)
        self.query_one(ClassChart).show(bars, index.classified)

    def action_chart_families(self) -> None:
        self.chart_families = not self.chart_families
        if self.index is not None:
            self._show_chart(self.index, self.class_rows)
        else:
            self._follow_chart()

    def _follow_chart(self) -> None:
        """While the files are read, the reader's next bars are of what the chart now shows."""
        reading = self._reading
        if reading is not None:
            reading.chart = self._chart_wanted()

    def action_either_colour(self) -> None:
        self.either_colour = not self.either_colour
        self._follow_chart()
        self._relist()

    def action_sort(self) -> None:
        orders = list(SortBy)
        self.sort = orders[(orders.index(self.sort) + 1) % len(orders)]
        self._relist()

    def _relist(self) -> None:
        """The classes listed again in the new way (at once once read; read on, else)."""
        self.query_one(ContentSwitcher).current = "classes"
        self.set_focus(self.query_one(ClassTable))
        if self.index is not None:
            self._fill_classes()

    def on_resize(self) -> None:
        self.query_one(ClassChart).display = self.size.width >= CHART_MIN_WIDTH

    @on(Input.Changed, "#class-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        error = self.query_one("#filter-error", Static)
        text = event.value
        try:
            pattern = parse_pattern(text) if text.strip() else None
        except GbrError as problem:
            error.update(Text.assemble((problem.message, "bold"), "\n", problem.pointer(text)))
            error.add_class("-shown")
            return
        error.remove_class("-shown")
        self.pattern = pattern
        if self.index is not None:
            self._fill_classes(FILTER_PAUSE)

    @on(Input.Submitted, "#class-filter")
    def _filter_done(self) -> None:
        """To the table, the filter applied at once; a bad pattern keeps the focus to be fixed."""
        if not self.query_one("#filter-error").has_class("-shown"):
            self._fill_classes()
            self.set_focus(self.query_one(ClassTable))

    async def action_open_class(self) -> None:
        table = self.query_one(ClassTable)
        if table.count:
            await self.show_class(self.class_rows[table.cursor])

    @on(RecordList.Selected, "#class-table")
    async def _class_clicked(self, event: RecordList.Selected) -> None:
        await self.show_class(self.class_rows[event.index])

    async def show_class(self, row: ClassRow | None) -> None:
        """The positions of a class; None: of every record whose printed code disagrees."""
        if (index := self.index) is None:  # no class listed yet
            return
        try:
            positions = index.positions(row, self.either_colour) if row is not None else sorted(index.disagreements)
        except CollectionError as error:  # a damaged index
            self.notify(printable(error.message), severity="error", markup=False)
            return
        await self._made("positions")
        self.query_one(PositionsView).show(index, row, positions, self.either_colour)
        self.query_one(ContentSwitcher).current = "positions"
        self.set_focus(self.query_one(PositionList))

    @property
    def positions(self) -> Sequence[int]:
        """The records listed of the class shown (or of the wrong printed codes)."""
        return self.query_one(PositionsView).positions

    def action_load_position(self) -> None:
        self.query_one(PositionsView).load_highlighted()

    # --- bad records and keys -----------------------------------------------------------------

    async def action_bad_records(self) -> None:
        await self._made("bad-records")
        if (index := self.index) is None:  # the key is shown once the index is loaded (check_action)
            return
        records = self.query_one("#bad-records", BadRecordList)
        records.show(index)
        self.query_one(ContentSwitcher).current = "bad-records"
        self.set_focus(records)

    async def action_disagreements(self) -> None:
        await self.show_class(None)

    def action_filter(self) -> None:
        self.query_one(ContentSwitcher).current = "classes"
        self.set_focus(self.query_one("#class-filter", Input))

    def action_back(self) -> None:
        switcher = self.query_one(ContentSwitcher)
        if switcher.current != "classes":
            switcher.current = "classes"
            self.set_focus(self.query_one(ClassTable))
        else:
            self.app.pop_screen()

    def action_leave_filter(self) -> None:
        """Escape in the filter: back to the classes, the filter kept."""
        self.set_focus(self.query_one(ClassTable))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool:
        if action in ("back", "leave_filter"):
            # In the filter, backspace is the Input's and escape leaves the filter.
            return (self.focused is self.query_one("#class-filter")) == (action == "leave_filter")
        if action == "bad_records":
            return self.index is not None and bool(self.index.bad)
        if action == "disagreements":
            return self.index is not None and bool(self.index.disagreements)
        if action == "build_index":
            return self.index_offer is not None and self._gbr_app.offers(action)
        return True

    # --- writing an index ----------------------------------------------------------------------

    def action_build_index(self) -> None:
        """Write the offered index (reading the file is given up meanwhile), or stop writing it."""
        if self.building:
            self.query_one(IndexWriter).cancel()
            return
        if (offer := self.index_offer) is None:  # the key is shown only with an offer (check_action)
            return
        self.workers.cancel_group(self, "read")
        self._ticker.pause()
        self.building = True
        self.mount(IndexWriter(self.files, offer, self.query_one(ReadingStatus)))

    def on_index_writer_ended(self, event: IndexWriter.Ended) -> None:
        self.building = False
        if event.written is not None:
            self.index_offer, self.stored = None, event.written
        self.refresh_bindings()
        self._read_under(self._gbr_app.rule)  # the index just written, or the file again (its reading was given up)

    @property
    def _gbr_app(self) -> GbrAppInterface:
        return cast(GbrAppInterface, self.app)  # the app is a GbrApp (see ``interfaces``)

    def _status(self, text: str) -> None:
        self.query_one(ReadingStatus).say(text)
