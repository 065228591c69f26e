"""The editor screen driven by its real keys: the board, the code it shows, the examples."""

from __future__ import annotations

import chess
import pytest
from textual import events
from textual.widgets import Input

from gbr_tui.app import make_app
from gbr_tui.core import board_from_fen, position_warnings
from gbr_tui.widgets.board_editor import BoardEditor
from gbr_tui.widgets.code_pane import CodePane
from gbr_tui.widgets.examples_pane import ExamplesPane
from tests.support.published import NAMED, PRINTED
from tests.support.tui import (
    KUBBEL_CODE,
    KUBBEL_FEN,
    board_lines,
    keys_to_set_up,
    shown_code_pane,
    shown_digits,
    toasts,
)

#: Spec section 2 and the two named classes, typed from the spec.
SPEC_CLASSES = PRINTED + NAMED


def canonical(spec_class: str) -> str:
    """The pane writes ``abcd.ef`` always (spec section 1); the spec's table drops ``.00``."""
    return spec_class if "." in spec_class else spec_class + ".00"


async def test_kubbel_set_up_key_by_key_shows_its_published_code():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        placement = {
            "g8": "n", "h6": "P", "c6": "p", "a3": "r", "c3": "p",
            "g3": "K", "a2": "B", "e1": "B", "g1": "k",
        }  # fmt: skip
        await pilot.press(*keys_to_set_up(placement), "equals_sign")
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN
        shown = shown_code_pane(app)
        assert shown_digits(app) == "0323.12"
        assert KUBBEL_CODE in shown.split()
        assert "KBBP v KRNPP" in shown
        assert "= White to play and draw" in shown  # the spec's wording, as on the decode screen
        assert "White to move" in shown
        assert app.screen.query_one(CodePane).border_subtitle == "legal position"


async def test_the_empty_board_shows_no_kings_that_are_not_there():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = shown_code_pane(app).splitlines()
        assert shown[0] == "0000.00"
        assert "- v -" in shown  # the material line: no king stands on either side
        assert "! White has no king" in shown and "! Black has no king" in shown
        await pilot.press("K")  # a White king on the cursor's square
        assert "K v -" in shown_code_pane(app).splitlines()


async def test_every_example_row_loads_its_class():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("tab", "tab")  # board -> code -> examples
        assert app.focused is app.screen.query_one("#examples-filter")
        for white, black, spec_class in SPEC_CLASSES:
            await pilot.press("enter")
            board = app.editor.setup.board
            assert shown_digits(app) == canonical(spec_class), (white, black)
            assert f"{white} v {black}" in shown_code_pane(app)
            assert position_warnings(board) == [], (white, black)  # a legal arrangement
            table = app.screen.query_one(ExamplesPane).table
            assert str(table.get_row_at(table.cursor_row)[2]) == canonical(spec_class)
            await pilot.press("shift+tab", "down")  # loaded, the keys went to the board: back


async def test_typing_filters_the_examples_by_code_prefix_or_material():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("tab", "tab", "0", "0", "0")
        pane = app.screen.query_one(ExamplesPane)
        # Codes starting 000: 0001 0002 0003 0004 0005 0006 0007 0008 0009 0000.32 0002.01 (twice),
        # then the named positions of pawns or two knights: Reti (pawns 1 1), Lasker & Reichhelm
        # (4 3), Grigoriev (2 3), Kling & Horwitz (knights 2, pawns 0 1), Liburkin 1933 (knights
        # 1 + 3, pawns 3 2), German Wikipedia's (0 2).
        assert [str(row[2]) for row in map(pane.table.get_row_at, range(pane.table.row_count))] == [
            "0001.00", "0002.00", "0003.00", "0004.00", "0005.00", "0006.00", "0007.00",
            "0008.00", "0009.00", "0000.32", "0002.01", "0002.01",
            "0000.11", "0000.43", "0000.23", "0002.01", "0004.32", "0000.02",
        ]  # fmt: skip
        await pilot.press("backspace", "backspace", "backspace", *"KRP")
        # One side has exactly KRP: the spec's row, Lucena, Philidor (Black's side), Vancura and
        # Romanovsky.
        assert [list(map(str, pane.table.get_row_at(row)[:2])) for row in range(pane.table.row_count)] == [
            ["KRP", "KR"], ["KRP", "KR"], ["KR", "KRP"], ["KRP", "KR"], ["KRP", "KR"]
        ]  # fmt: skip
        await pilot.press("enter")
        assert shown_digits(app) == "0400.10"


