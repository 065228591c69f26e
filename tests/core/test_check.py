"""A printed caption against its position (core.check): each part that can disagree.

The positions and their captions are spec section 4's published pairs; every wrong caption is
one of them with one part changed by hand, and the comment says what the position gives.
"""

from __future__ import annotations

import chess
import pytest

from gbr_tui.core import GbrError, Rule
from gbr_tui.core.check import Disagreement, check_caption, code_alone, record_check
from gbr_tui.core.material import Material

KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"  # spec 4: =0323.12g3g1
ARVES = "8/K7/2nn4/8/8/1B1k4/1R6/8"  # spec 4: a7d3 0116.00 b2b3c6d6 3/3+
GERMAN = "k7/8/8/8/8/8/pp6/K7"  # spec 4: 0000.02.a1a8.a2b2


@pytest.mark.parametrize(
    ("caption", "position"),
    [
        ("=0323.12g3g1", KUBBEL),
        ("a7d3 0116.00 b2b3c6d6 3/3+", ARVES),
        ("0000.02.a1a8.a2b2", GERMAN),
        ("0323.12", KUBBEL),  # the code alone
        ("g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw", KUBBEL),  # spec 3's EG form of Kubbel's study
    ],
)
def test_published_pairs_agree(caption: str, position: str) -> None:
    assert check_caption(caption, position).agree


def test_a_wrong_digit_names_the_digit() -> None:
    # Kubbel's study has one Black knight (g8) and no White one: N = 0 + 3 x 1 = 3; 4 is printed.
    found = check_caption("=0324.12g3g1", KUBBEL)
    assert found.parts == ["code"]
    (code,) = found.disagreements
    assert (code.printed, code.actual) == ("0324.12", "0323.12")
    assert code.detail.startswith("N printed 4, the position 3: 0 White + 1 Black")


def test_a_wrong_men_count() -> None:
    # White: Ka7 Rb2 Bb3 = 3 men; Black: Kd3 Nc6 Nd6 = 3 men, kings included (EG and ARVES count
    # them: 3/3 is printed with this position); 3/4 is wrong, and decoding keeps it to compare.
    found = check_caption("a7d3 0116.00 b2b3c6d6 3/4+", ARVES)
    assert found.disagreements == [Disagreement("count", "3/4", "3/3")]


def test_swapped_kings() -> None:
    # The White king stands on a7, the Black one on d3; printed the other way round.
    found = check_caption("d3a7 0116.00 b2b3c6d6 3/3+", ARVES)
    assert found.disagreements == [Disagreement("kings", "d3a7", "a7d3")]


def test_a_wrong_square_says_which() -> None:
    # Black's pawns stand on a2 and b2; b3 is printed for b2.
    found = check_caption("0000.02.a1a8.a2b3", GERMAN)
    assert found.parts == ["squares"]
    (squares,) = found.disagreements
    assert (squares.printed, squares.actual) == ("a2b3", "a2b2")
    assert squares.detail == "b3 printed, empty in the position; b2 in the position, not printed"


def test_men_swapped_on_the_right_squares() -> None:
    # After the kings the rook comes first (b2), then the bishop (b3): b3b2 puts them on each
    # other's square, the squares occupied being the same.
    found = check_caption("a7d3 0116.00 b3b2c6d6", ARVES)
    assert found.parts == ["squares"]
    assert found.disagreements[0].detail == "the same squares, other men on them"


def test_several_parts_at_once() -> None:
    # A wrong code (0106: no bishop) and kings swapped; the squares then are compared as the
    # squares occupied (the code does not agree), and b2 b3 c6 d6 are the position's.
    found = check_caption("d3a7 0106.00 b2c6d6", ARVES)
    assert found.parts == ["code", "kings", "squares"]
    assert found.disagreements[2].detail == "b3 in the position, not printed"


def test_the_rule_decides_a_second_queen() -> None:
    # Spec 5.2: two White queens are 2000 by the count rule, 9000 by the promoted rule.
    two_queens = "k7/8/8/8/8/8/8/KQQ5"
    found = check_caption("9000", two_queens)
    assert found.parts == ["code"]
    assert found.disagreements[0].actual == "2000.00"
    assert "the promoted rule gives the printed code" in found.disagreements[0].detail
    assert check_caption("9000", two_queens, Rule.PROMOTED).agree


def test_a_nine_compares_the_squares_occupied() -> None:
    # Three White knights (b1 c1 d1): N = 9; with a 9 the squares cannot be split by type, so
    # the set of squares is compared: d2 is printed where the position has d1.
    three_knights = "k7/8/8/8/8/8/8/KNNN4"
    assert check_caption("0009a1a8b1c1d1", three_knights).agree
    found = check_caption("0009a1a8b1c1d2", three_knights)
    assert found.parts == ["squares"]


def test_a_caption_that_does_not_decode_raises() -> None:
    with pytest.raises(GbrError):
        check_caption("01x6", ARVES)


def test_record_check_in_words() -> None:
    assert record_check(None, ARVES) is None  # no caption: unchecked
    assert record_check("a7d3 0116.00 b2b3c6d6 3/3+", ARVES) == []
    assert record_check("a7d3 0116.00 b2b3c6d6 3/4+", ARVES) == [
        ("count", "count: printed 3/4, the position gives 3/3")
    ]
    ((part, words),) = record_check("01x6", ARVES)
    assert part == "caption" and words.startswith("the caption '01x6' does not decode:")
    ((_, escaped),) = record_check("\x1b[2J", ARVES)
    assert "\x1b" not in escaped and "\\x1b" in escaped  # made printable


@pytest.mark.parametrize(
    ("caption", "position", "parts"),
    [
        ("0323.12", KUBBEL, []),
        ("0324.12", KUBBEL, ["code"]),  # one Black knight (g8) and no White one: N is 3, not 4
        ("d3a7 0116.00 b2b3c6d6 3/3+", ARVES, ["kings"]),  # White's king stands on a7
        ("0000.02.a1a8.a2b3", GERMAN, ["squares"]),  # Black's pawns are on a2 and b2
    ],
)
def test_the_material_known_gives_what_the_board_gives(caption: str, position: str, parts: list[str]) -> None:
    material = Material.from_board(chess.BaseBoard(position))
    assert check_caption(caption, position, material=material) == check_caption(caption, position)
    assert check_caption(caption, position, material=material).parts == parts


def test_a_code_alone_needs_no_board() -> None:
    # With the material known, the board of a caption that prints a code alone is never read
    # (a placement that is no board would raise); the kings printed need it.
    kubbel = Material.from_board(chess.BaseBoard(KUBBEL))
    assert check_caption("0323.12", "not a board", material=kubbel).agree
    assert code_alone("0323.12", Rule.COUNT) and code_alone("01x6", Rule.COUNT)
    assert not code_alone("=0323.12g3g1", Rule.COUNT) and not code_alone("0116.00 3/3", Rule.COUNT)
    with pytest.raises(GbrError):
        check_caption("=0323.12g3g1", "not a board", material=kubbel)
