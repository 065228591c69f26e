"""The browser's status line while files are read: a note (the studies' filter) stays after the
counts of each tick, and the line it returns to is the latest count."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from gbr_tui.widgets.reading_status import ReadingStatus


class StatusApp(App):
    def compose(self) -> ComposeResult:
        yield ReadingStatus()


def shown(app: App) -> str:
    return str(app.query_one("#collection-status", Static).content)


async def test_a_note_outlives_the_ticks_and_the_line_keeps_the_latest_count():
    app = StatusApp()
    async with app.run_test() as pilot:
        status = app.query_one(ReadingStatus)
        status.say("read 10")
        status.note("sound studies only: 2 of 3 positions")
        status.count(50, "read 20")
        await pilot.pause()
        assert shown(app) == "read 20 · sound studies only: 2 of 3 positions"
        status.note("")
        assert shown(app) == "read 20"
