"""The copy menu (y) and the captions in the code pane: every form shown, each copied by its letter or the arrows and Enter, with a
notification; forms the position has not are said, not copied. Expected texts are the spec's
(Kubbel's =0323.12g3g1, the EG full position) or follow its dialects (see
tests/core/test_written_forms.py)."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from gbr_tui.app import make_app
from gbr_tui.core import board_from_fen
from gbr_tui.dialogs.copy_menu import CopyMenu
from gbr_tui.widgets.code_pane import CodePane
from tests.support.tui import KUBBEL_CODE, KUBBEL_FEN, run_command, screen_text, shown_code_pane, toasts

KUBBEL_EG = "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw"  # spec section 3, EG full position
KUBBEL_LIST = "White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6"  # spec section 3


def kubbel_app():
    return make_app(board_from_fen(KUBBEL_FEN), "=")


async def test_the_menu_shows_every_form_with_its_text():
    app = kubbel_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, CopyMenu)
        shown = screen_text(app)
        for name, text in [
            ("plain code", "0323.12"),
            ("code with kings", KUBBEL_CODE),
            ("EG caption", KUBBEL_EG),
            ("FEN", KUBBEL_FEN + " w - - 0 1"),
        ]:
            assert f"{name} " in shown and text in shown, name
        assert "Ph6 – Black: Kg1, Ra3," in shown  # the piece list, wrapped under itself


async def test_a_letter_copies_its_form_and_says_what_was_copied():
    app = kubbel_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("y", "e")
        await pilot.pause()
        assert not isinstance(app.screen, CopyMenu)
        assert app.clipboard == KUBBEL_EG
        assert any(f"Copied the EG caption: {KUBBEL_EG}" in toast for toast in toasts(app))
        await pilot.press("y", "l")
        assert app.clipboard == KUBBEL_LIST


async def test_arrows_and_enter_copy_the_highlighted_form_and_y_twice_the_plain_code():
    app = kubbel_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("y", "down", "down", "enter")  # plain, short, then the code with kings
        assert app.clipboard == KUBBEL_CODE
        await pilot.press("y", "y")
        assert app.clipboard == "0323.12"


async def test_escape_closes_the_menu_without_copying():
    app = kubbel_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("y", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, CopyMenu)
        assert app.clipboard == ""
        await pilot.press("y", "f10")  # Esc is never the only way out
        await pilot.pause()
        assert not isinstance(app.screen, CopyMenu)


async def test_a_caption_without_a_stipulation_says_why_and_is_not_copied():
    app = make_app(board_from_fen(KUBBEL_FEN))  # no stipulation: a caption has no result to print
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("y")
        await pilot.pause()
        assert "(set + or = first: a caption" in screen_text(app)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, CopyMenu)  # the menu stays for another choice
        assert app.clipboard == ""
        assert any("No EG caption: set + or = first" in toast for toast in toasts(app))
        options = app.screen.query_one(OptionList)
        assert options.get_option("e").disabled and not options.get_option("g").disabled


async def test_every_form_is_offered_by_the_command_palette():
    app = kubbel_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_command(pilot, "Copy the ARVES caption")
        assert app.clipboard == "g3g1 0323.12 a3a2e1g8h6c3c6 4/5="
        await run_command(pilot, "Copy...")
        assert isinstance(app.screen, CopyMenu)


async def test_the_menu_fits_the_compact_layout():
    app = kubbel_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("y")
        await pilot.pause()
        shown = screen_text(app)
        assert "c plain code" in shown and "l piece list" in shown and "Esc cancels" in shown


# --- the captions in the code pane, where it has room --------------------------------------------


async def test_the_code_pane_shows_the_eg_and_arves_captions_where_it_has_room():
    app = kubbel_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        lines = shown_code_pane(app).splitlines()
        assert f"EG    {KUBBEL_EG}" in lines
        assert "ARVES g3g1 0323.12 a3a2e1g8h6c3c6 4/5=" in lines
        await pilot.press("equals_sign")  # no stipulation: a caption has no result to print
        assert "EG" not in shown_code_pane(app).split()


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_captions_never_push_the_digits_out_of_a_small_pane(size):
    app = kubbel_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        pane = app.screen.query_one(CodePane)
        assert "EG" not in shown_code_pane(app).split()
        if size == (80, 24):  # the whole pane is seen there, as before the captions
            assert pane.max_scroll_y == 0 and "p 2 = 2 Black pawns" in screen_text(app)


async def test_under_no_color_the_highlighted_form_is_underlined(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")  # Textual reads it when the app is made
    app = kubbel_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("y", "down")  # the short code
        await pilot.pause()
        options = app.screen.query_one(OptionList)
        assert [segment.style.underline for segment in options.render_line(1)][:3] == [True] * 3
        assert not any(segment.style.underline for segment in options.render_line(0))
