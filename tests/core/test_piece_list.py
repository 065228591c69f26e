"""Piece lists as printed (spec section 3), read into a board; every form, every refusal."""

from __future__ import annotations

import re

import chess
import pytest

from gbr_tui.core import GbrError, Rule, decode_any, parse_piece_list
from gbr_tui.core.piece_list import ManTyping, read_piece_list

# Kubbel's study (spec sections 3 and 4): =0323.12g3g1, White Kg3 Ba2 Be1 Ph6, Black Kg1 Ra3
# Ng8 Pc3 Pc6.
KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"

KUBBEL_FORMS = [
    "White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6",
    "Kg3 Ba2 Be1 h6 / Kg1 Ra3 Ng8 c3 c6",
    "Kg3 Ba2 Be1 h6 - Kg1 Ra3 Ng8 c3 c6",
    "Kg3 Ba2 Be1 h6 — Kg1 Ra3 Ng8 c3 c6",
    "Kg3 Ba2 Be1 h6; Kg1 Ra3 Ng8 c3 c6",
    "Kg3 Ba2 Be1 h6\nKg1 Ra3 Ng8 c3 c6",
    "White: Kg3 Ba2 Be1 h6\nBlack: Kg1 Ra3 Ng8 c3 c6\n",
    "w: Kg3, Ba2, Be1, h6 b: Kg1, Ra3, Ng8, c3, c6",
    "W:Kg3,Ba2,Be1,Ph6;B:Kg1,Ra3,Ng8,Pc3,Pc6",
    "Kg3Ba2Be1h6/Kg1Ra3Ng8c3c6",  # unspaced, as typed in a hurry
    "Kg3 Ba2 Be1 h6 Black: Kg1 Ra3 Ng8 c3 c6",
    "white: KG3 BA2 BE1 H6 black: KG1 RA3 NG8 C3 C6",
    "♔g3 ♗a2 ♗e1 ♙h6 – ♔g1 ♖a3 ♘g8 ♙c3 ♙c6",
    "♔g3 ♗a2 ♗e1 ♙h6 ♚g1 ♜a3 ♞g8 ♟c3 ♟c6",
    "♔g3 ♗a2 ♗e1 ♙h6 / ♚g1 ♜a3 ♞g8 ♟c3 ♟c6",
    "Kg3 Ba2 Be1 h6 / Kg1 Ra3 Ng8 c3 c6 (4+5)",
    "  White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6  ( 4 + 5 ) ",
]


@pytest.mark.parametrize("text", KUBBEL_FORMS)
def test_every_printed_form_gives_kubbels_position(text: str) -> None:
    board = parse_piece_list(text)
    assert board.board_fen() == KUBBEL
    assert board.turn == chess.WHITE
    assert board.castling_rights == 0


def test_the_probleemblad_position() -> None:
    # =0341.23f3e7a3c8b2h8c6f7d3e5f6 is 2B4N/4kP2/2P2p2/4p3/8/r2p1K2/1b6/8 (spec section 3).
    board = parse_piece_list("Kf3 Bc8 Nh8 c6 f7 / Ke7 Ra3 Bb2 d3 e5 f6 (5+6)")
    assert board.board_fen() == "2B4N/4kP2/2P2p2/4p3/8/r2p1K2/1b6/8"


