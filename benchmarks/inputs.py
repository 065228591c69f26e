"""Benchmark inputs: random games and positions, made with a fixed seed and cached (the
generators are the tests' own, in ``tests/support/positions.py``).

The files go to ``benchmarks/.cache/`` (git-ignored). Making the 20,000 games takes minutes with
python-chess, so they are made once; delete the cache to remake them.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import chess
from usage import answer_help

from gbr_tui.core.symmetry import transforms_for
from tests.support.pgn_shapes import capture_game, lichess_game
from tests.support.positions import STUDY_MEN, few_men_endgame, game_text, positions_met_in_games, random_game

CACHE = Path(__file__).parent / ".cache"
SEED = 20240601


def random_games_pgn(count: int = 20_000) -> Path:
    """A PGN of ``count`` random games (cached)."""
    path = CACHE / f"random-{count}.pgn"
    if path.exists():
        return path
    CACHE.mkdir(exist_ok=True)
    rng = random.Random(SEED)
    partial = path.with_suffix(".part")
    with partial.open("w") as out:
        for number in range(1, count + 1):
            out.write(game_text(number, *random_game(rng)))
    partial.rename(path)
    return path


#: The PGN shapes every PGN figure is given for: Lichess's export (17 tags, a clock comment after
#: every move, evals in some games, 10-200 plies), short capture-heavy games (30-140 plies) and
#: long random games (up to 500 plies, no comments).
SHAPES = ("lichess", "captures", "random")


def shaped_pgn(shape: str, count: int = 20_000) -> Path:
    """A PGN of ``count`` games of one of ``SHAPES`` (cached)."""
    if shape == "random":
        return random_games_pgn(count)
    path = CACHE / f"{shape}-{count}.pgn"
    if path.exists():
        return path
    CACHE.mkdir(exist_ok=True)
    rng = random.Random(f"{SEED}-{shape}")
    make = lichess_game if shape == "lichess" else capture_game
    partial = path.with_suffix(".part")
    with partial.open("w") as out:
        for number in range(1, count + 1):
            out.write(make(rng, number))
    partial.rename(path)
    return path


def zstd_copy(path: Path) -> Path:
    """``path`` compressed by the zstd command (cached), as Lichess publishes its databases."""
    packed = path.with_name(path.name + ".zst")
    if not packed.exists():
        subprocess.run(["zstd", "-q", "-f", str(path), "-o", str(packed)], check=True)
    return packed


def repeated_pgn(source: Path, times: int) -> Path:
    """``source`` written ``times`` times over: a big PGN without making new games."""
    path = CACHE / f"{source.stem}-x{times}.pgn"
    if not path.exists():
        data = source.read_bytes()
        with path.open("wb") as out:
            for _ in range(times):
                out.write(data)
    return path


def random_positions(count: int = 200_000, epd: bool = False) -> Path:
    """``count`` FENs (or EPD lines) of positions met in random games (cached)."""
    path = CACHE / f"positions-{count}.{'epd' if epd else 'fen'}"
    if path.exists():
        return path
    CACHE.mkdir(exist_ok=True)
    rng = random.Random(SEED + count)
    lines = positions_met_in_games(rng, count, epd)
    partial = path.with_suffix(".part")
    partial.write_text("".join(line + "\n" for line in lines))
    partial.rename(path)
    return path


def random_endgames(count: int = 200_000) -> Path:
    """``count`` FENs of legal positions with kings and 1 to 7 other men, placed at random: what
    endgame-study collections hold (cached)."""
    path = CACHE / f"endgames-{count}.fen"
    if path.exists():
        return path
    CACHE.mkdir(exist_ok=True)
    rng = random.Random(SEED - count)
    lines = []
    while len(lines) < count:
        if (fen := few_men_endgame(rng)) is not None:
            lines.append(fen + "\n")
    partial = path.with_suffix(".part")
    partial.write_text("".join(lines))
    partial.rename(path)
    return path


def study_positions(count: int) -> Path:
    """``count`` FENs of legal study-like positions, kings and 1 to 10 men drawn as studies have
    them (3 to 12 men), about one in ten a copy of an earlier one turned, mirrored or shifted
    (cached; a larger count begins with a smaller one's lines)."""
    path = CACHE / f"studies-{count}.fen"
    if path.exists():
        return path
    CACHE.mkdir(exist_ok=True)
    rng = random.Random(SEED)
    boards: list[chess.Board] = []
    lines = []
    while len(lines) < count:
        if boards and rng.random() < 0.1:
            board = rng.choice(boards)
            transform = rng.choice(transforms_for(board))
            copy = chess.Board(None)
            copy.set_board_fen(transform.board(board).board_fen())
            copy.turn = board.turn
            lines.append(copy.fen() + "\n")
        elif (board := study_position(rng)) is not None:
            boards.append(board)
            lines.append(board.fen() + "\n")
    partial = path.with_suffix(".part")
    partial.write_text("".join(lines))
    partial.rename(path)
    return path


def study_position(rng: random.Random) -> chess.Board | None:
    """Kings and 1 to 10 men of a study's kinds; None where that is no legal position."""
    board = chess.Board(None)
    squares = rng.sample(chess.SQUARES, 12)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for square in squares[2 : 2 + rng.randint(1, 10)]:
        piece = chess.Piece.from_symbol(rng.choice(STUDY_MEN))
        if piece.piece_type != chess.PAWN or chess.square_rank(square) not in (0, 7):
            board.set_piece_at(square, piece)
    board.turn = rng.random() < 0.5
    return board if board.is_valid() else None


if __name__ == "__main__":
    answer_help(__doc__)
    for made in (random_positions(), random_positions(epd=True), random_endgames(), random_games_pgn()):
        print(made, made.stat().st_size)
    for shape in SHAPES:
        made = shaped_pgn(shape)
        print(made, made.stat().st_size, zstd_copy(made))
