"""SVG to PNG and PDF: the renderers a diagram could be printed with, timed on the same diagram.

    uv run python benchmarks/renderers.py [RUNS] [--cairosvg-python PYTHON]

Kubbel's study (spec section 3) as ``gbr-tui diagram`` draws it, with its EG caption, rendered
RUNS times (10 by default) by each renderer found, each run a process as the command starts it:
``rsvg-convert`` (librsvg), CairoSVG (a Python package: ``--cairosvg-python`` names a Python that
has it, since gbr-tui does not depend on it) and headless Chromium (``--screenshot``,
``--print-to-pdf``). The baseline is rsvg-convert's median; each other renderer is given as a
ratio of it, with its own median in milliseconds. Runs alternate so all see the same load.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chess
from usage import answer_help

from gbr_tui.core.captions import write_caption
from gbr_tui.core.publish.diagram import diagram_svg

KUBBEL = chess.Board("6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1")


def commands(svg: Path, out: Path, cairo_python: str | None) -> dict[str, dict[str, list[str]]]:
    found: dict[str, dict[str, list[str]]] = {}
    if rsvg := shutil.which("rsvg-convert"):
        found["rsvg-convert"] = {
            kind: [rsvg, "-f", kind, "-o", str(out / f"r.{kind}"), str(svg)] for kind in ("png", "pdf")
        }
    if cairo_python:
        found["cairosvg"] = {
            kind: [cairo_python, "-m", "cairosvg", "-f", kind, "-o", str(out / f"c.{kind}"), str(svg)]
            for kind in ("png", "pdf")
        }
    if chromium := shutil.which("chromium"):
        base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={out / 'profile'}"]
        found["chromium"] = {
            "png": [*base, f"--screenshot={out / 'h.png'}", "--window-size=360,394", svg.as_uri()],
            "pdf": [*base, f"--print-to-pdf={out / 'h.pdf'}", "--no-pdf-header-footer", svg.as_uri()],
        }
    return found


def main() -> None:
    args = sys.argv[1:]
    cairo_python = None
    if "--cairosvg-python" in args:
        at = args.index("--cairosvg-python")
        cairo_python = args[at + 1]
        del args[at : at + 2]
    runs = int(args[0]) if args else 10
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        svg = out / "kubbel.svg"
        svg.write_text(diagram_svg(KUBBEL, write_caption(KUBBEL, "eg", "=")))
        found = commands(svg, out, cairo_python)
        times: dict[tuple[str, str], list[float]] = {(name, kind): [] for name in found for kind in ("png", "pdf")}
        for _ in range(runs):
            for name, kinds in found.items():
                for kind, command in kinds.items():
                    start = time.perf_counter()
                    subprocess.run(command, check=True, capture_output=True)
                    times[name, kind].append(time.perf_counter() - start)
    print(f"{runs} runs each, load average {os.getloadavg()[0]:.1f}")
    for kind in ("png", "pdf"):
        baseline = statistics.median(times["rsvg-convert", kind])
        for name in found:
            median = statistics.median(times[name, kind])
            print(f"{kind}  {name:14} {median * 1000:7.0f} ms  {median / baseline:5.1f}x rsvg-convert")


if __name__ == "__main__":
    answer_help(__doc__)
    main()
