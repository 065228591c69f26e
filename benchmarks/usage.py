"""``--help`` for the benchmark scripts: each one's docstring says how to run it and what it
measures. Scripts run as ``python benchmarks/NAME.py`` find this module beside them."""

from __future__ import annotations

import sys


def answer_help(doc: str | None) -> None:
    """Print ``doc`` and exit when the command line asks for help (``-h``, ``--help``)."""
    if any(argument in ("-h", "--help") for argument in sys.argv[1:]):
        print((doc or "").strip())
        raise SystemExit(0)
