"""The position being set up (core.setup), without the app: edits, consistency, undo, loading.

Codes come from the spec: Kubbel's study is =0323.12g3g1 (section 3), 8888.88 is two of every
piece and eight pawns a side (17 men with the king, more than a legal board holds).
"""

from __future__ import annotations

import chess
import pytest

from gbr_tui.core import GbrError, Material, Rule, decode
from gbr_tui.core.examples import ALL
from gbr_tui.core.setup import PositionSetup, arrangement_of, castling_text, example_arrangement
from gbr_tui.core.validity import position_warnings

KUBBEL_FEN = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"
KUBBEL_MEN = {"g8": "n", "h6": "P", "c6": "p", "a3": "r", "c3": "p", "g3": "K", "a2": "B", "e1": "B", "g1": "k"}


def test_placing_kubbels_men_one_by_one_gives_his_published_code():
    setup = PositionSetup()
    for square, symbol in KUBBEL_MEN.items():
        setup.place(chess.parse_square(square), symbol)
    setup.toggle_stipulation("=")
    assert setup.board.board_fen() == KUBBEL_FEN
    description = setup.description()
    assert description.code == "0323.12"
    assert description.kings_code == "=0323.12g3g1"
    # Spec section 3's order: queens, rooks, bishops, knights, then White's and Black's pawns.
    assert description.every_man == "=0323.12g3g1a3a2e1g8h6c3c6"
    assert description.legal


def test_every_edit_is_one_undo_step_and_redo_replays_it():
    setup = PositionSetup()
    setup.place(chess.E1, "K")
    setup.place(chess.E8, "k")
    setup.toggle_stipulation("+")
    assert setup.undo() and setup.stipulation is None
    assert setup.undo() and setup.board.board_fen() == "8/8/8/8/8/8/8/4K3"
    assert setup.redo() and setup.board.board_fen() == "4k3/8/8/8/8/8/8/4K3"
    assert setup.redo() and setup.stipulation == "+"
    assert not setup.redo()


def test_an_edit_that_changes_nothing_is_no_undo_step():
    setup = PositionSetup()
    setup.empty(chess.E4)
    assert not setup.undo()


def test_the_same_stipulation_again_unsets_it_and_a_bad_one_is_refused():
    setup = PositionSetup()
    setup.toggle_stipulation("=")
    setup.toggle_stipulation("=")
    assert setup.stipulation is None
    with pytest.raises(GbrError):
        setup.toggle_stipulation("#")


def test_castling_rights_follow_the_men():
    setup = PositionSetup(chess.Board())
    setup.empty(chess.H1)  # the h1 rook goes: White can no longer castle short
    assert setup.board.castling_rights == chess.BB_A1 | chess.BB_A8 | chess.BB_H8


def test_an_impossible_en_passant_square_is_dropped():
    board = chess.Board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    setup = PositionSetup(board)
    setup.empty(chess.D5)  # no pawn that could just have moved two squares
    assert setup.board.ep_square is None
    assert setup.undo() and setup.board.ep_square == chess.D6  # undo restores it exactly


def test_loading_is_one_step_and_keeps_the_given_board_apart():
    board = chess.Board(f"{KUBBEL_FEN} w - - 0 1")
    setup = PositionSetup()
    setup.load(board, "=")
    setup.place(chess.A1, "Q")
    assert board.piece_at(chess.A1) is None  # the setup edits its own copy
    assert setup.undo() and setup.board.board_fen() == KUBBEL_FEN
    assert setup.undo() and setup.board.board_fen() == "8/8/8/8/8/8/8/8" and setup.stipulation is None


def test_the_promoted_rule_writes_9_for_two_queens():
    # Spec section 5.2: two White queens are 2 by default, 9 under the promoted rule.
    setup = PositionSetup(chess.Board("4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1"))
    assert setup.description(Rule.COUNT).code == "2000.00"
    assert setup.description(Rule.PROMOTED).code == "9000.00"


def test_more_than_eight_pawns_has_no_code_and_says_why():
    setup = PositionSetup(chess.Board("4k3/8/8/8/8/1P6/PPPPPPPP/4K3 w - - 0 1"))
    description = setup.description()
    assert description.code is None and description.kings_code is None
    assert any("more than 8 pawns" in warning for warning in description.warnings)


def test_a_code_with_every_square_is_set_up_square_for_square():
    arrangement = arrangement_of(decode("=0323.12g3g1a3a2e1g8h6c3c6"))
    assert arrangement.board.board_fen() == KUBBEL_FEN
    assert arrangement.stipulation == "="


def test_a_code_with_king_squares_keeps_them_and_arranges_the_rest_legally():
    arrangement = arrangement_of(decode("=0323.12g3g1"))
    board = arrangement.board
    assert (board.king(chess.WHITE), board.king(chess.BLACK)) == (chess.G3, chess.G1)
    assert Material.from_board(board) == Material.from_string("KBBP v KRNPP")
    assert position_warnings(board) == []


