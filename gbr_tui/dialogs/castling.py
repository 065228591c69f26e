"""The castling dialog: type the castling rights as FEN writes them (``KQkq``, ``Kq``, ``-``)."""

from __future__ import annotations

from rich.text import Text

from gbr_tui.core import GbrError
from gbr_tui.core.setup import castling_rights_from_text, castling_text
from gbr_tui.dialogs.input_dialog import InputDialog, problem_text


class CastlingDialog(InputDialog[str]):
    """Dismisses with the rights typed (``-`` for none), or None when cancelled."""

    TITLE_TEXT = "Castling rights (as in FEN: K Q k q, or -)"
    PLACEHOLDER = "KQkq  or  Kq  or  -"
    HINT = "Enter sets them · Esc or F10 cancels"

    def check(self, text: str) -> tuple[str | None, str | Text]:
        try:
            rights = castling_text(castling_rights_from_text(text))
        except GbrError as error:
            return None, problem_text(error.message, error.pointer(text))
        return rights, f"castling rights {rights}"