async def test_undo_and_redo_walk_the_edits_back_and_forth():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g", "e", "1", "K", "g", "e", "8", "k", "g", "a", "1", "R")
        assert app.editor.setup.board.board_fen() == "4k3/8/8/8/8/8/8/R3K3"
        await pilot.press("u")
        assert app.editor.setup.board.board_fen() == "4k3/8/8/8/8/8/8/4K3"
        await pilot.press("ctrl+z", "u")
        assert app.editor.setup.board.board_fen() == "8/8/8/8/8/8/8/8"
        assert shown_digits(app) == "0000.00"
        await pilot.press("U", "ctrl+y")
        assert app.editor.setup.board.board_fen() == "4k3/8/8/8/8/8/8/4K3"
        await pilot.press("equals_sign")
        assert app.editor.setup.stipulation == "="
        await pilot.press("u")
        assert app.editor.setup.stipulation is None
        await pilot.press("Q")  # on a1, where the cursor was left; a new edit drops what could be redone
        await pilot.press("U")
        assert app.editor.setup.board.board_fen() == "4k3/8/8/8/8/8/8/Q3K3" and app.editor.setup.stipulation is None


async def test_nothing_to_undo_says_so():
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("u")
        await pilot.pause()
        assert any("Nothing to undo" in toast for toast in toasts(app))


async def test_flip_turns_the_board_and_the_arrow_keys_with_it():
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.screen.query_one(BoardEditor)
        first_row = board_lines(view)[0]
        assert first_row.startswith("8")
        await pilot.press("f")
        assert view.flipped
        lines = board_lines(view)
        assert lines[0].startswith("1") and lines[-1].split() == list("hgfedcba")
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN  # the view turns, the position does not
        await pilot.press("g", "e", "4", "up")  # up on the screen is down the board when flipped
        assert view.cursor == chess.E3
        await pilot.press("f", "up")
        assert view.cursor == chess.E4


async def test_a_click_on_a_square_moves_the_cursor_there():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # At 80x24 a square is 3 cells by 1 after the border (1) and the rank labels (2):
        # column 1 + 2 + 3 * 6 + 1 is on file g, row 1 + 1 on rank 7.
        await pilot.click(BoardEditor, offset=(1 + 2 + 3 * 6 + 1, 1 + 1))
        assert app.screen.query_one(BoardEditor).cursor == chess.G7
        await pilot.click(BoardEditor, offset=(1, 1))  # the rank labels: no square
        assert app.screen.query_one(BoardEditor).cursor == chess.G7


async def test_go_to_square_waits_for_its_square_and_escape_cancels_it():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.screen.query_one(BoardEditor)
        await pilot.press("g", "h", "8")
        assert view.cursor == chess.H8
        await pilot.press("g", "b", "x")  # x waits for the rank: it neither empties nor cancels
        assert "go to: b_" in view.border_subtitle
        await pilot.press("escape", "P")  # nor was b a Black bishop
        assert view.cursor == chess.H8 and "go to" not in view.border_subtitle
        assert app.editor.setup.board.board_fen() == "7P/8/8/8/8/8/8/8"


