"""The examples pane: the published and named classes in a table, filtered as you type."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Input

from gbr_tui.core import GbrError, Rule
from gbr_tui.core.examples import ALL, Example, find
from gbr_tui.widgets.bounded_input import BoundedInput

# Text, not str: DataTable reads a str cell as markup.
COLUMNS = tuple(map(Text, ("White", "Black", "class", "men", "name")))


class ExamplesPane(Vertical):
    """A filter line over a table of ``examples.ALL``.

    The filter keeps the focus, so typing always filters; the arrow and page keys move the
    table's cursor and Enter posts ``ExamplesPane.Chosen`` for the highlighted row.
    """

    DEFAULT_CSS = """
    ExamplesPane { height: 1fr; }
    ExamplesPane > Input { margin-bottom: 0; }
    ExamplesPane > DataTable { height: 1fr; }
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
        table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=True, id="examples-table")
        table.can_focus = False
        yield table

    def on_mount(self) -> None:
        self.table.add_columns(*COLUMNS)
        self._fill()

    @property
    def table(self) -> DataTable[str]:
        return self.query_one(DataTable)

    @property
    def filter_text(self) -> str:
        return self.query_one(Input).value

    def _placeholder(self) -> str:
        arrows = "up/down" if self.ascii_mode else "↑↓"
        return f"filter: 03, 04*, KRP or KR v KR · {arrows} choose · Enter loads"

    def watch_rule(self) -> None:
        self._fill()

    def watch_ascii_mode(self) -> None:
        self.query_one(Input).placeholder = self._placeholder()

    @on(Input.Changed)
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._fill()

    def _fill(self) -> None:
        try:
            self.shown = find(self.filter_text, self.rule)
            problem = None
        except GbrError as error:
            self.shown, problem = [], error.message
        table = self.table
        table.clear()
        for example in self.shown:
            cells = (example.white, example.black, example.code(self.rule, short=False), str(example.men), example.name)
            table.add_row(*map(Text, cells))
        self.border_subtitle = problem or f"{len(self.shown)} of {len(ALL)}"

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
