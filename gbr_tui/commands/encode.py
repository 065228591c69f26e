"""`gbr-tui encode`: the code of each FEN.

Plain codes go through ``FenEncoder.codes`` a block of stdin lines at a time (the fast path the
benchmark times); ``--extended`` and ``--json`` need the squares, so they build a python-chess
board per FEN.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

from gbr_tui.commands.common import (
    Block,
    Input,
    Problems,
    add_input_arguments,
    add_json_option,
    add_rule_option,
    error_record,
    input_blocks,
    inputs,
    not_utf8,
    write_json_lines,
)
from gbr_tui.core import (
    FenEncoder,
    GbrError,
    Material,
    Rule,
    board_from_fen,
    encode,
    extended_code,
    position_warnings,
    short_form,
)
from gbr_tui.core.describe import STIPULATION_WORDS
from gbr_tui.core.material import men_on_board


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "encode",
        help="the GBR code of each FEN",
        description=(
            "Print the GBR code of each FEN (full, or the placement field alone), one line per "
            "input, in order. A bad FEN is reported on stderr, with its line number, and skipped."
        ),
    )
    add_input_arguments(parser, "fen")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--short", action="store_true", help="drop '.00' when there are no pawns")
    form.add_argument(
        "--extended",
        action="store_true",
        help="the compact extended form: code, king squares, then the other men's squares",
    )
    parser.add_argument(
        "--stipulation",
        choices=["+", "="],
        help="prefix the code with " + " or ".join(f"{sign} ({words})" for sign, words in STIPULATION_WORDS.items()),
    )
    add_rule_option(parser)
    add_json_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rule = Rule(args.rule)
    problems = Problems("encode")
    if args.json:
        _write_json(args.inputs, rule, args.stipulation, problems)
    elif args.extended:
        _write_extended(args.inputs, rule, args.stipulation, problems)
    else:
        encoder = FenEncoder(rule, short=args.short)
        _write_codes(input_blocks(args.inputs), encoder, args.stipulation or "", problems)
    return problems.finish()


def _write_codes(blocks: Iterable[Block], encoder: FenEncoder, prefix: str, problems: Problems) -> None:
    out = sys.stdout
    for block in blocks:
        lines = []
        for index, result in enumerate(encoder.codes(block.texts)):
            if isinstance(result, str):
                lines.append(prefix + result)
            elif block.skipped(index):
                problems.blank_lines += 1
            else:
                item = block.input(index)
                problems.report(item, not_utf8(item.text) or result)
        if lines:
            out.write("\n".join(lines) + "\n")
            out.flush()  # one flush a block: a reader down the pipe sees each block at once


def _write_extended(values: list[str], rule: Rule, stipulation: str | None, problems: Problems) -> None:
    for item in inputs(values, problems=problems):
        try:
            if problem := not_utf8(item.text):
                raise problem
            print(extended_code(board_from_fen(item.text), stipulation, rule))
        except GbrError as error:
            problems.report(item, error)


def _write_json(values: list[str], rule: Rule, stipulation: str | None, problems: Problems) -> None:
    write_json_lines(_json_record(item, rule, stipulation, problems) for item in inputs(values, problems=problems))


def _json_record(item: Input, rule: Rule, stipulation: str | None, problems: Problems) -> dict:
    try:
        if problem := not_utf8(item.text):
            raise problem
        board = board_from_fen(item.text)
        material = Material.from_board(board)
        code = encode(material, rule)
    except GbrError as error:
        problems.report(item, error)
        return error_record(item, error)
    try:
        extended = extended_code(board, stipulation, rule)
    except GbrError:
        extended = None  # not one king a side: the warnings say so
    return {
        "input": item.text,
        "code": code,
        "short": short_form(code),
        "extended": extended,
        "material": men_on_board(board, separator="v"),
        "stipulation": stipulation,
        "warnings": position_warnings(board),
    }
