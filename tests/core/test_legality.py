"""The batch path's status flags (``legality``, through ``fast``) against python-chess's
``Board.status()`` on seeded positions: random placements, positions from games, and positions
spoiled every way a position can fail to be legal. python-chess is the referee: every line the
batch path vouches for must have its flags, and only the lines left to it may be left."""

from __future__ import annotations

import random
from collections import Counter

import chess
import pytest

from gbr_tui.core.fast import VectorEncoder
from gbr_tui.core.validity import ADJACENT_KINGS, BLACK_TO_MOVE, board_status, status_words
from tests.support.positions import game_positions, random_position


def _empty_squares(board: chess.Board, ranks: range) -> list[int]:
    return [square for square in chess.SQUARES if chess.square_rank(square) in ranks and not board.piece_at(square)]


def _games_with_every_en_passant(rng: random.Random, count: int) -> list[str]:
    """Positions of random games, each double step's en passant square written (python-chess's
    ``en_passant="fen"``), legal to take or not."""
    fens: list[str] = []
    board = chess.Board()
    while len(fens) < count:
        moves = list(board.legal_moves)
        if not moves or board.ply() > 120:
            board = chess.Board()
            continue
        board.push(rng.choice(moves))
        fens.append(board.fen(en_passant="fen"))
    return fens


def _spoiled(rng: random.Random, fen: str) -> str:
    """``fen`` made illegal (or not) one way, at random."""
    board = chess.Board(fen)
    way = rng.randrange(7)
    if way == 0:  # pawns on the first or last rank
        for square in _empty_squares(board, range(0, 8, 7))[rng.randrange(16) :][:1]:
            board.set_piece_at(square, chess.Piece(chess.PAWN, rng.random() < 0.5))
    elif way == 1:  # the other side to move: the side in check is then not to move
        board.turn = not board.turn
    elif way == 2:  # more men than a side can have
        color = rng.random() < 0.5
        for square in _empty_squares(board, range(1, 7))[: 17 - chess.popcount(board.occupied_co[color])]:
            board.set_piece_at(square, chess.Piece(chess.KNIGHT, color))
    elif way == 3:  # castling rights, with the king and the rooks at home or not
        for square, symbol in ((chess.E1, "K"), (chess.E8, "k"), (chess.A1, "R"), (chess.H8, "r")):
            if rng.random() < 0.6 and board.piece_type_at(square) != chess.KING:
                board.remove_piece_at(square)
                if board.king(symbol.isupper() and symbol != "r") is None or symbol in "Rr":
                    board.set_piece_at(square, chess.Piece.from_symbol(symbol))
        rights = "".join(letter for letter in "KQkq" if rng.random() < 0.5) or "-"
        return f"{board.board_fen()} {'w' if board.turn else 'b'} {rights} - 0 1"
    elif way == 4:  # an en passant square anywhere
        square = rng.choice(chess.SQUARES)
        return f"{board.board_fen()} {'w' if board.turn else 'b'} - {chess.square_name(square)} 0 1"
    elif way == 5:  # a pawn that has just stepped two squares, and checks around it
        return _double_step(rng, board)
    else:  # men of the side not to move around the side to move's king: checks by one, two, three
        king = board.king(board.turn)
        if king is not None:
            empty = _empty_squares(board, range(8))
            for square in rng.sample(empty, min(4, len(empty))):
                if chess.square_distance(square, king) > 1:
                    board.set_piece_at(square, chess.Piece(rng.choice([2, 3, 4, 5]), not board.turn))
    return board.fen()


def _double_step(rng: random.Random, board: chess.Board) -> str:
    """A pawn of the side not to move just after a double step, its en passant square given,
    with a queen or rook of that side checking sometimes."""
    mover = board.turn
    rank = 4 if mover == chess.WHITE else 3  # where the pawn that stepped stands
    file = rng.randrange(8)
    pawn = chess.square(file, rank)
    behind = chess.square(file, rank + 1 if mover == chess.WHITE else rank - 1)
    start = chess.square(file, rank + 2 if mover == chess.WHITE else rank - 2)
    for square in (behind, start):
        if board.piece_type_at(square) != chess.KING:
            board.remove_piece_at(square)
    if board.piece_type_at(pawn) != chess.KING:
        board.set_piece_at(pawn, chess.Piece(chess.PAWN, not mover))
    king = board.king(mover)
    if king is not None and rng.random() < 0.7:
        line = [s for s in chess.SQUARES if chess.BB_RAYS[king][s] and s != king and not board.piece_at(s)]
        if line:
            board.set_piece_at(rng.choice(line), chess.Piece(rng.choice([chess.ROOK, chess.QUEEN]), not mover))
    return f"{board.board_fen()} {'w' if mover else 'b'} - {chess.square_name(behind)} 0 1"


def _left_to_python_chess(fen: str) -> bool:
    """A line the batch path may leave to python-chess: more than 8 pawns a side (the fast
    checks' own rule), castling named by files, or not one king a side."""
    board = chess.Board(fen)
    fields = fen.split()
    files = len(fields) > 2 and any(letter in "ABCDEFGHabcdefgh" for letter in fields[2])
    kings = [len(board.pieces(chess.KING, color)) for color in chess.COLORS]
    pawns = [len(board.pieces(chess.PAWN, color)) for color in chess.COLORS]
    return files or kings != [1, 1] or max(pawns) > 8


