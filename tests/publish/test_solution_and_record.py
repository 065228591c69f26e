"""A study's solution entered move by move (python-chess's GameNode), refused moves said with
their reason, and the study saved as a PGN or EPD record that python-chess replays. Kubbel's
study and its published solution are the spec's (section 3)."""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest

from gbr_tui.core import GbrError
from gbr_tui.core.collection import Collection
from gbr_tui.core.collection.records import StudyRecord
from gbr_tui.core.collection.writing import append_position
from gbr_tui.core.publish.solution import Solution, read_solution, solution_rows
from tests.support.published import KUBBEL_SOLUTION as PUBLISHED_SOLUTION

KUBBEL = chess.Board("6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1")
#: The published solution, promotions written with '=' as SAN has them.
KUBBEL_SOLUTION = [san.replace("8Q", "8=Q").replace("1Q", "1=Q") for san in PUBLISHED_SOLUTION]


def kubbel_solution() -> Solution:
    solution = Solution(KUBBEL)
    for san in KUBBEL_SOLUTION:
        solution.play(san)
    return solution


def replayed(game: chess.pgn.Game) -> chess.Board:
    board = game.board()
    for move in game.mainline_moves():
        board.push(move)
    return board


def test_the_published_solution_is_played_and_its_final_position_reached():
    solution = kubbel_solution()
    # The final position worked out from the moves: White Kf3, Black Kh1, Rg2 (8.Qg2+ Rxg2),
    # Qc1 (7...c1Q), pawn d5 (5...cxd5); White to move after Black's 8th.
    assert solution.board.fen() == "8/8/8/3p4/8/5K2/6r1/2q4k w - - 0 9"
    assert solution.movetext().startswith("1. Bf2+ Kh1 2. h7 c2+ 3. Be3 Rxe3+")


def test_variations_step_through_and_take_back():
    solution = Solution(KUBBEL)
    solution.play("Bf2+")
    solution.play("Kh1")
    solution.back()
    solution.play("Kh1")  # already there: followed, not added twice
    assert len(solution.node.parent.variations) == 1
    solution.back()
    solution.back()
    solution.play("Kf3")  # another first move: a variation beside the main line
    assert solution.game.variations[0].san() == "Bf2+" and solution.game.variations[1] is solution.node
    assert solution.movetext() == "1. Bf2+ ( 1. Kf3 ) 1... Kh1"
    assert solution.take_back() and len(solution.game.variations) == 1
    solution.go_to(solution.game)
    assert solution.forward() and solution.forward() and not solution.forward()  # Bf2+ Kh1, the end
    assert not Solution(KUBBEL).back() and not Solution(KUBBEL).take_back()


@pytest.mark.parametrize(
    ("moves", "reason"),
    [
        # Bf3: the bishop on a2 is on the a2-g8 diagonal, the one on e1 on e1-h4 and e1-a5.
        (["Bf3"], "1. Bf3 is illegal here: no White bishop can go there"),
        (["Bf2+", "Kh2"], "1... Kh2 is illegal here: Black is in check"),  # the bishop on f2 checks g1
        # 2...c2+ uncovers the rook a3's check along the third rank.
        (["Bf2+", "Kh1", "h7", "c2+", "Bd4"], "3. Bd4 is illegal here: White is in check"),
        (["xx"], "'xx' is not a move"),
    ],
)
def test_an_illegal_move_is_refused_with_its_reason(moves, reason):
    solution = Solution(KUBBEL)
    with pytest.raises(GbrError) as refused:
        for san in moves:
            solution.play(san)
    assert refused.value.message.startswith(reason)


def test_a_pgn_whose_solution_is_illegal_names_the_move():
    text = f'[SetUp "1"]\n[FEN "{KUBBEL.fen()}"]\n\n1. Bf2+ Kh1 2. h7 c2+ 3. Be3 Rxe4+ *\n'
    with pytest.raises(GbrError) as bad:
        read_solution(text, "kubbel.pgn")
    assert bad.value.message == (
        "kubbel.pgn: move 3... Rxe4 is illegal here: no Black rook can go there without leaving its king in check"
    )
    assert replayed(read_solution(text.replace("Rxe4", "Rxe3"), "kubbel.pgn")).fen() == (
        "6n1/7P/2p5/8/8/4r1K1/B1p5/7k w - - 0 4"
    )


