"""The collection browser's status line, and under it how far the files (or the index being
written) are read."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import ProgressBar, Static

from gbr_tui.core.text import printable


class ReadingStatus(Vertical):
    """The status line, and under it how far the files (or the index being written) are read."""

    said = ""  # the status line, without its note
    noted = ""  # what is added to it while it holds (the positions' filter)

    def compose(self) -> ComposeResult:
        yield Static(id="collection-status", markup=False)
        yield ProgressBar(id="collection-progress", show_eta=False)

    def say(self, text: str) -> None:
        self.said = text
        self._show()

    def note(self, text: str) -> None:
        """Added to the status line (after a ``·``) until another note; empty: none."""
        self.noted = text
        self._show()

    def _show(self) -> None:
        text = f"{self.said} · {self.noted}" if self.noted else self.said
        self.query_one("#collection-status", Static).update(printable(text))

    def begin(self, total: int) -> None:
        """The bar shown, at 0 of ``total`` bytes."""
        progress = self.query_one(ProgressBar)
        progress.remove_class("-done")
        progress.update(total=total, progress=0)

    def count(self, done: int, text: str | None = None) -> None:
        """``done`` bytes read; the status line says ``text``, which changes in its count alone
        from one tick to the next: the same length wraps the same, and a layout of the whole
        screen ten times a second would slow the reading thread down."""
        self.query_one(ProgressBar).update(progress=done)
        if text is not None:
            self.said = text
            status = self.query_one("#collection-status", Static)
            shown = printable(f"{text} · {self.noted}" if self.noted else text)
            status.update(shown, layout=len(shown) != len(str(status.content)))

    def end(self) -> None:
        """The bar hidden."""
        self.query_one(ProgressBar).add_class("-done")
