"""What the app shows while the terminal is smaller than its smallest working layout."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Static

#: The smallest terminal every screen is laid out for (the compact layout).
MIN_WIDTH, MIN_HEIGHT = 60, 20


def too_small(size: Size) -> bool:
    return size.width < MIN_WIDTH or size.height < MIN_HEIGHT


def too_small_message(size: Size) -> str:
    return (
        f"terminal too small: need at least {MIN_WIDTH}x{MIN_HEIGHT}, have {size.width}x{size.height}\n"
        "Enlarge the window to go on; ctrl+q quits."
    )


class TooSmallScreen(Screen):
    """Covers every screen until the terminal is large enough again (``GbrApp`` pops it).

    It has no keys of its own: while it shows, the app lets only ctrl+q act.
    """

    # The colour named: inherited, it came out as the background when the app started small.
    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen > Static { width: auto; max-width: 100%; text-align: center; text-style: bold; color: $text; }
    /* Toasts would be drawn over the message, the two cut into each other; they show again
       on the screen below when the terminal is large enough. */
    Toast { visibility: hidden !important; }
    """

    def compose(self) -> ComposeResult:
        yield Static(too_small_message(self.app.size), markup=False)

    def update_size(self, size: Size) -> None:
        self.query_one(Static).update(too_small_message(size))
