"""--match patterns: codes with wildcards and material strings."""

from __future__ import annotations

import pytest

from gbr_tui.core import GbrError, Material
from gbr_tui.core.patterns import parse_pattern

# Materials of spec section 2's published examples, with their codes.
KRP_V_KR = (Material.from_string("KRP v KR"), "0400.10")
KR_V_KR = (Material.from_string("KR v KR"), "0400.00")
KR_V_K = (Material.from_string("KR v K"), "0100.00")
KBBP_V_KRNPP = (Material.from_string("KBBP v KRNPP"), "0323.12")
KNN_V_KP = (Material.from_string("KNN v KP"), "0002.01")


def matches(pattern: str, example) -> bool:
    material, code = example
    return parse_pattern(pattern).matches(code, material)


@pytest.mark.parametrize(
    "pattern, yes, no",
    [
        ("04*", [KRP_V_KR, KR_V_KR], [KR_V_K, KBBP_V_KRNPP]),
        ("0?0?.1*", [KRP_V_KR], [KR_V_KR, KBBP_V_KRNPP]),  # 0323.12: c = 2 is no 0
        ("0400", [KR_V_KR], [KRP_V_KR]),  # the short form means no pawns
        ("0?0?", [KR_V_KR, KR_V_K], [KRP_V_KR, KNN_V_KP]),
        ("0400,10", [KRP_V_KR], [KR_V_KR]),  # ',' for '.'
        ("*.1?", [KRP_V_KR, KBBP_V_KRNPP], [KNN_V_KP, KR_V_K]),
        ("*", [KRP_V_KR, KR_V_K, KNN_V_KP], []),
        ("0323.12", [KBBP_V_KRNPP], [KRP_V_KR]),
        ("KR v KR", [KR_V_KR], [KRP_V_KR, KR_V_K]),
        ("KRPvKR", [KRP_V_KR], [KR_V_KR]),
        ("krp v kr", [KRP_V_KR], [KR_V_KR]),
    ],
)
def test_pattern(pattern, yes, no):
    assert all(matches(pattern, example) for example in yes)
    assert not any(matches(pattern, example) for example in no)


def test_material_tells_apart_what_a_nine_hides():
    # KNNN v K and KNNNN v K are both 0009.00.
    three, four = Material.from_string("KNNN v K"), Material.from_string("KNNNN v K")
    pattern = parse_pattern("KNNN v K")
    assert pattern.matches("0009.00", three) and not pattern.matches("0009.00", four)
    assert parse_pattern("0009").matches("0009.00", four)


@pytest.mark.parametrize(
    "pattern, message, position",
    [
        ("04.10", "4 piece digits", 0),  # 04 alone is the start of a code (04*)
        ("0400.1", "2 pawn digits", 5),
        ("04x*", "a pattern is a code", 2),
        ("0400.10.1", "one '.'", 7),  # the second '.'
        (",,", "one '.'", 1),  # ',' stands for '.': the second one is the bad one
        ("0,0,", "one '.'", 3),
        ("0400,10.1", "one '.'", 7),
        ("", "empty pattern", 0),
        ("KX v K", "not a man", 1),
    ],
)
def test_bad_patterns_are_explained(pattern, message, position):
    with pytest.raises(GbrError) as error:
        parse_pattern(pattern)
    assert message in error.value.message
    if position is not None:
        assert error.value.offset == position
