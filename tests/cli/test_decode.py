"""`gbr-tui decode` through a subprocess."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.support.process import COMMAND, run_gbr

DECODE_KEYS = {"input", "code", "stipulation", "white", "black", "unknown", "kings", "fen"}


def test_json_for_kubbel_as_published() -> None:
    (record,) = map(json.loads, run_gbr("decode", "--json", "=0323.12g3g1").lines)
    assert record.keys() >= DECODE_KEYS
    assert record["input"] == "=0323.12g3g1"
    assert record["code"] == "0323.12"
    assert record["stipulation"] == "="
    # 0323.12: rooks 3 = 0 + 1x3, bishops 2 = 2 + 0, knights 3 = 0 + 1x3, pawns 1 and 2.
    assert record["white"] == {"Q": 0, "R": 0, "B": 2, "N": 0, "P": 1}
    assert record["black"] == {"Q": 0, "R": 1, "B": 0, "N": 1, "P": 2}
    assert record["unknown"] == []
    assert record["kings"] == ["g3", "g1"]
    assert record["fen"] is None  # only the kings are given


def test_json_with_every_square_has_the_placement() -> None:
    (record,) = map(json.loads, run_gbr("decode", "--json", "a7d3 0116.00 b2b3c6d6 3/3+").lines)
    assert record["fen"] == "8/K7/2nn4/8/8/1B1k4/1R6/8"  # spec section 4
    assert record["stipulation"] == "+"
    assert record["men_count"] == [3, 3]
    assert record["compact"] == "+0116.00a7d3b2b3c6d6"


def test_json_with_a_9() -> None:
    (record,) = map(json.loads, run_gbr("decode", "--json", "1689").lines)
    assert record["code"] == "1689.00"
    assert record["white"]["N"] is None and record["black"]["N"] is None
    assert record["white"]["Q"] == 1 and record["black"]["R"] == 2
    assert record["unknown"] == ["N"]
    assert record["kings"] is None and record["stipulation"] is None


def test_json_errors_carry_the_offset_and_column_and_the_rest_goes_on() -> None:
    result = run_gbr("decode", "--json", stdin="0323.12\n0323.92\n\n1000\n")
    assert result.status == 1
    first, bad, last = map(json.loads, result.lines)
    assert (first["code"], last["code"]) == ("0323.12", "1000.00")
    assert bad["input"] == "0323.92"
    assert (bad["offset"], bad["column"]) == (5, 6)  # the White pawn digit 9, 0-based and 1-based
    assert "pawn digit" in bad["error"]
    # Line 2 of stdin; character 6 (index 5) with the caret under it.
    assert result.stderr.splitlines() == [
        "gbr-tui decode: line 2: a pawn digit is 0-8: a side has at most eight pawns (at column 6)",
        "    0323.92",
        "         ^",
        "gbr-tui decode: skipped 1 blank line",  # line 3
    ]


def test_human_explanation_says_what_the_code_tells_and_what_it_cannot() -> None:
    result = run_gbr("decode", "=0323.12g3g1")
    assert result.status == 0
    text = result.stdout
    assert "\x1b[" not in text  # not a terminal and NO_COLOR: plain text
    assert "KBBP v KRNPP" in text
    # One wording with the decode screen (core.explanation): "a pawn", as a reader says it.
    assert "king, two bishops and a pawn (4 men)" in text
    assert "king, a rook, a knight and two pawns (5 men)" in text
    assert "R 3  0 White + 1 Black (rooks)" in text
    assert "p 2  2 Black pawns" in text
    assert "White to play and draw" in text
    assert "White g3, Black g1" in text
    assert "To move      White, as the stipulation says" in text  # = is White to play and draw
    assert "squares are not given" in text


def test_human_explanation_flags_a_9() -> None:
    text = run_gbr("decode", "1689").stdout
    words = " ".join(text.split())  # rich may wrap long lines
    assert "N 9 three or more knights on at least one side: exact count unknown" in words
    assert "an unknown number of knights" in words
    assert "not where the men stand" in words


def test_human_explanation_of_a_full_position_shows_the_fen_and_warnings() -> None:
    # Spec section 4: 0000.02.a1a8.a2b2; with Black to move White stands in check from b2.
    text = run_gbr("decode", "0000.02.a1a8.a2b2 BTM").stdout
    assert "k7/8/8/8/8/8/pp6/K7" in text
    assert "White is in check with Black to move" in text


def test_several_codes_and_a_bad_one() -> None:
    result = run_gbr("decode", "1000", "10x0", "0100")
    assert result.status == 1
    assert result.stdout.count("Code ") == 2
    assert result.stderr.startswith("gbr-tui decode: '10x0': ")
    assert result.stderr.splitlines()[2] == "      ^"  # under the 'x' (index 2)


@pytest.mark.parametrize(
    "stdin",
    [b"", bytes(range(256)) * 4, b"0323.12\xff\n1000\n", "\u0663\u0663\u0663\u0663\n".encode()],
    ids=["empty", "binary", "not-utf8", "arabic-digits"],
)
def test_odd_stdin_never_crashes(stdin: bytes) -> None:
    result = run_gbr("decode", "--json", stdin=stdin)
    assert result.status == (1 if "gbr-tui decode: line" in result.stderr else 0)
    for line in result.lines:
        json.loads(line)


def test_usage_error_exits_2() -> None:
    assert run_gbr("decode", "--rule", "x", "1000").status == 2


def test_piped_text_is_neither_padded_nor_wrapped() -> None:
    # A narrow COLUMNS must not matter when stdout is a pipe: each row is one line, and no line
    # ends in the spaces that align rich's table on a terminal.
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "40"}
    done = subprocess.run([*COMMAND, "decode", "1689"], capture_output=True, env=env, text=True, timeout=60)
    lines = done.stdout.splitlines()
    assert [line for line in lines if line != line.rstrip()] == []
    (squares,) = [line for line in lines if line.startswith("Squares")]
    assert squares.endswith("not where the men stand")
    (knights,) = [line for line in lines if line.strip().startswith("N 9")]
    assert knights.endswith("exact count unknown")


def test_the_printed_result_in_json_and_in_words() -> None:
    # Spec section 3, EG: f1h1 0001.04 2/5 Win; results may be free text such as 'Draw?'.
    (record,) = map(json.loads, run_gbr("decode", "--json", "f1h1 0001.04 2/5 BTM, Draw?").lines)
    assert (record["result"], record["stipulation"], record["side_to_move"]) == ("BTM, Draw?", "=", "b")
    (record,) = map(json.loads, run_gbr("decode", "--json", "0323.12").lines)
    assert record["result"] is None
    lines = run_gbr("decode", "f1h1 0001.04 2/5 BTM, Draw?").lines
    assert "Result       'BTM, Draw?' as printed: a draw (=), Black to move, queried (the '?' is printed)" in lines


@pytest.mark.parametrize(
    ("code", "letter", "words"),
    [
        # Spec section 3: "+ White to play and win, = White to play and draw"; BTM = Black to move;
        # section 5: the code alone never says who moves.
        ("=0323.12g3g1", "w", "White, as the stipulation says"),
        ("f1h1 0001.04 2/5 BTM", "b", "Black, as the result says"),
        ("0323.12g3g1", None, "not given: a GBR code never says who moves"),
    ],
)
def test_one_answer_for_the_side_to_move_in_text_and_json(code, letter, words) -> None:
    """Fails before: =0323.12g3g1 said "White to play and draw" and "To move not given", and
    its JSON "side_to_move": null."""
    assert f"To move      {words}" in run_gbr("decode", code).stdout
    assert json.loads(run_gbr("decode", "--json", code).lines[0])["side_to_move"] == letter