async def test_keys_typed_faster_than_the_screen_draws_act_in_order():
    """A burst (a paste, a fast typist over SSH) must act as the same keys typed slowly."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for char in "gg8ngh6Pgc6pga3rgc3pgg3Kga2Bge1Bgg1k=":
            app.post_message(events.Key("equals_sign" if char == "=" else char, char))
        await pilot.pause()
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN
        assert KUBBEL_CODE in shown_code_pane(app).split()


async def test_men_typed_ahead_after_m_act_in_order():
    """``m`` and the men after it in one burst: each key acts as if typed slowly. Kg3 puts a
    White king on g3, ka1 a Black king on a1 (the cursor follows it); Enter ends the typing, so
    the arrow moves the cursor to b1 and Q is the board's key again: a White queen there."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        keys = [(char, char) for char in "mKg3"] + [("space", " ")] + [(char, char) for char in "ka1"]
        for key, char in [*keys, ("enter", None), ("right", None), ("Q", "Q")]:
            app.post_message(events.Key(key, char))
        await pilot.pause()
        assert app.editor.setup.board.board_fen() == "8/8/8/8/8/6K1/8/kQ6"
        assert app.editor.typing is None


async def test_a_burst_of_board_and_screen_keys_acts_in_order():
    """The board's keys and the screen's (ctrl+z) in one burst: K put on e4, undone, Q put."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for key, char in (("K", "K"), ("ctrl+z", None), ("Q", "Q")):
            app.post_message(events.Key(key, char))
        await pilot.pause()
        assert app.editor.setup.board.board_fen() == "8/8/8/8/4Q3/8/8/8"


async def test_fen_input_loads_a_valid_fen():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i", *"8/K7/2nn4/8/8/1B1k4/1R6/8 b - - 0 1", "enter")
        assert app.editor.setup.board.fen() == "8/K7/2nn4/8/8/1B1k4/1R6/8 b - - 0 1"
        # Spec section 4: published as a7d3 0116.00 b2b3c6d6 3/3+.
        assert shown_digits(app) == "0116.00"
        assert "Black to move" in shown_code_pane(app)


async def test_fen_input_shows_why_a_bad_fen_is_bad_and_loads_nothing():
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i", *"8/8/9/8/8/8/8/8", "enter")
        from gbr_tui.dialogs.position_input import PositionInputDialog

        assert isinstance(app.screen, PositionInputDialog)
        feedback = app.screen.feedback
        assert "not a valid FEN" in feedback
        await pilot.press("f10")
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN


async def test_code_input_with_a_caret_under_the_bad_character():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i", *"0323.19", "enter")
        feedback = app.screen.feedback
        assert "a pawn digit is 0-8" in feedback
        assert feedback.splitlines()[-2:] == ["0323.19", "      ^"]  # under the 9
        await pilot.press("escape")
        assert app.screen is app.editor


@pytest.mark.parametrize(
    ("typed", "placement", "stipulation", "shown"),
    [
        # Spec section 3 (Probleemblad), all concatenated; shown: stipulation, code, kings.
        ("=0341.23f3e7a3c8b2h8c6f7d3e5f6", "2B4N/4kP2/2P2p2/4p3/8/r2p1K2/1b6/8", "=", "=0341.23f3e7"),
        # Spec section 4 (ARVES): kings first, men count 3/3, result last; shown compact.
        ("a7d3 0116.00 b2b3c6d6 3/3+", "8/K7/2nn4/8/8/1B1k4/1R6/8", "+", "+0116.00a7d3"),
    ],
)
async def test_code_input_with_squares_sets_up_the_published_board(typed, placement, stipulation, shown):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i", *typed, "enter")
        assert app.editor.setup.board.board_fen() == placement
        assert app.editor.setup.stipulation == stipulation
        assert shown in shown_code_pane(app).split()


async def test_castling_rights_follow_the_king_and_the_rooks():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        assert app.editor.setup.board.castling_rights == chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8
        await pilot.press("g", "h", "8", "x")  # Black's king's rook leaves: Black keeps O-O-O
        board = app.editor.setup.board
        assert not board.has_kingside_castling_rights(chess.BLACK)
        assert board.has_queenside_castling_rights(chess.BLACK)
        await pilot.press("g", "e", "1", "space")  # White's king leaves: White loses both
        assert not board.has_castling_rights(chess.WHITE)
        assert " w q - " in shown_code_pane(app)
        await pilot.press("K")  # lost only by editing: back home, it castles again (issue 11)
        assert board.has_kingside_castling_rights(chess.WHITE) and board.has_queenside_castling_rights(chess.WHITE)
        assert " w KQq - " in shown_code_pane(app)


async def test_en_passant_square_is_dropped_when_it_no_longer_holds():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i", *"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "enter")
        assert app.editor.setup.board.ep_square == chess.D6
        await pilot.press("g", "d", "5", "delete")  # the pawn that made the double step is gone
        assert app.editor.setup.board.ep_square is None
        await pilot.press("u")
        assert app.editor.setup.board.ep_square == chess.D6  # undo restores it exactly


async def test_copy_code_and_fen_go_to_the_clipboard_with_a_notification():
    app = make_app(board_from_fen(KUBBEL_FEN), "=")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("y", "k")  # the copy menu, then its code with kings
        assert app.clipboard == KUBBEL_CODE
        await pilot.press("Y")
        assert app.clipboard == KUBBEL_FEN + " w - - 0 1"
        await pilot.pause()
        shown = toasts(app)
        assert any(f"Copied the code with kings: {KUBBEL_CODE}" in toast for toast in shown)
        assert any(f"Copied the FEN: {KUBBEL_FEN} w - - 0 1" in toast for toast in shown)


async def test_side_to_move_and_stipulation_keys():
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t", "plus")
        assert app.editor.setup.board.turn == chess.BLACK
        assert "+0323.12g3g1" in shown_code_pane(app).split()
        assert "Black to move" in shown_code_pane(app)
        await pilot.press("plus")  # the same key again unsets it
        assert "0323.12g3g1" in shown_code_pane(app).split()


async def test_a_board_with_nine_pawns_has_no_code_and_says_why():
    app = make_app(board_from_fen("4k3/8/8/8/8/P7/PPPPPPPP/4K3"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        assert "no code: more than 8 pawns" in shown_code_pane(app)
        assert "White has more than 8 pawns" in shown_code_pane(app)
        assert app.screen.query_one(CodePane).border_subtitle == "not a legal position"
        await pilot.press("y", "c")  # the copy menu's plain code
        await pilot.pause()
        assert app.clipboard == ""
        assert any("No plain code: no code" in toast for toast in toasts(app))


async def test_unknown_keys_are_ignored():
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("z", "at", "f12", "ctrl+b", "tab", "z", "tab", "tab", "9", "home")
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN
        assert app.is_running


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_all_three_panes_are_on_screen(size):
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen.region
        for pane in (BoardEditor, CodePane, ExamplesPane):
            region = app.screen.query_one(pane).region
            assert region.area > 0 and screen.contains_region(region), pane
        digits = app.screen.query_one(CodePane).query_one("Digits").region
        assert app.screen.query_one(CodePane).region.contains_region(digits)


async def test_the_board_grows_with_the_terminal():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        small = app.screen.query_one(BoardEditor).size
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        large = app.screen.query_one(BoardEditor).size
        assert (small.width, small.height) == (2 + 8 * 3, 8 * 1 + 1)  # 3x1 squares and coordinates
        assert (large.width, large.height) == (2 + 8 * 7, 8 * 3 + 1)  # 7x3 squares


async def test_a_huge_paste_into_the_fen_dialog_is_not_echoed_whole():
    # Issue 15: a 1 MB paste echoed itself into the error. The input keeps 2,000 characters.
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("i")
        app.screen.query_one(Input).post_message(events.Paste("x" * 1_000_000))
        await pilot.pause()
        assert len(app.screen.query_one(Input).value) == 2000
        assert len(app.screen.feedback) < 5000
        assert any("left out" in toast for toast in toasts(app))


@pytest.mark.parametrize(
    "keys",
    [
        ["i", *"8/8/8/8/8/8/8/8 w - - 0 1", "enter"],  # a FEN carries no stipulation
        ["s"],
        ["c"],
        ["tab", "tab", "enter"],  # the first example
    ],
    ids=["fen", "start", "clear", "example"],
)
async def test_the_stipulation_does_not_carry_over_into_a_new_position(keys):
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("plus", *keys)
        await pilot.pause()
        assert app.editor.setup.stipulation is None
        assert "no stipulation" in shown_code_pane(app)
        assert not any(word.startswith("+0") for word in shown_code_pane(app).split())


async def test_a_decoded_code_brings_its_own_stipulation():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("plus", "i", *"=0323.12g3g1", "enter")
        await pilot.pause()
        assert app.editor.setup.stipulation == "="


async def test_black_to_move_under_a_stipulation_is_the_btm_form_and_said():
    app = make_app(board_from_fen(KUBBEL_FEN))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("plus", "t")
        shown = shown_code_pane(app)
        assert "+ Black to move, White wins" in shown and "White to play" not in shown
        assert "! Black to move: the code's + does not say so (EG prints BTM, Win)" in shown
        assert app.screen.query_one(CodePane).border_subtitle == "legal position"
        await pilot.press("t")
        shown = shown_code_pane(app)
        assert "+ White to play and win" in shown and "BTM" not in shown


async def test_the_pane_says_what_a_9_stands_for_on_the_board():
    app = make_app(board_from_fen("1n2k1n1/8/8/8/8/8/8/NN2K1N1"))  # KNNN v KNN
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        shown = shown_code_pane(app)
        assert "N 9 = White has three knights and Black two; the code writes 9 when a side has three or more" in shown
        assert "unknown" not in shown


async def test_a_rook_put_back_on_h1_gets_castling_back():
    app = make_app(chess.Board())
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("g", "h", "1", "x")
        assert " Qkq " in shown_code_pane(app)
        await pilot.press("R")
        assert app.editor.setup.board.fen() == chess.STARTING_FEN
        assert " KQkq " in shown_code_pane(app)


async def test_castling_rights_are_set_with_C_and_what_the_men_forbid_is_said():
    app = make_app(board_from_fen("r3k3/8/8/8/8/8/8/4K2R w - - 0 1"))
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        await pilot.press("C")
        assert app.screen.query_one(Input).value == "-"
        await pilot.press("backspace", *"KQkq", "enter")
        await pilot.pause()
        assert app.editor.setup.board.fen() == "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1"
        assert any("castling rights KQkq: Qk not until" in toast for toast in toasts(app))
        await pilot.press("C", "backspace", "backspace", "backspace", "backspace", "X")
        assert "not 'X'" in app.screen.feedback


#: The rook classes in the table's order: KRP v KR (rooks 1 + 3, pawns 1 0), then the named
#: Lucena 0400.10, Philidor KR v KRP 0400.01, rook and bishop 0410.00, Centurini's rook and
#: knight 0401.00, Vancura and Romanovsky 0400.10.
ROOK_CLASSES = ["0400.10", "0400.10", "0400.01", "0410.00", "0401.00", "0400.10", "0400.10"]


@pytest.mark.parametrize(
    ("typed", "codes"),
    [
        ("04*", ROOK_CLASSES),
        ("04", ROOK_CLASSES),
        ("KRP", [code for code in ROOK_CLASSES if code in ("0400.10", "0400.01")]),
        ("0400.10", ["0400.10"] * 4),
        ("KRP v KR", ["0400.10"] * 4),
    ],
)
async def test_the_examples_filter_takes_the_collection_filters_patterns(typed, codes):
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("tab", "tab", *typed)
        table = app.screen.query_one(ExamplesPane).table
        assert [str(table.get_row_at(row)[2]) for row in range(table.row_count)] == codes


async def test_a_pattern_that_does_not_read_is_said_in_the_examples_pane():
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("tab", "tab", *"04.1.0")
        pane = app.screen.query_one(ExamplesPane)
        assert pane.table.row_count == 0
        assert "a code has one '.'" in pane.border_subtitle
