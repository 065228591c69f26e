"""The solution mode (v, F6) and saving a study: Kubbel's study set up, its published solution
(spec section 3) typed as SAN, the code pane following the position shown, saved with composer
and source; python-chess replays the saved PGN to the same final position."""

from __future__ import annotations

import io

import chess
import chess.pgn
from textual import events
from textual.widgets import Input

from gbr_tui.app import make_app
from gbr_tui.core import board_from_fen
from gbr_tui.dialogs.diagram import DiagramDialog
from gbr_tui.dialogs.save_position import SavePositionDialog
from gbr_tui.palette import GbrCommands
from gbr_tui.screens.editor import EditorScreen
from gbr_tui.screens.solution import SolutionBoard, SolutionScreen
from gbr_tui.widgets.move_list import MoveList
from tests.cli.test_diagram import caption_of, drawn_men, expected_men
from tests.support.browser import browser, loaded
from tests.support.published import KUBBEL_SOLUTION
from tests.support.tui import KUBBEL_FEN, shown_code_pane, shown_digits, toasts

#: The promotions typed as print has them: python-chess reads hxg8Q.
PUBLISHED = KUBBEL_SOLUTION
#: After 8...Rxg2: White Kf3; Black Kh1, Qc1, Rg2, pawn d5, White to move at move 9.
FINAL = "8/8/8/3p4/8/5K2/6r1/2q4k w - - 0 9"


async def test_kubbel_solution_entered_saved_and_replayed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app(board_from_fen(KUBBEL_FEN), "=")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, SolutionScreen)
        move_input = app.screen.query_one("#solution-move", Input)
        for number, san in enumerate(PUBLISHED):
            if number < 2:  # typed key by key as a user does; the rest put in whole (each key costs)
                await pilot.press(*san)
            else:
                move_input.value = san
            await pilot.press("enter")
        await pilot.pause()
        # The code pane follows the position shown: the class the line ends in. Black's queen
        # 1x3, rook 1x3, no minor pieces, no White pawn, one Black pawn: 3300.01.
        assert shown_digits(app) == "3300.01"
        assert app.screen.query_one(SolutionBoard).board.fen() == FINAL
        moves = app.screen.query_one(MoveList)
        assert moves.option_count == 16 and moves.highlighted == 15
        # A move back, before 8...Rxg2: White's queen stands on g2, so queens 1 + 1x3 = 4.
        await pilot.press("f7")
        await pilot.pause()
        assert shown_digits(app) == "4300.01"
        await pilot.press("f8", "f6")  # on again, and back to the editor with the solution
        await pilot.pause()
        assert isinstance(app.screen, EditorScreen)
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, SavePositionDialog)
        await pilot.press(*"kubbel.pgn", "tab", *"Kubbel")
        assert app.focused is app.screen.query_one("#study-composer", Input)
        app.focused.value = "Kubbel, Leonid"
        for name, value in (("source", "Shakhmaty"), ("year", "1925"), ("award", "1st Prize")):
            app.screen.query_one(f"#study-{name}", Input).value = value
        await pilot.press("enter")
        await pilot.pause()
        assert any("Appended the position to kubbel.pgn (GBR =0323.12g3g1" in toast for toast in toasts(app))
        await pilot.press("w")  # the next time, the box offers the last answers
        await pilot.pause()
        offered = {name: app.screen.query_one(f"#study-{name}", Input).value for name in ("composer", "award")}
        assert offered == {"composer": "Kubbel, Leonid", "award": "1st Prize"}
        await pilot.press("f10")
    game = chess.pgn.read_game(io.StringIO((tmp_path / "kubbel.pgn").read_text()))
    assert game is not None and not game.errors
    assert (game.headers["White"], game.headers["Event"], game.headers["Date"]) == (
        "Kubbel, Leonid",
        "Shakhmaty",
        "1925.??.??",
    )
    assert game.headers["Result"] == "1/2-1/2" and game.headers["Award"] == "1st Prize"
    assert game.end().board().fen() == FINAL
    board = game.board()
    for move in game.mainline_moves():
        board.push(move)
    assert board.fen() == FINAL


async def test_an_illegal_move_is_refused_with_its_reason_and_the_board_picks_moves(tmp_path):
    app = make_app(board_from_fen(KUBBEL_FEN), "=")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("v")
        await pilot.pause()
        await pilot.press(*"Bf3", "enter")
        await pilot.pause()
        assert any("1. Bf3 is illegal here: no White bishop can go there" in toast for toast in toasts(app))
        assert "0323.12" in shown_code_pane(app)  # nothing played
        # On the board: the cursor to e1 (the bishop), Enter, to f2, Enter: 1.Bf2+.
        board = app.screen.query_one(SolutionBoard)
        await pilot.press("shift+tab")  # from the move input back to the board
        assert app.focused is board
        board.cursor = chess.E1
        await pilot.press("enter", "up", "right", "enter")
        await pilot.pause()
        assert board.board.piece_at(chess.F2) == chess.Piece(chess.BISHOP, chess.WHITE)
        assert app.screen.query_one(MoveList).option_count == 1
        # Taken back: the start again.
        await pilot.press("f9")
        await pilot.pause()
        assert app.screen.query_one(MoveList).option_count == 0
        assert board.board.fen() == f"{KUBBEL_FEN} w - - 0 1"


