"""Spec section 2: the published examples and the named classes, as printed."""

from __future__ import annotations

import pytest

from gbr_tui.core import Material, decode, encode, examples
from tests.support.published import PRINTED


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
    # A wildcard, as in the collection filter: the rook classes 0400.10 (KRP v KR, Lucena,
    # Vancura, Romanovsky), 0400.01 (Philidor), 0410.00 (R+B v R) and 0401.00 (R+N v R).
    assert set(codes("04*")) == {"0400.10", "0400.01", "0410.00", "0401.00"}
    # The start of a code, as the examples filter took it: 0323.12 (the spec's row and Kubbel's
    # study), Saavedra's 0300.10 and the Probleemblad position's 0341.23.
    assert set(codes("03")) == {"0323.12", "0300.10", "0341.23"}
    assert set(codes("KRP")) == {"0400.10", "0400.01"}  # one side's men: White's or Black's
    assert codes("KR v KR") == []  # exact material
    assert codes("KQ v KR") == ["1300.00", "1300.00"]  # the spec's row and Philidor's position
    pattern = parse_pattern("KRP")  # and the collection filter takes both short forms too
    assert pattern.matches("0400.10", Material.from_string("KR v KRP"))
    assert parse_pattern("03").matches("0323.12", Material.from_string("KBBP v KRNPP"))


# Each named position with the code its men give, derived by hand from the position as
# published (queens, rooks, bishops, knights: White's count + 3 x Black's; then the pawns).
# Where a code was printed with the position (spec sections 3 and 4) the printed one is used.
CLASSIC_CODES = {
    # Spec section 3: Kubbel's draw is printed =0323.12g3g1.
    "Kubbel 1925": "=0323.12g3g1",
    # Kh8 c6 v Ka6 h5: no pieces; pawns 1 and 1; White to play and draw.
    "Réti 1921": "=0000.11h8a6",
    # Kb6 c6 v Ka1 Rd5: rook 0 + 3x1 = 3; pawns 1 0.
    "Saavedra 1895": "+0300.10b6a1",
    # Ka6 Nb8 Bh4 c2 d2 v Kd5 a3 d4: bishop 1, knight 1; pawns 2 2.
    "Kubbel 1922": "+0011.22a6d5",
    # Ka1 a4 d4 d5 f4 v Ka7 a5 d6 f5: pawns 4 3.
    "Lasker & Reichhelm 1901": "+0000.43a1a7",
    # Kb8 Rc1 b7 v Kd8 Ra2: rooks 1 + 3 = 4; pawns 1 0.
    "Lucena position": "+0400.10b8d8",
    # Ke1 Ra3 v Kf4 Rh2 e4, Black to move: rooks 4; pawns 0 1; no + or = (Black moves).
    "Philidor position (rook)": "0400.01e1f4",
    # Kc6 Qa5 v Kb8 Rb7: queen 1, rook 3.
    "Philidor position (queen v rook)": "+1300.00c6b8",
    # Kd6 Rf7 Bd5 v Kd8 Re2: rooks 4, bishop 1.
    "Philidor position (rook and bishop v rook)": "+0410.00d6d8",
    # Kc8 Bd8 b7 v Kc6 Bh2: bishops 1 + 3 = 4; pawns 1 0.
    "Centurini 1856": "+0040.10c8c6",
    # Kc6 Re3 Nf5 v Kd8 Rg4: rooks 4, knight 1.
    "Centurini 1850": "+0401.00c6d8",
    # Kg8 d3 e3 v Kh4 a6 b6 h6: pawns 2 3.
    "Grigoriev 1928": "+0000.23g8h4",
    # Kg3 Be7 Ng1 d3 h5 v Ke3 a2 d5 h7: bishop 1, knight 1; pawns 2 3.
    "Platov 1909": "+0011.23g3e3",
    # Kg1 Rd4 Ne5 a2 b2 d5 e4 f2 v Ke7 Qb7 Ng2 a6 c7 f6: queen 3, rook 1, knights 1 + 3 = 4;
    # pawns 5 3.
    "Troitzky 1910": "+3104.53g1e7",
    # Kg3 Nd2 Nf1 v Kh1 f2: knights 2; pawns 0 1 (Troitzky's class 0002.01).
    "Kling & Horwitz 1851": "+0002.01g3h1",
    # Kf2 Qg1 Be2 Nd3 d7 v Kf7 Qf8 Bc6 Na7: queens, bishops and knights 1 + 3 = 4 each.
    "Seletsky 1933": "+4044.10f2f7",
    # Kc1 Ne8 b5 d6 e5 v Ka5 Nf8 f3 f4: knights 1 + 3 = 4; pawns 3 2.
    "Liburkin 1933": "+0004.32c1a5",
    # Ke3 Bc1 Nc8 a3 b3 d4 f2 v Ka5 Qa6 a7 b5 c6 f6: queen 3, bishop 1, knight 1; pawns 4 4.
    "Liburkin 1939": "+3011.44e3a5",
    # Kc4 Ra8 a6 v Kg7 Rf6, White to move, a draw: rooks 4; pawns 1 0.
    "Vančura position": "=0400.10c4g7",
    # Kf5 Ra8 a6 v Kg7 Ra1, Black to play and draw: no + or =.
    "Romanovsky 1950": "0400.10f5g7",
    # Spec section 4: printed a7d3 0116.00 (kings first) with 3/3+ (a win for White).
    "ARVES caption example": "+0116.00a7d3",
    # Spec section 3: printed =0341.23f3e7a3c8b2h8c6f7d3e5f6.
    "Probleemblad example": "=0341.23f3e7",
    # Spec section 4: printed 0000.02.a1a8.a2b2 (code, kings, pawns), no stipulation.
    "German Wikipedia example": "0000.02a1a8",
}