@pytest.mark.parametrize(
    ("text", "offset", "words"),
    [
        ("", 0, "empty"),
        ("Kg3 Ba2", 7, "Black's men are missing"),
        ("Kg3 Ba2 / Ra3", 13, "Black has no king"),
        ("Ba2 / Kg1", 9, "White has no king"),
        ("Kg3 Kh3 / Kg1", 4, "White has two kings"),
        ("Kg3 Ba2 / Kg1 Ra2", 15, "a2 is given twice"),
        ("Kg3 Xa2 / Kg1", 4, "unexpected 'X'"),
        ("Kg3 / Kg1 / Ra3", 10, "only two parts"),
        ("/ Kg3 Kg1", 0, "White's men must come first"),
        ("Kg3 / Kg1 (2+1)", 10, "men count 2+1 disagrees"),
        ("Kg3 / Kg1 (1+1) Ra3", 16, "after the men count"),
        ("Kg3 / Kg1 Black: Ra3", 10, "Black's men are given twice"),
        ("Kg3 / Kg1 White: Ra3", 10, "'White' must open the list"),
        ("Kg3 \x1b]2;x / Kg1", 4, "unexpected '\\x1b'"),
        ("Kg3 Bi2 / Kg1", 4, "unexpected 'B'"),
        ("Kg3 Ba22 / Kg1", 4, "unexpected 'B'"),
        ("Kg3Ba2x / Kg1", 6, "unexpected 'x'"),
    ],
)
def test_bad_lists_name_the_spot(text: str, offset: int, words: str) -> None:
    with pytest.raises(GbrError) as caught:
        parse_piece_list(text)
    assert words in caught.value.message
    assert caught.value.offset == offset
    assert caught.value.message.isprintable()


def test_a_long_paste_is_refused_before_it_is_read() -> None:
    with pytest.raises(GbrError, match="too long"):
        parse_piece_list("Kg3 / Kg1 " + " " * 10_000)


def test_decode_any_reads_codes_materials_and_piece_lists() -> None:
    # KRP v KR is 0400.10 (spec section 2); so is its tablebase spelling.
    for text in ("KRP v KR", "KRPvKR"):
        decoded = decode_any(text)
        assert decoded.code == "0400.10"
        assert decoded.kings is None and decoded.board is None
    listed = decode_any(KUBBEL_FORMS[0])
    assert listed.code == "0323.12"
    assert listed.kings == ("g3", "g1")
    assert listed.fen == KUBBEL
    assert decode_any("=0323.12g3g1").stipulation == "="


def test_a_listed_board_with_three_knights_keeps_its_counts() -> None:
    # KNNN v KNN is 0009 (spec section 2): the 9 hides the knights in a code, not in a list.
    decoded = decode_any("Ka1 Nb1 Nc1 Nd1 / Kh8 Ng8 Nf8", Rule.COUNT)
    assert decoded.code == "0009.00"
    assert decoded.unknown == []
    assert decoded.white["N"] == 3 and decoded.black["N"] == 2


def test_full_fen_has_side_to_move_and_no_castling() -> None:
    # Kubbel's =0323.12g3g1 with every square: White to play (the stipulation), no castling.
    assert decode_any("=0323.12g3g1a3a2e1g8h6c3c6").full_fen == f"{KUBBEL} w - - 0 1"
    assert decode_any("g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 BTM").full_fen == f"{KUBBEL} b - - 0 1"


def test_a_list_without_a_king_is_told_as_a_list() -> None:
    with pytest.raises(GbrError, match="White has no king"):
        decode_any("Ba2 Be1 / Ra3")


def test_squares_alone_are_read_as_a_code_being_typed() -> None:
    # a7d3 starts the ARVES form a7d3 0116.00 (spec section 3): the code's message, not a list's.
    with pytest.raises(GbrError, match="expected a code"):
        decode_any("a7d3")
    assert decode_any("a7d3 0116.00 b2b3c6d6 3/3+").fen == "8/K7/2nn4/8/8/1B1k4/1R6/8"


def typed_board(keys: str) -> chess.Board:
    """The board the men typed with ``ManTyping`` make, from an empty one."""
    typing, board = ManTyping(), chess.Board(None)
    for key in keys:
        typed = typing.feed(key)
        if typed is not None:
            square, piece = typed
            board.set_piece_at(square, piece) if piece else board.remove_piece_at(square)
    return board


