"""Start-up: from process start to the editor on the terminal, against a minimal Textual app.

    uv run python benchmarks/startup.py [RUNS]

Both start in a pseudo-terminal of 80x24, as a user starts them: the installed ``gbr-tui``
command, and a minimal Textual app (Header, Static, Footer) that also imports python-chess, run
by the same Python (python-chess's own import is a cost gbr-tui cannot cut). Two moments are
timed, each in runs of its own (the clock stops when the texts that mark it have been written
to the terminal):

* content: every pane shows what it will keep showing. For gbr-tui the code pane filled (the
  empty board's FEN) and the examples table filled at the width it keeps (its "N of N", and the
  first example's name whole in its cell: a table filled before the pane is laid out cuts it);
  for the baseline, its Static's text.
* complete: the footer's keys drawn too (its palette key). Textual's Footer makes its keys a
  refresh after the first frame, in both apps.

Runs alternate so both see the same machine load; the CPU time of each (what start-up costs,
less shaken by a busy machine than the clock) is reported beside the clock. Thirty runs by
default: on a shared machine the median of fifteen moved by a tenth from one run to the next.
Goal: the median ratio of the content moment at most 1.2.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

from usage import answer_help

from gbr_tui.core.examples import ALL

GOAL = 1.2
WIDTH, HEIGHT = 80, 24
TIMEOUT = 30.0

MINIMAL = """
import chess
from textual.app import App
from textual.widgets import Footer, Header, Static

class Minimal(App):
    def compose(self):
        yield Header()
        yield Static("minimal app ready")
        yield Footer()

Minimal().run()
"""

#: What to start.
PROGRAMS = {
    "minimal": [sys.executable, "-c", MINIMAL],
    "gbr-tui": [str(Path(sys.executable).with_name("gbr-tui"))],
}
CONTENT = {
    "minimal": [b"minimal app ready"],
    "gbr-tui": [b"8/8/8/8/8/8/8/8 w - - 0 1", f"{len(ALL)} of {len(ALL)}".encode(), f" {ALL[0].name}  ".encode()],
}
#: The texts whose arrival on the terminal marks each moment, for each program.
MOMENTS = {
    "content": CONTENT,
    "complete": {"minimal": [*CONTENT["minimal"], b"palette"], "gbr-tui": [*CONTENT["gbr-tui"], b"commands"]},
}


def time_to_ready(argv: list[str], needles: list[bytes], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from starting ``argv`` in a new pseudo-terminal until every needle has been
    written: on the clock, and of CPU (the child's, read when it is stopped there)."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: its terminal is the pty
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", HEIGHT, WIDTH, 0, 0))
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    written = b""
    try:
        while not all(needle in written for needle in needles):
            if time.perf_counter() - start > TIMEOUT or not select.select([fd], [], [], TIMEOUT)[0]:
                raise RuntimeError(
                    f"{argv[0]} did not show {needles} in {TIMEOUT:.0f} s; it wrote:\n{written[-2000:]!r}"
                )
            written += os.read(fd, 1 << 16)
        elapsed = time.perf_counter() - start
    finally:
        os.kill(pid, signal.SIGKILL)
        usage = os.wait4(pid, 0)[2]
        os.close(fd)
    return elapsed, usage.ru_utime + usage.ru_stime


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    with tempfile.TemporaryDirectory() as cache:
        # As a user's install runs: with byte code cached (kept out of the tree here), even
        # where the environment turns byte code writing off.
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache, "TERM": "xterm-256color", "LANG": "C.UTF-8"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for name, argv in PROGRAMS.items():  # warm the file cache and write the byte code
            time_to_ready(argv, MOMENTS["complete"][name], env)
        times = {(moment, name): [] for moment in MOMENTS for name in PROGRAMS}
        for _ in range(runs):
            for moment, needles in MOMENTS.items():
                for name, argv in PROGRAMS.items():
                    times[moment, name].append(time_to_ready(argv, needles[name], env))
    print(f"load average at the end: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    for moment in MOMENTS:
        for what, column in (("clock", 0), ("CPU", 1)):
            medians = {name: statistics.median(run[column] for run in times[moment, name]) for name in PROGRAMS}
            for name, median in medians.items():
                fastest = min(run[column] for run in times[moment, name])
                print(
                    f"{name:8} {moment:8} {what:5}: median {median * 1000:6.1f} ms  "
                    f"(min {fastest * 1000:.1f} ms, {runs} runs)"
                )
            ratio = medians["gbr-tui"] / medians["minimal"]
            verdict = "" if moment != "content" else f"  (goal <= {GOAL}x: {'met' if ratio <= GOAL else 'NOT met'})"
            print(f"ratio gbr-tui / minimal, {moment}, {what}: {ratio:.2f}x{verdict}")


if __name__ == "__main__":
    answer_help(__doc__)
    main()
