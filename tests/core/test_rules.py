"""The digit rules of spec section 1: count (default) and promoted; 9s; never clamp."""

from __future__ import annotations

import pytest

from gbr_tui.core import FenEncoder, Material, Rule, board_from_fen, decode, encode, explain, extended_code
from gbr_tui.core.material import men_on_board


def test_two_white_queens_are_2_by_count_and_9_by_promoted() -> None:
    material = Material.from_string("KQQ v K")
    # Count rule: 2 White x 1 + 0 Black x 3 = 2. Promoted rule: a second queen -> 9.
    assert encode(material) == "2000.00"
    assert encode(material, Rule.PROMOTED) == "9000.00"


def test_two_black_queens_are_6_by_count_and_9_by_promoted() -> None:
    material = Material.from_string("K v KQQ")
    assert encode(material) == "6000.00"  # 0 + 2 x 3
    assert encode(material, Rule.PROMOTED) == "9000.00"


def test_one_queen_each_is_4_under_both_rules() -> None:
    for rule in Rule:
        assert encode(Material.from_string("KQ v KQ"), rule) == "4000.00"


def test_the_promoted_rule_only_touches_queens() -> None:
    # Two rooks a side are 2 + 2 x 3 = 8 under both rules.
    assert encode(Material.from_string("KRR v KRR"), Rule.PROMOTED) == "0800.00"


def test_the_rule_reaches_every_place_a_code_is_computed() -> None:
    fen = "4k3/8/8/8/8/8/8/QQ2K3"
    assert encode(fen, Rule.PROMOTED) == "9000.00"
    assert FenEncoder(Rule.PROMOTED).code(fen) == "9000.00"
    assert FenEncoder(Rule.PROMOTED).codes([fen]) == ["9000.00"]
    assert extended_code(fen, rule=Rule.PROMOTED).startswith("9000.00e1e8")


def test_the_spec_1689_example() -> None:
    # White Q, two Black rooks, two bishops each, three Black knights:
    # queens 1; rooks 0 + 2 x 3 = 6; bishops 2 + 2 x 3 = 8; knights: three -> 9.
    material = Material.from_counts({"Q": 1, "B": 2}, {"R": 2, "B": 2, "N": 3})
    assert encode(material, short=True) == "1689"
    decoded = decode("1689")
    assert decoded.white == {"Q": 1, "R": 0, "B": 2, "N": None, "P": 0}
    assert decoded.black == {"Q": 0, "R": 2, "B": 2, "N": None, "P": 0}
    assert decoded.unknown == ["N"]
    assert decoded.material is None
    lines = {line.label: line for line in explain(decoded)}
    assert "unknown" in lines["N"].text and lines["N"].digit == "9"
    assert lines["B"].text.startswith("2 White + 2 Black")


def test_never_clamp_three_white_queens_are_not_one_black_queen() -> None:
    # min(3, 9) would write 3, which reads back as 0 White + 1 Black queen.
    code = encode(Material.from_string("KQQQ v K"))
    assert code == "9000.00"
    assert decode(code).white["Q"] is None
    # Likewise 4 White knights (min(4, 9) = 4 reads as one each) and 3 Black bishops.
    assert encode(Material.from_string("KNNNN v K")) == "0009.00"
    assert encode(Material.from_string("K v KBBB")) == "0090.00"


def test_a_9_in_one_digit_leaves_the_others_exact() -> None:
    # Spec section 5.1. KQRRRBN v KRP: rooks 3 + 1 -> 9; queens 1, bishops 1, knights 1.
    code = encode(Material.from_string("KQRRRBN v KRP"))
    assert code == "1911.01"
    decoded = decode(code)
    assert decoded.unknown == ["R"]
    assert (decoded.white["Q"], decoded.white["B"], decoded.white["N"]) == (1, 1, 1)
    assert decoded.black["P"] == 1


def test_decoding_under_the_promoted_rule_notes_a_queen_digit_it_would_not_write() -> None:
    assert decode("2000", Rule.PROMOTED).notes
    assert not decode("2000").notes
    (queen_line,) = [line for line in explain(decode("9000"), Rule.PROMOTED) if line.label == "Q"]
    assert "more than one queen" in queen_line.text


@pytest.mark.parametrize("pawns", [9, 10])
def test_more_than_eight_pawns_cannot_be_written(pawns: int) -> None:
    from gbr_tui.core import GbrError

    with pytest.raises(GbrError):
        encode(Material.from_counts({"P": pawns}, {}))


@pytest.mark.parametrize(
    ("placement", "men"),
    [
        ("6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1", "KBBP v KRNPP"),  # Kubbel (spec section 3)
        ("8/8/8/8/8/8/8/8", "- v -"),  # the empty board: no kings to imply
        ("4k3/8/8/8/8/8/8/4K2K", "KK v K"),  # two White kings, as they stand
        ("8/8/8/8/8/8/8/P7", "P v -"),  # a pawn and nothing else
    ],
)
def test_the_men_on_the_board_show_the_kings_that_are_there(placement: str, men: str) -> None:
    assert men_on_board(board_from_fen(placement)) == men
