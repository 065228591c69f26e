"""Served mode (gbr-tui serve): the app opens and saves nothing on the host."""

from __future__ import annotations

import chess

from gbr_tui.app import make_app
from gbr_tui.dialogs.open_collection import OpenCollectionDialog
from tests.support.tui import toasts


async def test_served_palette_has_no_screenshot_command():
    # Textual's "Screenshot" command writes an SVG into the host's working directory.
    for served, expected in ((False, True), (True, False)):
        app = make_app(served=served)
        async with app.run_test(size=(100, 30)):
            titles = [command.title for command in app.get_system_commands(app.screen)]
            assert "Quit" in titles
            assert ("Screenshot" in titles) is expected


async def test_served_open_says_it_is_not_offered():
    # o and F3 open a file on the host: served, they say so rather than doing nothing.
    for key in ("o", "f3"):
        app = make_app(served=True)
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await pilot.press(key)
            await pilot.pause()
            assert not isinstance(app.screen, OpenCollectionDialog)
            assert any("Opening files is not offered here" in toast for toast in toasts(app))


async def test_served_a_after_m_is_a_file_letter_not_a_refused_search():
    # a searches the open collection, which a served app never has; after m it is the file of
    # the square typed, as when the app is not served (Kubbel's Ra3 and Ba2 were lost).
    app = make_app(served=True)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("c", "m", *"Ra3 Ba2", "enter")
        await pilot.pause()
        board = app.editor.setup.board
        assert board.piece_at(chess.A3) == chess.Piece(chess.ROOK, chess.WHITE)
        assert board.piece_at(chess.A2) == chess.Piece(chess.BISHOP, chess.WHITE)
        assert not any("not offered" in toast for toast in toasts(app))
        await pilot.press("a")  # on the board, not typing: the search is refused aloud
        await pilot.pause()
        assert any("Searching a collection is not offered here" in toast for toast in toasts(app))
