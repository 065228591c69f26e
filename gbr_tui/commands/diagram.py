"""`gbr-tui diagram POSITION -o FILE`: a study's diagram with its caption, as SVG, PNG or PDF.

The board is python-chess's ``chess.svg``; the caption under it is one of the printed forms
(``captions.write_caption``). With ``--each`` the positional arguments are collections, and every
record gets a diagram of its own in the folder ``-o`` names (``0001-0323.12.svg``), its caption's
stipulation taken from the record's result where ``--stipulation`` is not given.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import chess

from gbr_tui.commands import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE
from gbr_tui.commands.common import SHOWN_CHARACTERS, CommandParsers, Input, Problems, add_rule_option
from gbr_tui.core import GbrError, Rule, board_from_fen, parse_piece_list
from gbr_tui.core.captions import FORMS, write_caption
from gbr_tui.core.describe import STIPULATION_WORDS
from gbr_tui.core.publish.diagram import DEFAULT_SIZE, SIZE_RANGE, DiagramStyle, diagram_svg
from gbr_tui.core.publish.rendering import SUFFIXES, check_renderer, diagram_format, write_diagram
from gbr_tui.core.text import printable

NO_CAPTION = "none"


def register(commands: CommandParsers) -> None:
    parser = commands.add_parser(
        "diagram",
        help="a position's diagram with its caption, as SVG, PNG or PDF",
        description=(
            "Draw a position (a FEN, or a piece list with --pieces) as a diagram with its GBR caption "
            "under it, in the format the output file's suffix names (.svg, .png, .pdf; PNG and PDF "
            "need rsvg-convert). With --each, every record of the collections named, one file each "
            "in the folder -o names."
        ),
    )
    parser.add_argument("position", nargs="+", metavar="POSITION", help="a FEN; with --each, collection files")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the file to write (.svg, .png, .pdf)")
    parser.add_argument("--pieces", action="store_true", help="read POSITION as a piece list, White first")
    parser.add_argument(
        "--caption",
        choices=[*FORMS, NO_CAPTION],
        default="compact",
        help="the caption's printed form (as encode --form), or none",
    )
    parser.add_argument("--result", metavar="TEXT", help="the caption's result part, written as given")
    parser.add_argument(
        "--stipulation",
        choices=["+", "="],
        help="the caption's stipulation: "
        + " or ".join(f"{sign} ({words})" for sign, words in STIPULATION_WORDS.items()),
    )
    parser.add_argument("--flip", action="store_true", help="draw the board from Black's side")
    parser.add_argument("--no-coordinates", action="store_true", help="no files and ranks around the board")
    parser.add_argument(
        "--size", type=int, default=DEFAULT_SIZE, metavar="PIXELS", help=f"the board's side (default {DEFAULT_SIZE})"
    )
    parser.add_argument(
        "--each",
        metavar="FORMAT",
        choices=[suffix[1:] for suffix in SUFFIXES],
        help="POSITION names collections: write each record's diagram in this format into the folder -o names",
    )
    add_rule_option(parser)
    parser.set_defaults(run=run, diagram_parser=parser)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.diagram_parser
    low, high = SIZE_RANGE
    if not low <= args.size <= high:
        parser.error(f"--size must be {low} to {high} pixels, not {args.size}")
    style = DiagramStyle(flipped=args.flip, coordinates=not args.no_coordinates, size=args.size)
    if args.each:
        return _each(args, style)
    if len(args.position) != 1:
        parser.error("one POSITION (quote a FEN or a piece list); --each reads collections")
    position = Input(args.position[0])
    try:
        diagram_format(args.output)
    except GbrError as error:
        print(f"gbr-tui diagram: {error.message}", file=sys.stderr)
        return EXIT_USAGE
    try:
        board = parse_piece_list(position.text) if args.pieces else board_from_fen(position.text)
    except GbrError as error:
        Problems("diagram").report(position, error)
        return EXIT_BAD_INPUT
    try:
        write_diagram(diagram_svg(board, _caption(args, board, args.stipulation), style), args.output)
    except GbrError as error:
        print(f"gbr-tui diagram: {printable(error.message, 2 * SHOWN_CHARACTERS)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK


def _caption(args: argparse.Namespace, board: chess.Board, stipulation: str | None) -> str | None:
    if args.caption == NO_CAPTION:
        return None
    return write_caption(board, args.caption, stipulation, args.result, Rule(args.rule))


def _each(args: argparse.Namespace, style: DiagramStyle) -> int:
    """Every record of the collections named, a diagram each, named by record number and class;
    bad records (and records that cannot be drawn) reported with their lines."""
    from gbr_tui.core.collection import CollectionRequest
    from gbr_tui.core.publish.studies import read_studies

    folder = Path(args.output)
    try:
        check_renderer(args.each)
        folder.mkdir(parents=True, exist_ok=True)
    except GbrError as error:
        print(f"gbr-tui diagram: {error.message}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"gbr-tui diagram: {printable(str(folder), SHOWN_CHARACTERS)}: {error.strerror}", file=sys.stderr)
        return EXIT_USAGE
    rule = Rule(args.rule)
    bad = 0
    for number, name in enumerate(args.position, 1):
        try:
            with CollectionRequest((name,)).open(name, rule) as collection:
                read = read_studies(collection)
        except GbrError as error:
            print(f"gbr-tui diagram: {printable(error.message, 2 * SHOWN_CHARACTERS)}", file=sys.stderr)
            return EXIT_USAGE
        for record in read.bad_records:
            bad += 1
            file = printable(read.file, SHOWN_CHARACTERS)
            print(f"gbr-tui diagram: {file}:{record.line}: record {record.number}: {record.reason}", file=sys.stderr)
        prefix = f"{number}-" if len(args.position) > 1 else ""
        width = max(4, len(str(len(read.studies))))
        for study in read.studies:
            target = folder / f"{prefix}{study.number:0{width}d}-{study.code}.{args.each}"
            try:
                caption = _caption(args, study.board, args.stipulation or study.stipulation)
                write_diagram(diagram_svg(study.board, caption, style), target)
            except GbrError as error:
                bad += 1
                place = printable(study.place, SHOWN_CHARACTERS)
                print(f"gbr-tui diagram: {place}: {printable(error.message, 2 * SHOWN_CHARACTERS)}", file=sys.stderr)
    return EXIT_BAD_INPUT if bad else EXIT_OK
