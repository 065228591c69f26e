"""`gbr-tui duplicates SOURCE...`: every group of records whose positions are the same under a
board transform (CQL's similarposition), across files too: what an editor runs before
publishing an award or merging two collections.

Collections are read in one streaming walk (``anticipation.KeyedRecords``: each record's
canonical key); an index (``gbr-tui index``) holds the keys and is grouped in SQLite.
"""

from __future__ import annotations

import argparse
import sys

from gbr_tui.commands import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE
from gbr_tui.commands.common import (
    SHOWN_CHARACTERS,
    CommandParsers,
    add_collection_options,
    collection_request,
    write_json_lines,
)
from gbr_tui.commands.similar import (
    REASON_CHARACTERS,
    add_search_options,
    bad_reporter,
    say_if_hhdb,
    usage_problem,
    write_table,
)
from gbr_tui.core import GbrError, Rule
from gbr_tui.core.describe import plural
from gbr_tui.core.text import printable


def register(commands: CommandParsers) -> None:
    parser = commands.add_parser(
        "duplicates",
        help="list the groups of records whose positions are the same under a board transform",
        description=(
            "Group the records of collections or indexes whose positions are the same, as CQL's "
            "similarposition says: the same men and side to move, the board turned or reflected "
            "(no pawns) or shifted along the ranks and mirrored (pawns). Each group lists its "
            "records and the transform that makes the first one's position into each."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="SOURCE", help="collection files or indexes; '-' reads stdin")
    add_search_options(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help='one JSON object a group: its "records", each with "source", "record", "line" and "transform"',
    )
    add_collection_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from gbr_tui.core.collection import store
    from gbr_tui.core.collection.anticipation import KeyedRecords

    problem = usage_problem(args.files)
    if problem is not None:
        print(f"gbr-tui duplicates: {problem}", file=sys.stderr)
        return EXIT_USAGE
    bad = [0]
    report = bad_reporter("duplicates", bad)
    request = collection_request(args)
    keyed = KeyedRecords(args.exact, args.same_side)
    try:
        for name in args.files:
            if name != "-" and store.is_index(name):
                # The canonical keys kept answer the default question: only their shared ones are read.
                held = store.indexed_boards(name, shared_keys=not args.exact and args.same_side)
                keyed.add_rows(held.names, held.boards, held.sources, held.numbers, held.lines)
                continue
            with request.open(name, Rule.COUNT) as collection:
                say_if_hhdb("duplicates", collection)
                keyed.on_bad = lambda record, source=collection.name: report(source, record)
                keyed.scan(collection)
        found = keyed.duplicate_groups()
    except GbrError as error:
        print(f"gbr-tui duplicates: {printable(error.message, REASON_CHARACTERS)}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        write_json_lines(
            {
                "records": [
                    {"source": m.source, "record": m.record, "line": m.line, "transform": m.transform} for m in group
                ]
            }
            for group in found
        )
    else:
        shown = {name: printable(name, SHOWN_CHARACTERS) for name in {m.source for group in found for m in group}}
        write_table(
            ["group", "record", "transform"],
            (
                [
                    str(number) if at == 0 else "",
                    f"{shown[m.source]}:{m.line} #{m.record}",
                    m.transform,
                ]
                for number, group in enumerate(found, 1)
                for at, m in enumerate(group)
            ),
        )
    records = sum(len(group) for group in found)
    print(f"gbr-tui duplicates: {plural(len(found), 'group')} of {plural(records, 'record')}", file=sys.stderr)
    return EXIT_BAD_INPUT if bad[0] else EXIT_OK
