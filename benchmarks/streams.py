"""Benchmark: the data users really have (issue #26). Every goal of the issue's table, each as a
ratio against its baseline measured in the same run, the commands taking turns:

1. ``classify --jobs 2 --position final`` on 20,000 games of each shape (Lichess-shaped,
   short capture-heavy, long random; ``inputs.SHAPES``) against ``pgn-extract -F`` on the same
   file, on the clock: goal at most 1.3x its time.
2. The same with ``--jobs 1``, in CPU seconds: goal at most 2.5x pgn-extract's CPU.
3. ``classify --jobs 2 --position final games.pgn.zst`` against
   ``zstd -dc games.pgn.zst | pgn-extract -F``, on the clock: goal at most 1.3x.
4. ``cat FILE | gbr-tui encode`` on 1M FEN lines of each kind (``positions.py``'s) against a
   ``chess.Board(line)`` script reading the same pipe, CPU: goal at least 20x.
5. ``cat games.pgn | gbr-tui classify --jobs 2 --position final -`` against ``--jobs 1``, on
   the clock: goal at least 1.6x as fast.

And the commands that read every record in order through the same pipeline (``ordered``),
with no goal in the issue: ``cat games.pgn | gbr-tui check --jobs 2 --position final -`` and
``cat games.pgn | gbr-tui classify --per-record --jobs 2 --position final -`` against
``--jobs 1``, on the clock (the ``records`` part).

Run: ``uv run python benchmarks/streams.py [pgn|encode|records]`` (pgn and encode by default); ``SHAPES=lichess``
or ``KINDS=random`` to run some inputs, ``GAMES`` (20,000) games a shape; ``ROUNDS`` (default 3) rounds, the best of each is
printed with the spread (min-max). Wall-clock figures mean little above a load of 2 on two cores:
the load average is printed with each shape.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from inputs import SHAPES, shaped_pgn, zstd_copy
from positions import BASELINE, COMMAND_ENV, fens_file, gbr_tui
from usage import answer_help

ROUNDS = int(os.environ.get("ROUNDS", 3))
PGN_EXTRACT = shutil.which("pgn-extract") or "/usr/games/pgn-extract"
CHOSEN_SHAPES = os.environ.get("SHAPES", ",".join(SHAPES)).split(",")
CHOSEN_KINDS = os.environ.get("KINDS", "random,games,endgames").split(",")
GAMES = int(os.environ.get("GAMES", 20_000))  # fewer when the machine is too busy to make them


def shell(command: str) -> tuple[float, float]:
    """Wall and CPU seconds (every process of the pipeline) of one shell command, output thrown
    away."""
    before, start = os.times(), time.perf_counter()
    subprocess.run(
        ["sh", "-c", command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=COMMAND_ENV, check=False
    )
    wall, after = time.perf_counter() - start, os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def quoted(command: list[str]) -> str:
    return " ".join(f"'{part}'" for part in command)


def rounds(commands: dict[str, str]) -> dict[str, list[tuple[float, float]]]:
    """Each command run ``ROUNDS`` times, the commands taking turns."""
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(ROUNDS):
        for name, command in commands.items():
            runs[name].append(shell(command))
    return runs


def best(runs: list[tuple[float, float]], which: int) -> tuple[float, str]:
    values = sorted(run[which] for run in runs)
    return values[0], f"{values[0]:6.2f} s ({values[0]:.2f}-{values[-1]:.2f})"


def verdict(ratio: float, goal: float, at_most: bool) -> str:
    met = ratio <= goal if at_most else ratio >= goal
    return f"{ratio:5.2f}x (goal {'<=' if at_most else '>='} {goal:g}x: {'ok' if met else 'MISSED'})"


def pgn_part() -> None:
    for shape in CHOSEN_SHAPES:
        path = shaped_pgn(shape, GAMES)
        packed = zstd_copy(path)
        classify = gbr_tui("classify", "--position", "final")
        extract = f"'{PGN_EXTRACT}' -F -s -o /dev/null"
        commands = {
            "pgn-extract -F": f"{extract} '{path}'",
            "classify --jobs 1": f"{quoted(classify)} --jobs 1 '{path}'",
            "classify --jobs 2": f"{quoted(classify)} --jobs 2 '{path}'",
            "zstd -dc | pgn-extract -F": f"zstd -dc '{packed}' | {extract}",
            "classify --jobs 2 .zst": f"{quoted(classify)} --jobs 2 '{packed}'",
            "cat | classify --jobs 1 -": f"cat '{path}' | {quoted(classify)} --jobs 1 -",
            "cat | classify --jobs 2 -": f"cat '{path}' | {quoted(classify)} --jobs 2 -",
        }
        runs = rounds(commands)
        load = os.getloadavg()[0]
        print(
            f"\n{shape}: {GAMES:,} games, {path.stat().st_size / 1e6:.0f} MB ({packed.stat().st_size / 1e6:.0f} MB zstd); load {load:.1f}"
        )
        for name in commands:
            print(f"  {name:28} wall {best(runs[name], 0)[1]}   CPU {best(runs[name], 1)[1]}")
        wall = {name: best(runs[name], 0)[0] for name in commands}
        cpu = {name: best(runs[name], 1)[0] for name in commands}
        print(
            f"  --jobs 2 / pgn-extract, time:             {verdict(wall['classify --jobs 2'] / wall['pgn-extract -F'], 1.3, True)}"
        )
        print(
            f"  --jobs 1 / pgn-extract, CPU:              {verdict(cpu['classify --jobs 1'] / cpu['pgn-extract -F'], 2.5, True)}"
        )
        zst = wall["classify --jobs 2 .zst"] / wall["zstd -dc | pgn-extract -F"]
        print(f"  .zst --jobs 2 / zstd -dc | pgn-extract:   {verdict(zst, 1.3, True)}")
        pipe = wall["cat | classify --jobs 1 -"] / wall["cat | classify --jobs 2 -"]
        print(f"  pipe: --jobs 1 / --jobs 2, time:          {verdict(pipe, 1.6, False)}")


def records_part() -> None:
    for shape in CHOSEN_SHAPES:
        path = shaped_pgn(shape, GAMES)
        commands = {}
        for name, command in (("check", ["check"]), ("--per-record", ["classify", "--per-record"])):
            for jobs in ("1", "2"):
                words = quoted(gbr_tui(*command, "--position", "final", "--jobs", jobs, "-"))
                commands[f"cat | {name} --jobs {jobs} -"] = f"cat '{path}' | {words}"
        runs = rounds(commands)
        print(f"\n{shape}: {GAMES:,} games, {path.stat().st_size / 1e6:.0f} MB; load {os.getloadavg()[0]:.1f}")
        for name in commands:
            print(f"  {name:32} wall {best(runs[name], 0)[1]}   CPU {best(runs[name], 1)[1]}")
        for name in ("check", "--per-record"):
            one, two = (best(runs[f"cat | {name} --jobs {jobs} -"], 0)[0] for jobs in ("1", "2"))
            print(f"  pipe, {name}: --jobs 1 / --jobs 2, time: {one / two:5.2f}x")


def encode_part() -> None:
    script = f"'{sys.executable}' -c '{BASELINE}'"
    for kind in CHOSEN_KINDS:
        path = fens_file(kind, 1_000_000)
        commands = {
            "cat | chess.Board script": f"cat '{path}' | {script}",
            "cat | gbr-tui encode": f"cat '{path}' | {quoted(gbr_tui('encode'))}",
            "gbr-tui encode < FILE": f"{quoted(gbr_tui('encode'))} < '{path}'",
        }
        runs = rounds(commands)
        print(f"\n{kind}: 1M FEN lines; load {os.getloadavg()[0]:.1f}")
        for name in commands:
            print(f"  {name:28} CPU {best(runs[name], 1)[1]}")
        ratio = best(runs["cat | chess.Board script"], 1)[0] / best(runs["cat | gbr-tui encode"], 1)[0]
        print(f"  chess.Board script / cat | encode, CPU:   {verdict(ratio, 20, False)}")


def main() -> None:
    parts = sys.argv[1:] or ["pgn", "encode"]
    print(
        f"{os.cpu_count()} cores; best of {ROUNDS} rounds (min-max); {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    if "pgn" in parts:
        pgn_part()
    if "encode" in parts:
        encode_part()
    if "records" in parts:
        records_part()


if __name__ == "__main__":
    answer_help(__doc__)
    main()
