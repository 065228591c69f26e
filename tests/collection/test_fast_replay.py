"""The replay agrees with python-chess, move for move, on many seeded random games; on those the
fast replay vouches for every move, and it never vouches for one python-chess rejects."""

from __future__ import annotations

import random

import chess
import pytest

from gbr_tui.core.replay import MoveError, Replayed, StartPosition, replay

#: Games per test: 50 meet every kind of move (captures, castling both ways, each promotion,
#: en passant) in both tests; the bigger count in the slow part.
GAMES = [50, pytest.param(120, marks=pytest.mark.slow)]


def _interesting(board: chess.Board, move: chess.Move) -> bool:
    return board.is_capture(move) or board.is_castling(move) or move.promotion is not None


def random_game(rng: random.Random, start: chess.Board) -> list[str]:
    """Random legal moves, leaning towards captures, castling, en passant and promotions, so
    the rare cases come up often."""
    board = start.copy()
    sans = []
    for _ in range(rng.randrange(20, 300)):
        moves = list(board.legal_moves)
        if not moves:
            break
        special = [move for move in moves if _interesting(board, move)]
        move = rng.choice(special if special and rng.random() < 0.4 else moves)
        sans.append(board.san(move))
        board.push(move)
    return sans


def starts(rng: random.Random) -> list[chess.Board]:
    """The standard start and positions with pawns about to promote and castling rights."""
    boards = [chess.Board()] * 3
    boards.append(chess.Board("r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1"))
    boards.append(chess.Board("4k3/PPPP4/8/8/8/8/4pppp/4K3 b - - 0 1"))
    boards.append(chess.Board("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"))
    return boards


def games(seed: int, count: int):
    rng = random.Random(seed)
    boards = starts(rng)
    for _ in range(count):
        board = rng.choice(boards)
        yield board, random_game(rng, board)


def python_chess_replay(start: chess.Board, sans: list[str]) -> tuple[list, tuple]:
    """The material after each capture or promotion and at the end, as plain python-chess sees
    it: (changes, final), each state (ply, White's Q R B N P then Black's, placement)."""
    board = start.copy()

    def state(ply: int) -> tuple:
        counts = [len(board.pieces(piece, color)) for color in (chess.WHITE, chess.BLACK) for piece in range(5, 0, -1)]
        return ply, tuple(counts), board.board_fen()

    changes = [state(0)]
    for ply, san in enumerate(sans, start=1):
        move = board.parse_san(san)
        changed = board.is_capture(move) or move.promotion is not None
        board.push(move)
        if changed:
            changes.append(state(ply))
    return changes, state(len(sans))


def replayed(start: chess.Board, sans: list[str]) -> Replayed:
    return replay(StartPosition(start), sans, every_change=True, fens=True)


@pytest.mark.parametrize("count", GAMES)
def test_fast_replay_matches_python_chess_on_random_games(count):
    fast_games = 0
    for board, sans in games(seed=1, count=count):
        got = replayed(board, sans)
        assert (got.changes, got.final) == python_chess_replay(board, sans), (board.fen(), sans)
        if not got.by_python_chess:
            fast_games += 1
    # Only games with odd spellings should need python-chess; random games have none.
    assert fast_games == count


def _first_illegal(board: chess.Board, sans: list[str]) -> int | None:
    board = board.copy()
    for index, san in enumerate(sans):
        try:
            board.push_san(san)
        except ValueError:
            return index
    return None


@pytest.mark.parametrize("count", GAMES)
def test_fast_replay_never_accepts_a_move_python_chess_rejects(count):
    """Swap one move of each game for a move of another game: the replay must reject the first
    illegal move where python-chess does, and otherwise agree with python-chess exactly."""
    rng = random.Random(2)
    played = list(games(seed=3, count=count))
    rejected = 0
    for board, sans in played:
        if len(sans) < 4:
            continue
        other = rng.choice(played)[1]
        spoiled = list(sans)
        spoiled[rng.randrange(len(sans))] = rng.choice(other)
        illegal_at = _first_illegal(board, spoiled)
        if illegal_at is not None:
            rejected += 1
            # Had the fast replay taken the illegal move, no error would be raised.
            with pytest.raises(MoveError) as error:
                replayed(board, spoiled)
            assert error.value.index == illegal_at, (board.fen(), spoiled, illegal_at)
            with pytest.raises(MoveError) as error:
                replay(StartPosition(board), spoiled, every_change=False, fens=False)
            assert error.value.index == illegal_at
        else:
            got = replayed(board, spoiled)
            assert (got.changes, got.final) == python_chess_replay(board, spoiled)
    assert rejected > count // 2  # the test did meet many illegal moves


@pytest.mark.parametrize(
    ("fen", "san"),
    [
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "Rxe8"),  # the king of the side not to move is taken
        ("4k3/8/8/3P4/8/8/8/4K3 w - e6 0 1", "dxe6"),  # en passant with no pawn to take
    ],
)
def test_a_start_no_game_reaches_is_replayed_as_python_chess_replays_it(fen, san):
    """A FEN tag may set up what no game reaches; python-chess plays on, and so must the replay."""
    board = chess.Board(fen)
    got = replayed(board, [san])
    assert (got.changes, got.final) == python_chess_replay(board, [san])
    board.push_san(san)
    assert got.kings == (len(board.pieces(chess.KING, chess.WHITE)), len(board.pieces(chess.KING, chess.BLACK)))


@pytest.mark.parametrize(
    ("fen", "san"),
    [
        ("4k3/8/4N3/3Pp3/8/8/8/4K3 w - e6 0 1", "dxe6"),  # en passant onto a square a man is on
        ("4k3/8/8/8/8/8/3P4/4K3 w - e3 0 1", "dxe3"),  # an en passant square on the wrong rank
    ],
)
def test_en_passant_python_chess_refuses_is_refused(fen, san):
    assert _first_illegal(chess.Board(fen), [san]) == 0
    with pytest.raises(MoveError):
        replayed(chess.Board(fen), [san])
