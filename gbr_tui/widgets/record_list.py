"""A table of as many rows as a collection has, drawn a screen at a time.

A ``DataTable`` keeps every row it is given, so 100,000 positions would be 100,000 rows built
before the first is seen. This list asks for a row only when it is on screen (Textual's Line
API): ``row(index)`` is called for the visible lines and nothing else, so moving through 100,000
rows costs what moving through twenty does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from gbr_tui.core.text import printable

COLUMN_GAP = 1


@dataclass(frozen=True)
class Column:
    title: str
    width: int
    right: bool = False  # right-justified (numbers)

    def cell(self, text: str) -> str:
        """``text`` fitted to the column; from a file, so made printable first."""
        text = printable(text)
        if cell_len(text) > self.width:
            return set_cell_size(text, self.width - 1) + "…"
        return set_cell_size(text, self.width) if not self.right else " " * (self.width - cell_len(text)) + text


class RecordList(ScrollView, can_focus=True):
    """Rows from a function, a heading that stays on top, a cursor row.

    ``set_records(columns, count, row)`` fills it; ``Highlighted`` is posted when the cursor moves and
    ``Selected`` on a click on the cursor row (on any row with ``SELECT_ON_CLICK``).
    """

    HELP_TITLE = "Lists of classes, positions and bad records"
    COMPONENT_CLASSES = {"record-list--header", "record-list--cursor", "record-list--even-row"}
    DEFAULT_CSS = """
    RecordList { background: $surface; }
    /* Stripes as DataTable draws them, for the lists made with zebra_stripes. */
    RecordList > .record-list--even-row { background: $surface-lighten-1 50%; }
    RecordList:dark > .record-list--even-row { background: $surface-darken-1 40%; }
    RecordList > .record-list--header { text-style: bold; color: $foreground; background: $panel; }
    RecordList > .record-list--cursor { color: $block-cursor-blurred-foreground; background: $block-cursor-blurred-background; }
    RecordList:focus > .record-list--cursor {
        color: $block-cursor-foreground; background: $block-cursor-background; text-style: $block-cursor-text-style;
    }
    /* Without colour, a background cannot show where the cursor is. */
    RecordList:nocolor > .record-list--cursor { text-style: reverse; }
    """

    # Priority bindings, as the keys that open a list are: the app runs them in turn with those,
    # so End then Enter in one burst (over SSH keys come in bursts) opens the last row, not the
    # one the cursor was on before End reached the list.
    BINDINGS = [
        Binding("up", "move(-1)", "Previous row", show=False, priority=True, id="record_list.up"),
        Binding("down", "move(1)", "Next row", show=False, priority=True, id="record_list.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, priority=True, id="record_list.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, priority=True, id="record_list.page_down"),
        Binding("home", "go(0)", "First row", show=False, priority=True, id="record_list.first"),
        Binding("end", "go(-1)", "Last row", show=False, priority=True, id="record_list.last"),
    ]

    #: A click on any row selects it. Else the first click only moves the cursor there, as a
    #: list whose highlighted row is previewed beside it wants.
    SELECT_ON_CLICK = False

    cursor: reactive[int] = reactive(0, always_update=True, repaint=False)

    class Highlighted(Message):
        def __init__(self, records: RecordList, index: int) -> None:
            super().__init__()
            self.records = records
            self.index = index

        @property
        def control(self) -> RecordList:
            return self.records

    class Selected(Highlighted):
        pass

    def __init__(self, *, id: str | None = None, zebra_stripes: bool = False) -> None:
        super().__init__(id=id)
        self.zebra_stripes = zebra_stripes
        self.columns: Sequence[Column] = ()
        self.count = 0
        self._row: Callable[[int], Sequence[str]] = lambda index: ()

    def set_records(self, columns: Sequence[Column], count: int, row: Callable[[int], Sequence[str]]) -> None:
        """Show ``count`` rows; ``row(index)`` gives a row's cells, one per column."""
        self.columns = columns
        self.count = count
        self._row = row
        width = sum(column.width for column in columns) + COLUMN_GAP * max(0, len(columns) - 1)
        self.virtual_size = Size(width, count + 1)  # the heading is line 0
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.cursor = 0
        self.refresh()

    def set_columns(self, columns: Sequence[Column], row: Callable[[int], Sequence[str]]) -> None:
        """Other columns for the same rows, the cursor and scroll kept."""
        self.columns, self._row = columns, row
        width = sum(column.width for column in columns) + COLUMN_GAP * max(0, len(columns) - 1)
        self.virtual_size = Size(width, self.count + 1)
        self.refresh()

    def clear(self) -> None:
        """No rows; the columns stay."""
        self.set_records(self.columns, 0, self._row)

    def cells(self, index: int) -> list[str]:
        """Row ``index``'s cells as drawn: each fitted to its column."""
        return [column.cell(text) for column, text in zip(self.columns, self._row(index))]

    @property
    def page_rows(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    # --- keys ---------------------------------------------------------------------------------

    def action_move(self, rows: int) -> None:
        self.cursor = min(max(0, self.count - 1), max(0, self.cursor + rows))

    def action_page(self, pages: int) -> None:
        self.action_move(pages * self.page_rows)

    def action_go(self, index: int) -> None:
        self.cursor = max(0, self.count - 1) if index < 0 else min(index, max(0, self.count - 1))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y == 0:
            return
        index = int(self.scroll_y) + offset.y - 1
        if index < self.count:
            if index == self.cursor or self.SELECT_ON_CLICK:
                self.post_message(self.Selected(self, index))
            self.cursor = index

    def watch_cursor(self, new: int) -> None:
        self._scroll_to_cursor()
        self.refresh()
        if self.count:
            self.post_message(self.Highlighted(self, new))

    def on_resize(self) -> None:
        self._scroll_to_cursor()

    def _scroll_to_cursor(self) -> None:
        """Scroll as little as keeps the cursor's row on screen, below the heading."""
        if not self.size.height:  # not laid out yet (hidden, or shown a moment ago): on_resize
            return
        top = int(self.scroll_y)
        if self.cursor < top:
            top = self.cursor
        elif self.cursor > top + self.page_rows - 1:
            top = self.cursor - self.page_rows + 1
        self.scroll_to(y=top, animate=False, immediate=True)

    # --- drawing ------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        if y == 0:
            cells = [column.cell(column.title) for column in self.columns]
            style = self.get_component_rich_style("record-list--header")
        else:
            index = scroll_y + y - 1
            if index >= self.count:
                return Strip.blank(width, self.rich_style)
            cells = self.cells(index)
            style = self.rich_style
            if self.zebra_stripes and index % 2 == 0:
                style += self.get_component_rich_style("record-list--even-row")
            if index == self.cursor:
                style += self.get_component_rich_style("record-list--cursor")
        line = (" " * COLUMN_GAP).join(cells)
        return Strip([Segment(line, style)]).crop_extend(scroll_x, scroll_x + width, style)
