"""`gbr-tui encode`: the code of each FEN, or of each piece list (``--pieces``).

Plain codes of FENs go through ``FenEncoder.codes`` a block of stdin lines at a time (numpy's
batch path, benchmarks/positions.py); ``--extended``, ``--form``, ``--json`` and ``--pieces`` need
the squares, so they build a python-chess board per input. With ``--pieces`` each argument or stdin
line is one piece list (``Kg3 Ba2 Be1 h6 / Kg1 Ra3 Ng8 c3 c6``): a newline ends a list, so
the sides are parted by ``-``, ``–``, ``/``, ``;`` or ``Black:`` there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import chess

from gbr_tui.commands.common import (
    Block,
    CommandParsers,
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
from gbr_tui.commands.tablebase_options import add_tablebases_option, open_tables, report_problems
from gbr_tui.core import (
    FenEncoder,
    GbrError,
    Material,
    Rule,
    board_from_fen,
    encode,
    extended_code,
    parse_piece_list,
    position_warnings,
    short_form,
)
from gbr_tui.core.captions import FORMS, write_caption
from gbr_tui.core.describe import STIPULATION_WORDS
from gbr_tui.core.material import men_on_board

if TYPE_CHECKING:
    from gbr_tui.core.tablebases import Tablebases

#: How an input is read: as a FEN, or as a piece list (``--pieces``).
ReadBoard = Callable[[str], chess.Board]


def register(commands: CommandParsers) -> None:
    parser = commands.add_parser(
        "encode",
        help="the GBR code of each FEN",
        description=(
            "Print the GBR code of each FEN (full, or the placement field alone), or of each piece "
            "list with --pieces, one line per "
            "input, in order. A bad input is reported on stderr, with its line number, and skipped."
        ),
    )
    add_input_arguments(parser, "fen")
    parser.add_argument(
        "--pieces",
        action="store_true",
        help=(
            "read each input as a piece list, White first, one a line: "
            "'White: Kg3, Ba2, Be1, Ph6 - Black: Kg1, Ra3, Ng8, Pc3, Pc6', 'Kg3 Ba2 Be1 h6 / Kg1 Ra3 Ng8 c3 c6', "
            "figurines '♔g3 ♗a2'; a men count such as (4+5) is checked"
        ),
    )
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--short", action="store_true", help="drop '.00' when there are no pawns")
    form.add_argument(
        "--extended",
        action="store_true",
        help="the compact extended form: code, king squares, then the other men's squares",
    )
    parser.add_argument(
        "--form",
        choices=FORMS,
        default="compact",
        help=(
            "the printed form: compact (the default: the code, or with --extended every square), "
            "eg 'g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw', arves 'a7d3 0116.00 b2b3c6d6 3/3+', "
            "german '0000.02.a1a8.a2b2', book '+ 0323.12 g3g1 ...' (spaced)"
        ),
    )
    parser.add_argument("--result", metavar="TEXT", help="the result part, written as given (e.g. 'Draw?', 'BTM, win')")
    parser.add_argument(
        "--stipulation",
        choices=["+", "="],
        help="prefix the code with " + " or ".join(f"{sign} ({words})" for sign, words in STIPULATION_WORDS.items()),
    )
    add_rule_option(parser)
    add_json_option(parser)
    add_tablebases_option(parser, 'the verdict of each position within them follows its code ("tablebase" in --json)')
    parser.set_defaults(run=run, encode_parser=parser)


def run(args: argparse.Namespace) -> int:
    rule = Rule(args.rule)
    problems = Problems("encode")
    if args.form != "compact" and (args.short or args.extended):
        args.encode_parser.error(f"--short and --extended are compact forms, not --form {args.form}")
    suffix = f" {args.result}" if args.result else ""
    read_board = parse_piece_list if args.pieces else board_from_fen
    tables = open_tables(args, "encode")
    written: Callable[[chess.Board], str] | None = None
    if args.json:
        _write_json(args.inputs, read_board, rule, args.stipulation, problems, args.form, args.result, tables)
    elif args.form != "compact":
        written = lambda board: write_caption(board, args.form, args.stipulation, args.result, rule)  # noqa: E731
    elif args.extended:
        written = lambda board: extended_code(board, args.stipulation, rule) + suffix  # noqa: E731
    elif args.pieces or tables is not None:
        prefix = args.stipulation or ""
        written = lambda board: prefix + encode(board, rule, short=args.short) + suffix  # noqa: E731
    if written is not None:
        if tables is not None:
            written = _with_verdict(written, tables, args.stipulation)
        _write_boards(args.inputs, read_board, written, problems)
    elif not args.json:
        encoder = FenEncoder(rule, short=args.short)
        _write_codes(input_blocks(args.inputs), encoder, args.stipulation or "", suffix, problems)
    if tables is not None:
        report_problems(tables, "encode")  # damaged tables met while probing
    return problems.finish()


def _with_verdict(
    written: Callable[[chess.Board], str], tables: Tablebases, stipulation: str | None
) -> Callable[[chess.Board], str]:
    """``written`` followed by the tablebase's verdict on the board, when within the tables."""
    from gbr_tui.core.tablebases import stipulation_words

    def with_verdict(board: chess.Board) -> str:
        line = written(board)
        verdict = tables.probe(board)
        if verdict is None:
            return line
        agreement = stipulation_words(stipulation, verdict)
        return f"{line}  {verdict.words()}" + (f"; {agreement[0]}" if agreement else "")

    return with_verdict


