"""Quitting takes ctrl+q (or the palette): ``q`` is a Black queen on the board, and one Tab
away it quit without a word. The pane the keys go to is unmistakable, without colours too."""

from __future__ import annotations

import pytest
from textual.geometry import Region

from gbr_tui.app import make_app
from gbr_tui.widgets.board_editor import BoardEditor
from gbr_tui.widgets.code_pane import CodePane
from tests.support.browser import STUDIES_PGN, browser, loaded, write
from tests.support.tui import run_command, toasts, until


async def test_q_in_the_code_pane_says_how_to_quit_and_ctrl_q_quits():
    """Fails before: q in the code pane quit the app."""
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("tab")
        assert isinstance(app.focused, CodePane)
        await pilot.press("q")
        await until(pilot, lambda: toasts(app))
        assert app.is_running and "ctrl+q quits" in toasts(app)[0]
        await pilot.press("ctrl+q")
        await until(pilot, lambda: not app.is_running)
        assert not app.is_running


async def test_q_on_the_board_is_a_black_queen_still():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        assert app.editor.setup.board.board_fen() == "8/8/8/8/4q3/8/8/8"
        assert app.is_running


async def test_q_in_the_browser_does_not_quit(tmp_path):
    """Fails before: q in the browser quit the app."""
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await loaded(pilot)
        await pilot.press("q")
        await until(pilot, lambda: toasts(app))
        assert app.is_running and "ctrl+q quits" in toasts(app)[-1]


async def test_the_palette_quits():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_command(pilot, "Quit")
        await until(pilot, lambda: not app.is_running)
        assert not app.is_running


def title_styles(pane) -> list[bool]:
    """Whether each cell of the pane's title on its top border is in reverse video."""
    line = pane.render_lines(Region(0, 0, pane.outer_size.width, 1))[0]
    title = str(pane.border_title).split(" ")[0]
    text = line.text
    start = text.index(title)
    cells, reverse = 0, []
    for segment in line:
        for _ in segment.text:
            if start <= cells < start + len(title):
                reverse.append(bool(segment.style and segment.style.reverse))
            cells += 1
    assert len(reverse) == len(title)
    return reverse


@pytest.mark.parametrize("environment", [{"NO_COLOR": "1"}, {"TERM": "xterm"}], ids=["NO_COLOR", "TERM=xterm"])
async def test_the_focused_pane_has_its_title_in_reverse_video(environment, monkeypatch):
    """Fails before: only the border's weight changed (no reverse video outside ASCII mode)."""
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board, code = app.screen.query_one(BoardEditor), app.screen.query_one(CodePane)
        assert all(title_styles(board)) and not any(title_styles(code))
        await pilot.press("tab")
        await pilot.pause()
        assert all(title_styles(code)) and not any(title_styles(board))
