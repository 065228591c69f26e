"""`gbr-tui FILE...`: the app, with those collections open in the browser.

Not a sub-command: a first argument that names no command and is no option is a file. A file
named like a command is given as ``./classify``. One index (``gbr-tui index``) is opened alone.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from functools import partial

from gbr_tui.commands.common import SHOWN_CHARACTERS, add_collection_options, add_jobs_option, collection_request
from gbr_tui.commands.start import app_starter, refuse
from gbr_tui.core import Rule
from gbr_tui.core.collection import CollectionRequest, store
from gbr_tui.core.collection.codecs import codec_names
from gbr_tui.core.collection.formats import format_names
from gbr_tui.core.text import printable


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gbr-tui",
        usage="gbr-tui FILE... [--format FORMAT] [--position POSITION] [--fen-column NAME|N] [--jobs N]",
        description="Start the app with collections open in the browser, listed by GBR class.",
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help=f"{format_names()}; {codec_names()} too; or one index written by `gbr-tui index`",
    )
    add_collection_options(parser)
    add_jobs_option(parser)
    return parser


def prepare(argv: list[str]) -> Callable[[], int]:
    """Parse the command line and check the files; return what starts the app (see ``cli.prepare``)."""
    args = build_parser().parse_args(argv)
    for name in args.files:
        problem = None
        if name == "-":
            problem = "the app reads its keys from the terminal, so it cannot read a collection from stdin"
        elif os.path.isdir(name):
            problem = "is a directory, not a file"
        elif not os.path.exists(name):  # devices and pipes are read
            problem = "no such file"
        elif not os.access(name, os.R_OK):
            problem = "not readable (permission denied)"
        elif len(args.files) > 1 and store.is_index(name):
            problem = "an index is opened alone, without other files"
        if problem is not None:
            return partial(refuse, f"gbr-tui: {printable(name, SHOWN_CHARACTERS)}: {problem}")
    request = collection_request(args)
    start_reading(request)
    return app_starter(request)


def start_reading(request: CollectionRequest) -> None:
    """Start reading the files now, in a worker process (``loading``), so that they are read
    while the app starts; not when an index is read instead, nor where the app cannot start."""
    from gbr_tui import terminal

    if terminal.not_a_terminal(os.environ, sys.stdin, sys.stdout) is not None or store.index_for(request)[0]:
        return
    from gbr_tui.core.collection import loading
    from gbr_tui.core.settings import read_settings, settings_path

    loading.begin(request, read_settings(settings_path())[0].rule or Rule.COUNT)
