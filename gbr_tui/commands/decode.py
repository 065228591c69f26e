"""`gbr-tui decode`: what a printed code says, in words or as JSON Lines."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

import chess

from gbr_tui.commands.common import (
    SHOWN_CHARACTERS,
    CommandParsers,
    Input,
    Problems,
    add_input_arguments,
    add_json_option,
    add_rule_option,
    error_record,
    inputs,
    not_utf8,
    write_json_lines,
)
from gbr_tui.commands.tablebase_options import add_tablebases_option, open_tables, report_problems
from gbr_tui.core import DecodedCode, GbrError, Rule, decode, explain, position_warnings
from gbr_tui.core.describe import STIPULATION_WORDS, hidden_count_words, side_to_move_words
from gbr_tui.core.explanation import men_total_words, result_words, side_words
from gbr_tui.core.notation import DIALECTS
from gbr_tui.core.text import printable

if TYPE_CHECKING:
    from rich.console import Console

    from gbr_tui.core.tablebases import Tablebases, Verdict

PIPED_WIDTH = 1 << 16  # not a terminal: wide enough that no line wraps


def register(commands: CommandParsers) -> None:
    parser = commands.add_parser(
        "decode",
        help="explain GBR codes, in any printed dialect",
        description=(
            "Explain each GBR code: the material in words, each digit, and what the code "
            "cannot tell. Reads every printed dialect: "
            + "; ".join(f"{example} ({meaning})" for example, meaning in DIALECTS)
            + "."
        ),
    )
    add_input_arguments(parser, "code")
    add_rule_option(parser)
    add_json_option(parser)
    add_tablebases_option(parser, 'the verdict on a code with every square, within them ("tablebase" in --json)')
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rule = Rule(args.rule)
    problems = Problems("decode")
    tables = open_tables(args, "decode")
    results = (_decode(item, rule, problems) for item in inputs(args.inputs, problems=problems))
    if args.json:
        write_json_lines(_json_record(item, result, rule, tables) for item, result in results)
    else:
        _print_human(results, rule, tables)
    if tables is not None:
        report_problems(tables, "decode")  # damaged tables met while probing
    return problems.finish()


def _decode(item: Input, rule: Rule, problems: Problems) -> tuple[Input, DecodedCode | GbrError]:
    try:
        if problem := not_utf8(item.text):
            raise problem
        return item, decode(item.text, rule)
    except GbrError as error:
        problems.report(item, error)
        return item, error


def _verdict(decoded: DecodedCode, tables: Tablebases | None) -> Verdict | None:
    """The tables' verdict on a code with every square (White to move when it does not say)."""
    if tables is None or decoded.board is None:
        return None
    return tables.probe(decoded.board)


def _json_record(item: Input, result: DecodedCode | GbrError, rule: Rule, tables: Tablebases | None = None) -> dict:
    if isinstance(result, GbrError):
        return error_record(item, result)
    probed = {}
    if tables is not None:
        verdict = _verdict(result, tables)
        probed["tablebase"] = None if verdict is None else verdict.fields
    material = result.material
    return {
        "input": item.text,
        "code": result.code,
        "short": result.short,
        "stipulation": result.stipulation,
        "white": result.white,
        "black": result.black,
        "unknown": result.unknown,
        "kings": list(result.kings) if result.kings else None,
        "fen": result.fen,
        "men_squares": result.men_squares,
        "men_count": list(result.men_count) if result.men_count else None,
        "result": result.result,
        "side_to_move": _side_letter(result.to_move),
        "material": material.tablebase_name if material else None,
        "compact": result.compact,
        "explanation": [
            {"label": line.label, "digit": line.digit, "text": line.text} for line in explain(result, rule)
        ],
        "notes": result.notes,
        "warnings": position_warnings(result.board) if result.board is not None else [],
    } | probed


def _side_letter(color: chess.Color | None) -> str | None:
    return None if color is None else ("w" if color == chess.WHITE else "b")


