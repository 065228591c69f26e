"""Entering a position as printed (issue 11): the piece list in ``i``, the dialogs filled with
the position on the board, the place mode, the piece palette, the en passant square."""

from __future__ import annotations

from textual.widgets import Input
from tui_helpers import KUBBEL_CODE, KUBBEL_FEN, shown_code_pane

from gbr_tui.app import make_app
from gbr_tui.core import board_from_fen
from gbr_tui.dialogs.position_input import PositionInputDialog
from gbr_tui.screens.decode import DecodeScreen

#: Kubbel's study as the issue prints it (spec section 3): White's men first.
KUBBEL_LIST = "White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6"
#: Its code with every man (spec section 3's order): rook a3, bishops a2 e1, knight g8, White's
#: pawn h6, Black's pawns c3 c6.
KUBBEL_EVERY_MAN = "=0323.12g3g1a3a2e1g8h6c3c6"


async def test_a_piece_list_typed_in_i_loads_kubbel_and_equals_gives_the_published_code():
    app = make_app(board_from_fen("4k3/8/8/8/8/8/8/4K3"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i", *KUBBEL_LIST, "enter", "equals_sign")
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN
        shown = shown_code_pane(app).split()
        assert KUBBEL_CODE in shown and KUBBEL_EVERY_MAN in shown


async def test_the_i_dialog_opens_with_the_fen_selected_so_typing_replaces_it():
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i")
        field = app.screen.query_one(Input)
        assert field.value == KUBBEL_FEN + " w - - 0 1"
        assert field.selected_text == field.value
        await pilot.press(*"Kb1 / Kb8", "enter")
        assert app.editor.setup.board.board_fen() == "1k6/8/8/8/8/8/8/1K6"


async def test_an_arrow_keeps_the_fen_to_edit():
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=(80, 24)) as pilot:
        # → leaves the selection at the end; ten backspaces take " w - - 0 1" away.
        await pilot.press("i", "right", *["backspace"] * 10, *" b", "enter")
        assert app.editor.setup.board.fen() == KUBBEL_FEN + " b - - 0 1"


async def test_a_bad_piece_list_shows_a_caret_under_the_bad_man():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i", *"Kg3 Xa2 / Kg1", "enter")
        assert isinstance(app.screen, PositionInputDialog)
        feedback = app.screen.feedback
        assert "unexpected 'X'" in feedback
        assert feedback.splitlines()[-2:] == ["Kg3 Xa2 / Kg1", "    ^"]


async def test_the_decode_screen_opens_with_the_code_that_loads_the_board_back():
    app = make_app(board_from_fen(KUBBEL_FEN), "=")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        assert isinstance(app.screen, DecodeScreen)
        field = app.screen.query_one(Input)
        assert field.value == KUBBEL_EVERY_MAN
        assert field.selected_text == field.value
        await pilot.press("c", "enter")  # "c" replaced the code: nothing to load
        assert isinstance(app.screen, DecodeScreen)
        await pilot.press("backspace", *KUBBEL_EVERY_MAN, "enter")
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN


async def test_the_decode_screen_opens_empty_for_an_empty_board():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        assert app.screen.query_one(Input).value == ""