def _write_codes(blocks: Iterable[Block], encoder: FenEncoder, prefix: str, suffix: str, problems: Problems) -> None:
    out = sys.stdout
    for block in blocks:
        vetted = encoder.vet(block.texts)
        codes = vetted.codes  # "" in the place of each line not vouched for
        for index in vetted.rejected:  # python-chess judges what the fast checks did not vouch for
            try:
                codes[index] = encoder.code(block.texts[index])
            except GbrError as error:  # no code: its "" is left out below
                if block.skipped(index):
                    problems.blank_lines += 1
                else:
                    item = block.input(index)
                    problems.report(item, not_utf8(item.text) or error)
        lines = [code for code in codes if code] if vetted.rejected else codes
        if prefix or suffix:
            lines = [prefix + code + suffix for code in lines]
        if lines:
            out.write("\n".join(lines) + "\n")
            out.flush()  # one flush a block: a reader down the pipe sees each block at once


def _write_boards(
    values: list[str], read_board: ReadBoard, written: Callable[[chess.Board], str], problems: Problems
) -> None:
    """One line per input: what ``written`` makes of its board; bad ones reported."""
    for item in inputs(values, problems=problems):
        try:
            if problem := not_utf8(item.text):
                raise problem
            print(written(read_board(item.text)))
        except GbrError as error:
            problems.report(item, error)


def _write_json(
    values: list[str],
    read_board: ReadBoard,
    rule: Rule,
    stipulation: str | None,
    problems: Problems,
    form: str,
    result: str | None,
    tables: Tablebases | None,
) -> None:
    write_json_lines(
        _json_record(item, read_board, rule, stipulation, problems, form, result, tables)
        for item in inputs(values, problems=problems)
    )


def _json_record(
    item: Input,
    read_board: ReadBoard,
    rule: Rule,
    stipulation: str | None,
    problems: Problems,
    form: str = "compact",
    result: str | None = None,
    tables: Tablebases | None = None,
) -> dict:
    """The input's JSON object; with ``tables``, ``"tablebase"``: the verdict's WDL, DTZ and
    DTM, or null outside the tables."""
    try:
        if problem := not_utf8(item.text):
            raise problem
        board = read_board(item.text)
        material = Material.from_board(board)
        code = encode(material, rule)
    except GbrError as error:
        problems.report(item, error)
        return error_record(item, error)
    extended: str | None
    caption: str | None
    try:
        extended = extended_code(board, stipulation, rule)
        caption = write_caption(board, form, stipulation, result, rule)
    except GbrError as error:
        if _not_one_king_a_side(board):
            extended = caption = None  # the warnings say so
        else:
            problems.report(item, error)
            return error_record(item, error)
    return {
        "input": item.text,
        "code": code,
        "short": short_form(code),
        "extended": extended,
        "material": men_on_board(board, separator="v"),
        "stipulation": stipulation,
        "form": form,
        "caption": caption,
        "result": result,
        "warnings": position_warnings(board),
    } | ({} if tables is None else {"tablebase": _verdict_fields(tables, board)})


def _verdict_fields(tables: Tablebases, board: chess.Board) -> dict[str, int | None] | None:
    verdict = tables.probe(board)
    return None if verdict is None else verdict.fields


def _not_one_king_a_side(board) -> bool:
    return any(len(board.pieces(chess.KING, color)) != 1 for color in (chess.WHITE, chess.BLACK))
