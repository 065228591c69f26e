"""The browser's class table of a 200,000-record collection, against ``gbr-tui classify``.

    uv run python benchmarks/browser.py [RUNS]

Both are timed from process start to exit, on the same cached file, in alternating runs (so
both see the same machine load): ``gbr-tui classify FILE`` printing its summary table, and the
app started headless with the file open, exiting once the class table is filled and drawn. The
browser does more (it keeps every position, with its place in the file, for the position lists)
and starts the app. Goal: the median ratio at most 2.

Inputs (``benchmarks/inputs.py``, fixed seeds, cached in ``benchmarks/.cache/``): endgame
positions as in study collections (about ten thousand classes), and positions met in random
games (tens of thousands of classes: a long table for both).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from inputs import random_endgames, random_positions

from gbr_tui.core.collection import Collection

GOAL = 2.0

# Prints the number of classes listed and of records classified, then exits.
BROWSER = """
import sys
from textual.widgets import DataTable
from gbr_tui.app import GbrApp
from gbr_tui.core.collection import CollectionRequest

class Timed(GbrApp):
    def on_collection_screen_loaded(self, message):
        self.shown = (self.screen.query_one(DataTable).row_count, self.screen.index.classified)
        self.call_after_refresh(self.exit)

app = Timed(files=CollectionRequest((sys.argv[1],)))
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


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    ratios = []
    for label, path in (("endgame positions", random_endgames()), ("random-game positions", random_positions())):
        with Collection(path) as collection:
            tally = collection.tally()
        classify_times, browse_times = [], []
        for _ in range(runs):
            seconds, _ = classify(path)
            classify_times.append(seconds)
            seconds, shown = browse(path)
            browse_times.append(seconds)
            assert shown.split() == [str(len(tally.codes)), str(tally.classified)], "the browser and classify disagree"
        base, ours = statistics.median(classify_times), statistics.median(browse_times)
        ratios.append(ours / base)
        print(f"{label}: {tally.classified:,} records from {path.name}, {len(tally.codes):,} classes (both agree)")
        print(f"  gbr-tui classify (summary table): {base:6.2f} s  (median of {runs})")
        print(f"  browser, class table shown:       {ours:6.2f} s  ratio {ours / base:4.2f}  (goal <= {GOAL})")
    print(f"worst ratio {max(ratios):.2f}: {'met' if max(ratios) <= GOAL else 'NOT met'}")


if __name__ == "__main__":
    main()
