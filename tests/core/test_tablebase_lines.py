"""A solution's moves marked against the tablebase (core.tablebase_lines): Saavedra's study."""

from __future__ import annotations

import chess
import pytest

from gbr_tui.core.hhdb import stipulation_from
from gbr_tui.core.tablebase_lines import Mark, mark_line
from gbr_tui.core.tablebases import Tablebases
from tests.support.tablebases import SAAVEDRA, SAAVEDRA_SOLUTION, SYZYGY, moves_of


@pytest.fixture(scope="module")
def tables():
    with Tablebases([SYZYGY]) as opened:
        yield opened


@pytest.fixture(scope="module")
def saavedra_marks(tables):
    board = chess.Board(SAAVEDRA)
    return mark_line(tables, board, moves_of(board, SAAVEDRA_SOLUTION), "+")


def test_every_move_of_saavedras_solution_is_judged(saavedra_marks):
    assert [marked.san for marked in saavedra_marks] == SAAVEDRA_SOLUTION
    black = saavedra_marks[1::2]
    assert all(marked.mark in (Mark.BEST, Mark.NOT_LONGEST) for marked in black)
    white = saavedra_marks[0::2]
    assert Mark.SPOILS not in [marked.mark for marked in white]  # the published solution wins


def test_c7_and_kc2_are_only_moves(saavedra_marks):
    # 1.c7 is the one winning move (any king move lets the rook take the pawn or check it away);
    # 5.Kc2 is the one square from which the rook's checks end without reaching the pawn.
    assert saavedra_marks[0].mark == Mark.ONLY and saavedra_marks[0].words() == "only move (DTZ 1)"
    assert saavedra_marks[8].mark == Mark.ONLY


def test_the_alternatives_that_still_win_are_told_real_or_minor(saavedra_marks):
    """The issue's three: 3.Kb6 (the rook checks it back to b5), 4.Kb5/Kc3 and 6.Kc3/Kb3. A
    king move back up the board only gives the checks again: longer (DTZ counts plies to the
    promotion), so a minor dual; 4.Kc3 reaches the promotion as fast as 4.Kb3: a real dual."""
    third, fourth, sixth = saavedra_marks[4], saavedra_marks[6], saavedra_marks[10]
    assert [(other.san, other.minor) for other in third.alternatives] == [("Kb6", True)]
    assert third.words() == "minor dual (DTZ 6): also Kb6 (DTZ 10, minor)"
    assert sorted((other.san, other.minor) for other in fourth.alternatives) == [("Kb5", True), ("Kc3", False)]
    assert fourth.mark == Mark.DUAL and fourth.words().startswith("dual (DTZ 4): also ")
    assert sorted((other.san, other.minor) for other in sixth.alternatives) == [("Kb3", True), ("Kc3", True)]
    # The promotion itself is a zeroing move: one ply, against the king moves' 4.
    assert sixth.distance == 1 and all(other.distance == 4 for other in sixth.alternatives)


def test_a_planted_spoiling_move_is_reported_and_ends_the_judging(tables):
    # 2.Kc5? Rd1 draws: the king cannot both shelter from the checks and stop ...Rc1.
    board = chess.Board(SAAVEDRA)
    marks = mark_line(tables, board, moves_of(board, ["c7", "Rd6+", "Kc5", "Rd1", "Kb6"]), "+")
    assert marks[2] is not None and marks[2].mark == Mark.SPOILS
    assert marks[2].words() == "spoils the win: now a draw"
    assert marks[3:] == [None, None]


def test_a_black_move_that_shortens_the_defence_is_said(tables):
    # 1...Rd8? lets 2.cxd8 (or a promotion) come at once; 1...Rd6+ holds out longest.
    board = chess.Board(SAAVEDRA)
    marks = mark_line(tables, board, moves_of(board, ["c7", "Rd8"]), "+")
    assert marks[1] is not None and marks[1].mark == Mark.NOT_LONGEST
    assert marks[1].words().startswith("not the longest defence")


def test_the_walk_starts_at_the_first_position_within_the_tables(tables):
    # KNP v KR (no table kept): 1...Rxd3 leaves Saavedra's material, KP v KR, within the tables.
    board = chess.Board("8/8/1KP5/3r4/8/3N4/8/k7 b - - 0 1")
    marks = mark_line(tables, board, moves_of(board, ["Rxd3", "c7"]))
    assert marks[0] is None
    assert marks[1] is not None and marks[1].san == "c7"


def test_without_a_stipulation_the_tables_result_is_held_to(tables):
    board = chess.Board(SAAVEDRA)
    marks = mark_line(tables, board, moves_of(board, ["c7"]))
    assert marks[0] is not None and marks[0].wanted == 1 and marks[0].mark == Mark.ONLY


@pytest.mark.parametrize(
    ("headers", "caption", "stipulation"),
    [
        ({"Stipulation": "+"}, None, "+"),
        ({"Stipulation": "Draw"}, "+0300.10", "="),  # the tag comes first
        ({}, "=0300.10b6a1", "="),
        ({"Black": "=0323.12g3g1"}, None, "="),  # HHdb's Black tag: stipulation and code
        ({"Black": "Kubbel"}, None, None),  # a player's name
        ({"Black": "0323.12"}, None, None),  # a code without a stipulation
    ],
)
def test_the_stipulation_is_read_from_the_tag_the_caption_or_hhdbs_black_tag(headers, caption, stipulation):
    assert stipulation_from(headers, caption) == stipulation
