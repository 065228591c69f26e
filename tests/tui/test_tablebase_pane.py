"""The code pane's tablebase verdict: probed in a worker, the last position shown, set from the
palette (kept for the next start), never offered when served."""

from __future__ import annotations

import json

import chess
import chess.syzygy
from textual.widgets import Input

from gbr_tui.app import make_app
from gbr_tui.widgets.code_pane import CodePane
from tests.support.tablebases import SAAVEDRA, SYZYGY
from tests.support.tui import run_command, shown_code_pane, until

SAAVEDRA_BOARD = chess.Board(SAAVEDRA)


def verdict_shown(app) -> bool:
    return app.screen.query_one(CodePane).verdict is not None


async def test_the_verdict_and_a_contradicted_stipulation_are_shown():
    app = make_app(SAAVEDRA_BOARD, "=", tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict_shown(app))
        shown = shown_code_pane(app)
        assert "table White wins: DTZ 1" in shown
        assert "! the stipulation = asks for a draw; the tablebase says a White win" in shown
        await pilot.press("plus")  # the stipulation set to +: now it agrees
        await until(pilot, lambda: "agrees with the stipulation +" in shown_code_pane(app))
        assert "asks for a draw" not in shown_code_pane(app)


async def test_keys_in_a_burst_leave_the_last_positions_verdict():
    app = make_app(SAAVEDRA_BOARD, None, tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict_shown(app))
        # Take the pawn off and put it back, twice, then off: KvKR, Black wins.
        await pilot.press("g", "c", "6", "x", "g", "c", "6", "P", "g", "c", "6", "x")
        await app.workers.wait_for_complete()
        await until(pilot, lambda: "Black wins" in shown_code_pane(app))
        pane = app.screen.query_one(CodePane)
        assert pane.verdict is not None and pane.verdict.fen == app.editor.setup.board.fen()
        # Outside the tables (a man more than any kept table has): no verdict line.
        await pilot.press("g", "h", "8", "Q", "g", "h", "7", "Q")
        await until(pilot, lambda: "table " not in shown_code_pane(app))
        assert "table " not in shown_code_pane(app)


async def test_without_tablebases_nothing_is_probed_or_imported():
    app = make_app(SAAVEDRA_BOARD, "+")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.tablebases.tables() is None
        assert "table " not in shown_code_pane(app)
    # That neither python-chess's probing nor core.tablebases is imported: tests/cli/test_startup.py.


async def test_the_palette_sets_the_tablebases_and_keeps_them(tmp_path):
    settings = tmp_path / "settings.json"
    app = make_app(SAAVEDRA_BOARD, "+", settings_file=settings)
    async with app.run_test(size=(100, 40)) as pilot:
        await run_command(pilot, "Tablebases")
        typed = app.screen.query_one(Input)
        typed.value = str(tmp_path)  # a directory without tables: refused, said
        await pilot.press("enter")
        assert "no Syzygy (.rtbw/.rtbz) or Gaviota (.gtb.cp4) tables" in app.screen.feedback
        typed.value = str(SYZYGY)
        await pilot.press("enter")
        await until(pilot, lambda: verdict_shown(app))
        assert "agrees with the stipulation +" in shown_code_pane(app)
    assert json.loads(settings.read_text())["tablebases"] == [str(SYZYGY)]
    again = make_app(settings_file=settings)
    assert again.tablebases.directories == (str(SYZYGY),)


async def test_a_served_app_offers_no_tablebases_command():
    app = make_app(SAAVEDRA_BOARD, "+", served=True, tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict_shown(app))  # the server's tables are used
        assert not app.offers("set_tablebases")
        await pilot.press("ctrl+p", *"Tablebases")
        await pilot.pause(0.3)
        assert not any("Tablebases..." in str(option.prompt) for option in app.screen.query("Option"))


