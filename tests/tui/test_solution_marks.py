"""The tablebase's marks on the moves of the solution mode (issues #28 and #29): Saavedra's study
(spec: +0300.10b6a1) with the small Syzygy tables kept in tests, marked in a worker as moves are
played and taken back; a study loaded from a PGN comes marked; without tables, no marks."""

from __future__ import annotations

import chess
import chess.syzygy

from gbr_tui.app import make_app
from gbr_tui.core.collection.readers import CollectionRequest
from gbr_tui.screens.solution import SolutionScreen
from gbr_tui.widgets.move_list import MoveList
from tests.support.browser import loaded
from tests.support.tablebases import SAAVEDRA, SYZYGY
from tests.support.tui import until

SAAVEDRA_BOARD = chess.Board(SAAVEDRA)


def shown_rows(app) -> list[str]:
    """The move list's rows as the user reads them."""
    moves = app.screen.query_one(MoveList)
    return [str(moves.get_option_at_index(index).prompt) for index in range(moves.option_count)]


def row_says(app, index: int, words: str) -> bool:
    rows = shown_rows(app)
    return index < len(rows) and words in rows[index]


async def shows(pilot, index: int, words: str) -> None:
    """Once row ``index`` of the move list says ``words`` (marks come from a worker)."""
    await until(pilot, lambda: row_says(pilot.app, index, words))
    assert row_says(pilot.app, index, words), shown_rows(pilot.app)


async def play(pilot, *sans: str) -> None:
    for san in sans:
        await pilot.press(*san, "enter")


async def test_c7_is_marked_the_only_move_and_a_spoiling_variation_so():
    app = make_app(SAAVEDRA_BOARD, "+", tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("v")
        await play(pilot, "c7")
        # Any king move lets the rook take the pawn; 1.c7 is a pawn move: one ply to the zeroing.
        await shows(pilot, 0, "1. c7 — only move (DTZ 1)")
        await play(pilot, "Rd6+")
        await shows(pilot, 1, "1... Rd6+ — best")
        # 2.Kc5? played beside 2.Kb5: the king can neither shelter from the checks nor stop
        # ...Rd1-c1, so the win is gone (a variation, marked so).
        await play(pilot, "Kb5")
        await pilot.press("f7")
        await play(pilot, "Kc5", "Rd1")
        await shows(pilot, 3, "2. Kc5 — spoils the win: now a draw")
        assert shown_rows(app)[3].startswith("  ")  # indented: a variation
        await shows(pilot, 2, "2. Kb5 — ")
        assert "spoils" not in shown_rows(app)[2]
        assert shown_rows(app)[4].strip() == "2... Rd1"  # after the spoiling move, not judged


async def test_a_dual_is_marked_and_marks_follow_a_take_back():
    app = make_app(SAAVEDRA_BOARD, "+", tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("v")
        # The published 4.Kb3; 4.Kc3 reaches the promotion as quickly: a real dual of each other.
        await play(pilot, "c7", "Rd6+", "Kb5", "Rd5+", "Kb4", "Rd4+", "Kc3")
        await shows(pilot, 6, "4. Kc3 — dual")
        assert "also Kb3" in shown_rows(app)[6]
        await pilot.press("f9")  # 4.Kc3 taken back, the published 4.Kb3 played: marked anew
        await play(pilot, "Kb3")
        await shows(pilot, 6, "4. Kb3 — dual")
        assert "also Kc3" in shown_rows(app)[6]
        assert len(shown_rows(app)) == 7


async def test_keys_in_a_burst_leave_the_last_lines_marks():
    app = make_app(SAAVEDRA_BOARD, "+", tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("v")
        await pilot.press(*"c7", "enter", *"Rd6+", "enter", "f9", *"Rd8", "enter")
        await app.workers.wait_for_complete()
        # 1...Rd8? lets the pawn take it or promote at once: 1...Rd6+ holds out longer.
        await shows(pilot, 1, "1... Rd8 — not the longest defence")
        assert len(shown_rows(app)) == 2 and row_says(app, 0, "only move")


SAAVEDRA_PGN = """[Event "Saavedra"]
[White "Barbier and Saavedra"]
[Black "+0300.10b6a1"]
[Result "1-0"]
[SetUp "1"]
[FEN "8/8/1KP5/3r4/8/8/8/k7 w - - 0 1"]

1. c7 Rd6+ 2. Kb5 (2. Kc5 Rd1) 2... Rd5+ 3. Kb4 Rd4+ 4. Kc3 1-0
"""


async def test_a_study_loaded_from_a_pgn_comes_with_its_marks(tmp_path):
    source = tmp_path / "saavedra.pgn"
    source.write_text(SAAVEDRA_PGN)
    app = make_app(files=CollectionRequest((str(source),)), tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        await pilot.press("enter", "enter")  # its class, then the study
        await until(pilot, lambda: app.screen is app.editor)
        await pilot.press("v")
        await shows(pilot, 8, "4. Kc3 — dual")
        rows = shown_rows(app)
        assert "only move" in rows[0] and "spoils the win" in rows[3] and rows[4].strip() == "2... Rd1"


async def test_without_tablebases_no_marks_and_nothing_probed():
    app = make_app(SAAVEDRA_BOARD, "+")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("v")
        await play(pilot, "c7", "Rd6+")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SolutionScreen)
        assert shown_rows(app) == ["1. c7", "1... Rd6+"]
        assert screen.marks is None and not [worker for worker in app.workers if worker.group == "solution-marks"]


async def test_the_code_pane_gives_the_verdict_on_the_position_shown():
    """The solution mode's code pane, like the editor's: the tablebase's verdict on the
    position after the move shown, and none after a take-back to a position it has not probed."""
    from gbr_tui.widgets.code_pane import CodePane
    from tests.support.tui import shown_code_pane

    app = make_app(SAAVEDRA_BOARD, "+", tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("v")
        await until(pilot, lambda: "table White wins" in shown_code_pane(app))
        await play(pilot, "Kb7")  # a draw, Black to move (python-chess below)
        with chess.syzygy.open_tablebase(str(SYZYGY)) as referee:
            after = chess.Board(SAAVEDRA)
            after.push_san("Kb7")
            assert referee.probe_wdl(after) == 0
        await until(pilot, lambda: "table draw" in shown_code_pane(app))
        pane = app.screen.query_one(CodePane)
        assert pane.verdict is not None and pane.verdict.fen == after.fen()
        assert "the stipulation + asks for a White win; the tablebase says a draw" in shown_code_pane(app)
