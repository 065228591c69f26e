"""`gbr-tui screenshots DIR`: write SVG screenshots of the app's screens."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gbr_tui.commands.common import CommandParsers


def register(commands: CommandParsers) -> None:
    parser = commands.add_parser("screenshots", help="write SVG screenshots of the app's screens into DIR")
    parser.add_argument("directory", metavar="DIR", type=Path, help="where the .svg files go (created if missing)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from gbr_tui.screenshots import write

    return write(args.directory)
