"""Kubbel's study and the spec's section 4 vectors in every dialect they can be written in.

Each dialect string is written here by hand from the rules of spec section 3; the comments
show how. Decoding any of them must give the counts, kings and (when every square is given)
the board of the position; encoding the position must give the published compact form.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess
import pytest

from gbr_tui.core import Material, decode, encode, extended_code


@dataclass(frozen=True)
class Vector:
    fen: str  # placement field
    material: str
    code: str
    stipulation: str | None
    kings: tuple[str, str]
    men: str  # the other men's squares in the spec's order, concatenated
    men_count: tuple[int, int]


# Kubbel, 1st prize Shakhmaty 1925 (spec section 3), published =0323.12g3g1.
# Reading 6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 rank by rank: g8 black knight; c6 black pawn,
# h6 white pawn; a3 black rook, c3 black pawn, g3 white king; a2 white bishop; e1 white
# bishop, g1 black king. White KBBP, Black KRNPP.
# Code: queens 0; rooks 0 + 3*1 = 3; bishops 2 + 3*0 = 2; knights 0 + 3*1 = 3; pawns 1, 2.
# Men in order: rooks (Black a3), bishops (White a2, e1 by file), knights (Black g8),
# White pawns (h6), Black pawns (c3, c6: same file, rank 3 first). Men count 4/5.
KUBBEL = Vector(
    "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1",
    "KBBP v KRNPP",
    "0323.12",
    "=",
    ("g3", "g1"),
    "a3a2e1g8h6c3c6",
    (4, 5),
)
# Spec section 4, ARVES a7d3 0116.00 b2b3c6d6 3/3+. 8/K7/2nn4/8/8/1B1k4/1R6/8: a7 white king;
# c6, d6 black knights; b3 white bishop, d3 black king; b2 white rook. White KRB, Black KNN.
# Code: rooks 1; bishops 1; knights 0 + 3*2 = 6; no pawns -> 0116.00. Men: rook b2, bishop
# b3, knights c6 d6. Men count 3/3, result + (win).
ARVES = Vector("8/K7/2nn4/8/8/1B1k4/1R6/8", "KRB v KNN", "0116.00", "+", ("a7", "d3"), "b2b3c6d6", (3, 3))
# Spec section 4, German dotted 0000.02.a1a8.a2b2. k7/8/8/8/8/8/pp6/K7: a8 black king;
# a2, b2 black pawns; a1 white king. White K, Black KPP: 0000.02. No stipulation printed.
GERMAN = Vector("k7/8/8/8/8/8/pp6/K7", "K v KPP", "0000.02", None, ("a1", "a8"), "a2b2", (1, 3))
# Spec section 4, the starting array 4888.88 (see test_examples). Kings e1, e8. Men: queens
# d1 d8; rooks a1 h1 a8 h8; bishops c1 f1 c8 f8; knights b1 g1 b8 g8 (14 squares, 28
# characters); then the pawns a2..h2, a7..h7.
START = Vector(
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "KQRRBBNNPPPPPPPP v KQRRBBNNPPPPPPPP",
    "4888.88",
    None,
    ("e1", "e8"),
    "d1d8a1h1a8h8c1f1c8f8b1g1b8g8a2b2c2d2e2f2g2h2a7b7c7d7e7f7g7h7",
    (16, 16),
)

# (vector, text, which squares are given: "none", "kings" or "all") in each dialect of
# spec section 3.
WRITTEN = [
    # Concatenated (Wikipedia, Probleemblad): [stipulation]code kings [men].
    (KUBBEL, "=0323.12g3g1", "kings"),  # exactly as published
    (KUBBEL, "=0323.12g3g1a3a2e1g8h6c3c6", "all"),
    # ARVES: kings, code, men, men count White/Black, result sign last.
    (KUBBEL, "g3g1 0323.12 a3a2e1g8h6c3c6 4/5=", "all"),
    # EG: kings, code, men count (kings included), result as a word.
    (KUBBEL, "g3g1 0323.12 4/5 Draw", "kings"),
    # EG full position: kings, code, pieces '.' pawns, men count, result (spec's own example).
    (KUBBEL, "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw", "all"),
    # German dotted as print has it: code, kings and pieces together, pawns (stipulation in
    # front); the older reading with the kings in a section of their own is still read.
    (KUBBEL, "=0323.12.g3g1a3a2e1g8.h6c3c6", "all"),
    (KUBBEL, "=0323.12.g3g1.a3a2e1g8.h6c3c6", "all"),
    # Study book: spaces anywhere between the parts, upper-case squares.
    (KUBBEL, "= 0323.12 G3G1 A3A2 E1G8. H6C3 C6", "all"),
    # Comma for the point (one source prints 4000,10).
    (KUBBEL, "=0323,12g3g1", "kings"),
    (KUBBEL, "g3g1 0323,12 a3a2e1g8.h6c3c6 4/5 draw", "all"),
    # Four digits cannot be written: Kubbel's study has pawns.
    (ARVES, "+0116.00a7d3b2b3c6d6", "all"),
    (ARVES, "a7d3 0116.00 b2b3c6d6 3/3+", "all"),  # exactly as published
    (ARVES, "a7d3 0116.00 3/3 Win", "kings"),
    (ARVES, "a7d3 0116.00 b2b3c6d6. 3/3 Win", "all"),  # EG full: no pawns after the '.'
    (ARVES, "+0116.00.a7d3.b2b3c6d6", "all"),
    (ARVES, "+ 0116.00 a7d3 b2b3 c6d6", "all"),
    (ARVES, "+0116a7d3b2b3c6d6", "all"),  # four digits: no pawns
    (ARVES, "a7d3 0116 b2b3c6d6 3/3+", "all"),
    (ARVES, "+0116,00a7d3b2b3c6d6", "all"),
    (GERMAN, "0000.02.a1a8.a2b2", "all"),  # exactly as published
    (GERMAN, "0000.02a1a8a2b2", "all"),
    (GERMAN, "a1a8 0000.02 a2b2 1/3", "all"),
    (GERMAN, "a1a8 0000.02 1/3", "kings"),
    (GERMAN, "a1a8 0000.02 .a2b2 1/3", "all"),  # EG full: no pieces before the '.'
    (GERMAN, "0000.02 a1a8 a2b2", "all"),
    (GERMAN, "0000,02.a1a8.a2b2", "all"),
    (START, "4888.88", "none"),  # exactly as published
    (START, "4888,88", "none"),
    (START, "e1e8 4888.88 16/16", "kings"),
    (START, "4888.88e1e8" + START.men, "all"),
    (START, f"e1e8 4888.88 {START.men[:28]}.{START.men[28:]} 16/16", "all"),
    (START, f"4888.88.e1e8.{START.men[:28]}.{START.men[28:]}", "all"),
    # The German Wikipedia's start position, exactly as published (spec section 3).
    (START, "4888.88.e1e8d1d8a1h1a8h8c1f1c8f8b1g1b8g8.a2b2c2d2e2f2g2h2a7b7c7d7e7f7g7h7", "all"),
]


def counts(side: dict[str, int | None]) -> tuple[int | None, ...]:
    return tuple(side[t] for t in "QRBNP")


@pytest.mark.parametrize(("vector", "text", "squares"), WRITTEN, ids=[w[1] for w in WRITTEN])
def test_every_dialect_decodes_to_the_position(vector: Vector, text: str, squares: str) -> None:
    decoded = decode(text)
    material = Material.from_string(vector.material)
    assert decoded.code == vector.code
    assert (counts(decoded.white), counts(decoded.black)) == (material.white, material.black)
    assert decoded.unknown == []
    assert decoded.kings == (None if squares == "none" else vector.kings)
    if "/" in text:
        assert decoded.men_count == vector.men_count
    if squares == "all":
        assert "".join(decoded.men_squares) == vector.men
        assert decoded.fen == vector.fen
        assert decoded.compact == f"{decoded.stipulation or ''}{vector.code}{''.join(vector.kings)}{vector.men}"
    else:
        assert decoded.board is None and decoded.fen is None
    result_printed = re.search(r"[+=]|\b(win|draw)\b", text, re.IGNORECASE) is not None
    assert decoded.stipulation == (vector.stipulation if result_printed else None)


@pytest.mark.parametrize("vector", [KUBBEL, ARVES, GERMAN, START], ids=lambda v: v.code)
def test_encoding_the_position_gives_the_published_compact_form(vector: Vector) -> None:
    board = chess.Board(vector.fen)
    assert encode(vector.fen) == encode(board) == vector.code
    full = extended_code(vector.fen, vector.stipulation)
    assert full == f"{vector.stipulation or ''}{vector.code}{''.join(vector.kings)}{vector.men}"
    assert decode(full).fen == vector.fen


def test_kubbel_as_published_with_king_squares_only() -> None:
    assert extended_code(KUBBEL.fen, "=", kings_only=True) == "=0323.12g3g1"


def test_the_spec_examples_of_the_concatenated_form() -> None:
    # Probleemblad: =0341.23f3e7a3c8b2h8c6f7d3e5f6 is 2B4N/4kP2/2P2p2/4p3/8/r2p1K2/1b6/8.
    assert decode("=0341.23f3e7a3c8b2h8c6f7d3e5f6").fen == "2B4N/4kP2/2P2p2/4p3/8/r2p1K2/1b6/8"
    assert extended_code("2B4N/4kP2/2P2p2/4p3/8/r2p1K2/1b6/8", "=") == "=0341.23f3e7a3c8b2h8c6f7d3e5f6"
    # Wikipedia +0031.10a1h8h1f4a7: bishops 0 + 3*1 (Black h1), knights 1 (White f4),
    # White pawn a7; kings a1, h8. Rank 8 '7k', rank 7 'P7', rank 4 '5N2', rank 1 'K6b'.
    decoded = decode("+0031.10a1h8h1f4a7")
    assert decoded.fen == "7k/P7/8/8/5N2/8/8/K6b"
    assert decoded.stipulation == "+"


def test_eg_words_for_the_side_to_move_and_the_result() -> None:
    # Spec: EG f1h1 0001.04 2/5 Win; BTM = Black to move.
    decoded = decode("f1h1 0001.04 2/5 Win")
    assert (decoded.stipulation, decoded.kings, decoded.men_count) == ("+", ("f1", "h1"), (2, 5))
    assert decoded.side_to_move is None
    assert decode("f1h1 0001.04 2/5 BTM Win").side_to_move == chess.BLACK
    assert decode("f1h1 0001.04 2/5 Draw WTM").side_to_move == chess.WHITE


def test_a_side_to_move_word_reaches_the_board() -> None:
    board = decode("a1a8 0000.02 a2b2 1/3 BTM").board
    assert board is not None and board.turn == chess.BLACK