async def test_the_decode_screen_gives_the_verdict_on_a_code_with_every_square():
    app = make_app(tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("d")
        await until(pilot, lambda: app.screen.__class__.__name__ == "DecodeScreen")
        await pilot.press(*"=0300.10b6a1d5c6")
        verdict = app.screen.query_one("#verdict")
        await until(pilot, lambda: verdict.display)
        assert str(verdict.content) == (
            "Tablebase: White wins: DTZ 1\nthe stipulation = asks for a draw; the tablebase says a White win"
        )
        assert verdict.has_class("-disagrees")
        await pilot.press("backspace", "backspace")  # the kings and the rook's square: no board
        await until(pilot, lambda: not verdict.display)
        assert not verdict.display


async def test_the_browsers_class_details_give_theory_against_play(tmp_path):
    from gbr_tui.core.collection import CollectionRequest
    from tests.support.browser import loaded

    # Two games from Saavedra's position (won in theory): one won, one drawn; the class's theory
    # is 100% won, its play 50% won, and they differ in one game of two.
    games = "".join(
        f'[Event "{result}"]\n[Result "{result}"]\n[SetUp "1"]\n[FEN "{SAAVEDRA}"]\n\n1. c7 {result}\n\n'
        for result in ("1-0", "1/2-1/2")
    )
    path = tmp_path / "games.pgn"
    path.write_text(games)
    app = make_app(files=CollectionRequest((str(path),)), tablebases=[str(SYZYGY)])
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("enter")  # the one class, 0300.10
        theory = screen.query_one("#class-theory")
        await until(pilot, lambda: theory.display)
        assert str(theory.content) == (
            "Tablebase (2 within the tables): 100% won in theory, 50% won in play (differs 50%)"
        )


async def test_the_browsers_theory_of_a_folded_class_counts_for_the_stronger_side(tmp_path):
    from gbr_tui.core.collection import CollectionRequest
    from tests.support.browser import loaded, shown_classes

    # Rook against king in both colours, White to move in each (the stronger side as White: one
    # class, 0100.00). KR v K: the rook not en prise, no stalemate, White wins. K v KR, the
    # rook far from White's king: Black, the stronger side, wins. K v KR with the unguarded
    # rook beside White's king: Kxg2, a draw. In theory 2 of 3 won for the stronger side; the
    # games 1-0, 0-1, 0-1 are all won by it, and the drawn position's game differs.
    positions = (
        ("7k/8/8/8/8/8/8/R3K3 w - - 0 1", "1-0"),
        ("r3k3/8/8/8/8/8/8/7K w - - 0 1", "0-1"),
        ("8/8/8/8/4k3/8/6r1/7K w - - 0 1", "0-1"),
    )
    path = tmp_path / "twins.pgn"
    path.write_text(
        "".join(
            f'[Event "?"]\n[Result "{result}"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n{result}\n\n' for fen, result in positions
        )
    )
    app = make_app(files=CollectionRequest((str(path),)), tablebases=[str(SYZYGY)])
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("e")  # colour twins folded
        await until(pilot, lambda: [row[0] for row in shown_classes(screen)] == ["0100.00"])
        await pilot.press("enter")
        theory = screen.query_one("#class-theory")
        await until(pilot, lambda: theory.display)
        assert str(theory.content) == (
            "Tablebase (3 within the tables): 67% won in theory, 100% won in play (differs 33%)"
        )


async def test_once_the_tables_are_open_the_verdict_comes_with_the_code():
    """No worker in between: the key's own handling shows the new position's verdict."""
    app = make_app(SAAVEDRA_BOARD, None, tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict_shown(app))  # KPvKR opened by the first probe
        await pilot.press("g", "c", "6", "x")  # KvKR, a table opened in a worker
        await until(pilot, lambda: "Black wins" in shown_code_pane(app))
        await app.workers.wait_for_complete()
        workers_started = []
        app.editor.run_worker = lambda *arguments, **options: workers_started.append(arguments)
        await pilot.press("g", "c", "6", "P", "g", "b", "6", "x", "g", "b", "7", "K")  # KPvKR again
        pane = app.screen.query_one(CodePane)
        assert workers_started == []
        assert pane.verdict is not None and pane.verdict.fen == app.editor.setup.board.fen()
        await pilot.pause()
        with chess.syzygy.open_tablebase(str(SYZYGY)) as referee:  # python-chess's own probe
            assert referee.probe_wdl(app.editor.setup.board) == 0
        assert "table draw" in shown_code_pane(app)


async def test_the_tables_are_closed_when_the_app_ends():
    app = make_app(SAAVEDRA_BOARD, None, tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict_shown(app))
        opened = app.tablebases.tables()
        assert opened is not None and opened._syzygy is not None and opened._syzygy.wdl
    assert app.tablebases._tables is None
    assert not opened._syzygy.wdl  # python-chess's close() forgets every table it had opened


async def test_a_late_verdict_against_another_stipulation_is_not_shown():
    """A worker's verdict probed against the stipulation as it was (+) arrives after the
    stipulation changed (to =) on the same board: the pane keeps the newer one's words."""
    from gbr_tui.tablebase_support import ShownVerdict

    app = make_app(SAAVEDRA_BOARD, "=", tablebases=[str(SYZYGY)])
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: verdict_shown(app))
        pane = app.screen.query_one(CodePane)
        current = pane.verdict
        assert current is not None and "asks for a draw" in (current.agreement or "")
        late = ShownVerdict(current.fen, current.words, "agrees with the stipulation +", True)
        app.editor._show_verdict(current.fen, "+", late)
        assert pane.verdict == current
