"""Property tests: random boards and random text."""

from __future__ import annotations

import chess
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gbr_tui.core import (
    GbrError,
    Material,
    board_from_fen,
    decode,
    encode,
    extended_code,
)
from gbr_tui.core.material import men_on_board
from tests.support.strategies import boards


@settings(max_examples=300, deadline=None)
@given(boards())
def test_random_boards_encode_then_decode_to_the_same_counts(board: chess.Board) -> None:
    material = Material.from_board(board)
    decoded = decode(encode(board))
    for index, piece_type in enumerate("QRBNP"):
        white, black = material.white[index], material.black[index]
        if piece_type != "P" and (white >= 3 or black >= 3):
            assert decoded.white[piece_type] is None and decoded.black[piece_type] is None
            assert piece_type in decoded.unknown
        else:
            assert (decoded.white[piece_type], decoded.black[piece_type]) == (white, black)


@settings(max_examples=300, deadline=None)
@given(boards(one_king_each=True, pieces_of_a_kind=2), st.sampled_from([None, "+", "="]))
def test_the_compact_extended_form_parses_back_to_the_same_placement(
    board: chess.Board, stipulation: str | None
) -> None:
    text = extended_code(board, stipulation)
    decoded = decode(text)
    assert decoded.fen == board.board_fen()
    assert decoded.stipulation == stipulation
    assert decoded.compact == text


@settings(max_examples=200, deadline=None)
@given(boards(one_king_each=True))
def test_with_a_9_the_extended_form_still_parses_but_places_nothing(board: chess.Board) -> None:
    code = encode(board)
    assume("9" in code[:4])
    decoded = decode(extended_code(board))
    assert decoded.board is None
    assert decoded.notes  # says why the squares cannot be split by type
    assert len(decoded.men_squares) == len(board.piece_map()) - 2


CODE_LIKE = st.text(alphabet="0123456789.,+=/ abcdefghABH12345678WinDrawBTMv-KQRBNPkqrbnp\t", max_size=40)


def raises_only_gbr_error(text: str) -> None:
    for parse in (decode, Material.from_string, board_from_fen):
        try:
            parse(text)
        except GbrError as error:
            assert error.message
            assert error.offset is None or 0 <= error.offset <= len(text)


RANDOM_TEXT = given(st.one_of(st.text(max_size=40), CODE_LIKE))
test_random_text_raises_only_gbr_error = settings(max_examples=300, deadline=None)(RANDOM_TEXT(raises_only_gbr_error))
#: Five times the examples, in the slow part.
test_more_random_text_raises_only_gbr_error = pytest.mark.slow(
    settings(max_examples=1500, deadline=None)(RANDOM_TEXT(raises_only_gbr_error))
)


@settings(max_examples=200, deadline=None)
@given(boards(one_king_each=True))
def test_with_one_king_a_side_the_men_on_the_board_read_as_the_material(board: chess.Board) -> None:
    assert men_on_board(board) == str(Material.from_board(board))
