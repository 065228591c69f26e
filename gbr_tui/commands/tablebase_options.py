"""``--tablebases DIR``: the option, and the tables it names opened for a command.

A sub-command probes only when asked with ``--tablebases DIR``; the app also finds them in
GBR_TUI_TABLEBASES or the user settings (``core.settings.tablebase_directories``). What cannot
be used is said on stderr, once each, and the command goes on without it.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from gbr_tui.commands.common import ArgumentsHolder

if TYPE_CHECKING:
    from gbr_tui.core.tablebases import Tablebases


def add_tablebases_option(parser: ArgumentsHolder, what: str) -> None:
    parser.add_argument(
        "--tablebases",
        action="append",
        metavar="DIR",
        help=(f"a directory of endgame tablebases (Syzygy .rtbw/.rtbz, Gaviota .gtb.cp4; repeatable): {what}"),
    )


def open_tables(args: argparse.Namespace, command: str) -> Tablebases | None:
    """The tables ``--tablebases`` names, None without it. Problems go to stderr as
    ``gbr-tui COMMAND: ...``."""
    if not args.tablebases:
        return None
    from gbr_tui.core.tablebases import Tablebases

    tables = Tablebases(args.tablebases)
    report_problems(tables, command)
    return tables


def report_problems(tables: Tablebases, command: str) -> None:
    """The tables' problems not said yet, on stderr."""
    for problem in tables.new_problems():
        print(f"gbr-tui {command}: {problem}", file=sys.stderr)
