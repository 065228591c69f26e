"""The app around the editor: loading decoded codes, the decode key, help, the palette."""

from __future__ import annotations

import sys
import types

import chess
from textual.screen import Screen
from tui_helpers import KUBBEL_CODE, KUBBEL_FEN, run_command, shown_code_pane, shown_digits, toasts

from gbr_tui.app import make_app
from gbr_tui.core import Material, board_from_fen, decode, position_warnings
from gbr_tui.screens.editor import BoardEditor
from gbr_tui.screens.help import HelpScreen


async def test_load_decoded_uses_the_squares_a_code_gives():
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.load_decoded(decode("=0323.12g3g1a3a2e1g8h6c3c6"))
        await pilot.pause()
        assert app.editor.board.board_fen() == KUBBEL_FEN
        assert app.editor.stipulation == "="
        assert KUBBEL_CODE in shown_code_pane(app).split()
        assert any("with the squares it gives" in toast for toast in toasts(app))


async def test_load_decoded_arranges_a_basic_code_legally_and_keeps_its_stipulation():
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.load_decoded(decode("+0323.12"))
        await pilot.pause()
        board = app.editor.board
        assert Material.from_board(board) == Material.from_string("KBBP v KRNPP")
        assert position_warnings(board) == []
        assert app.editor.stipulation == "+"
        assert shown_digits(app) == "0323.12"
        assert any("the code gives no squares" in toast for toast in toasts(app))


async def test_load_decoded_keeps_the_king_squares_of_a_code_without_the_other_men():
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.load_decoded(decode(KUBBEL_CODE))
        await pilot.pause()
        board = app.editor.board
        assert (board.king(chess.WHITE), board.king(chess.BLACK)) == (chess.G3, chess.G1)
        assert Material.from_board(board) == Material.from_string("KBBP v KRNPP")
        assert position_warnings(board) == []
        assert KUBBEL_CODE in shown_code_pane(app).split()
        assert any("with its king squares" in toast for toast in toasts(app))


async def test_load_decoded_takes_the_side_to_move_from_the_code():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.load_decoded(decode("0001.04 BTM"))
        await pilot.pause()
        assert app.editor.board.turn == chess.BLACK
        assert "Black to move" in shown_code_pane(app)


async def test_load_decoded_refuses_what_cannot_be_set_up():
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.load_decoded(decode("9000"))  # a 9: how many queens is unknown
        # 8888.88 is two of each piece and eight pawns a side: 17 men with the king.
        app.load_decoded(decode("8888.88"))
        await pilot.pause()
        assert app.editor.board.board_fen() == KUBBEL_FEN
        shown = toasts(app)
        assert any("9000.00: a 9 hides how many men" in toast for toast in shown)
        assert any("8888.88 cannot be set up" in toast for toast in shown)


async def test_load_decoded_with_none_changes_nothing():
    app = make_app(board_from_fen(KUBBEL_FEN), "=")
    async with app.run_test(size=(80, 24)):
        app.load_decoded(None)
        assert app.editor.board.board_fen() == KUBBEL_FEN and app.editor.stipulation == "="
        assert app.editor.undo_stack == []


class FakeDecodeScreen(Screen):
    """Stands in for the decode screen: Enter dismisses with the code it was built for."""

    BINDINGS = [("enter", "load", "Load"), ("f2", "dismiss", "Back")]
    text = "=0323.12g3g1a3a2e1g8h6c3c6"

    def __init__(self, rule=None, initial_text: str = "") -> None:
        super().__init__()

    def action_load(self) -> None:
        self.dismiss(decode(self.text))


async def test_d_opens_the_decode_screen_and_enter_loads_its_result(monkeypatch):
    monkeypatch.setitem(sys.modules, "gbr_tui.screens.decode", types.SimpleNamespace(DecodeScreen=FakeDecodeScreen))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        assert isinstance(app.screen, FakeDecodeScreen)
        await pilot.press("enter")
        assert app.screen is app.editor
        assert app.editor.board.board_fen() == KUBBEL_FEN
        await pilot.press("f2", "f2")  # F2 opens it too; F2 there goes back without loading
        assert app.screen is app.editor
        assert app.editor.board.board_fen() == KUBBEL_FEN


async def test_palette_offers_decode_and_loads_examples_by_name(monkeypatch):
    monkeypatch.setitem(sys.modules, "gbr_tui.screens.decode", types.SimpleNamespace(DecodeScreen=FakeDecodeScreen))
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await run_command(pilot, "rook and pawn against rook")
        assert Material.from_board(app.editor.board) == Material.from_string("KRP v KR")
        await run_command(pilot, "decode a code")
        assert isinstance(app.screen, FakeDecodeScreen)


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
        assert "more than one queen on at least one side" in shown_code_pane(app)


async def test_help_lists_every_key_and_every_way_out_works():
    app = make_app()
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        rows = {keys: text for _, section in app.screen.sections for keys, text in section}
        for keys in ["g", "K", "p", "x space del ⌫", "c", "s", "f", "t", "+", "=", "u", "U", "i", "y", "Y"]:
            assert keys in rows, keys
        for keys in ["^z", "^y", "tab", "f2 d", "f1 ?", "^p", "^q q"]:
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
