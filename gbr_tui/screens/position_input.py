"""The ``i`` dialog: type a FEN or a GBR code; Enter loads it, a bad one shows why."""

from __future__ import annotations

import chess
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from gbr_tui.core import DecodedCode, GbrError, board_from_fen, decode

HINT = "Enter loads it · Esc or F10 cancels"


def read_position(text: str) -> chess.Board | DecodedCode:
    """A FEN (seven ``/`` between its ranks) or a code in any dialect (whose men count, such as
    ``3/3``, has one); GbrError when it cannot be set up."""
    if text.count("/") >= 7:
        return board_from_fen(text)
    decoded = decode(text)
    if decoded.board is None and decoded.material is None:
        raise GbrError("a 9 hides how many men there are: give the squares to set this code up")
    return decoded


class PositionInputScreen(ModalScreen["chess.Board | DecodedCode | None"]):
    """Dismisses with the board of a FEN, the decoded code, or None when cancelled."""

    DEFAULT_CSS = """
    PositionInputScreen { align: center middle; }
    PositionInputScreen > Vertical {
        width: 90%;
        max-width: 100;
        height: auto;
        border: round $accent;
        padding: 0 1;
    }
    PositionInputScreen #position-feedback { height: auto; margin-top: 1; }
    PositionInputScreen #position-hint { color: $text-muted; }
    """

    BINDINGS = [Binding("escape,f10", "dismiss", "Cancel", id="position_input.cancel")]

    def compose(self) -> ComposeResult:
        with Vertical() as dialog:
            dialog.border_title = "Load a FEN or a GBR code"
            yield Input(placeholder="6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1  or  =0323.12g3g1", id="position-text")
            yield Static(id="position-feedback", markup=False)
            yield Static(HINT, id="position-hint")

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self._check(event.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if not self.is_active:
            return  # a second Enter, typed before the dialog closed
        result = self._check(event.value)
        if result is not None:
            self.dismiss(result)

    def _check(self, text: str) -> chess.Board | DecodedCode | None:
        feedback = self.query_one("#position-feedback", Static)
        if not text.strip():
            feedback.update("")
            return None
        try:
            result = read_position(text)
        except GbrError as error:
            feedback.update(Text.assemble((error.message, "bold"), "\n", (error.pointer(text), "")))
            return None
        if isinstance(result, chess.Board):
            feedback.update(f"FEN {result.fen()}")
        else:
            feedback.update(f"code {result.compact}")
        return result
