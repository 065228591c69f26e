"""`gbr-tui classify` (placeholder until its issue lands)."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("classify", help="(not yet available)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    print("gbr-tui classify is not available yet", flush=True)
    return 2
