"""`classify --tablebases` against `classify`, on endgame positions within the tables.

    uv run python benchmarks/tablebases.py [LINES] [DIR]

LINES (default 200,000) legal positions, fixed seed, of the materials whose Syzygy tables the
tests keep (``tests/data/syzygy``, or DIR): KR v KP, KR v KR, KQ v KR, KR v KN, KR v KB, KN v KP,
KP v K, KR v K, KQ v K, KNN v K, either side to move. Made once and cached in
``benchmarks/.cache/``. Each command runs as a subprocess, three times in turn, and its CPU
seconds (with its children) are taken; the ratio is the median of ``classify --tablebases``
over the median of ``classify``, the same file, the same run. Goal: at most 3x.

Then the floor any program built on python-chess's probing has: the CPU microseconds a position
of each of its steps (a ``chess.Board`` of the line, ``is_valid``, the WDL probe with its search
of captures), measured in this process on the first 20,000 lines, against what ``classify``
spends a line; and how many of the lines are distinct positions (what a cache could save).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import chess
import chess.syzygy
from usage import answer_help

from benchmarks.positions import CACHE, command_seconds, gbr_tui
from tests.support.tablebases import SYZYGY, random_positions

SEED = 20261204
GOAL = 3.0
MATERIALS = [
    ("R", "P"),
    ("R", "R"),
    ("Q", "R"),
    ("R", "N"),
    ("R", "B"),
    ("N", "P"),
    ("P", ""),
    ("R", ""),
    ("Q", ""),
    ("NN", ""),
]


def positions_file(lines: int) -> Path:
    path = CACHE / f"tablebase-endgames-{SEED}-{lines}.fen"
    if path.exists():
        return path
    print(f"making {path.name} (once) ...", flush=True)
    rng = random.Random(SEED)
    per_material = -(-lines // len(MATERIALS))
    fens = [board.fen() for white, black in MATERIALS for board in random_positions(rng, white, black, per_material)][
        :lines
    ]
    rng.shuffle(fens)
    CACHE.mkdir(exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_text("\n".join(fens) + "\n")
    partial.replace(path)
    return path


def main() -> None:
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    tables = sys.argv[2] if len(sys.argv) > 2 else str(SYZYGY)
    path = positions_file(lines)
    plain = gbr_tui("classify", str(path))
    probed = gbr_tui("classify", "--tablebases", tables, str(path))
    command_seconds(plain)  # byte code written, the file in the page cache
    times: dict[str, list[float]] = {"classify": [], "classify --tablebases": []}
    for _ in range(3):
        times["classify"].append(command_seconds(plain))
        times["classify --tablebases"].append(command_seconds(probed))
    medians = {name: statistics.median(runs) for name, runs in times.items()}
    for name, median in medians.items():
        print(f"{name:<24} {median:7.2f} CPU s  (runs {', '.join(f'{run:.2f}' for run in times[name])})")
    ratio = medians["classify --tablebases"] / medians["classify"]
    print(f"ratio {ratio:.1f}x  (goal <= {GOAL:g}x: {'ok' if ratio <= GOAL else 'MISSED'})")
    python_chess_floor(path, tables, medians["classify"] / lines)


def python_chess_floor(path: Path, tables: str, classify_per_line: float) -> None:
    """What python-chess's own steps cost a position, against classify's cost a line."""
    fens = path.read_text().splitlines()
    sample = fens[:20_000]
    steps: dict[str, float] = {}
    start = time.process_time()
    boards = [chess.Board(fen) for fen in sample]
    steps["chess.Board(fen)"] = time.process_time() - start
    start = time.process_time()
    for board in boards:
        board.is_valid()
    steps["is_valid()"] = time.process_time() - start
    with chess.syzygy.open_tablebase(tables) as opened:
        for board in boards[:1000]:
            opened.get_wdl(board)  # every table opened before the timing
        start = time.process_time()
        for board in boards:
            opened.get_wdl(board)
        steps["get_wdl() (with its search of captures)"] = time.process_time() - start
    print(
        f"python-chess's steps, CPU a position ({len(sample):,} lines), against classify's {classify_per_line * 1e6:.1f} us a line:"
    )
    for name, seconds in steps.items():
        print(f"  {name:<42} {seconds / len(sample) * 1e6:6.1f} us")
    floor = sum(steps.values()) / len(sample)
    print(
        f"  {'all three: the floor of a probe':<42} {floor * 1e6:6.1f} us = {floor / classify_per_line:.0f}x classify's line"
    )
    distinct = len({" ".join(fen.split()[:2]) for fen in fens})
    print(f"distinct positions (placement and side to move): {distinct:,} of {len(fens):,} lines")


if __name__ == "__main__":
    answer_help(__doc__)
    main()
