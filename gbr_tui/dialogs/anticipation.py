"""The ``a`` list: the records of the collection opened last whose position is the board's under
a board transform (distance 0) or a man away (1), searched in a thread (its index when it has a
fresh one, else its files read through); Enter loads one into the editor, whose undo brings the
position set up before back.
"""

from __future__ import annotations

import chess
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from gbr_tui.core import GbrError, board_from_fen
from gbr_tui.core.collection import CollectionRequest
from gbr_tui.core.collection.anticipation import FoundRecord
from gbr_tui.core.describe import headers_words, plural
from gbr_tui.core.hhdb import hhdb_words
from gbr_tui.core.setup import Arrangement
from gbr_tui.core.text import printable
from gbr_tui.messages import LoadPosition

SHOWN_CHARACTERS = 60


class AnticipationList(ModalScreen[FoundRecord | None]):
    """Dismisses with the record chosen (Enter), or None (Esc or F10)."""

    CSS_PATH = "../styles/dialogs.tcss"
    HELP_TITLE = "Anticipations"
    BINDINGS = [Binding("escape,f10", "dismiss", "Cancel", id="dialog.cancel")]

    def __init__(self, request: CollectionRequest, board: chess.Board, max_distance: int, what: str) -> None:
        super().__init__()
        self.request, self.board, self.max_distance, self.what = request, board, max_distance, what
        self.found: list[FoundRecord] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = f"{self.what} in {printable(self.request.title, SHOWN_CHARACTERS)}"
            dialog.border_subtitle = "Enter loads one (u brings yours back) · Esc cancels"
            yield Static(f"Searching {printable(self.request.title, SHOWN_CHARACTERS)} ...", id="anticipation-status")
            table: DataTable[str] = DataTable(id="anticipation-table", cursor_type="row", zebra_stripes=True)
            table.add_columns("record", "distance", "transform", "headers")
            yield table

    def on_mount(self) -> None:
        self._search()

    @work(thread=True, exclusive=True)
    def _search(self) -> None:
        from gbr_tui.core.collection import store
        from gbr_tui.core.similar import BLACK, WHITE

        turn = WHITE if self.board.turn else BLACK
        try:
            found = store.similar_in_collection(self.request, self.board, turn, self.max_distance)
        except GbrError as error:
            self.app.call_from_thread(self._show_problem, error.message)
            return
        self.app.call_from_thread(self._show, found)

    def _show_problem(self, message: str) -> None:
        self.query_one("#anticipation-status", Static).update(printable(message))

    def _show(self, found: list[FoundRecord]) -> None:
        self.found = found
        table = self.query_one(DataTable)
        for item in found:
            place = f"{printable(item.source, SHOWN_CHARACTERS)}:{item.line} #{item.record}"
            headers = hhdb_words(item.headers) or headers_words({k: v for k, v in item.headers.items() if k != "FEN"})
            table.add_row(place, str(item.distance), item.transform, printable(headers))
        counts = [sum(1 for item in found if item.distance == distance) for distance in range(self.max_distance + 1)]
        at = ", ".join(f"{count:,} at distance {distance}" for distance, count in enumerate(counts))
        self.query_one("#anticipation-status", Static).update(f"{plural(len(found), 'record')}: {at}")
        table.focus()

    @on(DataTable.RowSelected)
    def _chosen(self, event: DataTable.RowSelected) -> None:
        """The record into the editor (the app routes ``LoadPosition``), the list closed."""
        found = self.found[event.cursor_row]
        board = board_from_fen(found.fen)
        how = f"{found.transform} at distance {found.distance}: {printable(found.source)}:{found.line}, record {found.record}"
        self.app.post_message(LoadPosition(Arrangement(board, None, how), "· u: back to yours"))
        self.dismiss(found)
