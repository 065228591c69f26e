"""`gbr-tui classify FILE...`: index collections by GBR class.

A summary table by default (class, count, share, material); one JSON object or CSV row per
record on request. Bad records go to stderr with file and line, and the last line on stderr
sums up: read N = classified C + bad B.

This module holds the command line (its options and help, and the checks of what they were
given); ``classifier`` reads the files, ``dispatch`` spreads a file over worker processes or a
Dask cluster, ``records`` writes a row per record, ``summary`` the summary.
"""

from __future__ import annotations

import argparse
import os

from gbr_tui.commands import EXIT_USAGE
from gbr_tui.commands.classify.classifier import REASON_CHARACTERS, Classifier, errors_console
from gbr_tui.commands.classify.dispatch import BATCH_RANGE_BYTES
from gbr_tui.commands.common import (
    SHOWN_CHARACTERS,
    CommandParsers,
    add_collection_options,
    add_jobs_option,
    add_rule_option,
    add_studies_option,
    excerpt,
)
from gbr_tui.commands.tablebase_options import add_tablebases_option
from gbr_tui.core import GbrError
from gbr_tui.core.collection import GamePositions, store
from gbr_tui.core.collection.codecs import codec_names
from gbr_tui.core.collection.formats import format_names
from gbr_tui.core.collection.tally import SortBy
from gbr_tui.core.patterns import parse_pattern
from gbr_tui.core.text import printable


def register(commands: CommandParsers) -> None:
    parser = commands.add_parser(
        "classify",
        help=f"index collections ({format_names()}; {codec_names()} too) by GBR class",
        description="Count the GBR classes of a collection, or list each record's class.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="collection files; '-' reads stdin")
    add_collection_options(parser)
    add_rule_option(parser)
    parser.add_argument("--short", action="store_true", help="write 0400 for 0400.00")
    parser.add_argument(
        "--match",
        metavar="PATTERN",
        help="keep only classes matching a code with wildcards (0?0?.1*, 04*) or material (KR v KR)",
    )
    parser.add_argument(
        "--either-colour",
        action="store_true",
        help="fold each class with its colour twin (KRP v KR with KR v KRP), the stronger side as White",
    )
    parser.add_argument(
        "--min-plies",
        type=_plies,
        default=0,
        metavar="N",
        help="with --position all: keep only the classes a game stayed in for N plies or more",
    )
    parser.add_argument(
        "--by",
        choices=("class", "family"),
        default="class",
        help="summary by class (default) or by endgame family (rook endings, queen v rook, ...)",
    )
    parser.add_argument(
        "--sort",
        choices=[order.value for order in SortBy],
        default=SortBy.CODE.value,
        help="the summary's order: by code (default), count (most first) or score (best first)",
    )
    parser.add_argument("--bars", action="store_true", help="draw the share bars even when stdout is not a terminal")
    workers = parser.add_mutually_exclusive_group()  # processes here, or a cluster's
    add_jobs_option(workers, batch_megabytes=BATCH_RANGE_BYTES >> 20, records=True)
    workers.add_argument(
        "--dask",
        metavar="SCHEDULER",
        help=(
            "count on a Dask cluster: a scheduler's address (tcp://host:8786; the files at the same path on "
            "every worker) or local:N (N worker processes here); needs gbr-tui[dask]"
        ),
    )
    add_tablebases_option(
        parser,
        "per class, the theoretical results of its positions within them beside the games' "
        '("tablebase" in --json); a summary by class of collection files',
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="the summary as JSON Lines, one object per class or family")
    output.add_argument("--per-record", action="store_true", help="one JSON object per record (JSON Lines)")
    output.add_argument("--csv", action="store_true", help="one CSV row per record")
    add_studies_option(parser)
    parser.set_defaults(run=run)


def _plies(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"not a number of plies (0 or more): {printable(text, SHOWN_CHARACTERS)!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    errors = errors_console()
    try:
        pattern = parse_pattern(args.match) if args.match is not None else None
    except GbrError as error:
        errors.print(f"gbr-tui classify: --match: {error.message}")
        if error.offset is not None:
            shown, caret = excerpt(args.match, error.offset)
            errors.print(f"    {shown}\n    {' ' * caret}^")
        return EXIT_USAGE
    if args.min_plies and args.position != GamePositions.ALL.value:
        errors.print("gbr-tui classify: --min-plies needs --position all (the plies a game stays in each class)")
        return EXIT_USAGE
    if args.by == "family" and (args.per_record or args.csv or pattern is not None):
        errors.print("gbr-tui classify: --by family is a summary of every class: not with --match, --per-record, --csv")
        return EXIT_USAGE
    if args.files.count("-") > 1:
        errors.print("gbr-tui classify: '-' (stdin) is named more than once: stdin can be read only once")
        return EXIT_USAGE
    for name in args.files:
        if name != "-" and (os.path.isdir(name) or not os.path.exists(name)):  # devices and pipes are read
            reason = "is a directory, not a file" if os.path.isdir(name) else "no such file"
            errors.print(f"gbr-tui classify: {printable(name, SHOWN_CHARACTERS)}: {reason}")
            return EXIT_USAGE
    if args.studies is not None and not (args.per_record or args.csv):
        errors.print("gbr-tui classify: --studies keeps the records of --per-record and --csv")
        return EXIT_USAGE
    if args.tablebases and (args.by == "family" or args.per_record or args.csv or args.dask):
        errors.print(
            "gbr-tui classify: --tablebases adds to a summary by class: not with --by family, --per-record, --csv, --dask"
        )
        return EXIT_USAGE
    if (args.per_record or args.csv) and any(name != "-" and store.is_index(name) for name in args.files):
        errors.print("gbr-tui classify: --per-record and --csv read the collections themselves, not an index")
        return EXIT_USAGE
    try:
        return Classifier(args, pattern, errors).classify()
    except GbrError as error:  # a file that cannot be read as a collection at all
        errors.print(f"gbr-tui classify: {printable(error.message, REASON_CHARACTERS)}")
        return EXIT_USAGE
