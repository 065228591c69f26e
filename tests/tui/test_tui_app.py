"""The app around the editor: loading decoded codes, the decode key, help, the palette."""

from __future__ import annotations

import chess
from textual.pilot import Pilot
from textual.widgets import Input

from gbr_tui.app import make_app
from gbr_tui.core import Material, board_from_fen, position_warnings
from gbr_tui.screens.help import HelpScreen
from gbr_tui.widgets.board_editor import BoardEditor
from tests.support.tui import KUBBEL_CODE, KUBBEL_FEN, run_command, screen_text, shown_code_pane, shown_digits, toasts


async def decode_and_load(pilot: Pilot, code: str, open_first: bool = True) -> None:
    """What a user does: open the decode screen, type the code, Enter."""
    await pilot.press(*(["d"] if open_first else []), *code, "enter")
    await pilot.pause()


async def test_decoding_then_enter_uses_the_squares_a_code_gives():
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await decode_and_load(pilot, "=0323.12g3g1a3a2e1g8h6c3c6")
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN
        assert app.editor.setup.stipulation == "="
        assert KUBBEL_CODE in shown_code_pane(app).split()
        assert any("with the squares it gives" in toast for toast in toasts(app))


async def test_decoding_then_enter_arranges_a_basic_code_legally_and_keeps_its_stipulation():
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await decode_and_load(pilot, "+0323.12")
        board = app.editor.setup.board
        assert Material.from_board(board) == Material.from_string("KBBP v KRNPP")
        assert position_warnings(board) == []
        assert app.editor.setup.stipulation == "+"
        assert shown_digits(app) == "0323.12"
        assert any("the code gives no squares" in toast for toast in toasts(app))


async def test_decoding_then_enter_keeps_the_king_squares_of_a_code_without_the_other_men():
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await decode_and_load(pilot, KUBBEL_CODE)
        board = app.editor.setup.board
        assert (board.king(chess.WHITE), board.king(chess.BLACK)) == (chess.G3, chess.G1)
        assert Material.from_board(board) == Material.from_string("KBBP v KRNPP")
        assert position_warnings(board) == []
        assert KUBBEL_CODE in shown_code_pane(app).split()
        assert any("with its king squares" in toast for toast in toasts(app))


async def test_decoding_then_enter_takes_the_side_to_move_from_the_code():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await decode_and_load(pilot, "0001.04 BTM")
        assert app.editor.setup.board.turn == chess.BLACK
        assert "Black to move" in shown_code_pane(app)


async def test_decoding_refuses_what_cannot_be_set_up():
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=(80, 24)) as pilot:
        await decode_and_load(pilot, "9000")  # a 9: how many queens is unknown
        assert "Not loaded: a 9 hides how many queens there are" in screen_text(app)
        # 8888.88 is two of each piece and eight pawns a side: 17 men with the king.
        app.screen.query_one(Input).value = ""
        await decode_and_load(pilot, "8888.88", open_first=False)
        assert "Not loaded: 8888.88 cannot be set up" in screen_text(app)
        await pilot.press("f2")
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN


async def test_leaving_the_decode_screen_changes_nothing():
    app = make_app(board_from_fen(KUBBEL_FEN), "=")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", *"0400.10", "f2")
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN and app.editor.setup.stipulation == "="
        assert app.editor.setup.undo_stack == []


async def test_d_opens_the_decode_screen_and_enter_loads_its_result():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await decode_and_load(pilot, "=0323.12g3g1a3a2e1g8h6c3c6")
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN
        await pilot.press("f2", "f2")  # F2 opens it too; F2 there goes back without loading
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN


async def test_palette_offers_decode_and_loads_examples_by_name():
    from gbr_tui.screens.decode import DecodeScreen

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await run_command(pilot, "rook and pawn against rook")
        assert Material.from_board(app.editor.setup.board) == Material.from_string("KRP v KR")
        await run_command(pilot, "decode a code")
        assert isinstance(app.screen, DecodeScreen)


async def test_palette_flips_the_board():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await run_command(pilot, "flip the board")
        assert app.screen.query_one(BoardEditor).flipped


async def test_the_promoted_rule_from_the_palette_writes_9_for_two_queens():
    # Spec section 5.2: two queens on one side are 2 by default and 9 under the promoted rule.
    app = make_app(board_from_fen("4k3/8/8/8/8/8/8/QQ2K3"))
    async with app.run_test(size=(100, 30)) as pilot:
        assert shown_digits(app) == "2000.00"
        await run_command(pilot, "promoted rule")
        assert shown_digits(app) == "9000.00"
        assert "three or more" not in shown_code_pane(app)  # the promoted rule's own wording
        # The board shows the men: the pane says what the 9 stands for (issue 11).
        assert (
            "Q 9 = White has two queens and Black none; the promoted rule writes 9 when a side has more than one queen"
            in (shown_code_pane(app))
        )


async def test_help_lists_every_key_and_every_way_out_works():
    app = make_app()
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        rows = {keys: text for _, section in app.screen.sections for keys, text in section}
        for keys in ["g", "K", "p", "x space del ⌫", "c", "s", "f", "t", "+", "=", "u", "U", "i", "y", "Y"]:
            assert keys in rows, keys
        for keys in ["^z", "^y", "tab", "f2 d", "f1 ?", "^p", "^q", "q"]:
            assert keys in rows, keys
        for way_out in ["question_mark", "f1", "q", "escape"]:
            assert isinstance(app.screen, HelpScreen)
            await pilot.press(way_out)
            assert app.screen is app.editor, way_out
            await pilot.press("f1")
        assert app.is_running


async def test_help_and_decode_in_turn_do_not_pile_up_screens():
    from gbr_tui.screens.decode import DecodeScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2", "f1")  # decode, then its help
        assert [type(screen) for screen in app.screen_stack[1:]] == [DecodeScreen, HelpScreen]
        for _ in range(5):
            await pilot.press("f2")  # back to the decode screen already open
            assert isinstance(app.screen, DecodeScreen) and len(app.screen_stack) == 2
            await pilot.press("f1")
            assert isinstance(app.screen, HelpScreen) and len(app.screen_stack) == 3
