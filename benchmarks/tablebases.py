"""`classify --tablebases` against `classify`, on endgame positions within the tables.

    uv run python benchmarks/tablebases.py [LINES] [DIR]

LINES (default 200,000) legal positions, fixed seed, of the materials whose Syzygy tables the
tests keep (``tests/data/syzygy``, or DIR): KR v KP, KR v KR, KQ v KR, KR v KN, KR v KB, KN v KP,
KP v K, KR v K, KQ v K, KNN v K, either side to move. Made once and cached in
``benchmarks/.cache/``. Each command runs as a subprocess, three times in turn, and its CPU
seconds (with its children) are taken; the ratio is the median of ``classify --tablebases``
over the median of ``classify``, the same file, the same run. Goal: at most 3x.
"""

from __future__ import annotations

import random
import statistics
import sys
from pathlib import Path

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


if __name__ == "__main__":
    main()
