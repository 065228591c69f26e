"""`a` in the app: the records of the open collection like the board (the editor), a position's
duplicates (the browser); Enter loads one, `u` brings the composer's position back.

The collection is the spec's two published positions (section 4), each planted again mirrored
by python-chess, and the first with Black to move (no duplicate: the side to move differs).
"""

from __future__ import annotations

import chess
from textual.widgets import DataTable

from gbr_tui.app import make_app
from gbr_tui.dialogs.anticipation import AnticipationList
from gbr_tui.widgets.collection_lists import PositionList
from tests.support.browser import browser, loaded, write
from tests.support.tui import toasts, until

STUDY = chess.BaseBoard("6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1")  # =0323.12g3g1
KNIGHTS = chess.BaseBoard("8/K7/2nn4/8/8/1B1k4/1R6/8")  # a7d3 0116.00
LINES = [
    f"{STUDY.board_fen()} w - - 0 1",
    f"{KNIGHTS.board_fen()} w - - 0 1",
    f"{STUDY.transform(chess.flip_horizontal).board_fen()} w - - 0 1",
    f"{KNIGHTS.transform(chess.flip_horizontal).board_fen()} w - - 0 1",
    f"{STUDY.board_fen()} b - - 0 1",
]


def _rows(app) -> list[tuple[str, ...]]:
    table = app.screen.query_one(DataTable)
    return [tuple(str(cell) for cell in table.get_row_at(row)) for row in range(table.row_count)]


async def test_a_in_the_editor_lists_the_board_turned_and_enter_loads_it_u_brings_it_back(tmp_path) -> None:
    app = browser(write(tmp_path, "studies.fen", "\n".join(LINES) + "\n"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await loaded(pilot)
        await pilot.press("backspace")  # to the editor
        mine = chess.Board(LINES[0])
        mine.remove_piece_at(chess.H6)  # the composer's: Kubbel's study without its h-pawn
        app.editor.load(mine, None, "mine")
        await pilot.pause()
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AnticipationList) and app.screen.found)
        rows = _rows(app)
        assert [(row[0].split(":")[-1], row[1], row[2]) for row in rows] == [
            ("1 #1", "1", "identity"),  # a man away: the h-pawn
            ("3 #3", "1", "mirrored"),
        ]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == LINES[2].split()[0]
        assert any("mirrored at distance 1" in toast for toast in toasts(app))
        await pilot.press("u")
        assert app.editor.setup.board.board_fen() == mine.board_fen()


async def test_a_in_the_browser_lists_a_positions_duplicates(tmp_path) -> None:
    app = browser(write(tmp_path, "studies.fen", "\n".join(LINES) + "\n"))
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        await pilot.press("enter")  # the first class, 0116.00: the knights, lines 2 and 4
        records = app.screen.query_one(PositionList)
        await until(pilot, lambda: [column.title for column in records.columns][-2:] == ["dup", "position"])
        assert [records.cells(row)[2].strip() for row in range(records.count)] == ["=1", "=1"]
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AnticipationList) and app.screen.found)
        assert [(row[0].split(":")[-1], row[1], row[2]) for row in _rows(app)] == [
            ("2 #2", "0", "identity"),
            ("4 #4", "0", "mirrored"),
        ]
        await pilot.press("escape")
        assert not isinstance(app.screen, AnticipationList)


async def test_without_a_collection_a_says_to_open_one() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("a")
        await pilot.pause()
        assert not isinstance(app.screen, AnticipationList)
        assert any("open one first" in toast for toast in toasts(app))


async def test_the_browser_says_hhdb_marks_in_words(tmp_path) -> None:
    pgn = (
        '[Event "EG #12 1997"]\n[White "Kubbel, Leonid 12"]\n[Black "=0323.12g3g1 AN U1"]\n[Result "1/2-1/2"]\n'
        f'[SetUp "1"]\n[FEN "{LINES[0]}"]\n\n1/2-1/2\n'
    )
    app = browser(write(tmp_path, "hhdb.pgn", pgn))
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        await pilot.press("enter")
        details = str(app.screen.query_one("#position-details").render())
        assert "Kubbel, Leonid · diagram 12 · White to play and draw · anticipated · dualled at move 1 (U1)" in details
