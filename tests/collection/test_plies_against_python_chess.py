"""``--position all --min-plies 4`` against a plain python-chess replay on seeded random games
(100, and 2,000 in the slow part): the same classes, entered at the same plies and held as many
plies."""

from __future__ import annotations

import random

import chess
import pytest

from gbr_tui.core.code import encode
from gbr_tui.core.collection import Collection, Record
from gbr_tui.core.material import Material

MIN_PLIES = 4


def random_games(seed: int, count: int) -> list[tuple[list[str], str]]:
    """Games of random legal moves from the standard start, captures taken half the time (so
    that games reach endgames), each with a random result."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = chess.Board()
        sans = []
        for _ in range(rng.randrange(1, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [move for move in moves if board.is_capture(move) or move.promotion]
            move = rng.choice(captures if captures and rng.random() < 0.5 else moves)
            sans.append(board.san(move))
            board.push(move)
        games.append((sans, rng.choice(["1-0", "0-1", "1/2-1/2", "*"])))
    return games


def plain_replay(sans: list[str]) -> list[tuple[str, int, int]]:
    """(code, ply entered, plies held) of each run of one class, from the code of every
    position python-chess reaches; the last run lasts to the game's end."""
    board = chess.Board()
    codes = [encode(Material.from_board(board))]
    for san in sans:
        board.push_san(san)
        codes.append(encode(Material.from_board(board)))
    runs = []
    for ply, code in enumerate(codes):
        if not runs or runs[-1][0] != code:
            runs.append([code, ply, 0])
        if ply < len(sans):
            runs[-1][2] += 1
    return [tuple(run) for run in runs if run[2] >= MIN_PLIES]


@pytest.mark.parametrize("count", [100, pytest.param(2000, marks=pytest.mark.slow)])
def test_classes_and_plies_equal_a_plain_python_chess_replay(tmp_path, count):
    games = random_games(13, count)
    path = tmp_path / "random.pgn"

    def movetext(sans: list[str]) -> str:
        return " ".join(f"{index // 2 + 1}. {san}" if index % 2 == 0 else san for index, san in enumerate(sans))

    path.write_text(
        "".join(
            f'[Event "{n}"]\n[Result "{result}"]\n\n{movetext(sans)} {result}\n\n'
            for n, (sans, result) in enumerate(games)
        )
    )
    with Collection(path, game_positions="all", min_plies=MIN_PLIES) as collection:
        items = list(collection.records(fens=False))
    assert all(type(item) is Record for item in items)
    found: dict[int, list] = {}
    for item in items:
        found.setdefault(item.number, []).append((item.code, item.ply, item.plies))
    expected = {number: runs for number, (sans, _) in enumerate(games, start=1) if (runs := plain_replay(sans))}
    assert found == expected
    # The games reach far: some classes without queens, and many runs of one class.
    assert sum(len(runs) for runs in expected.values()) > 2 * count
    assert any(code.startswith("0") for runs in expected.values() for code, _, _ in runs)
