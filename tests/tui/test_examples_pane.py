"""The examples pane with the named positions: names never cut without a sign, the highlighted
row in full under the table, and Enter loading a named position as published."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Static

from gbr_tui.app import make_app
from gbr_tui.core.examples import ALL
from gbr_tui.dialogs.copy_menu import CopyMenu
from gbr_tui.widgets.board_editor import BoardEditor
from gbr_tui.widgets.examples_pane import ExamplesPane
from tests.support.tui import KUBBEL_CODE, KUBBEL_FEN, screen_text, shown_code_pane

NAMES = [example.name for example in ALL]


def examples_pane_text(app) -> list[str]:
    """The examples pane's rows as drawn: the text between its side borders."""
    pane = app.screen.query_one(ExamplesPane)
    region = pane.region
    lines = screen_text(app).splitlines()[region.y + 1 : region.bottom - 1]
    return [line[region.x + 1 : region.right - 1] for line in lines]


def name_cells(app) -> list[str]:
    """The name column of each table row on screen (the fifth of the cells the table draws)."""
    cells = []
    for line in examples_pane_text(app):
        parts = re.split(r"\s{2,}", line.strip(" ▁▂▃▄▅▆▇█"))
        if len(parts) >= 5 and re.fullmatch(r"[0-9]{4}\.[0-9]{2}", parts[2]):
            cells.append(parts[4])
    return cells


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (160, 50)])
@pytest.mark.parametrize(
    "name",
    ["two bishops and pawn against rook, knight and two pawns", "Philidor position (rook and bishop v rook)"],
)
async def test_the_highlighted_name_is_shown_whole_and_no_cell_is_cut_without_a_sign(size, name):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("tab", "tab", *["down"] * NAMES.index(name))
        await pilot.pause()
        pane = app.screen.query_one(ExamplesPane)
        assert pane.shown[pane.table.cursor_row].name == name
        # Whole somewhere in the pane (the line under the table wraps at word breaks).
        assert name in " ".join(" ".join(examples_pane_text(app)).split())
        cells = name_cells(app)
        assert cells, "no table row on screen"
        for cell in cells:
            assert cell in NAMES or (cell.endswith("…") and any(full.startswith(cell[:-1]) for full in NAMES)), cell


async def test_the_line_under_the_table_follows_the_cursor():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("tab", "tab", *"saavedra")
        await pilot.pause()
        shown = " ".join(" ".join(examples_pane_text(app)).split())
        # As printed with the study: composers, paper, year, stipulation; KP v KR its men.
        assert "Saavedra 1895 · KP v KR · G. E. Barbier & F. Saavedra, Glasgow Weekly Citizen 1895" in shown
        assert "White to play and win" in shown
        await pilot.press(*["backspace"] * 8, "down")
        shown = " ".join(" ".join(examples_pane_text(app)).split())
        assert "rook against bare king · KR v K" in shown


@pytest.mark.parametrize(
    ("typed", "fen", "shown"),
    [
        (
            "kubbel 1925",
            KUBBEL_FEN + " w - - 0 1",
            # Spec section 3: =0323.12g3g1; every man in its order: the black rook a3, the
            # bishops a2 e1, the knight g8, White's pawn h6, Black's pawns c3 c6 (EG prints it
            # g3g1 0323.12 a3a2e1g8.h6c3c6).
            [KUBBEL_CODE, "=0323.12g3g1a3a2e1g8h6c3c6", "= White to play and draw"],
        ),
        (
            "saavedra",
            "8/8/1KP5/3r4/8/8/8/k7 w - - 0 1",
            # Kb6 c6 v Ka1 Rd5, White to play and win: rook 3 (Black's), pawns 1 0.
            ["+0300.10b6a1", "+0300.10b6a1d5c6", "+ White to play and win"],
        ),
    ],
)
async def test_enter_on_a_study_loads_it_as_published(typed, fen, shown):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("+")  # a stipulation of the position before must not carry over
        await pilot.press("tab", "tab", *typed, "enter")
        assert app.editor.setup.board.fen() == fen  # side to move included
        pane = shown_code_pane(app)
        assert all(text in pane for text in shown), pane


async def test_a_named_position_with_black_to_move_loads_without_a_sign():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("tab", "tab", *"romanovsky", "enter")
        setup = app.editor.setup
        assert setup.board.fen() == "R7/6k1/P7/5K2/8/8/8/r7 b - - 0 1"
        assert setup.stipulation is None  # + and = both mean White to play
        shown = shown_code_pane(app)
        assert "Black to move" in shown and "no stipulation" in shown
        assert "contradicts" not in shown


async def test_the_table_tooltip_gives_the_highlighted_row_whole_in_the_compact_layout():
    # At 60x20 the line under the table keeps to one row and ends in "…"; the tooltip has it all.
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("tab", "tab", *"kubbel 1922")
        await pilot.pause()
        table = app.screen.query_one(ExamplesPane).table
        assert table.tooltip == "Kubbel 1922 · KBNPP v KPP · L. Kubbel, Shakhmatny Listok 1922 · White to play and win"
        assert any(line.rstrip().endswith("…") for line in examples_pane_text(app))


async def test_keys_after_enter_go_to_the_board_and_a_filter_with_no_match_says_so():
    """Fails before: "saavedra", Enter, y, e left the filter "saavedraye", 0 of 46 rows and no
    word of why, and nothing copied."""
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("tab", "tab", *"saavedra", "enter")
        assert isinstance(app.focused, BoardEditor)
        pane = app.screen.query_one(ExamplesPane)
        assert pane.filter_text == "saavedra"
        await pilot.press("y")
        assert isinstance(app.screen, CopyMenu)  # y is the board's copy menu
        await pilot.press("escape", "shift+tab", *"ye")
        assert pane.filter_text == "ye"  # focused again, the filter's text was selected: replaced
        await pilot.press(*"zz")
        assert pane.border_subtitle == "0 of 46"
        assert "No example matches 'yezz'" in str(pane.query_one("#examples-detail", Static).content)