async def test_the_palette_finds_the_diagram_and_the_editor_writes_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app(board_from_fen(KUBBEL_FEN), "=")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        titles = [title for title, _, _ in GbrCommands(app.screen).commands()]
        for word in ("diagram", "SVG", "image", "print"):
            assert any(word.lower() in title.lower() for title in titles), word
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, DiagramDialog)
        await pilot.press(*"missing/k.svg")
        await pilot.pause()
        assert "missing: no such directory" in app.screen.feedback
        await pilot.press(*["backspace"] * len("missing/k.svg"), *"kubbel.svg", "enter")
        await pilot.pause()
        assert any("Wrote the diagram to kubbel.svg" in toast for toast in toasts(app))
    svg = (tmp_path / "kubbel.svg").read_text()
    assert drawn_men(svg) == expected_men(KUBBEL_FEN)
    assert caption_of(svg) == "=0323.12g3g1a3a2e1g8h6c3c6"  # the compact form, every man (spec 3)


async def test_served_the_diagram_is_not_offered():
    app = make_app(board_from_fen(KUBBEL_FEN), "=", served=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("D")
        await pilot.pause()
        assert not isinstance(app.screen, DiagramDialog)
        assert any("Writing diagrams is not offered here" in toast for toast in toasts(app))
        titles = [title for title, _, _ in GbrCommands(app.screen).commands()]
        assert not any("Diagram" in title for title in titles)


#: Kubbel's study as a collection keeps it, its published solution as the moves (line 1).
KUBBEL_PGN = f"""[Event "Shakhmaty"]
[Date "1925.??.??"]
[White "Kubbel, Leonid"]
[Black "Draw"]
[Result "1/2-1/2"]
[SetUp "1"]
[FEN "{KUBBEL_FEN} w - - 0 1"]

1. Bf2+ Kh1 2. h7 c2+ 3. Be3 Rxe3+ 4. Kf2 Rh3 5. Bd5+ cxd5 6. hxg8=Q Rh2+ 7. Kf3 c1=Q
8. Qg2+ Rxg2 1/2-1/2
"""


async def test_a_study_loaded_from_a_pgn_brings_its_solution(tmp_path):
    source = tmp_path / "kubbel.pgn"
    # A second study whose solution is illegal at 3...Rxe4 (the rook on a3 cannot reach e4).
    broken = KUBBEL_PGN.replace("Rxe3+", "Rxe4+").replace("Shakhmaty", "Broken")
    source.write_text(KUBBEL_PGN + "\n" + broken)
    app = browser(source)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await loaded(pilot)
        await pilot.press("enter", "enter")  # the class 0323.12, then its first study
        await pilot.pause()
        assert app.screen is app.editor
        await pilot.press("v")
        await pilot.pause()
        assert app.screen.query_one(MoveList).option_count == 16  # the 16 plies of the solution
        assert app.screen.query_one(SolutionBoard).board.fen() == f"{KUBBEL_FEN} w - - 0 1"  # shown from the start
        await pilot.press("f6", "l")  # back to the list: the second study
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        # Its second game starts on line 12 (ten lines, a blank one): the place and the move are named.
        assert any("kubbel.pgn:12: move 3... Rxe4 is illegal here" in toast for toast in toasts(app)), toasts(app)
        assert app.screen is app.editor and app.editor.solution_game() is None


def burst(app, *keys: str) -> None:
    """Keys queued together, as they come over SSH or from tmux send-keys: one character a key,
    or a key's name (enter, tab)."""
    for key in keys:
        names = {"+": "plus", "=": "equals_sign", " ": "space", ",": "comma"}
        if len(key) == 1:
            app.post_message(events.Key(names.get(key, key), key))
        else:
            app.post_message(events.Key(key, "\r" if key == "enter" else "\t" if key == "tab" else None))


async def test_moves_and_fields_typed_in_one_burst_act_in_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app(board_from_fen(KUBBEL_FEN), "=")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("v")
        await pilot.pause()
        burst(app, *"Bf2+", "enter", *"Kh1", "enter", *"h7", "enter", *"c2+", "enter")
        await pilot.pause()
        # Each move played in turn: had an Enter come after the next move's letters, the input
        # would hold them run together and refuse them.
        assert app.screen.query_one(MoveList).option_count == 4
        assert app.screen.query_one(SolutionBoard).board.fen() == "6n1/7P/2p5/8/8/r5K1/B1p2B2/7k w - - 0 3"
        # Back two moves and another second move for White, in one burst: a variation after 2.h7.
        burst(app, "f7", "f7", *"Kf3", "enter")
        await pilot.pause()
        rows = [str(option.prompt).strip() for option in app.screen.query_one(MoveList).options]
        assert rows == ["1. Bf2+", "1... Kh1", "2. h7", "2. Kf3", "2... c2+"]
        burst(app, "f9", "f8", "f8", "f8")  # 2.Kf3 taken back, then on along the main line to its end
        await pilot.pause()
        assert app.screen.query_one(MoveList).option_count == 4
        assert app.screen.query_one(SolutionBoard).board.fen() == "6n1/7P/2p5/8/8/r5K1/B1p2B2/7k w - - 0 3"
        burst(app, "f6", "f10", "escape")  # three leave keys at once: the mode is left once
        await pilot.pause()
        assert app.screen is app.editor
        await pilot.press("w")
        await pilot.pause()
        burst(app, *"k.pgn", "tab", *"Kubbel", "tab", *"Shakhmaty", "tab", *"1925")
        await pilot.pause()
        fields = {name: app.screen.query_one(f"#study-{name}", Input).value for name in ("composer", "source", "year")}
        assert fields == {"composer": "Kubbel", "source": "Shakhmaty", "year": "1925"}


async def test_no_solution_mode_for_a_position_that_cannot_be_played():
    app = make_app()  # the empty board: no kings
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("v")
        await pilot.pause()
        assert app.screen is app.editor
        assert any(
            "No moves can be played from this position: " in toast and "no king" in toast for toast in toasts(app)
        )