STUDY = StudyRecord(composer="Kubbel, Leonid", source="Shakhmaty", year="1925", award="1st Prize", stipulation="=")


def test_a_study_saved_as_pgn_replays_to_the_final_position(tmp_path):
    path = tmp_path / "studies.pgn"
    study = StudyRecord(**{**STUDY.__dict__, "solution": kubbel_solution().game})
    assert append_position(path, KUBBEL, None, study=study) == "=0323.12g3g1a3a2e1g8h6c3c6"
    game = chess.pgn.read_game(io.StringIO(path.read_text()))
    assert not game.errors
    headers = dict(game.headers)
    assert headers["White"] == "Kubbel, Leonid" and headers["Black"] == "Draw"
    assert headers["Event"] == "Shakhmaty" and headers["Date"] == "1925.??.??" and headers["Award"] == "1st Prize"
    assert headers["Result"] == "1/2-1/2"  # a draw study: the result follows the stipulation
    assert headers["SetUp"] == "1" and headers["FEN"] == KUBBEL.fen() and headers["GBR"] == "=0323.12g3g1a3a2e1g8h6c3c6"
    assert replayed(game) == kubbel_solution().board
    with Collection(path) as collection:  # and the collection reader reads it back
        assert [record.code for record in collection.records()] == ["0323.12"]


def test_a_study_saved_as_epd_has_its_opcodes(tmp_path):
    path = tmp_path / "studies.epd"
    study = StudyRecord(**{**STUDY.__dict__, "solution": kubbel_solution().game})
    append_position(path, KUBBEL, None, study=study)
    board, operations = chess.Board.from_epd(path.read_text())
    assert board.board_fen() == KUBBEL.board_fen()
    assert operations["id"] == "Kubbel, Leonid, Shakhmaty 1925"
    assert (operations["c0"], operations["c1"], operations["c2"], operations["c3"]) == (
        "Kubbel, Leonid", "Shakhmaty 1925", "1st Prize", "Draw"
    )  # fmt: skip
    assert operations["bm"] == [chess.Move.from_uci("e1f2")]  # the key move, 1.Bf2+
    assert [move.uci() for move in operations["pv"]][:2] == ["e1f2", "g1h1"]
    assert operations["GBR"] == "=0323.12g3g1a3a2e1g8h6c3c6"


def test_a_win_study_gets_1_0_and_a_solution_from_elsewhere_is_refused(tmp_path):
    path = tmp_path / "studies.pgn"
    append_position(path, KUBBEL, None, study=StudyRecord(stipulation="+"))
    game = chess.pgn.read_game(io.StringIO(path.read_text()))
    assert game.headers["Result"] == "1-0" and game.headers["Black"] == "Win" and game.headers["White"] == "?"
    other = chess.pgn.Game()  # from the start array, not Kubbel's position
    with pytest.raises(GbrError, match="does not start from the position"):
        append_position(path, KUBBEL, None, study=StudyRecord(solution=other))


def test_the_move_list_rows_follow_the_main_line_and_its_variations():
    solution = Solution(KUBBEL)
    for san in ("Bf2+", "Kh1", "h7"):
        solution.play(san)
    solution.go_to(solution.game)
    solution.play("Kf3")  # 1.Kf3, a variation of the first move, then 1...Rxa2
    solution.play("Rxa2")
    rows = [(depth, words) for _, depth, words in solution_rows(solution.game)]
    assert rows == [(0, "1. Bf2+"), (1, "1. Kf3"), (1, "1... Rxa2"), (0, "1... Kh1"), (0, "2. h7")]


def test_each_move_carries_its_mark_where_marks_are_given():
    # The hook for tablebase marks: here a mark that names captures, worked out by python-chess.
    solution = kubbel_solution()

    def capture(board: chess.Board, move: chess.Move) -> str:
        return "x!" if board.is_capture(move) else ""

    marked = [words for _, _, words in solution_rows(solution.game, capture) if words.endswith("x!")]
    # Captures of the published solution: 3...Rxe3+, 5...cxd5, 6.hxg8=Q, 8...Rxg2.
    assert marked == ["3... Rxe3+ x!", "5... cxd5 x!", "6. hxg8=Q x!", "8... Rxg2 x!"]
