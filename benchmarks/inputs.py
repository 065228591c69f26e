"""Benchmark inputs: random games and positions, made with a fixed seed and cached (the
generators are the tests' own, in ``tests/support/positions.py``).

The files go to ``benchmarks/.cache/`` (git-ignored). Making the 20,000 games takes minutes with
python-chess, so they are made once; delete the cache to remake them.
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.support.positions import few_men_endgame, game_text, positions_met_in_games, random_game

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


if __name__ == "__main__":
    for made in (random_positions(), random_positions(epd=True), random_endgames(), random_games_pgn()):
        print(made, made.stat().st_size)
