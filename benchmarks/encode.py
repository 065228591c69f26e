"""How fast `gbr-tui encode` turns FENs into codes, against the naive python-chess way.

Run: ``uv run python benchmarks/encode.py`` (a minute or two; the FENs are generated once and
cached in ``benchmarks/.cache/``, which git ignores).

The FENs (200,000, fixed seed, so every run and every machine times the same text):

* 150,000 positions from games of uniformly random legal moves, every position of each game
  (20 to 200 plies). Random play scatters the men, so these positions hold far more distinct
  rank strings than real games do (about 100,000 distinct ranks): the worst case for an encoder
  that remembers ranks, and the majority of the mix so that the headline figure is not
  flattered.
* 50,000 study-like positions: the two kings and 2 to 10 other men drawn with the frequencies
  of endgame studies (pawns and minor pieces common, queens rare), placed at random, no pawn on a
  back rank, the side not to move not in check. This is what study collections, the project's
  main users' data, look like.

Timed in the same run, each the best of a few rounds, in CPU seconds (the machine may be shared
with other work; CPU time is what the work itself costs):

(a) the baseline: ``chess.Board(fen)``, then count the pieces and write the code;
(b) ``FenEncoder.codes`` over all FENs, a fresh encoder each round: the path `gbr-tui encode`
    uses for plain codes;
(c) ``gbr-tui encode`` as a subprocess reading the file on stdin, writing to /dev/null: start-up,
    reading, decoding and writing included.

Goals (issue 2): (a)/(b) at least 25; (c)/(b) at most 2. The figures are also printed for the two
kinds of position separately.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import chess

from gbr_tui.core import FenEncoder, encode

SEED = 20240611
GAME_POSITIONS = 150_000
STUDY_POSITIONS = 50_000
ROUNDS = 3
CACHE = Path(__file__).parent / ".cache" / f"encode-fens-{SEED}-{GAME_POSITIONS}-{STUDY_POSITIONS}.txt"

# Rough frequencies of the men in endgame studies besides the kings (pawns most common).
STUDY_MEN = "PPPPPPPPppppppppNNNnnnBBBbbbRRRrrrQq"


def game_positions(rng: random.Random, count: int) -> list[str]:
    fens: list[str] = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randint(20, 200)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            fens.append(board.fen())
    return fens[:count]


def study_positions(rng: random.Random, count: int) -> list[str]:
    fens: list[str] = []
    while len(fens) < count:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 12)
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
        for _ in range(rng.randint(2, 10)):
            piece = chess.Piece.from_symbol(rng.choice(STUDY_MEN))
            square = squares.pop()
            if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                continue
            board.set_piece_at(square, piece)
        board.turn = rng.choice(chess.COLORS)
        if board.is_valid():
            fens.append(board.fen())
    return fens


def load_fens() -> tuple[list[str], list[str]]:
    if not CACHE.exists():
        print(f"generating {GAME_POSITIONS + STUDY_POSITIONS:,} FENs (once) ...", flush=True)
        rng = random.Random(SEED)
        fens = game_positions(rng, GAME_POSITIONS) + study_positions(rng, STUDY_POSITIONS)
        CACHE.parent.mkdir(exist_ok=True)
        temporary = CACHE.with_suffix(".part")
        temporary.write_text("\n".join(fens) + "\n")
        temporary.replace(CACHE)
    fens = CACHE.read_text().splitlines()
    return fens[:GAME_POSITIONS], fens[GAME_POSITIONS:]


def cpu_seconds(work) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def baseline(fens: list[str]) -> list[str]:
    return [encode(chess.Board(fen)) for fen in fens]


def command_line() -> list[str]:
    script = Path(sys.executable).with_name("gbr-tui")
    if script.exists():
        return [str(script), "encode"]
    return [
        sys.executable,
        "-c",
        "import sys; from gbr_tui.cli import main; sys.exit(main())",
        "encode",
    ]


def subprocess_seconds(path: Path) -> float:
    """CPU seconds of one `gbr-tui encode < path > /dev/null`."""
    before = os.times()
    with path.open("rb") as stdin, open(os.devnull, "wb") as stdout:
        subprocess.run(command_line(), stdin=stdin, stdout=stdout, check=True)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def check_outputs(fens: list[str], path: Path) -> None:
    """The three ways must agree before their times mean anything."""
    expected = baseline(fens)
    assert FenEncoder().codes(fens) == expected, "FenEncoder disagrees with python-chess"
    with path.open("rb") as stdin:
        output = subprocess.run(command_line(), stdin=stdin, capture_output=True, check=True)
    assert output.stdout.decode().splitlines() == expected, "gbr-tui encode disagrees"


def measure(name: str, fens: list[str], path: Path) -> None:
    check_outputs(fens, path)
    best = {"a": float("inf"), "b": float("inf"), "c": float("inf")}
    for _ in range(ROUNDS):
        best["a"] = min(best["a"], cpu_seconds(lambda: baseline(fens)))
        best["b"] = min(best["b"], cpu_seconds(lambda: FenEncoder().codes(fens)))
        best["c"] = min(best["c"], subprocess_seconds(path))
    per_fen = {key: seconds / len(fens) * 1e6 for key, seconds in best.items()}
    print(f"\n{name}: {len(fens):,} FENs, best of {ROUNDS} rounds, CPU time")
    print(f"  (a) chess.Board(fen) + count     {per_fen['a']:7.2f} us/FEN  {best['a']:6.2f} s")
    print(f"  (b) FenEncoder.codes             {per_fen['b']:7.2f} us/FEN  {best['b']:6.2f} s")
    print(f"  (c) gbr-tui encode < file        {per_fen['c']:7.2f} us/FEN  {best['c']:6.2f} s")
    speedup, overhead = best["a"] / best["b"], best["c"] / best["b"]
    print(f"  (a)/(b) = {speedup:5.1f}x   goal >= 25x   {'ok' if speedup >= 25 else 'MISSED'}")
    print(f"  (c)/(b) = {overhead:5.2f}x   goal <= 2x    {'ok' if overhead <= 2 else 'MISSED'}")


def main() -> None:
    games, studies = load_fens()
    print(f"FENs: {CACHE.name} ({len(games):,} from random games, {len(studies):,} study-like)")
    parts = {"games": games, "studies": studies}
    paths = {name: CACHE.with_name(f"{CACHE.stem}-{name}.txt") for name in parts}
    for name, fens in parts.items():
        if not paths[name].exists():
            paths[name].write_text("\n".join(fens) + "\n")
    measure("all (the benchmark)", games + studies, CACHE)
    measure("random-game positions only", games, paths["games"])
    measure("study-like positions only", studies, paths["studies"])


if __name__ == "__main__":
    main()
