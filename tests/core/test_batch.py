"""The batch encoder's numpy path gives exactly python-chess's verdict on every FEN (tricky
spellings here; seeded spoiled files in test_fast.py)."""

from __future__ import annotations

import sys

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gbr_tui.core import FenEncoder, GbrError, Material, Rule, encode

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"

TRICKY = [
    START,
    f"{START} w KQkq - 0 1",
    f"{START} b KQkq e3 0 1",
    f"{KUBBEL} w - - 0 1",
    f"{KUBBEL} b",
    f"{KUBBEL} w -",
    f"{KUBBEL} w - -",
    f"{KUBBEL} w - - 0",
    f"{KUBBEL} w HAha - 0 1",  # Shredder castling letters: python-chess accepts them
    f"{KUBBEL} w KQkq - 0 0",  # full-move 0 is accepted (and read as 1)
    f"{KUBBEL} w - - 007 1",  # leading zeros are fine for int()
    f"{KUBBEL} w - - +3 1",  # so is a plus sign
    f"{KUBBEL} w - - -1 1",  # a negative clock is not
    f"{KUBBEL} w - - 0 -1",
    f"{KUBBEL} w - - x 1",
    f"{KUBBEL} w - - 0 1 extra",  # more fields than FEN has
    f"{KUBBEL} x - - 0 1",  # bad turn
    f"{KUBBEL} W - - 0 1",
    f"{KUBBEL} w KQX - 0 1",  # bad castling
    f"{KUBBEL} w KKK - 0 1",
    f"{KUBBEL} w - e9 0 1",  # bad en passant square
    f"{KUBBEL} w - E3 0 1",
    f"{KUBBEL}  w - - 0 1",  # two spaces: python-chess splits on any whitespace
    f"{KUBBEL}\tw\t-\t-\t0\t1",  # tabs, likewise
    f"{KUBBEL}\tw",
    f"  {KUBBEL} w - - 0 1  ",  # surrounding spaces
    f"{KUBBEL} w - - 0 1\n",
    "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1/8",  # nine ranks
    "6n1/8/2p4P/8/8/r1p3K1/B7",  # seven ranks
    "6n1/8/2p4P/8/8/r1p3K1/B7/",  # an empty eighth rank
    "6n1/8/2p4P/44/8/r1p3K1/B7/4B1k1",  # two digits in a row
    "6n1/8/2p4P/71/8/r1p3K1/B7/4B1k1",
    "6n1/8/2p4P/9/8/r1p3K1/B7/4B1k1",  # no digit 9 in FEN
    "6n1/8/2p4P/0p7/8/r1p3K1/B7/4B1k1",  # nor 0
    "6n1/8/2p4Pp/8/8/r1p3K1/B7/4B1k1",  # a rank of nine squares
    "6n1/8/2p3P/8/8/r1p3K1/B7/4B1k1",  # a rank of seven squares
    "6n1/8/2p4P~/8/8/r1p3K1/B7/4B1k1",  # '~' after a piece marks it promoted: accepted
    "6n1/8/2p~4P/8/8/r1p3K1/B7/4B1k1",
    "6n1/8/2p4P/~8/8/r1p3K1/B7/4B1k1",  # '~' not after a piece
    "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1~",
    "6n1/8/2x4P/8/8/r1p3K1/B7/4B1k1",  # a letter that is no piece
    "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1/",
    "/6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1",
    "6n1//8/2p4P/8/8/r1p3K1/B7",
    "6N1/8/2P4p/8/8/R1P3k1/b7/4b1K1",  # colours swapped
    "8/8/8/8/8/8/8/8",  # an empty board is a FEN (no kings: still a code)
    "k7/8/8/8/8/8/8/7K",
    "kr6/8/8/8/8/8/8/7K",  # a lone rook: the sum a board full of queens also gives
    "8/8/8/8/8/8/8/7N",
    "KKKKKKKK/KKKKKKKK/KKKKKKKK/KKKKKKKK/KKKKKKKK/KKKKKKKK/KKKKKKKK/KKKKKKKR",
    "/".join(["Q" * 8] * 8),  # 64 queens: a 9, never one rook
    "/".join(["n" * 8] * 8),
    "/".join(["P" * 8] * 8),  # 64 pawns: python-chess reads it, the code cannot be written
    "/".join(["p" * 8] * 8),
    "/".join(["Q" * 8] * 7 + ["QQQQQQQK"]),
    "PPPPPPPP/PPPPPPPP/8/8/8/8/8/k6K",  # sixteen pawns
    "4k3/PPPPPPPP/8/8/8/8/P7/4K3",  # nine white pawns
    "",
    " ",
    "\t",
    "w",
    "8",
    "8/8/8/8/8/8/8/8 w - - 0 1 2",
    "\u0668/8/8/8/8/8/8/8",  # an Arabic-Indic eight is no FEN digit
    f"{KUBBEL} w - - \u0661 1",  # but int() reads an Arabic-Indic one in a clock field
    f"{KUBBEL} w - - 0 \u0661",
    "\udcff/8/8/8/8/8/8/8",  # a lone surrogate (an undecodable byte read with surrogateescape)
]


def python_chess_verdict(fen: str, rule: Rule = Rule.COUNT, short: bool = False) -> str | None:
    """The code python-chess's own parsing leads to, or None when it rejects the FEN."""
    try:
        board = chess.Board(fen)
    except ValueError:
        return None
    try:
        return encode(board, rule, short)
    except GbrError:  # more than 8 pawns: a FEN, but no code
        return None


def fast_verdict(results: list[str | GbrError]) -> str | None:
    (result,) = results
    return None if isinstance(result, GbrError) else result


