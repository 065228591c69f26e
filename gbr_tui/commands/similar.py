"""`gbr-tui similar POSITION SOURCE...`: was it anticipated? Every record whose position is the
searched one under a board transform (CQL's similarposition), then those a man away.

A SOURCE is a collection, read in one streaming walk (``anticipation.NearRecords``), or an index
(``gbr-tui index``), which keeps every record's men as bitboards and answers at once. Bad
records go to stderr with their line, and the search goes on.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence

from gbr_tui.commands import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE
from gbr_tui.commands.common import (
    SHOWN_CHARACTERS,
    CommandParsers,
    add_collection_options,
    add_studies_option,
    collection_request,
    write_json_lines,
)
from gbr_tui.core import GbrError, Rule, hhdb
from gbr_tui.core.collection import BadRecord, Collection
from gbr_tui.core.describe import headers_words, plural
from gbr_tui.core.text import printable

REASON_CHARACTERS = 300
#: The headers a result shows, in this order, when a record has them.
SHOWN_HEADERS = ("White", "Black", "Event", "Site", "Date", "id")


def register(commands: CommandParsers) -> None:
    parser = commands.add_parser(
        "similar",
        help="find the records whose position is a given one under a board transform, or a man away",
        description=(
            "Search collections or indexes for a position, as CQL's similarposition does: the same "
            "men, the same side to move, and the board turned or reflected (8 ways without pawns), "
            "or with pawns shifted along the ranks and mirrored (30 ways): distance 0. Then the "
            "positions a man away (one man more, fewer, or on another square): distance 1, up to "
            "--max-distance. An index answers without reading its files."
        ),
    )
    parser.add_argument(
        "searched",
        metavar="POSITION",
        help="a FEN, a code with every man's square (=0323.12g3g1 ...) or a piece list",
    )
    parser.add_argument("files", nargs="+", metavar="SOURCE", help="collection files or indexes; '-' reads stdin")
    add_search_options(parser)
    parser.add_argument("--max-distance", type=_distance, default=1, metavar="N", help="men away at most (default: 1)")
    parser.add_argument(
        "--json",
        action="store_true",
        help='one JSON object a record found: "source", "record", "line", "fen", "distance", "transform", "headers"',
    )
    add_studies_option(parser)
    add_collection_options(parser)
    parser.set_defaults(run=run)


def add_search_options(parser: argparse.ArgumentParser) -> None:
    """``--exact`` and ``--same-side``, which ``duplicates`` shares."""
    parser.add_argument("--exact", action="store_true", help="no transforms: the position as it stands only")
    parser.add_argument(
        "--same-side",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the side to move must be the same, as in CQL (default: on)",
    )


def _distance(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) > 32:
        raise argparse.ArgumentTypeError(f"not a number of men from 0 to 32: {text!r}")
    return int(text)


def usage_problem(sources: Sequence[str]) -> str | None:
    """What is wrong with the sources named, before any is read (None: nothing)."""
    import os

    if list(sources).count("-") > 1:
        return "'-' (stdin) is named more than once: stdin can be read only once"
    for name in sources:
        if name != "-" and (os.path.isdir(name) or not os.path.exists(name)):
            reason = "is a directory, not a file" if os.path.isdir(name) else "no such file"
            return f"{printable(name, SHOWN_CHARACTERS)}: {reason}"
    return None


def bad_reporter(command: str, counted: list[int]) -> Callable[[str, BadRecord], None]:
    """Reports a bad record on stderr with its file and line, and counts it in ``counted[0]``."""

    def report(source: str, bad: BadRecord) -> None:
        counted[0] += 1
        place = f"{printable(source, SHOWN_CHARACTERS)}:{bad.line}: record {bad.number}"
        print(f"gbr-tui {command}: {place}: {printable(bad.reason, REASON_CHARACTERS)}", file=sys.stderr)

    return report


def run(args: argparse.Namespace) -> int:
    from gbr_tui.core import setup
    from gbr_tui.core.collection import store
    from gbr_tui.core.collection.anticipation import NearRecords
    from gbr_tui.core.similar import BLACK, WHITE

    problem = usage_problem(args.files)
    if problem is None:
        try:
            arrangement = setup.read_position(args.searched, squares=True)
        except GbrError as error:
            problem = f"POSITION {printable(args.searched, SHOWN_CHARACTERS)!r}: {error.message}"
    if problem is not None:
        print(f"gbr-tui similar: {problem}", file=sys.stderr)
        return EXIT_USAGE
    board = arrangement.board
    turn = WHITE if board.turn else BLACK
    bad = [0]
    report = bad_reporter("similar", bad)
    request = collection_request(args)
    search = NearRecords(board, turn, args.max_distance, args.exact, args.same_side)
    try:
        for name in args.files:
            if name != "-" and store.is_index(name):
                search.found += store.similar_in_index(name, board, turn, args.max_distance, args.exact, args.same_side)
                continue
            with request.open(name, Rule.COUNT) as collection:
                say_if_hhdb("similar", collection)
                search.on_bad = lambda record, source=collection.name: report(source, record)
                search.scan(collection)
    except GbrError as error:
        print(f"gbr-tui similar: {printable(error.message, REASON_CHARACTERS)}", file=sys.stderr)
        return EXIT_USAGE
    found = [item for item in search.sorted_found() if hhdb.kept(item.headers, args.studies)]
    if args.json:
        write_json_lines(
            {
                "source": item.source,
                "record": item.record,
                "line": item.line,
                "fen": item.fen,
                "distance": item.distance,
                "transform": item.transform,
                "headers": hhdb.tags_only(item.headers),
                **({"hhdb": hhdb.hhdb_fields(item.headers)} if hhdb.read_black(item.headers.get("Black")) else {}),
            }
            for item in found
        )
    else:
        write_table(
            ["record", "distance", "transform", "headers"],
            (
                [
                    f"{printable(item.source, SHOWN_CHARACTERS)}:{item.line} #{item.record}",
                    str(item.distance),
                    item.transform,
                    printable(hhdb.hhdb_words(item.headers), 200) or headers_words(shown_headers(item.headers)),
                ]
                for item in found
            ),
        )
    counts = [sum(1 for item in found if item.distance == distance) for distance in range(args.max_distance + 1)]
    at = ", ".join(f"{count:,} at distance {distance}" for distance, count in enumerate(counts))
    print(f"gbr-tui similar: found {plural(len(found), 'record')}: {at}", file=sys.stderr)
    return EXIT_BAD_INPUT if bad[0] else EXIT_OK


def say_if_hhdb(command: str, collection: Collection) -> None:
    """Say once that a collection is in HHdb's form (its marks are read)."""
    if hhdb.looks_like_hhdb(collection.source.head):
        print(
            f"gbr-tui {command}: {hhdb.recognised_words(printable(collection.name, SHOWN_CHARACTERS))}", file=sys.stderr
        )


def shown_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """The headers a result shows (``SHOWN_HEADERS``), when given."""
    return {name: headers[name] for name in SHOWN_HEADERS if headers.get(name)}


def write_table(heads: list[str], rows: Iterable[list[str]]) -> None:
    """Rows in aligned columns under their heads (the last column as long as it is)."""
    rows = list(rows)
    widths = [max([len(head), *(len(row[column]) for row in rows)]) for column, head in enumerate(heads[:-1])]
    sys.stdout.write(
        "".join(
            "  ".join([*(cell.ljust(width) for cell, width in zip(row, widths)), row[-1]]).rstrip() + "\n"
            for row in [heads, *rows]
        )
    )
