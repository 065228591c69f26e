"""A solution's tree marked line by line (core.solution_marks): each move's mark kept under the
moves that lead to it, only lines with a new move marked again."""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest

from gbr_tui.core.solution_marks import SolutionMarks, mark_lines, solution_lines
from gbr_tui.core.tablebase_lines import Mark
from gbr_tui.core.tablebases import Tablebases
from tests.support.tablebases import SAAVEDRA, SYZYGY

#: Saavedra with a spoiling variation, 2.Kc5? Rd1 (the rook reaches c1: a draw).
TREE = f'[SetUp "1"]\n[FEN "{SAAVEDRA}"]\n\n1. c7 Rd6+ 2. Kb5 (2. Kc5 Rd1) 2... Rd5+ *\n'


@pytest.fixture(scope="module")
def tables():
    with Tablebases([SYZYGY]) as opened:
        yield opened


def sans(board: chess.Board, path: tuple[chess.Move, ...]) -> list[str]:
    return chess.Board(board.fen()).variation_san(list(path)).split()


def test_each_line_runs_from_the_start_to_its_last_move():
    game = chess.pgn.read_game(io.StringIO(TREE))
    assert game is not None
    lines = solution_lines(game)
    assert [sans(game.board(), line) for line in lines] == [
        ["1.", "c7", "Rd6+", "2.", "Kb5", "Rd5+"],
        ["1.", "c7", "Rd6+", "2.", "Kc5", "Rd1"],
    ]
    assert solution_lines(chess.pgn.Game.from_board(chess.Board(SAAVEDRA))) == []


def test_a_move_is_marked_by_its_line_and_only_new_lines_are_marked_again(tables):
    game = chess.pgn.read_game(io.StringIO(TREE))
    assert game is not None
    marks = SolutionMarks()
    lines = solution_lines(game)
    assert marks.unmarked(lines) == lines
    marks.add(mark_lines(tables, game.board(), lines, "+"))
    assert marks.unmarked(lines) == []
    spoiling = game.variations[0].variations[0].variations[1]
    board = spoiling.parent.board()
    assert marks.words(board, spoiling.move) == "— spoils the win: now a draw"
    assert marks.words(spoiling.board(), spoiling.variations[0].move) == ""  # not judged after it
    assert marks.by_path[lines[0][:1]] is not None and marks.by_path[lines[0][:1]].mark == Mark.ONLY
    # A move the tree does not have (from the same position) has no mark.
    assert marks.words(board, board.parse_san("Ka5")) == ""
    # A move added to the main line: that line alone is marked again.
    end = game.end()
    end.add_main_variation(end.board().parse_san("Kb4"))
    assert marks.unmarked(solution_lines(game)) == [solution_lines(game)[0]]


def test_marking_stops_between_lines_when_cancelled(tables):
    game = chess.pgn.read_game(io.StringIO(TREE))
    assert game is not None
    assert mark_lines(tables, game.board(), solution_lines(game), "+", cancelled=lambda: True) == {}
