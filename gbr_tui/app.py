"""The terminal app (placeholder screen until the TUI lands)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class GbrApp(App):
    TITLE = "gbr-tui"
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("gbr-tui: the editor is coming. Press q to quit.")
        yield Footer()


def run_app(served: bool = False) -> int:
    GbrApp().run()
    return 0
