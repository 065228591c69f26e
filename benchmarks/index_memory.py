"""Benchmark: the browser's in-memory index (``ClassIndex``), in MB per million records, next to
the peak memory of ``gbr-tui classify`` on the same file in the same run; and the browser's
memory when it reads an SQLite index of the file instead (``StoredIndex``, ``gbr-tui index``).

    uv run python benchmarks/index_memory.py [RECORDS]

Each side runs in a fresh process and its peak resident size is read from the kernel
(``os.wait4``). The index process also reports what its records hold (``ClassIndex.bytes_held``)
and its growth over its resident size before reading; both are scaled to a million records.
``classify`` keeps one row per class, so its peak does not grow with the records; the index keeps
every record (its text and a few numbers), so it does, by about the text's length plus 22 bytes.

The SQLite index keeps the records on disk: the browser holds a row a material and the class
listed, so its growth per million records is what opening it and listing its classes takes.
Goal for the browser: at most 60 MB per million records.

Input: positions met in random games (``benchmarks/inputs.py``, fixed seed, cached).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from inputs import random_positions

INDEX = """
import resource, sys
from gbr_tui.core.collection import ClassIndex, Collection
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
index = ClassIndex()
with Collection(sys.argv[1]) as collection:
    index.read(collection)
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


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    path = random_positions(count)
    _, classify_peak = run([sys.executable, "-m", "gbr_tui.cli", "classify", str(path)])
    out, index_peak = run([sys.executable, "-c", INDEX, str(path)])
    records, before, held = map(int, out.split())
    per_million = 1_000_000 / records
    mb = 1 << 20
    print(f"{records:,} records ({path.name})")
    print(f"classify:     peak {classify_peak / mb:7.1f} MB")
    print(f"browser index: peak {index_peak / mb:7.1f} MB")
    grown = index_peak - before * 1024
    print(f"  per million records: {grown * per_million / mb:7.1f} MB grown, {held * per_million / mb:7.1f} MB held")
    print(f"  ratio of the index's peak to classify's: {index_peak / classify_peak:.2f}")
    stored = path.with_suffix(".memory-index")
    subprocess.run([sys.executable, "-m", "gbr_tui.cli", "index", "-o", str(stored), str(path)], capture_output=True)
    out, stored_peak = run([sys.executable, "-c", STORED, str(stored), str(path)])
    records, before, listed = map(int, out.split())
    stored_grown = (stored_peak - before * 1024) * 1_000_000 / records / mb
    print(f"browser on an SQLite index: peak {stored_peak / mb:7.1f} MB (its largest class: {listed:,} positions)")
    print(f"  per million records: {stored_grown:7.1f} MB grown")
    for label, grown_mb in (("in memory", grown * per_million / mb), ("on an index", stored_grown)):
        print(
            f"  browser {label}: {grown_mb:.1f} MB per million records: {'met' if grown_mb <= GOAL_MB else 'NOT met'} (goal <= {GOAL_MB})"
        )


if __name__ == "__main__":
    main()
