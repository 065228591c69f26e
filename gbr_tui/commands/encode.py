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
    position_warnings,
    short_form,
)
from gbr_tui.core.captions import FORMS, write_caption
from gbr_tui.core.describe import STIPULATION_WORDS
from gbr_tui.core.material import men_on_board
from gbr_tui.core.piece_list import PrintedList, read_piece_list

if TYPE_CHECKING:
    from gbr_tui.core.tablebases import Tablebases

#: How an input is read: as a FEN, or as a piece list (``--pieces``) with the stipulation its
#: result part gives (``--stipulation`` wins over it; the side to move it gives is the board's).
ReadInput = Callable[[str], PrintedList]


def _read_fen(text: str) -> PrintedList:
    return PrintedList(board_from_fen(text))


def _suffix(result: str | None) -> str:
    return f" {result}" if result else ""


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
            "figurines '♔g3 ♗a2'; a men count such as (4+5) or 4/5 is checked, and a stipulation "
            "printed after the men ('+', 'Win', 'BTM, draw') is used unless --stipulation gives one"
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
    read = read_piece_list if args.pieces else _read_fen
    tables = open_tables(args, "encode")
    suffix = _suffix(args.result)
    written: Callable[[PrintedList], str] | None = None
    if args.json:
        _write_json(args.inputs, read, rule, args.stipulation, problems, args.form, args.result, tables)
    elif args.form != "compact":
        written = lambda given: write_caption(  # noqa: E731
            given.board, args.form, args.stipulation or given.stipulation, args.result, rule
        )
    elif args.extended:
        written = lambda given: extended_code(given.board, args.stipulation or given.stipulation, rule) + suffix  # noqa: E731
    elif args.pieces or tables is not None:
        written = lambda given: (  # noqa: E731
            (args.stipulation or given.stipulation or "") + encode(given.board, rule, short=args.short) + suffix
        )
    if written is not None:
        if tables is not None:
            written = _with_verdict(written, tables, args.stipulation)
        _write_boards(args.inputs, read, written, problems)
    elif not args.json:
        encoder = FenEncoder(rule, short=args.short)
        _write_codes(input_blocks(args.inputs, problems=problems), encoder, args.stipulation or "", suffix, problems)
    if tables is not None:
        report_problems(tables, "encode")  # damaged tables met while probing
    return problems.finish()


def _with_verdict(
    written: Callable[[PrintedList], str], tables: Tablebases, stipulation: str | None
) -> Callable[[PrintedList], str]:
    """``written`` followed by the tablebase's verdict on the board, when within the tables."""
    from gbr_tui.core.tablebases import stipulation_words

    def with_verdict(given: PrintedList) -> str:
        line = written(given)
        verdict = tables.probe(given.board)
        if verdict is None:
            return line
        agreement = stipulation_words(stipulation or given.stipulation, verdict)
        return f"{line}  {verdict.words()}" + (f"; {agreement[0]}" if agreement else "")

    return with_verdict


def _write_codes(blocks: Iterable[Block], encoder: FenEncoder, prefix: str, suffix: str, problems: Problems) -> None:
    out = sys.stdout
    for block in blocks:
        vetted = encoder.vet(block.texts) if block.text is None else encoder.vet_text(block.text, block.count)
        if (written := vetted.written) is not None and not (prefix or suffix):
            out.write(written)  # every line vouched for: the codes as written, not split and joined
            out.flush()
            continue
        codes = vetted.codes  # "" in the place of each line not vouched for
        for index in vetted.rejected:  # python-chess judges what the fast checks did not vouch for
            try:
                board = board_from_fen(block.texts[index])
                codes[index] = encode(board, encoder.rule, encoder.short)
            except GbrError as error:  # no code: its "" is left out below
                if block.skipped(index):
                    problems.blank_lines += 1
                else:
                    item = block.input(index)
                    problems.report(item, not_utf8(item.text) or error)
                continue
            if warnings := position_warnings(board):
                problems.warn_not_legal(block.input(index), warnings)
        lines = [code for code in codes if code] if vetted.rejected else codes
        if prefix or suffix:
            lines = [prefix + code + suffix for code in lines]
        if lines:
            out.write("\n".join(lines) + "\n")
            out.flush()  # one flush a block: a reader down the pipe sees each block at once


def _write_boards(
    values: list[str], read: ReadInput, written: Callable[[PrintedList], str], problems: Problems
) -> None:
    """One line per input: what ``written`` makes of it; bad ones reported."""
    for item in inputs(values, problems=problems):
        try:
            if problem := not_utf8(item.text):
                raise problem
            given = read(item.text)
            print(written(given))
        except GbrError as error:
            problems.report(item, error)
            continue
        if warnings := position_warnings(given.board):
            problems.warn_not_legal(item, warnings)


def _write_json(
    values: list[str],
    read: ReadInput,
    rule: Rule,
    stipulation: str | None,
    problems: Problems,
    form: str,
    result: str | None,
    tables: Tablebases | None,
) -> None:
    write_json_lines(
        _json_record(item, read, rule, stipulation, problems, form, result, tables)
        for item in inputs(values, problems=problems)
    )


def _json_record(
    item: Input,
    read: ReadInput,
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
        given = read(item.text)
        board = given.board
        stipulation = stipulation or given.stipulation
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
    warnings = position_warnings(board)
    if warnings:
        problems.warn_not_legal(item, warnings)
    return {
        "input": item.text,
        "code": code,
        "legal": not warnings,
        "short": short_form(code),
        "extended": extended,
        "material": men_on_board(board, separator="v"),
        "stipulation": stipulation,
        "form": form,
        "caption": caption,
        "result": result,
        "warnings": warnings,
    } | ({} if tables is None else {"tablebase": _verdict_fields(tables, board)})


def _verdict_fields(tables: Tablebases, board: chess.Board) -> dict[str, int | None] | None:
    verdict = tables.probe(board)
    return None if verdict is None else verdict.fields


def _not_one_king_a_side(board) -> bool:
    return any(len(board.pieces(chess.KING, color)) != 1 for color in (chess.WHITE, chess.BLACK))
