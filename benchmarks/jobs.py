"""`classify --jobs`: the final classes of 20,000 random games with 1 and 2 worker processes,
against `pgn-extract -F` (C; the Debian package pgn-extract) on the same file; and `check --jobs`
1 against 2 on the same games with a GBR tag (checked against their final positions) and on
200,000 endgame positions in EPD with their GBR codes (one in 20 spoiled).

Run: ``uv run python benchmarks/jobs.py`` (the games are made once and cached, see inputs.py);
``benchmarks/jobs.py check`` runs the check part alone, ``benchmarks/jobs.py classify`` the
classify part alone.
Wall-clock seconds, the best of three rounds each (jobs only help the wall clock; CPU seconds
are printed too, and the load average: wall-clock figures taken above 2 mean little on two
cores). Goals: --jobs 2 takes at most 1.3x pgn-extract's time; --jobs 2 is at least 1.6x as
fast as --jobs 1. On a machine shared with other work the wall clock is noisy: the rounds
alternate so that each command meets the same load.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from inputs import CACHE, random_endgames, random_games_pgn
from usage import answer_help

from gbr_tui.core.batch import FenEncoder

ROUNDS = 3


def gbr_tui(*args: str) -> list[str]:
    script = Path(sys.executable).with_name("gbr-tui")
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "gbr_tui.cli", *args]


def run(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (with the children's) of one run, output thrown away; exit status 1
    (check found disagreements) is a run like any."""
    before, start = os.times(), time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: exit status {done.returncode}")
    wall, after = time.perf_counter() - start, os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def captioned_games(games: Path) -> Path:
    """The games with a GBR tag each, 0000.00 (right for the many that end in bare kings)."""
    path = CACHE / f"{games.stem}-captioned.pgn"
    if not path.exists():
        text = games.read_text().replace('[Site "Benchmark"]\n', '[Site "Benchmark"]\n[GBR "0000.00"]\n')
        path.write_text(text)
    return path


def captioned_endgames() -> Path:
    """Endgame positions as EPD lines with their GBR codes; every 20th code spoiled (a queen more)."""
    path = CACHE / "endgames-captioned.epd"
    if not path.exists():
        encoder = FenEncoder()
        lines = []
        for number, fen in enumerate(random_endgames().read_text().splitlines()):
            code = encoder.code(fen)
            if number % 20 == 0:
                code = f"{(int(code[0]) + 1) % 10}{code[1:]}"
            lines.append(f'{" ".join(fen.split()[:4])} id "e{number}"; GBR "{code}";\n')
        path.write_text("".join(lines))
    return path


def jobs_ratio(name: str, command: list[str]) -> None:
    """One command with --jobs 1 and 2, best of ``ROUNDS``, and the speed-up."""
    best = {jobs: (float("inf"), 0.0) for jobs in ("1", "2")}
    for _ in range(ROUNDS):
        for jobs in best:
            best[jobs] = min(best[jobs], run([*command, "--jobs", jobs]))
    for jobs, (wall, cpu) in best.items():
        print(f"  {name} --jobs {jobs}  {wall:7.2f} s wall  {cpu:7.2f} s CPU")
    print(f"  {name}: --jobs 1 / --jobs 2 = {best['1'][0] / best['2'][0]:.2f}x")


def load_average() -> str:
    """The machine's load over the last 1, 5 and 15 minutes: wall-clock figures mean little
    above its number of cores."""
    return " ".join(f"{load:.1f}" for load in os.getloadavg())


def main() -> None:
    path = random_games_pgn()
    print(f"{path.name}: {path.stat().st_size / 1e6:.0f} MB; {os.cpu_count()} cores; best of {ROUNDS}, wall clock")
    print(f"  load average at the start: {load_average()}")
    if sys.argv[1:] != ["check"]:
        classify_against_pgn_extract(path)
    if sys.argv[1:] == ["classify"]:
        return
    games = captioned_games(path)
    jobs_ratio("check --position final, games", gbr_tui("check", "--position", "final", str(games)))
    endgames = captioned_endgames()
    print(f"{endgames.name}: {endgames.stat().st_size / 1e6:.0f} MB")
    jobs_ratio("check, endgames EPD", gbr_tui("check", str(endgames)))


def classify_against_pgn_extract(path: Path) -> None:
    pgn_extract = shutil.which("pgn-extract")
    commands = {
        "--jobs 1": gbr_tui("classify", "--position", "final", "--jobs", "1", str(path)),
        "--jobs 2": gbr_tui("classify", "--position", "final", "--jobs", "2", str(path)),
    }
    if pgn_extract:
        commands["pgn-extract -F"] = [pgn_extract, "-F", "-s", "-o", str(CACHE / "jobs-final.pgn"), str(path)]
    else:
        print("pgn-extract is not installed (apt-get install pgn-extract): its comparison is skipped")
    best = {name: (float("inf"), 0.0) for name in commands}
    for _ in range(ROUNDS):
        for name, command in commands.items():
            best[name] = min(best[name], run(command))
    for name, (wall, cpu) in best.items():
        print(f"  {name:16s} {wall:7.2f} s wall  {cpu:7.2f} s CPU")
    print(f"  load average at the end: {load_average()}")
    speedup = best["--jobs 1"][0] / best["--jobs 2"][0]
    print(f"  --jobs 1 / --jobs 2 = {speedup:.2f}x  (goal >= 1.6x: {'ok' if speedup >= 1.6 else 'MISSED'})")
    if pgn_extract:
        ratio = best["--jobs 2"][0] / best["pgn-extract -F"][0]
        print(f"  --jobs 2 / pgn-extract = {ratio:.2f}x its time  (goal <= 1.3x: {'ok' if ratio <= 1.3 else 'MISSED'})")
        (CACHE / "jobs-final.pgn").unlink(missing_ok=True)


if __name__ == "__main__":
    answer_help(__doc__)
    main()
