"""Resizing lays the editor out again for the new size at once (issue #30, item 5: 60x20 to
160x50 kept the names cut and the big digits and the piece palette hidden for a while; 160x50
to 80x24 left the large board over the code pane)."""

from __future__ import annotations

from textual.widgets import Digits

from gbr_tui.app import make_app
from gbr_tui.widgets.board_editor import BoardEditor
from gbr_tui.widgets.code_pane import CodePane
from gbr_tui.widgets.piece_palette import PiecePalette


def laid_out_for(app, size: tuple[int, int]) -> list[str]:
    """What is wrong with the editor's layout at ``size`` (nothing: an empty list)."""
    wrong = []
    screen = app.screen
    if screen.size != size:
        wrong.append(f"screen is {screen.size}")
    wide = size[0] >= 80 and size[1] >= 24
    for widget in (screen.query_one(CodePane).query_one(Digits), screen.query_one(PiecePalette)):
        if widget.display != wide:
            wrong.append(f"{type(widget).__name__} {'hidden' if wide else 'shown'}")
    board, code = screen.query_one(BoardEditor).region, screen.query_one(CodePane).region
    if board.overlaps(code):
        wrong.append(f"board {board} over the code pane {code}")
    for widget in (board, code):
        if widget.right > size[0] or widget.bottom > size[1]:
            wrong.append(f"{widget} beyond the screen")
    return wrong


async def test_each_resize_is_laid_out_by_its_next_frame():
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert laid_out_for(app, (60, 20)) == []
        for size in [(160, 50), (80, 24), (160, 50), (60, 20), (120, 40), (80, 24)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert laid_out_for(app, size) == [], size
