"""The batch path on FEN files: `classify FILE` and `encode < FILE`, against python-chess.

Run: ``uv run python benchmarks/positions.py [LINES]`` (LINES defaults to 1,000,000; the files
are made once, fixed seed, and cached in ``benchmarks/.cache/``, which git ignores; ``KINDS=random``
runs some of the inputs only).

Three kinds of input, LINES FENs each:

* random: the two kings and up to 20 men anywhere (no pawn on a back rank, at most 8 a side):
  almost no rank repeats and there are tens of thousands of classes;
* games: every position of games of uniformly random legal moves (20 to 200 plies);
* endgames: study-like, the kings and 0 to 8 other men (2 to 10 men), legal positions.

Timed in CPU seconds (the machine may be shared; CPU time is what the work costs), in the same
run, as ratios against the baseline:

1. whole commands on LINES lines, each a subprocess reading the file: the baseline is a
   script doing ``chess.Board(line)`` and counting the codes, per line (goal >= 20x);
2. in process on the first 200,000 lines: ``Collection.tally()`` (what classify does) and
   ``FenEncoder.codes`` (what encode does), against ``chess.Board(line)`` and counting in the
   same process (goal >= 40x for random and game positions, >= 25x for endgames).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import chess
from usage import answer_help

from gbr_tui.core import FenEncoder, encode
from gbr_tui.core.collection import Collection, Tally
from tests.support.positions import game_positions, random_position, study_endgame

CACHE = Path(__file__).parent / ".cache"
SEED = 20261201
IN_PROCESS = int(os.environ.get("IN_PROCESS", 200_000))
KINDS = os.environ.get("KINDS", "random,games,endgames").split(",")  # to run some of them
BASELINE = """
import sys
from collections import Counter
import chess
from gbr_tui.core import encode
counts = Counter()
for line in sys.stdin:
    if line.strip():
        counts[encode(chess.Board(line))] += 1
print(len(counts), sum(counts.values()))
"""


def fens_file(kind: str, lines: int) -> Path:
    path = CACHE / f"{kind}-{SEED}-{lines}.fen"
    if path.exists():
        return path
    print(f"making {path.name} (once) ...", flush=True)
    rng = random.Random(f"{SEED}-{kind}")
    if kind == "games":
        fens = game_positions(rng, lines, plies=(20, 200))
    elif kind == "random":
        fens = [random_position(rng) for _ in range(lines)]
    else:
        fens = []
        while len(fens) < lines:
            if (fen := study_endgame(rng)) is not None:
                fens.append(fen)
    CACHE.mkdir(exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_text("\n".join(fens) + "\n")
    partial.replace(path)
    return path


def gbr_tui(*args: str) -> list[str]:
    script = Path(sys.executable).with_name("gbr-tui")
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "gbr_tui.cli", *args]


#: The commands run as a user's install runs them: with byte code cached (kept out of the tree,
#: written by a first run of each), even where the environment turns byte code writing off.
BYTE_CODE = tempfile.TemporaryDirectory()
COMMAND_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
COMMAND_ENV["PYTHONPYCACHEPREFIX"] = BYTE_CODE.name


def command_seconds(command: list[str], stdin: Path | None = None) -> float:
    """CPU seconds of one subprocess (and its children), its output thrown away."""
    before = os.times()
    with (stdin or Path(os.devnull)).open("rb") as source:
        subprocess.run(
            command, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=COMMAND_ENV
        )
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def cpu_seconds(work, *args) -> tuple[float, object]:
    start = time.process_time()
    result = work(*args)
    return time.process_time() - start, result


def median_run(work, *args) -> tuple[float, object]:
    runs = [cpu_seconds(work, *args) for _ in range(3)]
    return statistics.median(seconds for seconds, _ in runs), runs[0][1]


def baseline_counts(fens: list[str]) -> Counter:
    return Counter(encode(chess.Board(fen)) for fen in fens)


def tally_codes(path: Path) -> Tally:
    """What classify counts: the codes (as numbers, the summary's way), and the materials
    behind codes with a 9."""
    with Collection(path) as collection:
        tally = collection.tally()
    tally.finish_counting()
    tally.code_counts()
    return tally


def verdict(ratio: float, goal: float) -> str:
    return f"{ratio:6.1f}x  (goal >= {goal:g}x: {'ok' if ratio >= goal else 'MISSED'})"


def main() -> None:
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    print(f"{os.cpu_count()} cores; CPU seconds; each ratio is baseline time / our time, same run")
    FenEncoder().codes(["8/8/8/8/8/8/8/8"] * 10_000)  # in process, numpy's import is not timed
    warm_up = fens_file("endgames", 20_000)  # every command once, to write its byte code
    for command, stdin in ([sys.executable, "-c", BASELINE], warm_up), (gbr_tui("classify", str(warm_up)), None):
        command_seconds(command, stdin)
    command_seconds(gbr_tui("encode"), warm_up)
    for kind, goal in (("random", 40), ("games", 40), ("endgames", 25)):
        if kind not in KINDS:
            continue
        path = fens_file(kind, lines)
        small = CACHE / f"{kind}-{SEED}-{lines}-first-{IN_PROCESS}.fen"
        if not small.exists():
            with path.open() as source, small.open("w") as out:
                out.writelines(line for _, line in zip(range(IN_PROCESS), source))
        fens = small.read_text().splitlines()
        base, expected = cpu_seconds(baseline_counts, fens)
        # Ours the median of three runs (a run is a fiftieth of the baseline's, which is long
        # enough to even out the machine's ups and downs by itself).
        tallied, tally = median_run(tally_codes, small)
        counts = tally.codes
        encoded, codes = median_run(FenEncoder().codes, fens)
        assert counts == expected == Counter(codes), "python-chess and gbr-tui disagree"
        print(f"\n{kind}: in process, {len(fens):,} lines, {len(expected):,} classes (all three agree)")
        print(f"  chess.Board(line) and count  {base:7.2f} s")
        print(f"  Collection.tally()           {tallied:7.2f} s  {verdict(base / tallied, goal)}")
        print(f"  FenEncoder.codes             {encoded:7.2f} s  {verdict(base / encoded, goal)}")
        base = command_seconds([sys.executable, "-c", BASELINE], stdin=path)
        classify = command_seconds(gbr_tui("classify", str(path)))
        encode_time = command_seconds(gbr_tui("encode"), stdin=path)
        print(f"{kind}: whole commands, {lines:,} lines")
        print(f"  python script: chess.Board(line), count  {base:7.2f} s")
        print(f"  gbr-tui classify FILE                    {classify:7.2f} s  {verdict(base / classify, 20)}")
        print(f"  gbr-tui encode < FILE                    {encode_time:7.2f} s  {verdict(base / encode_time, 20)}")


if __name__ == "__main__":
    answer_help(__doc__)
    main()
