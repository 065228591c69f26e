"""Issue 12: results as printed in captions (spec section 3), read after the men count or alone.

Every expected value is what the words say, by the rules in gbr_tui/core/captions.py's docstring:
a win for White is '+', a draw '=', a bare Win is White's (EG prints stipulations from White's
side), "Black to move"/BTM gives Black the move; the text is kept as printed, '?' included.
"""

from __future__ import annotations

import chess
import pytest

from gbr_tui.core import GbrError, decode
from gbr_tui.core.explanation import result_words

W, B = chess.WHITE, chess.BLACK

# (result as printed, stipulation, side to move)
RESULTS = [
    ("Win", "+", None),
    ("Draw", "=", None),
    ("win", "+", None),
    ("draw", "=", None),
    ("Draw?", "=", None),
    ("White wins", "+", None),
    ("White wins?", "+", None),
    ("Win in 86", "+", None),
    ("White wins in 78 moves", "+", None),
    ("Win in 38 moves", "+", None),
    ("White to move, draw", "=", W),
    ("White to move wins", "+", W),
    ("White to move could win", "+", W),  # decided: the aim is a win; "could" stays in the text
    ("Black to move loses", "+", B),  # Black loses: White wins
    ("Black to move, draw", "=", B),
    ("Black to move could draw", "=", B),
    ("BTM, win", "+", B),  # the win is White's, Black moves first
    ("BTM, Draw", "=", B),
    ("WTM", None, W),
    ("+", "+", None),
    ("=", "=", None),
]

# Published captions (spec section 3) with their printed result cut off: EG full position and
# EG kings only, each with the men count, and EG kings only without it.
CAPTIONS = [
    "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 ",
    "f1h1 0001.04 2/5 ",
    "f1h1 0001.04 ",
]


@pytest.mark.parametrize("caption", CAPTIONS)
@pytest.mark.parametrize(("result", "stipulation", "mover"), RESULTS)
def test_every_printed_result_is_kept_and_read(
    caption: str, result: str, stipulation: str | None, mover: chess.Color | None
) -> None:
    decoded = decode(caption + result)
    assert decoded.result == result
    assert decoded.stipulation == stipulation
    assert decoded.side_to_move == mover


def test_the_full_eg_caption_still_gives_the_board_and_the_side_to_move() -> None:
    decoded = decode("g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Black to move, draw")
    assert decoded.fen == "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"  # Kubbel, spec section 3
    assert decoded.board is not None and decoded.board.turn == chess.BLACK
    assert decoded.men_count == (4, 5)


def test_the_arves_sign_is_the_result() -> None:
    decoded = decode("a7d3 0116.00 b2b3c6d6 3/3+")
    assert (decoded.result, decoded.stipulation, decoded.men_count) == ("+", "+", (3, 3))


def test_no_result_leaves_it_unset() -> None:
    assert decode("=0323.12g3g1").result is None
    assert decode("0000.02.a1a8.a2b2").result is None


def test_other_text_after_the_code_and_count_is_kept_not_an_error() -> None:
    decoded = decode("f1h1 0001.04 2/5 Study, after Troitzky")
    assert decoded.result == "Study, after Troitzky"
    assert (decoded.stipulation, decoded.side_to_move) == (None, None)
    # A win named for Black has no sign: '+' is White's win.
    assert decode("f1h1 0001.04 2/5 Black wins").stipulation is None


def test_a_wrong_men_count_before_a_result_is_still_an_error_with_both_counts() -> None:
    # f1h1 0001.04: White K + N = 2, Black K + 4 pawns = 5.
    with pytest.raises(GbrError) as caught:
        decode("f1h1 0001.04 2/4 White wins in 78 moves")
    assert "2/4" in caught.value.message and "2/5" in caught.value.message


def test_a_result_that_contradicts_the_prefix_is_an_error() -> None:
    # '+' at 0, the code 1-7, 'g3g1' 8-11, 'Draw?' at 13.
    with pytest.raises(GbrError) as caught:
        decode("+0323.12g3g1 Draw?")
    assert caught.value.offset == 13 and "disagrees" in caught.value.message


def test_the_result_in_one_line() -> None:
    assert result_words("Draw?") == "'Draw?' as printed: a draw (=), queried (the '?' is printed)"
    assert result_words("Black to move loses") == "'Black to move loses' as printed: a win for White (+), Black to move"
    assert result_words("Study") == "'Study' as printed: no win, draw or side to move that the words say"


# --- writing ------------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gbr_tui.core.captions import FORMS, write_caption  # noqa: E402
from tests.support.strategies import boards  # noqa: E402

KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"


@pytest.mark.parametrize(
    ("fen", "form", "stipulation", "published"),
    [
        # Spec section 3 (EG, full position) and section 4 (Kubbel, a draw study).
        (KUBBEL, "eg", "=", "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw"),
        # Spec section 4: the ARVES vector, a win.
        ("8/K7/2nn4/8/8/1B1k4/1R6/8", "arves", "+", "a7d3 0116.00 b2b3c6d6 3/3+"),
        # Spec section 4: the German vector, no stipulation.
        ("k7/8/8/8/8/8/pp6/K7", "german", None, "0000.02.a1a8.a2b2"),
        # Spec section 3: the German Wikipedia's start position, kings and pieces in one section.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            "german",
            None,
            "4888.88.e1e8d1d8a1h1a8h8c1f1c8f8b1g1b8g8.a2b2c2d2e2f2g2h2a7b7c7d7e7f7g7h7",
        ),
        # Spec section 3: Kubbel's published compact form, then every other man's square.
        (KUBBEL, "compact", "=", "=0323.12g3g1a3a2e1g8h6c3c6"),
        # Book style '+ 1234.56 a7c8': stipulation, code, kings, spaced; the other men follow.
        (KUBBEL, "book", "=", "= 0323.12 g3g1 a3a2e1g8h6c3c6"),
    ],
)
def test_the_published_forms_are_written(fen: str, form: str, stipulation: str | None, published: str) -> None:
    assert write_caption(chess.Board(f"{fen} w - - 0 1"), form, stipulation) == published


def test_a_result_text_is_written_as_given_and_must_agree() -> None:
    board = chess.Board(f"{KUBBEL} w - - 0 1")
    assert write_caption(board, "eg", "=", "Draw?") == "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw?"
    assert write_caption(board, "eg", None, "BTM, draw").endswith("4/5 BTM, draw")
    with pytest.raises(GbrError):
        write_caption(board, "eg", "+", "Draw")
    black_to_move = chess.Board(f"{KUBBEL} b - - 0 1")
    assert write_caption(black_to_move, "eg", "=").endswith("4/5 BTM, Draw")  # EG: BTM = Black to move


@settings(max_examples=200, deadline=None)
@given(
    boards(one_king_each=True, pieces_of_a_kind=2),  # no 9: the squares split by type
    st.sampled_from(FORMS),
    st.sampled_from([None, "+", "="]),
    st.booleans(),
)
def test_every_written_form_decodes_back_to_the_same_board(
    board: chess.Board, form: str, stipulation: str | None, black_to_move: bool
) -> None:
    board.turn = chess.BLACK if black_to_move else chess.WHITE
    decoded = decode(write_caption(board, form, stipulation))
    assert decoded.fen == board.board_fen()
    assert decoded.stipulation == stipulation
    if form == "eg":  # the one form that writes who moves
        assert decoded.board.turn == board.turn
