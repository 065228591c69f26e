"""Start-up: process start to the editor ready, against a minimal Textual app, in the same run.

    uv run python benchmarks/startup.py [RUNS]

Each run starts a fresh interpreter that builds the app, runs it headless and exits as soon as
the app is ready (the editor composed and drawn, its code pane and examples table filled); the
baseline is a Header, a Static and a Footer started the same way. Runs alternate so both see the
same machine load. The imports alone are timed the same way, to show where the time goes.
Goal: the median ratio at most 1.3.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

GOAL = 1.3

# Both children exit on Textual's Ready event: posted once the first screen is laid out and drawn.
CHILD = {
    "minimal": """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Minimal(App):
    def compose(self):
        yield Header()
        yield Static("ready")
        yield Footer()

    def on_ready(self):
        self.exit()

Minimal().run(headless=True)
""",
    "gbr-tui": """
from gbr_tui.app import GbrApp
from gbr_tui.widgets.examples_table import ExamplesPane

class Timed(GbrApp):
    def on_ready(self):
        assert self.editor.code_pane.shown_code is not None
        assert self.editor.query_one(ExamplesPane).table.row_count > 0
        self.exit()

Timed().run(headless=True)
""",
    "minimal imports": "import textual.app, textual.widgets._header, textual.widgets._static, textual.widgets._footer",
    "gbr-tui imports": "import gbr_tui.app",
}


def time_child(name: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", CHILD[name]], check=True, env=env)
    return time.perf_counter() - start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    with tempfile.TemporaryDirectory() as cache:
        # As a user's install runs: with byte code cached (kept out of the tree here), even
        # where the environment turns byte code writing off.
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for name in CHILD:  # warm the file cache and write the byte code before measuring
            time_child(name, env)
        times: dict[str, list[float]] = {name: [] for name in CHILD}
        for _ in range(runs):
            for name in CHILD:
                times[name].append(time_child(name, env))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        print(f"{name:16} median {median * 1000:7.1f} ms  (min {min(times[name]) * 1000:.1f} ms, {runs} runs)")
    ratio = medians["gbr-tui"] / medians["minimal"]
    print(f"ratio gbr-tui / minimal: {ratio:.2f}x  (goal <= {GOAL}x: {'met' if ratio <= GOAL else 'NOT met'})")


if __name__ == "__main__":
    main()
