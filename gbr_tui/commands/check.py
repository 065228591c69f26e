"""`gbr-tui check FILE...`: the captions printed in collections against their positions.

An index (``gbr-tui index``) named instead of a file is checked from the captions and
positions it keeps (``store.captioned``), with what checking its files prints.

Each record with a printed caption (a PGN tag, an EPD opcode, a JSON field, a CSV column) is
checked (``core.check``); every disagreement goes to stdout with the record's file, line and
headers, or one JSON object per checked record with ``--json``. Bad records go to stderr, and
the last line on stderr sums up: checked N = agree A + disagree D (+ unchecked U, bad B).

With ``--tablebases``, each study within the tables is also held against them
(``core.tablebase_studies``): its stipulation, and for games the main line's moves; a record
the tables judge is checked even without a caption.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

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
from gbr_tui.commands.tablebase_options import add_tablebases_option, open_tables, report_problems
from gbr_tui.core import GbrError, Rule, hhdb
from gbr_tui.core.check import CaptionCheck, CheckTally, checked_record
from gbr_tui.core.collection import BadRecord, GamePositions, Item, Record
from gbr_tui.core.collection.readers import CAPTION_NAME, CollectionRequest
from gbr_tui.core.collection.records import Format
from gbr_tui.core.describe import (
    check_summary,
    disagreement_words,
    headers_words,
    no_captions_words,
    printed_words,
)
from gbr_tui.core.material import board_from_fen
from gbr_tui.core.text import printable

if TYPE_CHECKING:
    from gbr_tui.core.tablebase_studies import StudyCheck
    from gbr_tui.core.tablebases import Tablebases

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
    add_jobs_option(parser, records=True)
    add_caption_options(parser)
    parser.add_argument(
        "--json",
        action="store_true",
        help='one JSON object per checked record: "agree" and its "disagreements" (part, printed, actual)',
    )
    add_tablebases_option(
        parser,
        "each study's stipulation and its solution's moves are held against them "
        '(parts stipulation and solution; "tablebase" in --json)',
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
        return _Checker(args, errors, open_tables(args, "check")).check()
    except GbrError as error:  # a file that cannot be read as a collection at all
        errors.print(f"gbr-tui check: {printable(error.message, REASON_CHARACTERS)}")
        return EXIT_USAGE


class _Checker:
    """One run of the command: reads the files, checks each record's caption, reports."""

    def __init__(self, args: argparse.Namespace, errors: Console, tables: Tablebases | None = None) -> None:
        self.args = args
        self.tables = tables
        #: The current file's games the tables judge, by record number (read before its records).
        self.studies: dict[int, StudyCheck] = {}
        self.errors = errors
        self.rule = Rule(args.rule)
        self.request = collection_request(args)
        self.tally = CheckTally()
        self.file = ""  # the name of the file being read

    def check(self) -> int:
        from gbr_tui.core.collection import ordered, store

        each = partial(checked_record, rule=self.rule)
        for name in self.args.files:
            if name != "-" and store.is_index(name):
                for source in store.captioned(name, self.request, self.rule):
                    self._report(source.name, source.items, source.uncaptioned)
                continue
            request = self._request_for(name)
            with request.open(name, self.rule) as collection:
                self.studies = self._studies(name, collection.format, request.caption)
                items = ordered.records_with(collection, name, request, self.args.jobs, each)
                self._report(collection.name, ((item, found) for item, found, _ in items))
        if self.tables is not None:
            report_problems(self.tables, "check")  # damaged tables met while probing
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

    def _studies(self, name: str, format: Format, caption: str | None) -> dict[int, StudyCheck]:
        """A PGN file's games the tables judge, read on their own (a game's moves are not in
        its record); none from stdin, which is read once."""
        if self.tables is None or format != Format.PGN or name == "-":
            return {}
        from gbr_tui.core.collection.source import Source
        from gbr_tui.core.tablebase_studies import study_checks

        source = Source(name)
        try:
            return dict(study_checks(source.lines(), self.tables, caption))
        finally:
            source.close()

    def _study(self, record: Record) -> StudyCheck | None:
        """What the tables make of the record: its game's check, or for a position its
        stipulation against the table."""
        if self.tables is None:
            return None
        if record.number in self.studies:
            return self.studies[record.number]
        if record.ply is not None or record.fen is None:  # a game the tables do not judge
            return None
        from gbr_tui.core.tablebase_studies import check_study

        try:
            board = board_from_fen(record.fen)
        except GbrError:
            return None
        checked = check_study(self.tables, board, [], record.headers, record.caption)
        return checked if checked.judged else None

    def _report(self, file: str, items: Iterable[tuple[Item, CaptionCheck | str | None]], uncaptioned: int = 0) -> None:
        """One file's records (from the file, or an index of it: then only those with a
        caption, the others counted in ``uncaptioned``), each with its checked caption."""
        self.file = printable(file, SHOWN_CHARACTERS)
        captions = 0
        for item, found in items:
            if isinstance(item, BadRecord):
                self._bad(item.line, item.number, item.reason)
            else:
                study = self._study(item)
                if found is None and study is None:
                    uncaptioned += 1
                    continue
                if found is None:
                    found = CaptionCheck("")
                else:
                    captions += 1
                self._check(file, item, found, study)
        self.tally.unchecked += uncaptioned
        if uncaptioned and not captions:
            self.errors.print(f"gbr-tui check: {self.file}: {no_captions_words(self.args.tag)}")

    def _bad(self, line: int, number: int, reason: str) -> None:
        self.tally.bad += 1
        self.errors.print(f"gbr-tui check: {self.file}:{line}: record {number}: {printable(reason, REASON_CHARACTERS)}")

    def _check(self, file: str, record: Record, found: CaptionCheck | str, study: StudyCheck | None = None) -> None:
        """One record's checked caption reported (``core.check.checked_record``: words when
        the caption does not decode), with what the tables make of it."""
        if isinstance(found, str):
            self._bad(record.line, record.number, found)
            return
        if study is not None:
            found = dataclasses.replace(found, disagreements=[*found.disagreements, *study.disagreements()])
        if found.agree:
            self.tally.agree += 1
        else:
            self.tally.disagree += 1
        if self.args.json:
            probed = {} if self.tables is None else {"tablebase": None if study is None else study.fields}
            write_json_lines([_json_object(file, record, found) | probed])
        elif not found.agree:
            place = f"{self.file}:{record.line}: record {record.number}"
            tags = hhdb.tags_only(record.headers)
            headers = headers_words({name: value for name, value in tags.items() if name != "FEN"})
            out = sys.stdout
            printed = f" · {printed_words(record.caption)}" if record.caption else ""
            out.write(f"{place}{' · ' + headers if headers else ''}{printed}\n")
            for disagreement in found.disagreements:
                out.write(f"    {disagreement_words(**dataclasses.asdict(disagreement))}\n")
            if study is not None and (marked := study.solution_words()):
                out.write(f"    marks: {' · '.join(marked)}\n")


def _json_object(file: str, record: Record, found: CaptionCheck) -> dict:
    return {
        "file": file,
        "record": record.number,
        "line": record.line,
        "caption": record.caption,
        "code": record.code,
        "position": record.fen,
        **hhdb.tags_only(record.headers),
        "agree": found.agree,
        "disagreements": [dataclasses.asdict(disagreement) for disagreement in found.disagreements],
    }