@pytest.mark.parametrize("fen", TRICKY)
def test_the_fast_path_agrees_with_python_chess_alone_and_among_others(fen: str) -> None:
    expected = python_chess_verdict(fen)
    assert fast_verdict(FenEncoder(vector=True).codes([fen])) == expected
    # In a batch of every tricky FEN (the buffer then holds its neighbours' bytes too).
    results = FenEncoder(vector=True).codes([*TRICKY, fen])
    assert fast_verdict(results[-1:]) == expected


def test_the_vetted_materials_are_python_chess_counts() -> None:
    vetted = FenEncoder(vector=True).vet(TRICKY)
    vouched = [index for index in range(len(TRICKY)) if index not in set(vetted.rejected)]
    assert len(vouched) >= 10  # the plain spellings at least (START, KUBBEL with its fields...)
    for index in vouched:
        assert vetted.material(index) == Material.from_board(chess.Board(TRICKY[index]))


def test_small_batches_leave_numpy_alone_and_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "gbr_tui.core.fast", raising=False)  # as in a fresh process
    encoder = FenEncoder()  # chooses by size: a few FENs are python-chess's
    assert encoder.vet(TRICKY).rejected == range(len(TRICKY))
    assert [fast_verdict([result]) for result in encoder.codes(TRICKY)] == list(map(python_chess_verdict, TRICKY))


def test_a_batch_keeps_the_order_and_puts_errors_in_place() -> None:
    fens = [START, "bad", f"{KUBBEL} w - - 0 1", ""]
    results = FenEncoder(vector=True).codes(fens)
    # Start array: QQ -> 1 + 3 = 4, RR, BB, NN -> 2 + 2 * 3 = 8, 8 pawns each.
    assert results[0] == "4888.88"
    assert isinstance(results[1], GbrError)
    assert results[2] == "0323.12"  # the spec's Kubbel vector
    assert isinstance(results[3], GbrError)


def test_the_64_queen_board_is_a_9_not_a_rook() -> None:
    assert FenEncoder(vector=True).code("/".join(["Q" * 8] * 8)) == "9000.00"


@pytest.mark.parametrize("rule", list(Rule))
@pytest.mark.parametrize("short", [False, True])
def test_rule_and_short_form_follow_the_plain_encoder(rule: Rule, short: bool) -> None:
    fens = [f for f in TRICKY if python_chess_verdict(f) is not None]
    fens += ["4k3/8/8/8/8/8/8/QQ2K3", "4k3/8/8/8/8/8/8/QQQ1K3", "qq2k3/8/8/8/8/8/8/4K3"]
    expected = [python_chess_verdict(fen, rule, short) for fen in fens]
    assert FenEncoder(rule, short, vector=True).codes(fens) == expected


FEN_ALPHABET = "KQRBNPkqrbnp12345678/ wb-KQkqa1h8e3~09x\t"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet=FEN_ALPHABET, max_size=12), min_size=8, max_size=9))
def test_random_rank_soup_agrees_with_python_chess(ranks: list[str]) -> None:
    fen = "/".join(ranks)
    encoder = FenEncoder(vector=True)
    assert fast_verdict(encoder.codes([fen])) == python_chess_verdict(fen)
    assert fast_verdict(encoder.codes([fen])) == python_chess_verdict(fen)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([START, KUBBEL, "8/8/8/8/8/8/8/8"]),
    st.text(alphabet=" wb-KQkqAHah1e3690+\t", max_size=20),
)
def test_random_trailing_fields_agree_with_python_chess(placement: str, trailing: str) -> None:
    fen = f"{placement} {trailing}"
    assert fast_verdict(FenEncoder(vector=True).codes([fen])) == python_chess_verdict(fen)


def boards(max_men: int = 32) -> st.SearchStrategy[chess.Board]:
    """Boards with any men on any squares (kings too, any number), as FEN allows."""
    return st.dictionaries(
        st.sampled_from(chess.SQUARES),
        st.sampled_from("KQRBNPkqrbnp").map(chess.Piece.from_symbol),
        max_size=max_men,
    ).map(_board)


def _board(pieces: dict[chess.Square, chess.Piece]) -> chess.Board:
    board = chess.Board(None)
    board.set_piece_map(pieces)
    return board


@settings(max_examples=400, deadline=None)
@given(
    boards(64),
    st.integers(min_value=0, max_value=80),
    st.sampled_from(["", "x", "/", "1", "8", "~", " ", "p"]),
    st.booleans(),
)
def test_one_character_off_agrees_with_python_chess(board: chess.Board, at: int, char: str, replace: bool) -> None:
    """A good placement with one character inserted, replaced or removed."""
    fen = board.board_fen()
    at = min(at, len(fen))
    mutated = fen[:at] + char + fen[at + (1 if replace or not char else 0) :]
    encoder = FenEncoder(vector=True)
    assert fast_verdict(encoder.codes([fen, mutated])[1:]) == python_chess_verdict(mutated)


def test_ordinary_fens_never_need_python_chess(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(fen: str) -> chess.Board:
        raise AssertionError(f"python-chess was asked about {fen!r}")

    monkeypatch.setattr("gbr_tui.core.batch.board_from_fen", refuse)
    fens = [START, f"{START} w KQkq - 0 1", f"{KUBBEL} b - - 3 40", KUBBEL, "k7/8/8/8/8/8/8/7K"]
    # Start array 4888.88; Kubbel's study 0323.12 (spec section 4); bare kings 0000.00.
    expected = ["4888.88", "4888.88", "0323.12", "0323.12", "0000.00"]
    assert FenEncoder(vector=True).codes(fens) == expected
