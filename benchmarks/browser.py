"""The browser's class table of a 200,000-record collection, against ``gbr-tui classify``, and
from a fresh index of it (``gbr-tui index``).

    uv run python benchmarks/browser.py [RUNS]

Both are timed from process start to exit, on the same cached file, in alternating runs (so
both see the same machine load): ``gbr-tui classify FILE`` printing its summary table, and the
app started headless with the file open, exiting once the class table is filled and drawn. The
browser does more (it keeps every position, with its place in the file, for the position lists)
and starts the app. Goal: the median ratio at most 2.

The same browser is then started on an index of the file (written once, not at the default
name, so that the runs above read the file): its whole process, and the time inside the app
from its mount to the class table drawn. Goal: the table shown within 0.5 s of the app's mount
(the process's start-up, the same with or without an index, is measured by ``startup.py``).

Inputs (``benchmarks/inputs.py``, fixed seeds, cached in ``benchmarks/.cache/``): endgame
positions as in study collections (about ten thousand classes), and positions met in random
games (tens of thousands of classes: a long table for both).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from inputs import random_endgames, random_positions
from usage import answer_help

from gbr_tui.core import Rule
from gbr_tui.core.collection import Collection, CollectionRequest, store

GOAL = 2.0

GOAL_FROM_INDEX = 0.5  # seconds from the app's mount to the table drawn

# Prints the number of classes listed and of records classified, and the seconds from the app's
# mount to the table drawn, then exits.
BROWSER = """
import gc, sys, time
from gbr_tui.core import Rule
from gbr_tui.core.collection import CollectionRequest, loading, store
request = CollectionRequest((sys.argv[1],))
if store.index_for(request)[0] is None:  # as gbr-tui FILE starts reading, before the app loads
    loading.begin(request, Rule.COUNT)
from gbr_tui.app import GbrApp

class Timed(GbrApp):
    def on_mount(self):  # Textual calls GbrApp.on_mount (which opens the browser) after it
        self.mounted = time.perf_counter()

    def on_collection_screen_loaded(self, message):
        self.shown = (self.screen.query_one("#class-table").count, self.screen.index.classified)
        self.call_after_refresh(self.drawn)

    def drawn(self):
        self.shown += (time.perf_counter() - self.mounted,)
        self.exit()

gc.freeze()  # as run_app does before it makes the app
app = Timed(files=request)
app.run(headless=True, size=(100, 30))
print(*app.shown)
"""


def timed(command: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return time.perf_counter() - start, done.stdout


def classify(path: Path) -> tuple[float, str]:
    return timed([sys.executable, "-m", "gbr_tui.cli", "classify", str(path)])


def browse(path: Path) -> tuple[float, str]:
    return timed([sys.executable, "-c", BROWSER, str(path)])


def queried(index: Path, path: Path) -> float:
    """Seconds of the index's own part, in this process: opening it and listing its classes."""
    start = time.perf_counter()
    stored = store.StoredIndex(str(index), CollectionRequest((str(path),)), Rule.COUNT)
    stored.classes()
    stored.close()
    return time.perf_counter() - start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    ratios, from_index = [], []
    for label, path in (("endgame positions", random_endgames()), ("random-game positions", random_positions())):
        if os.path.exists(store.default_index(str(path))):
            raise SystemExit(f"{store.default_index(str(path))} would be read instead of the file: remove it")
        index = path.with_suffix(".bench-index")
        store.build(CollectionRequest((str(path),)), str(index))
        with Collection(path) as collection:
            tally = collection.tally()
        expected = [str(len(tally.codes)), str(tally.classified)]
        classify_times, browse_times, index_times, inside, queries = [], [], [], [], []
        for _ in range(runs):
            seconds, _ = classify(path)
            classify_times.append(seconds)
            seconds, shown = browse(path)
            browse_times.append(seconds)
            assert shown.split()[:2] == expected, "the browser and classify disagree"
            seconds, shown = browse(index)
            index_times.append(seconds)
            assert shown.split()[:2] == expected, "the browser on the index and classify disagree"
            inside.append(float(shown.split()[2]))
            queries.append(queried(index, path))
        base, ours = statistics.median(classify_times), statistics.median(browse_times)
        indexed, mounted = statistics.median(index_times), statistics.median(inside)
        ratios.append(ours / base)
        from_index.append(mounted)
        print(f"{label}: {tally.classified:,} records from {path.name}, {len(tally.codes):,} classes (all agree)")
        print(f"  gbr-tui classify (summary table): {base:6.2f} s  (median of {runs})")
        print(f"  browser, class table shown:       {ours:6.2f} s  ratio {ours / base:4.2f}  (goal <= {GOAL})")
        print(f"  browser on an index, whole:       {indexed:6.2f} s  ratio {indexed / base:4.2f}")
        print(f"    of which mount to table drawn:  {mounted:6.2f} s  (goal <= {GOAL_FROM_INDEX} s)")
        print(f"    the index opened, classes listed: {statistics.median(queries):4.2f} s  (in process, no table)")
    print(f"worst ratio {max(ratios):.2f}: {'met' if max(ratios) <= GOAL else 'NOT met'}")
    worst = max(from_index)
    print(f"slowest table from an index {worst:.2f} s: {'met' if worst <= GOAL_FROM_INDEX else 'NOT met'}")


if __name__ == "__main__":
    answer_help(__doc__)
    main()
