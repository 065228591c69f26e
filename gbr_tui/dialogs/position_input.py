"""The ``i`` dialog: type a FEN or a GBR code; Enter loads it, a bad one shows why."""

from __future__ import annotations

from rich.text import Text

from gbr_tui.core import GbrError, board_from_fen, decode
from gbr_tui.core.setup import Arrangement, arrangement_of
from gbr_tui.dialogs.input_dialog import InputDialog, problem_text


def read_position(text: str) -> Arrangement:
    """A FEN (seven ``/`` between its ranks; it carries no stipulation) or a code in any dialect
    (whose men count, such as ``3/3``, has one; a stipulation when it gives one); GbrError when
    it cannot be set up."""
    if text.count("/") >= 7:
        board = board_from_fen(text)
        return Arrangement(board, None, f"FEN {board.fen()}")
    return arrangement_of(decode(text))


class PositionInputDialog(InputDialog[Arrangement]):
    """Dismisses with the position to load, or None when cancelled."""

    TITLE_TEXT = "Load a FEN or a GBR code"
    PLACEHOLDER = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1  or  =0323.12g3g1"

    def check(self, text: str) -> tuple[Arrangement | None, str | Text]:
        try:
            arrangement = read_position(text)
        except GbrError as error:
            return None, problem_text(error.message, error.pointer(text))
        return arrangement, arrangement.how
