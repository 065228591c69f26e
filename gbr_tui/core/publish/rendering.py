"""A diagram's SVG printed as PNG or PDF by ``rsvg-convert`` (librsvg, GNOME's SVG renderer).

Chosen by measurement (``benchmarks/renderers.py``, figures in benchmarks/RESULTS.md): as a
process, rsvg-convert printed a diagram in about 35 ms, CairoSVG in 0.64 s (18-22 times longer)
and headless Chromium in 0.9-1.2 s (30-33 times), which also prints a PDF on a page of paper.
It is packaged by every distribution, so gbr-tui carries no Python dependency for it; where it
is missing, the message says how to get it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from gbr_tui.core.errors import GbrError
from gbr_tui.core.text import printable

#: The formats a diagram is written in, by file suffix; the SVG needs no renderer.
SUFFIXES = (".svg", ".png", ".pdf")
RENDERER = "rsvg-convert"
#: How to get the renderer, in the message given where it is missing.
RENDERER_HINT = (
    f"{RENDERER} is needed for PNG and PDF: install librsvg2-bin (Debian, Ubuntu), "
    "librsvg2-tools (Fedora) or librsvg (Homebrew), or write .svg"
)
#: Seconds a diagram may take to render before it is given up.
_TIMEOUT = 60
_MESSAGE_CHARACTERS = 300


def diagram_format(path: str | Path) -> str:
    """``svg``, ``png`` or ``pdf`` from a file name; a GbrError naming the file otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise GbrError(f"{printable(str(path), 100)}: write .svg, .png or .pdf (the suffix chooses the format)")
    return suffix[1:]


def check_renderer(kind: str) -> None:
    """Raise GbrError saying how to get the renderer when ``kind`` needs it and it is missing."""
    if kind != "svg" and shutil.which(RENDERER) is None:
        raise GbrError(RENDERER_HINT)


def write_diagram(svg: str, path: str | Path) -> None:
    """Write ``svg`` to ``path`` in the format its suffix names (GbrError naming the file when it
    cannot be written, or the renderer is missing or fails)."""
    kind = diagram_format(path)
    target = Path(path)
    if kind == "svg":
        data = svg.encode()
    else:
        check_renderer(kind)
        try:
            done = subprocess.run(
                [RENDERER, "--format", kind], input=svg.encode(), capture_output=True, timeout=_TIMEOUT, check=False
            )
        except subprocess.TimeoutExpired:
            raise GbrError(f"{RENDERER} took more than {_TIMEOUT} s") from None
        if done.returncode != 0:
            reason = printable(done.stderr.decode(errors="replace").strip(), _MESSAGE_CHARACTERS)
            raise GbrError(f"{RENDERER} failed: {reason or f'exit status {done.returncode}'}")
        data = done.stdout
    try:
        target.write_bytes(data)
    except OSError as error:
        raise GbrError(f"{printable(str(target), 100)}: cannot write: {error.strerror or error}") from None
