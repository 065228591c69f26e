"""`similar POSITION INDEX` and `duplicates FILE` against python-chess scripts doing the same.

Run: ``uv run python benchmarks/similar.py [similar] [duplicates]`` (the positions are made once and cached, see
inputs.py: study-like positions of 3 to 12 men, one in ten a transformed copy of an earlier one).
CPU seconds of whole commands, each a process started the same way, the best of a few, in the
same run; the answers are compared.

- ``similar``: an index of 100,000 positions, searched for three of them (distance 0 and 1, the
  default); the baseline reads the FEN file and tries the 8/30 transforms of each position
  against the searched one (side to move compared with the board). Goal: at least 50x. Also
  printed: a cleverer script that transforms only the positions of the searched material.
- ``duplicates``: 500,000 and 1,000,000 positions; the baseline groups them by a canonical FEN
  (the least FEN of a position's transforms, with its side to move). Goals: at least 20x on
  1,000,000, and 2x the records in at most 2.2x the time.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from usage import answer_help

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent))

from inputs import CACHE, study_positions

ROUNDS = 3
SEARCHES = 3

#: The baselines: python-chess alone, with the transforms CQL's similarposition allows.
TRANSFORMS = """
import sys
import chess

def rotated(bits):
    return chess.flip_vertical(chess.flip_diagonal(bits))

DIHEDRAL = [lambda b: b, rotated, lambda b: rotated(rotated(b)), lambda b: rotated(rotated(rotated(b))),
            chess.flip_horizontal, chess.flip_vertical, chess.flip_diagonal, chess.flip_anti_diagonal]

def shifted(files):
    def shift(bits):
        for _ in range(abs(files)):
            bits = chess.shift_right(bits) if files > 0 else chess.shift_left(bits)
        return bits
    return shift

SHIFTS = [shifted(files) for files in range(-7, 8)]

def transformed(board):
    if not board.pawns:
        return [board.transform(flip) for flip in DIHEDRAL]
    found = []
    for flip in (lambda b: b, chess.flip_horizontal):
        for shift in SHIFTS:
            moved = board.transform(lambda bits: shift(flip(bits)))
            if chess.popcount(moved.occupied) == chess.popcount(board.occupied):  # no man pushed off
                found.append(moved)
    return found
"""

SIMILAR_BASELINE = (
    TRANSFORMS
    + """
searched = chess.Board(sys.argv[1])
for number, line in enumerate(open(sys.argv[2]), 1):
    board = chess.Board(line)
    if any(moved == searched and board.turn == searched.turn for moved in transformed(board)):
        print(number)
"""
)

#: A cleverer script: the transforms tried only on the positions of the searched one's material.
SIMILAR_MATERIAL_FIRST = (
    TRANSFORMS
    + """
searched = chess.Board(sys.argv[1])
def men(board):
    return [chess.popcount(board.pieces_mask(kind, colour)) for kind in chess.PIECE_TYPES for colour in chess.COLORS]
wanted = men(searched)
for number, line in enumerate(open(sys.argv[2]), 1):
    board = chess.Board(line)
    if board.turn == searched.turn and men(board) == wanted:
        if any(moved == searched for moved in transformed(board)):
            print(number)
"""
)

DUPLICATES_BASELINE = (
    TRANSFORMS
    + """
groups = {}
for number, line in enumerate(open(sys.argv[1]), 1):
    board = chess.Board(line)
    key = min(moved.board_fen() for moved in transformed(board)) + (" w" if board.turn else " b")
    groups.setdefault(key, []).append(number)
for numbers in sorted(group for group in groups.values() if len(group) > 1):
    print(*numbers)
"""
)


def gbr_tui(*args: str) -> list[str]:
    script = Path(sys.executable).with_name("gbr-tui")
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "gbr_tui", *args]


#: Byte code written and read as an installed program has it (this machine's shells may say not to).
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def run(command: list[str]) -> tuple[float, str]:
    """CPU seconds (the child's) of one run, and what it wrote on stdout."""
    before = os.times()
    done = subprocess.run(command, capture_output=True, check=True, env=ENV, text=True)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system), done.stdout


def best(command: list[str], rounds: int = ROUNDS) -> tuple[float, str]:
    runs = [run(command) for _ in range(rounds)]
    return min(seconds for seconds, _ in runs), runs[0][1]


def similar() -> None:
    path = study_positions(100_000)
    index = CACHE / "studies-100000.gbr-index"
    run(gbr_tui("index", "-o", str(index), str(path)))
    lines = path.read_text().splitlines()
    searched = random.Random(27).sample(lines, SEARCHES)
    version, _ = best(gbr_tui("--version"))
    ours = base = clever = 0.0
    for fen in searched:
        seconds, found = best(gbr_tui("similar", fen, str(index), "--json"))
        ours += seconds
        baseline, numbers = best([sys.executable, "-c", SIMILAR_BASELINE, fen, str(path)], 1)
        base += baseline
        seconds, same = best([sys.executable, "-c", SIMILAR_MATERIAL_FIRST, fen, str(path)], 1)
        clever += seconds
        assert same == numbers
        at_zero = [item["record"] for item in map(json.loads, found.splitlines()) if item["distance"] == 0]
        assert at_zero == [int(number) for number in numbers.split()], f"the answers differ for {fen}"
    print(f"similar POSITION INDEX, 100,000 positions, {SEARCHES} searches (the same records at distance 0):")
    print(f"  gbr-tui similar      {ours / SEARCHES:6.3f} s CPU a search (distances 0 and 1)")
    print(f"  python-chess script  {base / SEARCHES:6.3f} s CPU a search")
    print(f"  gbr-tui --version    {version:6.3f} s CPU (1/{base / SEARCHES / version:.0f} of the script)")
    ratio = base / ours
    print(f"  script / gbr-tui = {ratio:.0f}x  (goal >= 50x: {'ok' if ratio >= 50 else 'MISSED'})")
    print(
        f"  a script comparing the material first: {clever / SEARCHES:.3f} s CPU a search, {clever / ours:.0f}x gbr-tui's"
    )


def duplicates() -> None:
    timed = {}
    for count in (500_000, 1_000_000):
        path = study_positions(count)
        seconds, found = best(gbr_tui("duplicates", "--json", str(path)))
        timed[count] = seconds
        print(f"duplicates FILE, {count:,} positions: gbr-tui {seconds:.2f} s CPU", flush=True)
    baseline, numbers = best([sys.executable, "-c", DUPLICATES_BASELINE, str(path)], 1)
    groups = sorted([item["record"] for item in json.loads(line)["records"]] for line in found.splitlines())
    assert groups == [[int(number) for number in line.split()] for line in numbers.splitlines()], "the groups differ"
    ratio, growth = baseline / timed[1_000_000], timed[1_000_000] / timed[500_000]
    print(f"  python-chess script on 1,000,000: {baseline:.1f} s CPU (the same {len(groups):,} groups)")
    print(f"  script / gbr-tui = {ratio:.0f}x  (goal >= 20x: {'ok' if ratio >= 20 else 'MISSED'})")
    print(
        f"  1,000,000 / 500,000 records: {growth:.2f}x the time  (goal <= 2.2x: {'ok' if growth <= 2.2 else 'MISSED'})"
    )


if __name__ == "__main__":
    answer_help(__doc__)
    wanted = sys.argv[1:] or ["similar", "duplicates"]
    if "similar" in wanted:
        similar()
    if "duplicates" in wanted:
        duplicates()
