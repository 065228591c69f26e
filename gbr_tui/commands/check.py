"""`gbr-tui check FILE...`: the captions printed in collections against their positions.

An index (``gbr-tui index``) named instead of a file is checked from the captions and
positions it keeps (``store.captioned``), with what checking its files prints.

Each record with a printed caption (a PGN tag, an EPD opcode, a JSON field, a CSV column) is
checked (``core.check``); every disagreement goes to stdout with the record's file, line and
headers, or one JSON object per checked record with ``--json``. Bad records go to stderr, and
the last line on stderr sums up: checked N = agree A + disagree D (+ unchecked U, bad B).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Iterable
from functools import partial

from rich.console import Console

from gbr_tui.commands import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE
from gbr_tui.commands.common import (
    SHOWN_CHARACTERS,
    CommandParsers,
    add_caption_options,
    add_collection_options,
    add_jobs_option,
    add_rule_option,
    collection_request,
    write_json_lines,
)
from gbr_tui.core import GbrError, Rule, hhdb
from gbr_tui.core.check import CaptionCheck, CheckTally, checked_record
from gbr_tui.core.collection import BadRecord, GamePositions, Item, Record
from gbr_tui.core.collection.readers import CAPTION_NAME, CollectionRequest
from gbr_tui.core.describe import (
    check_summary,
    disagreement_words,
    headers_words,
    no_captions_words,
    printed_words,
)
from gbr_tui.core.text import printable

REASON_CHARACTERS = 300  # of why a record is bad, at most this much is printed


def register(commands: CommandParsers) -> None:
    parser = commands.add_parser(
        "check",
        help="check the GBR codes printed in collections against their positions",
        description="Compare each record's printed caption (code, men count, king squares, other men's "
        "squares) with its position; print every disagreement. An index (`gbr-tui index`) is checked "
        "without reading its files, with the output of checking them.",
    )
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="collection files, or indexes of them; '-' reads stdin"
    )
    add_collection_options(parser)
    add_rule_option(parser)
    add_jobs_option(parser)
    add_caption_options(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help='one JSON object per checked record: "agree" and its "disagreements" (part, printed, actual)',
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    errors = Console(stderr=True, highlight=False, markup=False, emoji=False, soft_wrap=True)
    unread = [name for name in args.files if name != "-" and (os.path.isdir(name) or not os.path.exists(name))]
    problem = None
    if args.position == GamePositions.ALL.value:
        problem = "--position all: a caption is printed for one position of a game (start or final)"
    elif args.files.count("-") > 1:
        problem = "'-' (stdin) is named more than once: stdin can be read only once"
    elif unread:  # devices and pipes are read
        reason = "is a directory, not a file" if os.path.isdir(unread[0]) else "no such file"
        problem = f"{printable(unread[0], SHOWN_CHARACTERS)}: {reason}"
    if problem is not None:
        errors.print(f"gbr-tui check: {problem}")
        return EXIT_USAGE
    try:
        return _Checker(args, errors).check()
    except GbrError as error:  # a file that cannot be read as a collection at all
        errors.print(f"gbr-tui check: {printable(error.message, REASON_CHARACTERS)}")
        return EXIT_USAGE


class _Checker:
    """One run of the command: reads the files, checks each record's caption, reports."""

    def __init__(self, args: argparse.Namespace, errors: Console) -> None:
        self.args = args
        self.errors = errors
        self.rule = Rule(args.rule)
        self.request = collection_request(args)
        self.tally = CheckTally()
        self.file = ""  # the name of the file being read

    def check(self) -> int:
        from gbr_tui.core.collection import parallel, store

        each = partial(checked_record, rule=self.rule)
        for name in self.args.files:
            if name != "-" and store.is_index(name):
                for source in store.captioned(name, self.request, self.rule):
                    self._report(source.name, source.items, source.uncaptioned)
                continue
            request = self._request_for(name)
            with request.open(name, self.rule) as collection:
                items = parallel.records_with(collection, name, request, self.args.jobs, each)
                self._report(collection.name, ((item, found) for item, found, _ in items))
        tally = self.tally
        self.errors.print(check_summary(tally.agree, tally.disagree, tally.unchecked, tally.bad))
        return EXIT_BAD_INPUT if tally.disagree or tally.bad else EXIT_OK

    def _request_for(self, name: str) -> CollectionRequest:
        """How to read a file: an HHdb collection (said once) prints its codes in its Black tag,
        read there unless --tag says otherwise (stdin is read as told: it cannot be read twice)."""
        if name == "-" or self.request.caption != CAPTION_NAME:
            return self.request
        with self.request.open(name, self.rule) as collection:
            if not hhdb.looks_like_hhdb(collection.source.head):
                return self.request
            self.errors.print(f"gbr-tui check: {hhdb.recognised_words(printable(collection.name, SHOWN_CHARACTERS))}")
        return dataclasses.replace(self.request, caption=hhdb.BLACK_TAG)

    def _report(self, file: str, items: Iterable[tuple[Item, CaptionCheck | str | None]], uncaptioned: int = 0) -> None:
        """One file's records (from the file, or an index of it: then only those with a
        caption, the others counted in ``uncaptioned``), each with its checked caption."""
        self.file = printable(file, SHOWN_CHARACTERS)
        captions = 0
        for item, found in items:
            if isinstance(item, BadRecord):
                self._bad(item.line, item.number, item.reason)
            elif found is None:
                uncaptioned += 1
            else:
                captions += 1
                self._check(file, item, found)
        self.tally.unchecked += uncaptioned
        if uncaptioned and not captions:
            self.errors.print(f"gbr-tui check: {self.file}: {no_captions_words(self.args.tag)}")

    def _bad(self, line: int, number: int, reason: str) -> None:
        self.tally.bad += 1
        self.errors.print(f"gbr-tui check: {self.file}:{line}: record {number}: {printable(reason, REASON_CHARACTERS)}")

    def _check(self, file: str, record: Record, found: CaptionCheck | str) -> None:
        """One record's checked caption reported (``core.check.checked_record``: words when
        the caption does not decode)."""
        if isinstance(found, str):
            self._bad(record.line, record.number, found)
            return
        if found.agree:
            self.tally.agree += 1
        else:
            self.tally.disagree += 1
        if self.args.json:
            write_json_lines([_json_object(file, record, found)])
        elif not found.agree:
            assert record.caption is not None  # the caption checked
            place = f"{self.file}:{record.line}: record {record.number}"
            headers = headers_words({name: value for name, value in record.headers.items() if name != "FEN"})
            out = sys.stdout
            out.write(f"{place}{' · ' + headers if headers else ''} · {printed_words(record.caption)}\n")
            for disagreement in found.disagreements:
                out.write(f"    {disagreement_words(**dataclasses.asdict(disagreement))}\n")


def _json_object(file: str, record: Record, found: CaptionCheck) -> dict:
    return {
        "file": file,
        "record": record.number,
        "line": record.line,
        "caption": record.caption,
        "code": record.code,
        "position": record.fen,
        **record.headers,
        "agree": found.agree,
        "disagreements": [dataclasses.asdict(disagreement) for disagreement in found.disagreements],
    }
