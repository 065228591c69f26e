"""`gbr-tui index FILE... [-o INDEX]`: an SQLite index of collections for `classify INDEX`.

Bad records go to stderr as `classify` reports them, and the last line on stderr sums up. Worker
processes read the records (``ordered.records_with``; as many as ``--jobs`` says, by default one
per core for a big enough file) and this process writes the index, as one process writes it.
"""

from __future__ import annotations

import argparse
import os
import sys

from gbr_tui.commands import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE
from gbr_tui.commands.common import (
    SHOWN_CHARACTERS,
    CommandParsers,
    add_caption_options,
    add_collection_options,
    add_jobs_option,
    collection_request,
)
from gbr_tui.core import GbrError
from gbr_tui.core.collection.store import INDEX_SUFFIX
from gbr_tui.core.describe import read_summary
from gbr_tui.core.text import printable

REASON_CHARACTERS = 300


def register(commands: CommandParsers) -> None:
    parser = commands.add_parser(
        "index",
        help="write an SQLite index of collections, which `classify INDEX`, `check INDEX` and the browser read instead",
        description=(
            "Read collections once and write an SQLite index: per record its line, byte offset, "
            "headers and men (and its printed caption and position, when it has a caption: see "
            "--tag; its men's squares with a key for `similar` and `duplicates`; and for an HHdb "
            "study what its first comment says: stipulation, EG number), the bad "
            "records, and each file's size and time (an index whose file has "
            "changed is refused). `gbr-tui classify INDEX` then prints what `classify FILE...` "
            "would, under any --rule and --match, and `gbr-tui check INDEX` what `check FILE...` "
            "would, without reading the files; `gbr-tui INDEX` browses it, and `gbr-tui FILE` uses "
            "FILE's own index when it is fresh."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="collection files (not stdin)")
    parser.add_argument(
        "-o",
        "--output",
        metavar="INDEX",
        help=f"the index to write (default: the one FILE's name + {INDEX_SUFFIX}; needed for several)",
    )
    add_collection_options(parser)
    add_caption_options(parser)
    add_jobs_option(parser, records=True)
    parser.set_defaults(run=run, index_parser=parser)


def run(args: argparse.Namespace) -> int:
    from gbr_tui.core.collection import store

    if args.output is None and len(args.files) > 1:
        args.index_parser.error("several files need -o INDEX")
    for name in args.files:
        if name == "-" or not os.path.isfile(name):
            reason = "stdin cannot be indexed" if name == "-" else "no such file"
            print(f"gbr-tui index: {printable(name, SHOWN_CHARACTERS)}: {reason}", file=sys.stderr)
            return EXIT_USAGE
    output = args.output or store.default_index(args.files[0])

    def report(name: str, bad) -> None:
        shown = printable(name, SHOWN_CHARACTERS)
        reason = printable(bad.reason, REASON_CHARACTERS)
        print(f"gbr-tui index: {shown}:{bad.line}: record {bad.number}: {reason}", file=sys.stderr)

    try:
        classified, bad = store.build(collection_request(args), output, report)
    except (GbrError, OSError) as error:
        message = error.message if isinstance(error, GbrError) else str(error)
        print(f"gbr-tui index: {printable(message, REASON_CHARACTERS)}", file=sys.stderr)
        return EXIT_USAGE
    print(f"{read_summary(classified, bad)}; wrote {printable(output, SHOWN_CHARACTERS)}", file=sys.stderr)
    return EXIT_BAD_INPUT if bad else EXIT_OK
