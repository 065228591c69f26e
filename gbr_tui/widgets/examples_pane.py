"""The examples pane: the published classes and the named positions in a table, filtered as you
type, with the highlighted row in full on a line under it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Input, Static

from gbr_tui.core import GbrError, Rule
from gbr_tui.core.describe import example_words, no_match_words
from gbr_tui.core.examples import ALL, Example, find
from gbr_tui.widgets.bounded_input import BoundedInput

COLUMNS = ("White", "Black", "class", "men", "name")
#: The widest a material column grows (the starting array's sixteen men are cut with "…").
MATERIAL_WIDTH = 9
#: The name column never gets narrower than this, however small the pane.
NAME_MIN_WIDTH = 10


def cell(text: str) -> Text:
    """A cell that fits its column: one line, cut with "…" when it is wider. Text, not str:
    DataTable reads a str cell as markup."""
    return Text(text, no_wrap=True, overflow="ellipsis", end="")


class ExamplesPane(Vertical):
    """A filter line over a table of ``examples.ALL``.

    The filter keeps the focus, so typing always filters; the arrow and page keys move the
    table's cursor and Enter posts ``ExamplesPane.Chosen`` for the highlighted row. The name
    column takes the width the other columns leave; a cell cut to fit ends in "…", and the line
    under the table gives the highlighted row whole (name, material, source, stipulation), as
    does the table's tooltip.
    """

    DEFAULT_CSS = """
    ExamplesPane { height: 1fr; }
    ExamplesPane > Input { margin-bottom: 0; }
    ExamplesPane > DataTable { height: 1fr; }
    ExamplesPane > #examples-detail { height: auto; max-height: 3; color: $text-muted; }
    """

    HELP_TITLE = "Examples (type to filter)"
    BINDINGS = [
        Binding("down", "cursor_down", "Next example", show=False, id="examples.down"),
        Binding("up", "cursor_up", "Previous example", show=False, id="examples.up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="examples.page_down"),
        Binding("pageup", "page_up", "Page up", show=False, id="examples.page_up"),
    ]

    class Chosen(Message):
        """The user asked to load this example onto the board."""

        def __init__(self, example: Example) -> None:
            super().__init__()
            self.example = example

    #: The rule the codes are shown under.
    rule: reactive[Rule] = reactive(Rule.COUNT, init=False)
    #: The arrows named in words (ASCII mode).
    ascii_mode: reactive[bool] = reactive(False, init=False)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.shown: list[Example] = list(ALL)

    def compose(self) -> ComposeResult:
        yield BoundedInput(placeholder=self._placeholder(), compact=True, id="examples-filter")
        table: DataTable[Text] = DataTable(cursor_type="row", zebra_stripes=True, id="examples-table")
        table.can_focus = False
        yield table
        yield Static(id="examples-detail", markup=False)

    #: The content width the table was filled for last (0: not filled yet).
    _filled_width = 0

    def fill_for(self, width: int) -> None:
        """Fill the table for the pane's outer ``width`` before its first layout, where the
        screen knows it (the pane spans the screen): the first frame shows the rows."""
        self._fill(width - self.styles.gutter.width)

    def on_resize(self) -> None:
        if self.content_size.width != self._filled_width:  # a width filled for already: kept
            self._fill(self.content_size.width)

    @property
    def table(self) -> DataTable[Text]:
        return self.query_one(DataTable)

    @property
    def filter_text(self) -> str:
        return self.query_one(Input).value

    def _placeholder(self) -> str:
        arrows = "up/down" if self.ascii_mode else "↑↓"
        return f"filter: 03, 04*, KRP, KR v KR, Reti · {arrows} · Enter loads"

    def watch_rule(self) -> None:
        self._fill()

    def watch_ascii_mode(self) -> None:
        self.query_one(Input).placeholder = self._placeholder()

    @on(Input.Changed)
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._fill()

    def _fill(self, width: int = 0) -> None:
        """The rows the filter lets through, in columns that fit the content ``width`` (by
        default the pane's, or before its first layout the width filled for).

        Nothing while no width is known (the first Resize fills the pane): the name column
        gets the width the pane leaves, and a table filled at width 0 drew every name cut.
        """
        width = width or self.content_size.width or self._filled_width
        if not width:
            return
        self._filled_width = width
        try:
            self.shown = find(self.filter_text, self.rule)
            problem = None
        except GbrError as error:
            self.shown, problem = [], error.message
        table = self.table
        row = table.cursor_row
        rows = [
            (example.white, example.black, example.code(self.rule, short=False), str(example.men), example.name)
            for example in self.shown
        ]
        table.clear(columns=True)
        for label, column_width in zip(COLUMNS, self._column_widths(rows, width)):
            table.add_column(cell(label), width=column_width)
        for cells in rows:
            table.add_row(*[cell(text) for text in cells])
        if rows:
            table.move_cursor(row=min(row, len(rows) - 1))
        self.border_subtitle = problem or f"{len(self.shown)} of {len(ALL)}"
        self._show_detail()

    def _column_widths(self, rows: Sequence[tuple[str, ...]], width: int) -> list[int]:
        """Each column as wide as its widest cell (material at most ``MATERIAL_WIDTH``); the
        name column gets what is left of the pane, the scroll bar kept clear."""
        widths = [max(len(text) for text in column) for column in zip(COLUMNS, *rows)]
        widths[0] = min(widths[0], MATERIAL_WIDTH)
        widths[1] = min(widths[1], MATERIAL_WIDTH)
        table = self.table
        padding = 2 * table.cell_padding * len(COLUMNS)
        left = width - padding - sum(widths[:-1]) - table.styles.scrollbar_size_vertical
        widths[-1] = max(NAME_MIN_WIDTH, left)
        return widths

    def _show_detail(self) -> None:
        row = self.table.cursor_row
        if not self.shown and self.filter_text.strip():
            detail = no_match_words(self.filter_text)
        else:
            detail = example_words(self.shown[row]) if 0 <= row < len(self.shown) else ""
        self.query_one("#examples-detail", Static).update(detail)
        self.table.tooltip = detail or None  # whole, where the line is cut to one row (60x20)

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    def action_cursor_down(self) -> None:
        self.table.action_cursor_down()

    def action_cursor_up(self) -> None:
        self.table.action_cursor_up()

    def action_page_down(self) -> None:
        self.table.action_page_down()

    def action_page_up(self) -> None:
        self.table.action_page_up()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._choose(self.table.cursor_row)

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self._choose(event.cursor_row)

    def _choose(self, row: int) -> None:
        if 0 <= row < len(self.shown):
            self.post_message(self.Chosen(self.shown[row]))
        else:
            self.notify("No example matches the filter", severity="warning")
