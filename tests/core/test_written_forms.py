"""Every form the copy menu offers, for Kubbel's study (spec section 3) and for boards that
cannot be written in some forms."""

from __future__ import annotations

import chess
import pytest

from gbr_tui.core import decode
from gbr_tui.core.piece_list import parse_piece_list
from gbr_tui.core.written_forms import CAPTION_NEEDS_RESULT, ONE_KING_EACH, Form, copied_words, written_forms

KUBBEL = chess.Board("6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1")


def _texts(board: chess.Board, stipulation: str | None) -> dict[str, str | None]:
    return {form.name: form.text for form in written_forms(board, stipulation)}


def test_kubbel_in_every_form():
    # From the spec: the code 0323.12 (KBBP v KRNPP), =0323.12g3g1, the EG full position, the
    # piece list. The rest follow the spec's pattern of each dialect: the short form keeps .12
    # (it drops only .00); every man in the published order (rook a3; bishops a2 e1; knight g8;
    # White's pawn h6; Black's c3 c6); ARVES ends in the men count then the result sign; German
    # dots between code, kings with pieces, and pawns (as the German Wikipedia prints the start
    # position); the book form spaced.
    assert _texts(KUBBEL, "=") == {
        "plain code": "0323.12",
        "short code": "0323.12",
        "code with kings": "=0323.12g3g1",
        "code with every man": "=0323.12g3g1a3a2e1g8h6c3c6",
        "EG caption": "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw",
        "ARVES caption": "g3g1 0323.12 a3a2e1g8h6c3c6 4/5=",
        "German form": "=0323.12.g3g1a3a2e1g8.h6c3c6",
        "book form": "= 0323.12 g3g1 a3a2e1g8h6c3c6",
        "FEN": "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1",
        "piece list": "White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6",
    }


def test_every_form_with_squares_reads_back_to_the_board():
    for form in written_forms(KUBBEL, "="):
        if form.name == "piece list":
            assert parse_piece_list(form.text).board_fen() == KUBBEL.board_fen()
        elif form.name not in ("plain code", "short code", "code with kings", "FEN"):
            decoded = decode(form.text)
            assert decoded.board is not None and decoded.board.board_fen() == KUBBEL.board_fen(), form.name
            assert decoded.stipulation == "=", form.name


def test_each_form_has_its_own_key():
    keys = [form.key for form in Form]
    assert len(set(keys)) == len(keys) == len(written_forms(KUBBEL, None))


def test_captions_without_a_stipulation_say_why():
    forms = {form.name: form for form in written_forms(KUBBEL, None)}
    for name in ("EG caption", "ARVES caption"):
        assert forms[name].text is None and forms[name].problem == CAPTION_NEEDS_RESULT
    assert forms["German form"].text == "0323.12.g3g1a3a2e1g8.h6c3c6"  # no prefix, no result needed


def test_an_empty_board_has_codes_and_a_fen_but_no_squares():
    forms = {form.name: form for form in written_forms(chess.Board(None), None)}
    assert forms["plain code"].text == "0000.00" and forms["short code"].text == "0000"
    assert forms["FEN"].text == "8/8/8/8/8/8/8/8 w - - 0 1"
    for name in ("code with kings", "EG caption", "piece list"):
        assert forms[name].text is None and forms[name].problem == ONE_KING_EACH


def test_nine_pawns_have_no_code_but_a_fen_and_a_piece_list():
    board = chess.Board("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1")  # nine white pawns
    forms = {form.name: form for form in written_forms(board, "+")}
    assert forms["FEN"].text == board.fen()
    assert parse_piece_list(forms["piece list"].text).board_fen() == board.board_fen()
    for name in ("plain code", "short code", "EG caption", "German form"):
        assert forms[name].text is None and forms[name].problem.startswith("no code: more than 8 pawns")


@pytest.mark.parametrize("stipulation", ["+", "="])
def test_the_notice_names_the_form_and_its_text(stipulation):
    eg = next(form for form in written_forms(KUBBEL, stipulation) if form.key == "e")
    assert copied_words(eg) == f"Copied the EG caption: {eg.text}"
