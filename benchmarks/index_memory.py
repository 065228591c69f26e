"""Benchmark: the browser's in-memory index (``ClassIndex``), in MB per million records, next to
the peak memory of ``gbr-tui classify`` on the same file in the same run; and the browser's
memory when it reads an SQLite index of the file instead (``StoredIndex``, ``gbr-tui index``).

    uv run python benchmarks/index_memory.py [RECORDS]

Each side runs in a fresh process and its peak resident size is read from the kernel
(``os.wait4``). The browser's side is read twice, from the first quarter of the file and from
all of it: what its peak grows by between the two, scaled to a million records, is what each
record costs (what any reading costs once, imports and buffers, is the same in both). It also
reports what its records hold (``ClassIndex.bytes_held``). ``classify`` keeps one row per
class, so its peak does not grow with the records; the browser keeps every record's place (a
few numbers), so it does.

The SQLite index keeps the records on disk: the browser holds the classes' counts (an entry a
code) and, while it opens the index, its material counts a part at a time, so its growth per
million records is what opening it and listing its classes takes.
Goal for the browser: at most 60 MB per million records.

Input: positions met in random games (``benchmarks/inputs.py``, fixed seed, cached).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from usage import answer_help

sys.path.insert(0, str(Path(__file__).parent))

from inputs import random_positions

INDEX = """
import resource, sys
from gbr_tui.core.collection import ClassIndex, Collection
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
index = ClassIndex()
with Collection(sys.argv[1]) as collection:
    index.read(collection, path=sys.argv[1])  # as the browser reads a file
print(index.classified, before, index.bytes_held)
"""

# The browser's side of an SQLite index: opened, its classes listed and one class's positions.
STORED = """
import resource, sys
from gbr_tui.core import Rule
from gbr_tui.core.collection import CollectionRequest
from gbr_tui.core.collection.store import StoredIndex
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
index = StoredIndex(sys.argv[1], CollectionRequest((sys.argv[2],)), Rule.COUNT)
rows = index.classes()
largest = max(rows, key=lambda row: row.count)
positions = index.positions(largest)
print(index.classified, before, len(positions))
"""
GOAL_MB = 60


def run(command: list[str]) -> tuple[str, int]:
    """The command's output and its peak resident size in bytes."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"{command[:3]} failed ({process.returncode})")
    return out, usage.ru_maxrss * 1024  # Linux reports kilobytes


def head(path: Path, count: int) -> Path:
    """The first ``count`` lines of ``path`` (cached beside it)."""
    part = path.with_name(f"{path.stem}-head-{count}{path.suffix}")
    if not part.exists():
        with path.open() as source:
            part.write_text("".join(line for _, line in zip(range(count), source)))
    return part


def index_peak(path: Path) -> tuple[int, int, int, int]:
    """Records, peak resident bytes, resident bytes before reading, bytes the records hold."""
    out, peak = run([sys.executable, "-c", INDEX, str(path)])
    records, before, held = map(int, out.split())
    return records, peak, before * 1024, held


def stored_peak(path: Path) -> tuple[int, int, int]:
    """Records, peak resident bytes and resident bytes before opening, for an index of ``path``."""
    stored = path.with_suffix(".memory-index")
    subprocess.run([sys.executable, "-m", "gbr_tui.cli", "index", "-o", str(stored), str(path)], capture_output=True)
    out, peak = run([sys.executable, "-c", STORED, str(stored), str(path)])
    records, before, _ = map(int, out.split())
    return records, peak, before * 1024


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    path = random_positions(count)
    smaller = head(path, count // 4)
    mb = 1 << 20
    _, classify_peak = run([sys.executable, "-m", "gbr_tui.cli", "classify", str(path)])
    print(f"classify on {count:,} records ({path.name}): peak {classify_peak / mb:.1f} MB")
    # Per million records: what the peak grows by from a quarter of the file to all of it, so
    # that what any reading costs once (imports, buffers) is not counted as the records'.
    small, large = index_peak(smaller), index_peak(path)
    added = large[0] - small[0]
    grown = (large[1] - small[1]) * 1_000_000 / added / mb
    for records, peak, before, held in (small, large):
        print(
            f"browser reading {records:,} records: peak {peak / mb:.1f} MB ({(peak - before) / mb:.1f} MB over its"
            f" start), the records hold {held / mb:.1f} MB"
        )
    print(f"  ratio of its peak to classify's, all records: {large[1] / classify_peak:.2f}")
    stored_small, stored_large = stored_peak(smaller), stored_peak(path)
    stored_grown = (stored_large[1] - stored_small[1]) * 1_000_000 / (stored_large[0] - stored_small[0]) / mb
    print(
        f"browser on an SQLite index of all records: peak {stored_large[1] / mb:.1f} MB"
        f" (of a quarter: {stored_small[1] / mb:.1f} MB)"
    )
    for label, per_million in (("reading the file", grown), ("on an index", stored_grown)):
        verdict = "met" if per_million <= GOAL_MB else "NOT met"
        print(f"  browser {label}: {per_million:.1f} MB per million records more: {verdict} (goal <= {GOAL_MB})")


if __name__ == "__main__":
    answer_help(__doc__)
    main()
