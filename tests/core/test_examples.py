"""Spec section 2: the published examples and the named classes, as printed."""

from __future__ import annotations

import pytest

from gbr_tui.core import Material, decode, encode, examples
from tests.published import PRINTED


def test_the_table_has_all_21_rows_in_the_spec_order() -> None:
    assert len(examples.PUBLISHED) == len(PRINTED) == 21
    assert [(e.white, e.black) for e in examples.PUBLISHED] == [(w, b) for w, b, _ in PRINTED]


@pytest.mark.parametrize(("index", "white", "black", "printed"), [(i, *row) for i, row in enumerate(PRINTED)])
def test_each_published_example_gives_its_printed_class(index: int, white: str, black: str, printed: str) -> None:
    assert examples.PUBLISHED[index].code() == printed
    assert encode(Material.from_string(f"{white} v {black}"), short=True) == printed
    # The same material written the other accepted ways.
    assert encode(Material.from_string(f"{white}v{black}"), short=True) == printed
    assert encode(Material.from_string(f"{white.lower()}-{black}"), short=True) == printed


@pytest.mark.parametrize(("white", "black", "printed"), PRINTED)
def test_each_printed_class_decodes_to_its_material(white: str, black: str, printed: str) -> None:
    decoded = decode(printed)
    if "9" in printed:  # KNNN v KNN: three knights, so the knight count is lost
        assert decoded.unknown == ["N"]
        assert decoded.material is None
    else:
        assert decoded.material == Material.from_string(f"{white} v {black}")


def test_the_canonical_form_keeps_the_pawn_digits() -> None:
    # Spec section 1: 'abcd.ef' always, '.00' included; the short form drops '.00'.
    assert encode(Material.from_string("KBN v K")) == "0011.00"
    assert encode(Material.from_string("KBN v K"), short=True) == "0011"
    assert examples.PUBLISHED[0].code(short=False) == "1000.00"


def test_named_classes() -> None:
    by_name = {example.name.split(":")[0]: example for example in examples.NAMED}
    # Troitzky, KNN v KP: knights 2 White + 0 Black = 2; pawns 0 White, 1 Black -> 0002.01.
    assert by_name["Troitzky"].code() == "0002.01"
    # The starting array, each side Q RR BB NN and 8 pawns: queens 1 + 3*1 = 4,
    # rooks, bishops, knights 2 + 3*2 = 8 each; pawns 8 and 8 -> 4888.88.
    start = next(e for e in examples.NAMED if "starting array" in e.name)
    assert start.code() == "4888.88"
    assert encode("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR") == "4888.88"


@pytest.mark.parametrize("example", examples.ALL, ids=lambda e: f"{e.white}v{e.black}")
def test_every_example_has_a_legal_arrangement_with_its_material(example: examples.Example) -> None:
    board = examples.arrange(example.material)
    assert board.is_valid()
    assert Material.from_board(board) == example.material
    assert encode(board, short=True) == example.code()


def test_the_examples_filter_speaks_the_collection_filters_pattern_language():
    from gbr_tui.core.examples import find
    from gbr_tui.core.patterns import parse_pattern

    codes = lambda text: [example.code(short=False) for example in find(text)]  # noqa: E731
    assert codes("04*") == ["0400.10"]  # a wildcard, as in the collection filter
    assert codes("03") == ["0323.12"]  # the start of a code, as the examples filter took it
    assert set(codes("KRP")) == {"0400.10"}  # one side's men
    assert codes("KR v KR") == []  # exact material
    assert codes("KQ v KR") == ["1300.00"]
    pattern = parse_pattern("KRP")  # and the collection filter takes both short forms too
    assert pattern.matches("0400.10", Material.from_string("KR v KRP"))
    assert parse_pattern("03").matches("0323.12", Material.from_string("KBBP v KRNPP"))