def _print_human(results, rule: Rule, tables: Tablebases | None = None) -> None:
    """On a terminal, rich's table at the terminal's width; down a pipe or into a file, the same
    lines unwrapped and without the spaces that pad them."""
    from rich.text import Text

    console = _console()
    piped = not console.is_terminal
    first = True
    for item, result in results:
        if isinstance(result, GbrError):
            continue  # already reported on stderr
        if not first:
            console.print()
        first = False
        echo = Text(printable(item.text, SHOWN_CHARACTERS), style="bold")
        if piped:
            with console.capture() as captured:
                console.print(echo, _explanation(result, rule, tables))
            sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))
        else:
            console.print(echo, _explanation(result, rule, tables))


def _console() -> Console:
    """A console that prints what it is given: no markup, no emoji codes, no highlighting."""
    from rich.console import Console

    class PipedConsole(Console):
        def on_broken_pipe(self) -> None:
            # rich would exit with status 1; the command line treats a closed pipe as done.
            raise BrokenPipeError

    console = PipedConsole(highlight=False, markup=False, emoji=False)
    if not console.is_terminal:
        console.width = PIPED_WIDTH
    return console


def _explanation(decoded: DecodedCode, rule: Rule, tables: Tablebases | None = None):
    from rich.table import Table
    from rich.text import Text

    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()

    table.add_row("Code", f"{decoded.code}   short {decoded.short}")
    material = decoded.material
    if material is not None:
        table.add_row("Material", f"{material}   ({material.tablebase_name})")
    table.add_row("White", _side_in_words(decoded.white))
    table.add_row("Black", _side_in_words(decoded.black))
    digits = Text()
    for index, line in enumerate(explain(decoded, rule)):
        if index:
            digits.append("\n")
        style = "bold red" if line.digit == "9" else ""
        digits.append(f"{line.label} {line.digit}  ", style="bold")
        digits.append(line.text, style=style)
    table.add_row("Digits", digits)
    if decoded.unknown:
        table.add_row("Unknown", Text(hidden_count_words(decoded.unknown), "bold red"))
    if decoded.men_count is not None:
        white, black = decoded.men_count
        table.add_row("Men count", f"{white}/{black} as printed (kings included): it agrees")
    table.add_row(
        "Stipulation",
        STIPULATION_WORDS[decoded.stipulation] if decoded.stipulation else "not given",
    )
    if decoded.result is not None:
        table.add_row("Result", result_words(decoded.result, SHOWN_CHARACTERS))
    if decoded.kings:
        table.add_row("Kings", f"White {decoded.kings[0]}, Black {decoded.kings[1]}")
    table.add_row("Squares", _squares_in_words(decoded))
    table.add_row("To move", side_to_move_words(decoded))
    if decoded.board is not None:
        table.add_row("FEN", decoded.fen)
        for warning in position_warnings(decoded.board):
            table.add_row("Warning", Text(warning, style="yellow"))
    if (verdict := _verdict(decoded, tables)) is not None:
        table.add_row("Tablebase", _verdict_text(decoded, verdict))
    table.add_row("Compact", decoded.compact)
    for note in decoded.notes:
        table.add_row("Note", note)
    return table


def _verdict_text(decoded: DecodedCode, verdict: Verdict):
    """The verdict, and whether the stipulation agrees (in the warning colour when not)."""
    from rich.text import Text

    from gbr_tui.core.tablebases import stipulation_words

    assumed = " (White to move: the code does not say)" if decoded.side_to_move is None else ""
    text = Text(verdict.words() + assumed)
    if (agreement := stipulation_words(decoded.stipulation, verdict)) is not None:
        words, agrees = agreement
        text.append("\n")
        text.append(words, style="" if agrees else "bold yellow")
    return text


def _side_in_words(side: dict[str, int | None]) -> str:
    """'king, two bishops and a pawn (4 men)'."""
    total = men_total_words(side)
    return f"{side_words(side)} ({total})" if total else side_words(side)


def _squares_in_words(decoded: DecodedCode) -> str:
    if decoded.board is not None:
        return "every man placed: the code fixes the position"
    if decoded.men_squares:
        return f"given ({' '.join(decoded.men_squares)}) but not by type: see the note"
    if decoded.kings:
        return "the other men's squares are not given"
    return "not given: a basic code describes the material only, not where the men stand"