def test_there_are_at_least_twenty_classics_each_with_a_code_to_check() -> None:
    assert len(examples.CLASSICS) >= 20
    positions = examples.CLASSICS + examples.SPEC_POSITIONS
    assert {example.name for example in positions} == set(CLASSIC_CODES)


@pytest.mark.parametrize("example", examples.CLASSICS + examples.SPEC_POSITIONS, ids=lambda e: e.name)
def test_each_named_position_is_legal_and_gives_its_code(example: examples.Example) -> None:
    from gbr_tui.core.code import extended_code

    board = example.board
    assert board.is_valid(), board.status()
    assert example.source
    assert extended_code(board, example.stipulation, kings_only=True) == CLASSIC_CODES[example.name]
    assert example.white == Material.from_board(board).side_string(True)


def test_the_printed_full_codes_of_the_spec_positions() -> None:
    from gbr_tui.core.code import extended_code

    by_name = {example.name: example for example in examples.SPEC_POSITIONS}
    printed = by_name["Probleemblad example"]
    assert extended_code(printed.board, printed.stipulation) == "=0341.23f3e7a3c8b2h8c6f7d3e5f6"
    for name, caption in [
        ("ARVES caption example", "a7d3 0116.00 b2b3c6d6 3/3+"),
        ("German Wikipedia example", "0000.02.a1a8.a2b2"),
    ]:
        assert decode(caption).board.board_fen() == by_name[name].board.board_fen()


def test_a_position_with_black_to_move_carries_no_stipulation() -> None:
    # + and = both mean White to play: Romanovsky's "Black to play and draw" cannot be either.
    romanovsky = next(e for e in examples.CLASSICS if e.name == "Romanovsky 1950")
    assert romanovsky.board.turn is False and romanovsky.stipulation is None
    assert romanovsky.result == "Black to play and draw"


@pytest.mark.parametrize(
    ("typed", "names"),
    [
        ("saavedra", ["Saavedra 1895"]),
        ("Reti", ["Réti 1921"]),  # accents aside
        ("kubbel 1925", ["Kubbel 1925"]),  # every word, in the name or the source
        ("shakhmaty", ["Kubbel 1925", "Grigoriev 1928", "Seletsky 1933", "Liburkin 1939"]),
        ("vancura", ["Vančura position", "Romanovsky 1950"]),
    ],
)
def test_the_filter_finds_named_positions_by_words(typed: str, names: list[str]) -> None:
    assert [example.name for example in examples.find(typed)] == names


def test_the_filter_keeps_reading_patterns_over_the_named_positions() -> None:
    # KRP v KR, rook and pawn against rook, is 0400.10 (rooks 1 + 3, pawns 1 0): the spec's row,
    # the Lucena and Vancura positions; Saavedra (0300.10) and Philidor (0400.01) are not.
    names = [example.name for example in examples.find("0400.10")]
    assert names == ["rook and pawn against rook", "Lucena position", "Vančura position", "Romanovsky 1950"]
    # Material and one side's men read as before; "KRP" is all pattern letters, not a word.
    assert "Philidor position (rook)" in [example.name for example in examples.find("KRP")]
    assert [example.name for example in examples.find("KQ v KR")] == [
        "queen against rook",
        "Philidor position (queen v rook)",
    ]
