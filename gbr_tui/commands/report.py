"""`gbr-tui report SOURCE... -o index.html`: a printed index of studies by GBR class.

Every record of the collections named is read as a study (``publish.studies``); the page
(``publish.report``) groups them by class in code order under a summary of the classes. Bad
records are reported on stderr with their lines and left out.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gbr_tui.commands import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE
from gbr_tui.commands.common import (
    SHOWN_CHARACTERS,
    CommandParsers,
    add_collection_options,
    add_rule_option,
    collection_request,
)
from gbr_tui.core import GbrError, Rule
from gbr_tui.core.describe import plural
from gbr_tui.core.text import printable

SUFFIXES = (".html", ".md")


def register(commands: CommandParsers) -> None:
    parser = commands.add_parser(
        "report",
        help="a printed index of studies, by GBR class",
        description=(
            "Write an index of the studies in collections, grouped and sorted by GBR class as magazines "
            "print theirs: a summary of the classes, then each class with its studies' diagrams, "
            "captions, composers (the White tag) and sources (Event and year). HTML carries its "
            "diagrams inline and opens with no network; Markdown links to SVG files written beside it."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="SOURCE", help="collection files; '-' reads stdin")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the page to write: .html or .md")
    parser.add_argument("--title", default="Studies by GBR class", help="the page's title")
    add_collection_options(parser)
    add_rule_option(parser)
    parser.set_defaults(run=run)


def _error(message: str) -> None:
    print(f"gbr-tui report: {printable(message, 2 * SHOWN_CHARACTERS)}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from gbr_tui.core.publish.report import html_report, markdown_report, sections
    from gbr_tui.core.publish.studies import Study, read_studies

    target = Path(args.output)
    if target.suffix.lower() not in SUFFIXES:
        _error(f"{args.output}: write .html or .md (the suffix chooses the format)")
        return EXIT_USAGE
    rule = Rule(args.rule)
    request = collection_request(args)
    studies: list[Study] = []
    bad = 0
    for name in args.files:
        try:
            with request.open(name, rule) as collection:
                read = read_studies(collection)
        except GbrError as error:
            _error(error.message)
            return EXIT_USAGE
        for record in read.bad_records:
            bad += 1
            _error(f"{read.file}:{record.line}: record {record.number}: {record.reason}")
        studies += read.studies
    classes = sections(studies)
    try:
        if target.suffix.lower() == ".html":
            target.write_text(html_report(args.title, classes, rule), encoding="utf-8")
        else:
            folder = target.with_name(f"{target.stem}_files")
            page, diagrams = markdown_report(args.title, classes, folder, rule)
            folder.mkdir(exist_ok=True)
            for file_name, svg in diagrams.items():
                (folder / file_name).write_text(svg, encoding="utf-8")
            target.write_text(page, encoding="utf-8")
    except OSError as error:
        _error(f"{error.filename or args.output}: cannot write: {error.strerror or error}")
        return EXIT_BAD_INPUT
    summary = f"{plural(len(studies), 'study', 'studies')} in {plural(len(classes), 'class', 'classes')}"
    print(f"gbr-tui report: {summary}, {plural(bad, 'bad record')}", file=sys.stderr)
    return EXIT_BAD_INPUT if bad else EXIT_OK