def test_a_basic_code_is_arranged_legally_with_the_side_to_move_it_gives():
    # Spec (EG): f1h1 0001.04 2/5 Win, with BTM = Black to move.
    arrangement = arrangement_of(decode("0001.04 BTM"))
    assert arrangement.board.turn == chess.BLACK
    assert Material.from_board(arrangement.board) == Material.from_string("KN v KPPPP")
    assert position_warnings(arrangement.board) == []


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("9000", "a 9 hides how many queens there are"),  # how many queens is unknown
        ("8888.88", "8888.88 cannot be set up"),  # 17 men a side
    ],
)
def test_what_cannot_be_set_up_is_refused_with_the_reason(code, reason):
    with pytest.raises(GbrError) as refused:
        arrangement_of(decode(code))
    assert reason in refused.value.message


@pytest.mark.parametrize("example", ALL, ids=lambda example: example.name)
def test_every_example_is_arranged_legally_with_its_material(example):
    arrangement = example_arrangement(example, chess.WHITE, Rule.COUNT)
    assert Material.from_board(arrangement.board) == example.material
    assert position_warnings(arrangement.board) == []


@pytest.mark.parametrize("edit", ["clear", "start_position"])
def test_a_new_position_starts_without_the_stipulation_of_the_last(edit):
    setup = PositionSetup(chess.Board(f"{KUBBEL_FEN} w - - 0 1"))
    setup.toggle_stipulation("+")
    getattr(setup, edit)()
    assert setup.stipulation is None
    assert setup.undo() and setup.stipulation == "+"  # undo brings both back


def test_an_example_carries_no_stipulation():
    assert example_arrangement(ALL[0], chess.WHITE, Rule.COUNT).stipulation is None


def test_black_to_move_under_a_stipulation_reads_as_the_btm_form_and_is_said():
    setup = PositionSetup(chess.Board(f"{KUBBEL_FEN} w - - 0 1"))
    setup.toggle_stipulation("=")
    assert setup.description().stipulation_warning is None
    setup.toggle_turn()
    description = setup.description()
    # Spec section 3: EG prints BTM for Black to move; the compact code has no place for it.
    assert description.stipulation == "= Black to move, draw"
    assert description.stipulation_warning == "Black to move: the code's = does not say so (EG prints BTM, Draw)"
    assert description.legal  # the position itself is legal
    setup.toggle_stipulation("=")
    assert setup.description().stipulation_warning is None


@pytest.mark.parametrize(
    ("fen", "rule", "label", "text"),
    [
        (
            "1n2k1n1/8/8/8/8/8/8/NN2K1N1 w - - 0 1",  # KNNN v KNN, 0009 (spec section 2)
            Rule.COUNT,
            "N",
            "White has three knights and Black two; the code writes 9 when a side has three or more",
        ),
        (
            "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1",  # two White queens: 9 under the promoted rule only
            Rule.PROMOTED,
            "Q",
            "White has two queens and Black none; the promoted rule writes 9 when a side has more than one queen",
        ),
    ],
)
def test_a_9_on_a_board_says_what_it_stands_for(fen, rule, label, text):
    lines = {line.label: line for line in PositionSetup(chess.Board(fen)).description(rule).digits}
    assert lines[label].digit == "9"
    assert lines[label].text == text


def test_a_rook_lifted_and_put_back_gets_its_castling_right_back():
    setup = PositionSetup(chess.Board())
    setup.empty(chess.H1)
    assert castling_text(setup.board.castling_rights) == "Qkq"
    setup.place(chess.H1, "R")
    assert castling_text(setup.board.castling_rights) == "KQkq"
    setup.empty(chess.E8)  # the Black king goes: neither of Black's rights
    setup.place(chess.E8, "k")
    assert setup.board.fen() == chess.STARTING_FEN


def test_castling_rights_can_be_set_and_those_the_men_forbid_are_said():
    setup = PositionSetup(chess.Board("r3k3/8/8/8/8/8/8/4K2R w - - 0 1"))
    assert setup.set_castling("KQkq") == "Qk"  # no rook on a1, none on h8
    assert castling_text(setup.board.castling_rights) == "Kq"
    assert setup.set_castling("-") == "-" and setup.board.castling_rights == chess.BB_EMPTY
    assert setup.undo() and castling_text(setup.board.castling_rights) == "Kq"
    with pytest.raises(GbrError) as refused:
        setup.set_castling("KX")
    assert refused.value.message == "castling rights are written K Q k q (as in FEN) or -, not 'X'"


def test_a_new_or_cleared_position_wants_no_castling_it_did_not_give():
    setup = PositionSetup(chess.Board())
    setup.clear()
    setup.place(chess.E1, "K")
    setup.place(chess.H1, "R")
    assert setup.board.castling_rights == chess.BB_EMPTY  # a set-up study: no castling unless set
    setup.load(chess.Board("4k3/8/8/8/8/8/8/R3K2R w K - 0 1"), None)
    setup.empty(chess.H1)
    setup.place(chess.H1, "R")
    assert castling_text(setup.board.castling_rights) == "K"
