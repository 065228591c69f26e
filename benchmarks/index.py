"""`classify INDEX` against `classify FILE`: the final classes of 20,000 random games.

Run: ``uv run python benchmarks/index.py`` (the games are made once and cached, see inputs.py;
the index is built in ``benchmarks/.cache/`` each run). CPU seconds of each whole command,
best of three, in the same run; the outputs are compared. Goal: classify INDEX at least 10x
faster than classify FILE.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from inputs import CACHE, random_games_pgn
from usage import answer_help

ROUNDS = 3


def gbr_tui(*args: str) -> list[str]:
    script = Path(sys.executable).with_name("gbr-tui")
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "gbr_tui.cli", *args]


def run(command: list[str]) -> tuple[float, bytes]:
    """CPU seconds (the children's) of one run, and what it wrote on stdout."""
    before = os.times()
    done = subprocess.run(command, capture_output=True, check=False)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system), done.stdout


def main() -> None:
    path = random_games_pgn()
    index = CACHE / "random-games-final.gbr-index"
    build, _ = run(gbr_tui("index", "--position", "final", "-o", str(index), str(path)))
    print(
        f"{path.name}: {path.stat().st_size / 1e6:.0f} MB; index built in {build:.2f} s CPU, {index.stat().st_size / 1e6:.1f} MB"
    )
    best = {"FILE": float("inf"), "INDEX": float("inf")}
    outputs = {}
    for _ in range(ROUNDS):
        for name, target in (("FILE", path), ("INDEX", index)):
            seconds, outputs[name] = run(gbr_tui("classify", "--position", "final", "--jobs", "1", str(target)))
            best[name] = min(best[name], seconds)
    assert outputs["FILE"] == outputs["INDEX"], "classify INDEX and classify FILE disagree"
    ratio = best["FILE"] / best["INDEX"]
    print(f"  classify --position final FILE   {best['FILE']:7.2f} s CPU")
    print(f"  classify --position final INDEX  {best['INDEX']:7.2f} s CPU  (same output)")
    print(f"  FILE / INDEX = {ratio:.1f}x  (goal >= 10x: {'ok' if ratio >= 10 else 'MISSED'})")


if __name__ == "__main__":
    answer_help(__doc__)
    main()
