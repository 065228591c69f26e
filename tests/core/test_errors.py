"""Bad input raises GbrError with a message and the 0-based position of the bad spot.

Positions are counted by hand in the comments (index: character).
"""

from __future__ import annotations

import pytest

from gbr_tui.core import GbrError, Material, board_from_fen, decode

CODE_ERRORS = [
    # Wrong length. '032': three digits (0-2), the fourth is missing at index 3.
    ("032", 3, "four piece digits"),
    # '03231.2': four digits 0-3, then a fifth digit at index 4 where '.' belongs.
    ("03231.2", 4, "'.'"),
    # '0323.1': digits 0-3, '.' at 4, one pawn digit at 5: the second is missing at 6.
    ("0323.1", 6, "two pawn digits"),
    # '0323.123': pawn digits at 5 and 6, a third at 7.
    ("0323.123", 7, "exactly two digits"),
    # Letters. '03x3.12': 'x' at 2 ends the piece digits early.
    ("03x3.12", 2, "four piece digits"),
    # '0323.1a': 'a' at 6 where the second pawn digit belongs.
    ("0323.1a", 6, "two pawn digits"),
    # 'abcd.ef': 'a' at 0 (and 'ab' is no square).
    ("abcd.ef", 0, "unexpected 'a'"),
    # Pawn digit 9. '0323.92': the White pawn digit is at 5; '0323.19': Black's at 6.
    ("0323.92", 5, "pawn digit is 0-8"),
    ("0323.19", 6, "pawn digit is 0-8"),
    ("+ 0323.19 g3g1", 8, "pawn digit is 0-8"),  # '+', ' ', then the code from 2: Black's at 8
    # Square lists that do not fit. '0323.12g3g1a3a2': 7 men, two squares given (11-14); the
    # list ends at 15 where the third was due.
    ("0323.12g3g1a3a2", 15, "too few squares"),
    # '0000.00a1h8b2': no men besides the kings, yet b2 at 11.
    ("0000.00a1h8b2", 11, "too many squares"),
    # '0001.00a1h8b2c3': one man, so the second square c3 at 13 is one too many.
    ("0001.00a1h8b2c3", 13, "too many squares"),
    # A king square but not two: '0323.12 g3' ends at 10 where Black's king was due.
    ("0323.12 g3", 10, "both king squares"),
    # Three squares before the code: the third, e5, is at 4.
    ("g3g1e5 0323.12", 4, "two king squares"),
    # Duplicate squares. '0001.00a1h8a1': a1 again at 11.
    ("0001.00a1h8a1", 11, "a1 is given twice"),
    ("0002.00a1h8c3c3", 13, "c3 is given twice"),
    # Kings on one square: '0000.00a1a1', the second a1 at 9; 'a1a1 0000.00' at 2.
    ("0000.00a1a1", 9, "both kings on a1"),
    ("a1a1 0000.00", 2, "both kings on a1"),
    # Men count contradicting the code. 'a7d3 0116.00 b2b3c6d6 3/4+': 'a7d3' 0-3, code 5-11,
    # squares 13-20, '3/4' at 22; the code gives 3/3.
    ("a7d3 0116.00 b2b3c6d6 3/4+", 22, "men count 3/4"),
    # 'f1h1 0001.04 2/4 Win': '2/4' at 13; the code gives 2/5 (kings included).
    ("f1h1 0001.04 2/4 Win", 13, "which gives 2/5"),
    # With a 9: '1689 4/7' - known men 4 and 5 (kings included) leave 2 for three knights.
    ("1689 4/7", 5, "men count 4/7"),
    # Order and words. '0323.12 4/5 g3g1': squares after the men count, g3 at 12.
    ("0323.12 4/5 g3g1", 12, "before the men count"),
    ("+0323.12 Draw", 9, "disagrees"),  # '+' at 0, code 1-7, 'Draw' at 9
    ("0323.12 3/5 4/5", 12, "given twice"),
    ("", 0, "empty"),
    ("   ", 0, "empty"),
    # Digits that are not ASCII: '٣' at 0, '²' at 6.
    ("\u0663\u0663\u0663\u0663", 0, "unexpected"),
    ("0323.1\u00b2", 6, "two pawn digits"),
]


@pytest.mark.parametrize(("text", "position", "words"), CODE_ERRORS)
def test_bad_codes_name_the_spot(text: str, position: int, words: str) -> None:
    with pytest.raises(GbrError) as caught:
        decode(text)
    assert caught.value.offset == position
    assert words in caught.value.message
    assert isinstance(caught.value, ValueError)


def test_the_pointer_puts_a_caret_under_the_bad_character() -> None:
    with pytest.raises(GbrError) as caught:
        decode("0323.92")
    assert caught.value.pointer("0323.92") == "0323.92\n     ^"


MATERIAL_ERRORS = [
    ("", 0, "empty"),
    # 'QK v K': the first side starts with Q at 0.
    ("QK v K", 0, "starts with its king"),
    # 'KX v K': X at 1.
    ("KX v K", 1, "'X' is not a man"),
    # 'KQ v KK': the second side starts at 5; its second K at 6.
    ("KQ v KK", 6, "a second king"),
]


@pytest.mark.parametrize(("text", "position", "words"), MATERIAL_ERRORS)
def test_bad_material_names_the_spot(text: str, position: int, words: str) -> None:
    with pytest.raises(GbrError) as caught:
        Material.from_string(text)
    assert caught.value.offset == position
    assert words in caught.value.message


FEN_ERRORS = [
    ("", 0, "empty"),
    # Nine ranks: the eighth '/' (at 15) starts the ninth rank.
    ("8/8/8/8/8/8/8/8/8", 15, "8 rows"),
    # Seven ranks: the placement ends at 13 where '/' and an eighth rank were due.
    ("8/8/8/8/8/8/8", 13, "8 rows"),
    # '8/8/8/44/8/8/8/8': the second 4 (index 7) follows a digit.
    ("8/8/8/44/8/8/8/8", 7, "two subsequent digits"),
    # '8/8/8/9/8/8/8/8': 9 at 6.
    ("8/8/8/9/8/8/8/8", 6, "invalid character"),
    # 'pppppppp1' from 6: the ninth square, '1', is at 14.
    ("8/8/8/pppppppp1/8/8/8/8", 14, "8 columns"),
    # 'ppp' from 6 ends at 9 with only three squares.
    ("8/8/8/ppp/8/8/8/8", 9, "8 columns"),
    # Trailing fields: turn at 16, castling at 18, en passant at 20, clocks at 22 and 24.
    ("8/8/8/8/8/8/8/8 x", 16, "turn"),
    ("8/8/8/8/8/8/8/8 w XX", 18, "castling"),
    ("8/8/8/8/8/8/8/8 w - e9", 20, "en passant"),
    ("8/8/8/8/8/8/8/8 w - - -1 1", 22, "half-move"),
    ("8/8/8/8/8/8/8/8 w - - 0 x", 24, "fullmove"),
    ("8/8/8/8/8/8/8/8 w - - 0 1 x", 26, "more parts"),
    # Leading spaces count: '~' at 8 follows no piece.
    ("  8/8/8/~7/8/8/8/8", 8, "'~'"),
]


@pytest.mark.parametrize(("fen", "position", "words"), FEN_ERRORS)
def test_bad_fens_name_the_spot(fen: str, position: int, words: str) -> None:
    with pytest.raises(GbrError) as caught:
        board_from_fen(fen)
    assert caught.value.offset == position
    assert words in caught.value.message
