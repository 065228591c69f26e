"""Benchmark 3: peak memory stays flat from 20,000 to 200,000 records (goal: within 20%).

Each measurement runs ``gbr-tui classify`` in a fresh process and reads that process's peak
resident size (``resource.getrusage``). Games are measured from 2,000 to 20,000 (the same tenfold
step; 200,000 random games would take an hour to make). A summary holds one row per class, so
its memory follows the number of classes, which is shown too.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from inputs import CACHE, random_games_pgn, random_positions
from usage import answer_help

from gbr_tui.core.collection import Collection

GOAL = 1.20


def first_records(source: Path, count: int, games: bool) -> Path:
    """The first ``count`` lines (or games) of a cached input, cached too."""
    path = CACHE / f"{source.stem}-first-{count}{source.suffix}"
    if not path.exists():
        with source.open() as lines, path.open("w") as out:
            seen = 0
            for line in lines:
                if line.startswith("[Event ") if games else line.strip():
                    seen += 1
                    if seen > count:
                        break
                out.write(line)
    return path


def peak_kib(arguments: list[str]) -> int:
    """Peak resident memory (KiB) of one classify run in a fresh process."""
    output = subprocess.run(
        [sys.executable, __file__, "--child", *arguments],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return int(output.strip().splitlines()[-1])


def child(arguments: list[str]) -> None:
    from gbr_tui.cli import main

    real_stdout = sys.stdout
    sys.stdout = open(os.devnull, "w")
    sys.stderr = open(os.devnull, "w")
    main(["classify", *arguments])
    print(_own_peak_kib(), file=real_stdout)


def _own_peak_kib() -> int:
    """This process's own peak (VmHWM). Not getrusage: Linux carries ru_maxrss across exec, so
    a child started by a big parent would report the parent's size."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def classes_in(path: Path, options: list[str]) -> int:
    position = options[options.index("--position") + 1] if "--position" in options else "start"
    with Collection(path, game_positions=position) as collection:
        return len(collection.tally().codes)


def main() -> None:
    positions = random_positions()
    games = random_games_pgn()
    cases = [
        ("FEN, summary", positions, 20_000, 200_000, False, []),
        ("FEN, --per-record", positions, 20_000, 200_000, False, ["--per-record"]),
        ("PGN --position final, summary", games, 2_000, 20_000, True, ["--position", "final"]),
        ("PGN --position all, --per-record", games, 2_000, 20_000, True, ["--position", "all", "--per-record"]),
    ]
    for label, source, small, large, is_pgn, options in cases:
        small_path = first_records(source, small, is_pgn)
        large_path = source if large in (200_000, 20_000) and source.stem.endswith(str(large)) else None
        large_path = large_path or first_records(source, large, is_pgn)
        small_peak = peak_kib([*options, str(small_path)])
        large_peak = peak_kib([*options, str(large_path)])
        growth = large_peak / small_peak
        verdict = "flat" if growth <= GOAL else "NOT flat"
        classes = ""
        if "summary" in label:
            small_classes, large_classes = (classes_in(path, options) for path in (small_path, large_path))
            classes = f"  (classes: {small_classes:,} and {large_classes:,})"
        print(
            f"{label:34} {small:>7,} records: {small_peak / 1024:6.1f} MiB   {large:>7,}: "
            f"{large_peak / 1024:6.1f} MiB   x{growth:.2f} ({verdict}; goal <= x{GOAL:.2f}){classes}"
        )


if __name__ == "__main__":
    answer_help(__doc__)
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2:])
    else:
        main()
