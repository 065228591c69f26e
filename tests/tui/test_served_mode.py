"""Served mode (gbr-tui serve): the app opens and saves nothing on the host."""

from __future__ import annotations

from gbr_tui.app import make_app


async def test_served_palette_has_no_screenshot_command():
    # Textual's "Screenshot" command writes an SVG into the host's working directory.
    for served, expected in ((False, True), (True, False)):
        app = make_app(served=served)
        async with app.run_test(size=(100, 30)):
            titles = [command.title for command in app.get_system_commands(app.screen)]
            assert "Quit" in titles
            assert ("Screenshot" in titles) is expected
