"""Benchmark: the share of `gbr-tui classify`'s time spent on its summary, with 60,000 classes.

Positions with the men scattered anywhere (kings plus up to 20 men, uniformly) hardly repeat a
class: 200,000 of them fall in some 60,000 classes, where the summary (listing the classes,
formatting their cells and materials, writing the table) is not small next to reading. The
command runs in process, stdout to /dev/null, after a first run on a small file (so that no
module is imported in the timed runs); the summary is timed inside the same run, in CPU
seconds, against the whole command's (its worker processes' too). The same command is then
run as a user runs it, ``gbr-tui classify ...`` from process start to exit (its CPU, its
workers' too), which adds the interpreter's start and the imports. Each figure is the median
of five runs.
Goal: the summary takes at most 10% of the command's time, as a table and as ``--json``: the
verdict is on the command as run; the share of the work in process is printed beside it.
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).parent))

from inputs import CACHE, SEED
from usage import answer_help

from gbr_tui.cli import prepare
from gbr_tui.commands.classify.summary import Summary

GOAL = 0.10
COUNT = 200_000
RUNS = 5  # each figure the median of this many runs


def scattered_positions(count: int = COUNT) -> Path:
    """``count`` FENs with two kings and 0 to 20 other men on random squares (cached)."""
    path = CACHE / f"scattered-{count}.fen"
    if path.exists():
        return path
    CACHE.mkdir(exist_ok=True)
    rng = random.Random(SEED * 3 + count)
    men = [chess.Piece(piece_type, color) for piece_type in range(1, 6) for color in chess.COLORS]
    lines = []
    for _ in range(count):
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 22)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2 : 2 + rng.randrange(21)]:
            piece = rng.choice(men)
            if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                continue
            board.set_piece_at(square, piece)
        lines.append(board.fen() + "\n")
    path.write_text("".join(lines))
    return path


def timed_run(path: Path, *options: str) -> tuple[float, float, int]:
    """(whole command, its summary, classes listed) in CPU seconds, stdout to /dev/null. The
    whole command counts its worker processes too (``--jobs``: they are waited for before the
    summary); the summary is the parent's alone."""
    summary = {"time": 0.0}
    original = Summary.write

    def write_summary(self):
        start = time.process_time()
        original(self)
        summary["time"] += time.process_time() - start
        summary["summary"] = self

    Summary.write = write_summary
    try:
        run = prepare(["classify", *options, str(path)])
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            before, start = os.times(), time.process_time()
            run()
            whole, after = time.process_time() - start, os.times()
    finally:
        Summary.write = original
    workers = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    rows = len(summary["summary"].rows())  # after the timed run
    return whole + workers, summary["time"], rows


def command_cpu(path: Path, *options: str, runs: int = 3) -> float:
    """The median CPU seconds of ``gbr-tui classify`` run as a process, start to exit."""
    command = [str(Path(sys.executable).with_name("gbr-tui")), "classify", *options, str(path)]
    times = []
    for _ in range(runs):
        before = os.times()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        after = os.times()
        times.append((after.children_user - before.children_user) + (after.children_system - before.children_system))
    return statistics.median(times)


def main() -> None:
    path = scattered_positions()
    timed_run(scattered_positions(10_000))  # the modules imported (numpy too) before the timed runs
    labels = (
        ("table", ()),
        ("--json", ("--json",)),
        ("--jobs 1", ("--jobs", "1")),
        ("--either-colour", ("--either-colour",)),
    )
    for label, options in labels:
        runs = [timed_run(path, *options) for _ in range(RUNS)]
        whole, summary, rows = (statistics.median(run[i] for run in runs) for i in range(3))
        as_run = command_cpu(path, *options, runs=RUNS)
        share = summary / as_run
        verdict = "ok" if share <= GOAL else "over the goal"
        print(
            f"classify {label}: {COUNT:,} scattered positions, {rows:,} classes: summary {summary:.3f} s = "
            f"{share:.1%} of the command as run ({as_run:.2f} s; goal <= {GOAL:.0%}: {verdict}), "
            f"{summary / whole:.1%} of its work in process ({whole:.2f} s)"
        )


if __name__ == "__main__":
    answer_help(__doc__)
    main()
