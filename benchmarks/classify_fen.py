"""Benchmark 1: classify 200,000 FENs (and EPD lines) against a python-chess baseline.

The baseline reads the same file and builds one ``chess.Board`` per record, then takes its code.
Goal: classify at least 25x faster. Both are timed once, in this run, on the same cached input.

Inputs: positions met in random games (as FEN and as EPD): every piece anywhere, so most
records bring rank strings never seen before and there are tens of thousands of classes; and
endgame positions with up to nine men, as in endgame-study collections.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).parent))

from inputs import random_endgames, random_positions

from gbr_tui.core import encode
from gbr_tui.core.collection import Collection

GOAL = 25


def baseline(path: Path, epd: bool) -> Counter:
    counts = Counter()
    with path.open() as lines:
        for line in lines:
            text = line.strip()
            if text:
                board = chess.Board.from_epd(text)[0] if epd else chess.Board(text)
                counts[encode(board)] += 1
    return counts


def timed(function, *args):
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def classify_in_process(path: Path) -> Counter:
    with Collection(path) as collection:
        return collection.tally().codes


def classify_command(path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "gbr_tui.cli", "classify", str(path)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def main() -> None:
    inputs = [
        ("random-game positions, FEN", random_positions(), False),
        ("random-game positions, EPD", random_positions(epd=True), True),
        ("endgame positions, FEN", random_endgames(), False),
    ]
    for label, path, epd in inputs:
        records = sum(1 for _ in path.open())
        base_time, expected = timed(baseline, path, epd)
        ours_time, counts = timed(classify_in_process, path)
        command_time, _ = timed(classify_command, path)
        assert counts == expected, "classify and python-chess disagree"
        print(f"{label}: {records:,} records from {path.name}, {len(counts):,} classes (both agree)")
        print(f"  python-chess, one Board per record: {base_time:8.2f} s")
        print(f"  Collection.tally() in process:      {ours_time:8.2f} s  ratio {base_time / ours_time:5.1f}x")
        print(
            f"  gbr-tui classify (whole command):   {command_time:8.2f} s  ratio {base_time / command_time:5.1f}x"
            f"  (goal >= {GOAL}x)"
        )


if __name__ == "__main__":
    main()
