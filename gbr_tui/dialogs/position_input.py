"""The ``i`` dialog: type a FEN, a GBR code or a piece list; Enter loads it, a bad one shows why.

It opens filled with the position on the board (its FEN), all selected: typing replaces it,
an arrow key keeps it to edit.
"""

from __future__ import annotations

from rich.text import Text

from gbr_tui.core import GbrError
from gbr_tui.core.setup import Arrangement, read_position
from gbr_tui.dialogs.input_dialog import InputDialog, problem_text


class PositionInputDialog(InputDialog[Arrangement]):
    """Dismisses with the position to load, or None when cancelled."""

    TITLE_TEXT = "Load a FEN, a GBR code or a piece list"
    PLACEHOLDER = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1  or  =0323.12g3g1  or  Kg3 Ba2 Be1 h6 / Kg1 Ra3 Ng8 c3 c6"
    HINT = "Enter loads it · type to replace, ← → to edit · Esc or F10 cancels"

    def check(self, text: str) -> tuple[Arrangement | None, str | Text]:
        try:
            arrangement = read_position(text)
        except GbrError as error:
            return None, problem_text(error.message, error.pointer(text))
        return arrangement, arrangement.how