def _positions(seed: int) -> list[str]:
    rng = random.Random(seed)
    clean = [random_position(rng) for _ in range(1500)] + game_positions(rng, 1500)
    clean += _games_with_every_en_passant(rng, 1500)
    return clean + [_spoiled(rng, rng.choice(clean)) for _ in range(3000)]


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_the_batch_paths_flags_are_python_chess_status(seed: int) -> None:
    fens = _positions(seed)
    vetted = VectorEncoder().vet(fens)
    rejected = set(vetted.rejected)
    found: Counter[int] = Counter()
    for index, fen in enumerate(fens):
        expected = board_status(chess.Board(fen))
        if index in rejected:
            assert _left_to_python_chess(fen), fen
            continue
        assert vetted.line_status(index) == expected, fen
        for flag in chess.Status:
            found[flag] += bool(expected & flag)
        found[ADJACENT_KINGS] += bool(expected & ADJACENT_KINGS)
        found[BLACK_TO_MOVE] += bool(expected & BLACK_TO_MOVE)
    # Every way of failing was met, many times, among the lines vouched for.
    for flag in (
        chess.STATUS_PAWNS_ON_BACKRANK,
        chess.STATUS_TOO_MANY_WHITE_PIECES,
        chess.STATUS_TOO_MANY_BLACK_PIECES,
        chess.STATUS_BAD_CASTLING_RIGHTS,
        chess.STATUS_INVALID_EP_SQUARE,
        chess.STATUS_OPPOSITE_CHECK,
        chess.STATUS_TOO_MANY_CHECKERS,
        chess.STATUS_IMPOSSIBLE_CHECK,
        ADJACENT_KINGS,
        BLACK_TO_MOVE,
    ):
        assert found[flag] >= 20, (flag, found[flag])
    assert len(rejected) < len(fens) // 20  # python-chess is asked for few


def test_checks_after_a_double_step_are_judged_as_python_chess_judges_them() -> None:
    """Positions made by hand, each flag reasoned out and checked against python-chess."""
    cases = {
        # Black's d-pawn has just stepped to d5: White's king on c4 is checked by it (possible).
        "4k3/8/8/3p4/2K5/8/8/8 w - d6 0 1": 0,
        # A rook on h4 checks the king on a4 along the fourth rank: not through d7-d5, which
        # does not cross the rank (the check was there before the step).
        "4k3/8/8/3p4/K6r/8/8/8 w - d6 0 1": chess.STATUS_IMPOSSIBLE_CHECK,
        # The rook on d8 behind the pawn that stepped: the pawn on d5 stands between it and the
        # king on d4, and attacks c4 and e4: no check at all.
        "3rk3/8/8/3p4/3K4/8/8/8 w - d6 0 1": 0,
        # d7-d5 uncovered the bishop on c8 (c8-d7-e6-f5-g4): the check came from the step.
        "2b4k/8/8/3p4/6K1/8/8/8 w - d6 0 1": 0,
        # The same check with the pawn not from d7 but d6 (no en passant square): possible too.
        "2b4k/8/8/3p4/6K1/8/8/8 w - - 0 1": 0,
        # The en passant square without a pawn in front of it: invalid.
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1": chess.STATUS_INVALID_EP_SQUARE,
        # Two rooks checking from both sides of the king on one rank: impossible.
        "4k3/8/8/8/r3K2r/8/8/8 w - - 0 1": chess.STATUS_IMPOSSIBLE_CHECK,
        # A rook and a knight checking: a discovered double check, possible.
        "4k3/8/8/8/r3K3/2n5/8/8 w - - 0 1": 0,
        # Three checkers.
        "4k3/8/8/5p2/r3K3/2n5/8/8 w - - 0 1": chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK,
    }
    fens = list(cases)
    vetted = VectorEncoder().vet(fens)
    assert list(vetted.rejected) == []
    for index, fen in enumerate(fens):
        assert int(chess.Board(fen).status()) == cases[fen], fen  # the reasoning, by the referee
        assert vetted.line_status(index) == cases[fen], fen


def test_status_words_are_the_editors() -> None:
    """A status's words are ``position_warnings``'s for the board it came from."""
    board = chess.Board("4k3/8/8/8/8/8/4r3/4K3 b - - 0 1")
    assert status_words(board_status(board)) == ["White is in check with Black to move"]
    assert status_words(board_status(chess.Board("8/8/8/8/8/8/3k4/4K3 w - - 0 1"))) == [
        "the kings stand next to each other"
    ]


@pytest.mark.parametrize(
    "fen, expected",
    [
        # Black's e-pawn has just stepped from e7 to e5, nothing checks: legal.
        ("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1", 0),
        # No pawn in front of the square: invalid (and no man attacks a king anywhere).
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", chess.STATUS_INVALID_EP_SQUARE),
    ],
)
def test_a_block_whose_only_rare_line_has_no_check(fen: str, expected: int) -> None:
    """A block with an en passant square and no man attacking a king at all (the checkers
    looked up are then none)."""
    assert int(chess.Board(fen).status()) == expected  # the reasoning, by the referee
    vetted = VectorEncoder().vet([fen])
    assert list(vetted.rejected) == []
    assert vetted.line_status(0) == expected
