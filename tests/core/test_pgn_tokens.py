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
    assert san_tokens(movetext) == expected_moves(movetext)


def expected_moves(movetext: str) -> list[str]:
    """The words without numbers, the result at the end, glyphs or ``e.p.``."""
    expected = words_without_numbers(movetext)
    if expected and expected[-1] in ("1-0", "0-1", "1/2-1/2", "*"):
        expected.pop()
    expected = [re.sub(r"[!?]+", "", word) for word in expected if word != "e.p."]
    return [word for word in expected if word]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(WORDS, max_size=30),
    st.integers(1, 3),
    st.sampled_from(["", " 1-0", " *", " 1/2-1/2"]),
    st.sampled_from([" ", "\n"]),
)
def test_export_format_loses_its_numbers_as_any_movetext_does(moves, first, result, space):
    """Numbered as PGN export writes it ("1. e4 e5 2. Nf3"), from move ``first``, the moves
    (some of them with dots of their own) lose the numbers and nothing else."""
    words = []
    for index, move in enumerate(moves):
        if index % 2 == 0:
            words.append(f"{first + index // 2}.")
        words.append(move)
    movetext = space.join(words) + result
    assert san_tokens(movetext) == expected_moves(movetext)


def test_moves_after_the_result_are_refused_with_the_fast_split_too():
    with pytest.raises(PgnError, match="moves after the result 1-0"):
        san_tokens("1. e4 1-0 e5")


@settings(max_examples=300, deadline=None)
@given(st.lists(WORDS, max_size=30), st.sampled_from(["", " 1-0", " *"]))
def test_a_number_before_every_move_as_lichess_writes_them_is_cut_out(moves, result):
    # "1. e4 1... e5 2. Nf3": Lichess numbers Black's move too, after the comment between them.
    words = [f"{index // 2 + 1}{'.' if index % 2 == 0 else '...'} {move}" for index, move in enumerate(moves)]
    movetext = " ".join(words) + result
    assert san_tokens(movetext) == expected_moves(movetext)


COMMENTS = st.sampled_from(["{ [%clk 0:04:52] }", "{ [%eval 0.17] [%clk 0:00:03] }", "{}", "{ a (b) ; c $1 }", ""])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(WORDS, COMMENTS), max_size=30), st.sampled_from(["", " 1-0", " *"]))
def test_comments_are_no_moves_whatever_they_hold(pairs, result):
    movetext = " ".join(f"{word} {comment}" for word, comment in pairs) + result
    without_comments = " ".join(word for word, _ in pairs) + result
    assert san_tokens(movetext) == expected_moves(without_comments)


@pytest.mark.parametrize(
    ("movetext", "message", "offset"),
    [
        ("1. e4 { [%clk 0:04:52] } 1... e5 { never closed", "a comment '{' is never closed", 33),
        ("1. e4 { [%clk 0:04:52] } 1... e5 } 2. d4", "unexpected '}'", 33),
        ("1. e4 { c } 1-0 e5 { c }", "moves after the result", 16),
    ],
)
def test_a_fault_among_comments_is_placed_in_the_movetext_as_written(movetext, message, offset):
    with pytest.raises(PgnError, match=re.escape(message)) as raised:
        san_tokens(movetext)
    assert raised.value.offset == offset


def comment_open_after(line: str, in_comment: bool) -> bool:
    """PGN's rule a character at a time: ``{`` opens a comment outside one, the first ``}``
    closes it, ``;`` outside one ends the line."""
    for char in line:
        if in_comment:
            in_comment = char != "}"
        elif char == "{":
            in_comment = True
        elif char == ";":
            break
    return in_comment


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="{};e4 ", max_size=20), st.booleans())
def test_a_comment_is_open_after_a_line_as_pgn_reads_it(line, in_comment):
    from gbr_tui.core.pgn import still_in_comment

    assert still_in_comment(line, in_comment) == comment_open_after(line, in_comment)
