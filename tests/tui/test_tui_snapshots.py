"""Snapshots of the main screens at fixed sizes (``--snapshot-update`` after a deliberate change).

The board has the focus, so no text cursor blinks; the examples filter gets its blink turned off
when a snapshot types into it.
"""

from __future__ import annotations

from gbr_tui.app import make_app
from gbr_tui.core import board_from_fen
from tests.support.tui import KUBBEL_FEN


def kubbel_app():
    return make_app(board_from_fen(KUBBEL_FEN), "=")


def test_editor_with_kubbel_at_100x30(snap_compare):
    assert snap_compare(kubbel_app(), terminal_size=(100, 30))


def test_editor_at_80x24(snap_compare):
    assert snap_compare(kubbel_app(), terminal_size=(80, 24))


def test_editor_wide_at_160x50(snap_compare):
    assert snap_compare(kubbel_app(), terminal_size=(160, 50))


def test_examples_filtered(snap_compare):
    async def no_blink(pilot):
        await pilot.pause()
        pilot.app.screen.query_one("#examples-filter").cursor_blink = False

    assert snap_compare(kubbel_app(), terminal_size=(100, 30), run_before=no_blink, press=["tab", "tab", *"KN"])


def test_help(snap_compare):
    assert snap_compare(kubbel_app(), terminal_size=(100, 30), press=["f1"])
