"""What the app's first frame does not wait for: numpy (batch work), dask (`classify --dask`),
the modules of the other screens and of the command palette (loaded when they open: the
palette's tests in test_tui_app find our commands), and a Header that would not show; and what
it shows: the panes filled, not drawn empty first."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from textual import events
from textual.widgets import Header, Static

from gbr_tui.app import make_app
from gbr_tui.core.examples import ALL
from gbr_tui.screens.editor import EditorScreen
from gbr_tui.widgets.code_pane import CodePane
from gbr_tui.widgets.examples_pane import ExamplesPane

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
    # Decoding any dialect, piece lists, class patterns (a filter typed), the batch encoder.
    "gbr_tui.core.notation",
    "gbr_tui.core.piece_list",
    "gbr_tui.core.patterns",
    "gbr_tui.core.batch",
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


async def test_at_80x24_the_first_frame_shows_the_panes_filled_and_nothing_is_drawn_again(monkeypatch) -> None:
    """Textual draws a frame right after a layout and sends the widgets their Resize after it:
    what a pane holds at its first Resize is what the first frame showed. At 80x24 the examples
    span the screen, so they are filled for their width before it; the code pane is written
    without its size (the captions, which need it, do not fit there). When the sizes come,
    neither is filled or written again."""
    at_first_resize: dict[str, object] = {}
    late_writes: list[str] = []

    examples_resized, code_resized = ExamplesPane.on_resize, CodePane.on_resize

    def examples_resize(self: ExamplesPane) -> None:
        at_first_resize.setdefault("examples", (self.table.row_count, self.border_subtitle))
        examples_resized(self)

    def code_resize(self: CodePane) -> None:
        at_first_resize.setdefault("code", str(self.query_one("#code-body", Static).content))
        code_resized(self)

    fill, update = ExamplesPane._fill, Static.update

    def counted_fill(self: ExamplesPane, width: int = 0) -> None:
        if "examples" in at_first_resize:
            late_writes.append("examples table")
        fill(self, width)

    def counted_update(self: Static, *args, **kwargs) -> None:
        if "code" in at_first_resize and self.id in ("code-summary", "code-body"):
            late_writes.append(self.id)
        update(self, *args, **kwargs)

    monkeypatch.setattr(ExamplesPane, "on_resize", examples_resize)
    monkeypatch.setattr(CodePane, "on_resize", code_resize)
    monkeypatch.setattr(ExamplesPane, "_fill", counted_fill)
    monkeypatch.setattr(Static, "update", counted_update)
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert at_first_resize["examples"] == (len(ALL), f"{len(ALL)} of {len(ALL)}")
        assert "FEN   8/8/8/8/8/8/8/8 w - - 0 1" in at_first_resize["code"]  # the empty board's
        assert late_writes == []
        # Filled for the width its layout gave it: the name column takes what the others leave.
        pane = pilot.app.screen.query_one(ExamplesPane)
        assert table_width(pane) == pane.content_size.width


async def test_a_table_filled_before_its_layout_follows_the_width_it_gets_later() -> None:
    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(100, 24)  # still one pane over another: the examples widen
        await pilot.pause()
        pane = pilot.app.screen.query_one(ExamplesPane)
        assert pane.content_size.width == 100 - 2  # the screen's width, its border's two columns off
        assert table_width(pane) == pane.content_size.width


def table_width(pane: ExamplesPane) -> int:
    """The width the table's columns take, with their padding and the scroll bar kept clear."""
    table = pane.table
    columns = sum(column.width + 2 * table.cell_padding for column in table.columns.values())
    return columns + table.styles.scrollbar_size_vertical


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_the_styles_the_first_frame_is_drawn_with_are_those_a_restyle_gives(tmp_path, size) -> None:
    """The editor skips Textual's restyle of every widget on its first resume: what its widgets
    were styled with as they were mounted must be what that restyle would give, a theme kept
    from last time and ASCII mode (classes of the app) included."""
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"theme": "textual-light"}))
    app = make_app(ascii_mode=True, settings_file=settings)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert app.theme == "textual-light"
        first = app.export_screenshot()
        app.screen.update_node_styles(animate=False)  # what Textual's resume would have done
        await pilot.pause()
        assert app.export_screenshot() == first


async def test_a_screen_shown_again_is_restyled_as_textual_does(monkeypatch) -> None:
    """Only the first resume skips the restyle: one asked for later (as ``push_screen`` asks)
    restyles the screen."""
    restyled: list[str] = []
    restyle = EditorScreen.update_node_styles

    def counted(self: EditorScreen, animate: bool = True) -> None:
        restyled.append(type(self).__name__)
        restyle(self, animate)

    async with make_app().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        monkeypatch.setattr(EditorScreen, "update_node_styles", counted)
        pilot.app.screen.post_message(events.ScreenResume())  # refresh_styles: True
        await pilot.pause()
        assert restyled == ["EditorScreen"]