@pytest.mark.parametrize(
    "keys",
    [
        "Kg3 Ba2 Be1 h6 / Kg1 Ra3 Ng8 c3 c6",
        "Kg3Ba2Be1h6/Kg1Ra3Ng8c3c6",
        "Kg3 Ba2 Be1 Ph6 kg1 ra3 ng8 pc3 pc6",  # small letters are Black's, as in FEN
        "♔g3 ♗a2 ♗e1 ♙h6 ♚g1 ♜a3 ♞g8 ♟c3 ♟c6",
        "Kg3 Ba2 Be1 h6 Qd4 xd4 / Kg1 Ra3 Ng8 c3 c6",  # x empties a square
    ],
)
def test_men_typed_one_key_at_a_time_give_kubbel(keys: str) -> None:
    assert typed_board(keys).board_fen() == KUBBEL


def test_b_is_a_black_bishop_before_a_file_and_a_pawn_before_a_rank() -> None:
    assert typed_board("bc3 b3").board_fen() == "8/8/8/8/8/1Pb5/8/8"
    assert typed_board("/ b3 Bc4").board_fen() == "8/8/8/8/2b5/1p6/8/8"


@pytest.mark.parametrize(
    ("keys", "words"),
    [("9", "'9' starts no man"), ("K3", "'3' after K: expected a file"), ("Kgh", "'h' after Kg: expected a rank")],
)
def test_a_key_that_cannot_come_next_is_refused_and_the_man_so_far_kept(keys: str, words: str) -> None:
    typing = ManTyping()
    for key in keys[:-1]:
        typing.feed(key)
    with pytest.raises(GbrError, match=words):
        typing.feed(keys[-1])
    assert typing.pending == keys[:-1]
    assert typing.back() is bool(keys[:-1])
    assert typing.pending == keys[:-2]


#: The issue's list as a magazine prints it (White: Kb6, Pc6; Black: Ka1, Rd5: KP v KR, 0300.10,
#: a rook for Black counts 3, a White pawn e=1), in the forms printed after the men.
ISSUE_BOARD = "8/8/1KP5/3r4/8/8/8/k7"


@pytest.mark.parametrize(
    ("text", "stipulation", "turn"),
    [
        ("White: Kb6, Pc6. Black: Ka1, Rd5. +", "+", chess.WHITE),
        ("White: Kb6, Pc6. Black: Ka1, Rd5.", None, chess.WHITE),
        ("Kb6 c6 / Ka1 Rd5 +", "+", chess.WHITE),
        ("Kb6 c6 / Ka1 Rd5 =", "=", chess.WHITE),
        ("Kb6 c6 / Ka1 Rd5 2/2", None, chess.WHITE),
        ("Kb6 c6 / Ka1 Rd5 2/2+", "+", chess.WHITE),  # ARVES writes the sign after the count
        ("Kb6 c6 / Ka1 Rd5 (2+2)", None, chess.WHITE),
        ("Kb6 c6 / Ka1 Rd5 (2+2) Win", "+", chess.WHITE),
        ("Kb6 c6 / Ka1 Rd5 Win", "+", chess.WHITE),
        ("Kb6 c6 / Ka1 Rd5 Draw", "=", chess.WHITE),
        ("Kb6 c6 / Ka1 Rd5 BTM, draw", "=", chess.BLACK),  # EG's Black-to-move forms
        ("Kb6 c6 / Ka1 Rd5. White to play and win", "+", chess.WHITE),
    ],
)
def test_printed_lists_with_their_punctuation_and_stipulation(text, stipulation, turn):
    """Fails before: "unexpected '.'", and a trailing +, 2/2, (2+2)+ or Win was refused."""
    printed = read_piece_list(text)
    assert printed.board.board_fen() == ISSUE_BOARD
    assert printed.stipulation == stipulation
    assert printed.board.turn == turn


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("Kb6 c6 / Ka1 Rd5 foo", "unexpected 'f': after Black's men, a men count (2+2) and a stipulation"),
        ("Kb6 c6 / Ka1 Rd5 2/3", "men count 2+3 disagrees with the list"),
        ("Kb6 c6 / Ka1 Rd5 (2+2) Kc1", "unexpected 'K' after the men count"),
    ],
)
def test_what_follows_the_men_must_be_a_count_or_a_stipulation(text, wanted):
    with pytest.raises(GbrError, match=re.escape(wanted)):
        read_piece_list(text)
