"""What the app's first frame does not wait for: numpy (batch work), dask (`classify --dask`),
the modules of the other screens and of the command palette (loaded when they open: the
palette's tests in test_tui_app find our commands), and a Header that would not show."""

from __future__ import annotations

import json
import subprocess
import sys

from textual.widgets import Header

from gbr_tui.app import make_app

#: Loaded only when asked for: none of them may be in ``sys.modules`` after the first frame.
NOT_BEFORE_THE_FIRST_FRAME = (
    "numpy",
    "dask",
    "distributed",
    "gbr_tui.palette",
    "gbr_tui.screens.decode",
    "gbr_tui.screens.help",
    "gbr_tui.screens.collection",
    "gbr_tui.core.collection",
    "gbr_tui.dialogs",
)

SCRIPT = """
import asyncio, json, sys
from gbr_tui.app import make_app

async def first_frame():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        print(json.dumps(sorted(sys.modules)))

asyncio.run(first_frame())
"""


def test_the_first_frame_is_drawn_without_the_modules_it_does_not_show() -> None:
    # A fresh interpreter: this test process may have imported them for other tests.
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    loaded = set(json.loads(result.stdout))
    assert "gbr_tui.screens.editor" in loaded  # the frame was drawn
    early = [name for name in loaded if name.startswith(NOT_BEFORE_THE_FIRST_FRAME)]
    assert early == []


async def test_the_header_is_made_only_where_it_shows() -> None:
    """editor.tcss hides the Header below 30 rows: at 80x24 it is not made at all; the terminal
    growing to 30 rows makes it, and it shows."""
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not pilot.app.screen.query(Header)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        header = pilot.app.screen.query_one(Header)
        assert header.display and header.region.height > 0
        await pilot.resize_terminal(80, 24)  # hidden again, not made twice
        await pilot.pause()
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert len(pilot.app.screen.query(Header)) == 1


async def test_a_tall_terminal_has_the_header_from_the_start() -> None:
    async with make_app().run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert pilot.app.screen.query_one(Header).region.height > 0
