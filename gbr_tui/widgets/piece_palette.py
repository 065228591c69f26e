"""The men to put with the mouse: click one, then click squares; ``x`` empties them.

The keyboard stays the editor's way in; this row is for those who prefer the mouse. It never
takes the focus, so no key reaches it.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

from gbr_tui.widgets.board import UNICODE_GLYPHS

#: The FEN letters in the row, White's men, Black's, then ``x`` that empties a square.
ENTRIES = "KQRBNPkqrbnpx"
#: Each entry takes a glyph and a space.
ENTRY_WIDTH = 2


class PiecePalette(Widget):
    """One row of men; ``selected`` is the FEN letter clicked (``x``: empty), None for none."""

    DEFAULT_CSS = """
    PiecePalette { width: auto; height: 1; padding: 0 1; }
    """

    selected: reactive[str | None] = reactive(None)
    ascii_mode: reactive[bool] = reactive(False)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.tooltip = "Click a man, then click squares to put it there; x empties them; click it again to stop"

    def get_content_width(self, container, viewport) -> int:
        return len(ENTRIES) * ENTRY_WIDTH

    def render(self) -> Text:
        text = Text(no_wrap=True)
        for symbol in ENTRIES:
            glyph = symbol if self.ascii_mode or symbol == "x" else UNICODE_GLYPHS[symbol]
            text.append(glyph, Style(reverse=True, bold=True) if symbol == self.selected else Style())
            text.append(" ")
        return text

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        index = -1 if offset is None else offset.x // ENTRY_WIDTH
        if 0 <= index < len(ENTRIES):
            symbol = ENTRIES[index]
            self.selected = None if self.selected == symbol else symbol
