"""Entering a position as printed (issue 11): the piece list in ``i``, the dialogs filled with
the position on the board, the place mode, the piece palette, the en passant square."""

from __future__ import annotations

import chess
from textual.widgets import Input

from gbr_tui.app import make_app
from gbr_tui.core import board_from_fen
from gbr_tui.dialogs.position_input import PositionInputDialog
from gbr_tui.screens.decode import DecodeScreen
from gbr_tui.widgets.board_editor import BoardEditor
from gbr_tui.widgets.piece_palette import PiecePalette
from tests.support.tui import KUBBEL_CODE, KUBBEL_FEN, run_command, screen_text, shown_code_pane, toasts

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


async def test_m_types_kubbel_man_by_man_without_moving_the_cursor_first():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m", *"Kg3 Ba2 Be1 h6")
        board = app.editor.setup.board
        assert board.board_fen() == "8/8/7P/8/8/6K1/B7/4B3"  # each man is on as its rank is typed
        assert app.editor.board_view.border_subtitle == "typing White's men: _"
        await pilot.press("/", *"Kg1Ra3Ng8c3c", "enter")  # no spaces needed; Enter ends typing
        assert board.board_fen() == "6n1/8/7P/8/8/r1p3K1/B7/4B1k1"  # the c6 pawn was not complete
        assert app.editor.typing is None
        await pilot.press("Q")  # the key of old again: a White queen on the cursor's square, c3
        assert board.piece_at(chess.C3) == chess.Piece.from_symbol("Q")


async def test_typing_men_small_letters_are_blacks_and_b_reads_by_what_follows():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # Without "/": kg1 a Black king, bc3 a Black bishop, b3 a White pawn, pd7 a Black pawn.
        await pilot.press("m", *"Ke1 kg1 bc3 b3 pd7 xe1")
        board = app.editor.setup.board
        assert board.board_fen() == "8/3p4/8/8/8/1Pb5/8/6k1"
        assert app.editor.board_view.cursor == chess.E1  # where the last man went


async def test_a_key_that_starts_no_man_is_said_and_backspace_takes_back():
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("m", "K", "9")
        await pilot.pause()
        assert app.editor.board_view.border_subtitle == "typing White's men: K_"
        assert any("'9' after K: expected a file (a-h)" in toast for toast in toasts(app))
        await pilot.press(*"g3", "backspace")  # nothing pending: the king goes again
        assert app.editor.setup.board.occupied == 0
        await pilot.press("escape", "x")
        assert app.editor.board_view.border_subtitle == "m types men: Kg3 h6"


async def test_the_black_to_move_stipulations_from_the_palette():
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=(80, 24)) as pilot:
        await run_command(pilot, "Black to move, draw")
        setup = app.editor.setup
        assert (setup.stipulation, setup.board.turn) == ("=", chess.BLACK)
        assert "= Black to move, draw" in shown_code_pane(app)
        await pilot.press("u")  # one edit: both go back together
        assert (setup.stipulation, setup.board.turn) == (None, chess.WHITE)


async def test_e_sets_the_en_passant_square_where_a_pawn_just_passed_and_says_why_not_elsewhere():
    # Black's d-pawn has just made its double step: d6 is its en passant square.
    app = make_app(board_from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("g", "d", "6", "e")
        assert app.editor.setup.board.ep_square == chess.D6
        assert "w - d6 0 1" in shown_code_pane(app)  # e5xd6 is possible, so FEN writes it
        await pilot.press("e")
        assert app.editor.setup.board.ep_square is None
        await pilot.press("g", "c", "6", "e")
        assert app.editor.setup.board.ep_square is None
        await pilot.pause()
        assert any("c6 cannot be the en passant square: it needs a Black pawn on c5" in toast for toast in toasts(app))


async def test_e_from_the_palette():
    app = make_app(board_from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g", "e", "3")
        await run_command(pilot, "En passant")
        assert app.editor.setup.board.ep_square == chess.E3


def square_offset(square: str) -> tuple[int, int]:
    """Where a square is in the board pane at 80x24 (White at the bottom): the border, the rank
    labels (2 cells), then squares 3 cells wide and 1 high."""
    file, rank = chess.FILE_NAMES.index(square[0]), int(square[1])
    return 1 + 2 + 3 * file + 1, 1 + 8 - rank


def palette_offset(symbol: str) -> tuple[int, int]:
    """Where a man is in the piece palette: after a space, two cells each (glyph and space)."""
    return 1 + 2 * "KQRBNPkqrbnpx".index(symbol), 0


async def test_the_piece_palette_puts_a_clicked_man_on_each_clicked_square():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click(PiecePalette, offset=palette_offset("K"))
        await pilot.click(BoardEditor, offset=square_offset("g3"))
        await pilot.click(PiecePalette, offset=palette_offset("b"))
        await pilot.click(BoardEditor, offset=square_offset("a2"))
        await pilot.click(BoardEditor, offset=square_offset("e1"))
        board = app.editor.setup.board
        assert board.board_fen() == "8/8/8/8/8/6K1/b7/4b3"
        await pilot.click(PiecePalette, offset=palette_offset("x"))
        await pilot.click(BoardEditor, offset=square_offset("a2"))
        assert board.board_fen() == "8/8/8/8/8/6K1/8/4b3"
        await pilot.click(PiecePalette, offset=palette_offset("x"))  # again: no man chosen
        await pilot.click(BoardEditor, offset=square_offset("e1"))
        assert board.board_fen() == "8/8/8/8/8/6K1/8/4b3"
        assert app.editor.board_view.cursor == chess.E1  # the click still moves the cursor


async def test_the_piece_palette_is_left_out_of_the_compact_layout():
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one(PiecePalette).display


async def test_the_footer_shows_the_keys_of_typing_men_only_while_men_are_typed():
    """Each key with its own words: once "f10 done / other side", read as "f10 switches sides"
    (the issue's item 2); Enter, the key every terminal sends, is the one shown to stop."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        footer = screen_text(app).splitlines()[-1]
        assert "/ other side's men" in footer and "⏎ stop typing" in footer
        assert "f10" not in footer
        await pilot.press("enter")
        assert "other side" not in screen_text(app).splitlines()[-1]
        await pilot.press("i")  # a dialog over the editor: its footer still not
        assert isinstance(app.screen, PositionInputDialog)
        assert "other side" not in screen_text(app).splitlines()[-1]


async def test_the_help_lists_the_keys_of_entering():
    app = make_app()
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.press("question_mark")
        rows = {keys: text for _, section in app.screen.sections for keys, text in section}
        assert rows["m"].startswith("Type men with their squares: Kg3 Ba2 h6")
        assert "/" in rows and "After m" in rows["/"]
        assert "en passant" in rows["e"].lower()


async def test_typing_men_from_the_palette():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_command(pilot, "Type men")
        await pilot.press(*"Kg3")
        assert app.editor.setup.board.piece_at(chess.G3) == chess.Piece.from_symbol("K")


async def test_a_printed_list_typed_in_i_sets_the_stipulation_it_prints():
    """Fails before: "unexpected '.'". The list's + sets the editor's stipulation."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i", *"White: Kb6, Pc6. Black: Ka1, Rd5. +", "enter")
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == "8/8/1KP5/3r4/8/8/8/k7"
        assert app.editor.setup.stipulation == "+"
        assert "+ White to play and win" in shown_code_pane(app)
