"""The mainline's moves of plain movetext: whitespace-split words with the move numbers gone,
whatever way the numbers are written (``12.``, ``12...``, ``1.e4``, other scripts' digits)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gbr_tui.core.pgn import PgnError, san_tokens

# PGN's move number indication: digits then dots, from the start of a word (``\d`` is any
# script's decimal digit, as in every other reading of the movetext).
NUMBER = re.compile(r"\b\d+\.+")


def words_without_numbers(movetext: str) -> list[str]:
    return NUMBER.sub(" ", movetext).split()


@pytest.mark.parametrize(
    ("movetext", "moves"),
    [
        ("1. e4 e5 2. Nf3 Nc6", ["e4", "e5", "Nf3", "Nc6"]),
        ("1.e4 e5 2.Nf3 2...Nc6 *", ["e4", "e5", "Nf3", "Nc6"]),
        ("1... e5 2. Nf3", ["e5", "Nf3"]),
        ("\u0661. e4 \u0662. d4", ["e4", "d4"]),  # Arabic-Indic digits are digits too
        ("\u00b9. e4", ["\u00b9.", "e4"]),  # a superscript one is no decimal digit: kept, a bad move
        ("1. e4. e5", ["e4.", "e5"]),  # a dot after a move is not a number: kept, a bad move
        ("1. e4 e5 1-0", ["e4", "e5"]),
    ],
)
def test_move_numbers_are_cut_out_however_they_are_written(movetext, moves):
    assert san_tokens(movetext) == moves


WORDS = st.sampled_from(
    ["1.", "12.", "3...", "1.e4", "7...Nf6", "e4", "Nxd5", "O-O", "0-0", "e8=Q", "e4.", ".", "..", "\u0663.",
     "\u00b2.", "1.2.", "a1.b2", "x.", "9", "e4!", "Nf3?!", "e.p."]
)  # fmt: skip
SPACES = st.sampled_from([" ", "\n", "  ", "\t"])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(WORDS, SPACES), max_size=30))
def test_the_moves_are_the_words_left_once_numbers_are_cut_out(pairs):
    movetext = "".join(word + space for word, space in pairs)
    expected = words_without_numbers(movetext)
    if "!" in movetext or "?" in movetext or "e.p." in movetext:
        expected = [re.sub(r"[!?]+", "", word) for word in expected if word != "e.p."]
        expected = [word for word in expected if word]
    assert san_tokens(movetext) == expected


def test_moves_after_the_result_are_refused_with_the_fast_split_too():
    with pytest.raises(PgnError, match="moves after the result 1-0"):
        san_tokens("1. e4 1-0 e5")
