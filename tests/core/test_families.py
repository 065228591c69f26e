"""The families table, checked class by class against its definition in words (the docs'
collections page), and the colour twin of a code."""

from __future__ import annotations

import itertools

import pytest

from gbr_tui.core.code import encode
from gbr_tui.core.collection.tally import stronger_first, swapped_code
from gbr_tui.core.families import ALL_FAMILIES, FAMILIES, family_of
from gbr_tui.core.material import Material

# Every side with up to two of each piece (3**4 = 81 sides), with or without pawns.
SIDES = [(*pieces, pawns) for pieces in itertools.product(range(3), repeat=4) for pawns in (0, 2)]


def expected_family(white: tuple[int, ...], black: tuple[int, ...]) -> str:
    """The docs' definitions, written out again from the counts (queens, rooks, bishops,
    knights; pawns never matter)."""
    # The side with more queens first, then more rooks, then more minor pieces.
    sides = sorted([white[:4], black[:4]], key=lambda side: (side[0], side[1], side[2] + side[3]), reverse=True)
    (q1, r1, b1, n1), (q2, r2, b2, n2) = sides
    minors1, minors2 = b1 + n1, b2 + n2
    majors1, majors2 = q1 + r1, q2 + r2
    one_piece_or_none = lambda side: sum(side) <= 1  # noqa: E731
    if sum(sides[0]) == 0:
        return "pawn endings"
    if majors1 == majors2 == 0:
        if sum(sides[0]) == 1:  # one minor piece against one or none
            if {b1 + b2, n1 + n2} == {1}:
                return "bishop v knight"
            return "knight endings" if n1 + n2 else "bishop endings"
        if minors1 == 2 and minors2 <= 1:
            return "two minor pieces"
        return "other"
    if q1 + q2 == 0:
        if (r1, minors1) == (1, 0) and one_piece_or_none(sides[1]):
            return "rook endings" if minors2 == 0 else "rook v minor piece"
        if (r1, minors1) == (1, 1) and (r2, minors2) == (1, 0):
            return "rook and minor piece v rook"
        if (r1, minors1) == (1, 0) and (r2, minors2) == (0, 2):
            return "rook v two minor pieces"
        if (r1, minors1, r2, minors2) == (2, 0, 2, 0):
            return "two rooks a side"
        return "other"
    if (q1, r1, minors1) == (1, 0, 0):
        if q2 + r2 + minors2 == 0 or (q2, r2, minors2) == (1, 0, 0):
            return "queen endings"
        if (q2, r2, minors2) == (0, 1, 0):
            return "queen v rook"
        if (q2, r2) == (0, 0) and minors2 in (1, 2):
            return "queen v minor pieces"
    return "other"


def test_every_class_falls_in_the_family_its_definition_says():
    seen = set()
    for white, black in itertools.product(SIDES, repeat=2):
        found = family_of(Material(white, black))
        assert found == expected_family(white, black), (white, black)
        assert found == family_of(Material(black, white))  # whichever colour has which
        seen.add(found)
    assert seen == {family.name for family in ALL_FAMILIES}  # no family is empty


@pytest.mark.parametrize(
    "material, family",
    [
        ("K v K", "pawn endings"),
        ("KPP v KP", "pawn endings"),
        ("KRP v KR", "rook endings"),  # spec: 0400.10
        ("KBBP v KNN", "other"),  # spec: 0026.10, two minor pieces against two
        ("KQ v KR", "queen v rook"),
        ("KB v KRPP", "rook v minor piece"),
        ("KBN v K", "two minor pieces"),
    ],
)
def test_named_materials(material, family):
    assert family_of(Material.from_string(material)) == family


def test_the_table_names_each_pair_of_sides_once():
    pairs = [pair for family in FAMILIES for pair in family.pieces]
    assert len(pairs) == len(set(pairs))


def test_the_colour_twin_of_a_code_is_the_code_of_the_swapped_material():
    for white, black in itertools.product(SIDES, repeat=2):
        material = Material(white, black)
        assert swapped_code(encode(material)) == encode(material.swapped())
    # spec: KRP v KR is 0400.10, so KR v KRP is 0400.01; KBBP v KRNPP 0323.12 twins 0161.21
    # (R 1 Black -> 1 White: 1; B 2 White -> 2 Black: 6; N 1 Black -> 1 White: 1).
    assert swapped_code("0400.10") == "0400.01"
    assert swapped_code("0323.12") == "0161.21"


def test_the_stronger_side_by_the_codes_order():
    assert stronger_first(Material.from_string("KRP v KR"))
    assert not stronger_first(Material.from_string("KR v KRP"))
    assert stronger_first(Material.from_string("KR v KBB"))  # a rook before any bishops
    assert stronger_first(Material.from_string("KN v KPPPP"))
    assert stronger_first(Material.from_string("KR v KR"))  # equal sides stay as they are


def test_the_docs_print_the_table():
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "collections.md").read_text(encoding="utf-8")
    for family in ALL_FAMILIES:
        assert f"| {family.name} | {family.definition} |" in page
