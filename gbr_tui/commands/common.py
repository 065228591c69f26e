"""What the sub-commands share: where inputs come from, how bad ones are reported."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import IO, Iterable, Iterator

from gbr_tui.core import GbrError, Rule

EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2


@dataclass(frozen=True)
class Input:
    """One thing to process: its text and where it came from."""

    text: str
    line: int | None = None  # 1-based line number when it came from stdin

    @property
    def where(self) -> str:
        return f"line {self.line}" if self.line is not None else repr(self.text)


def inputs(values: list[str], stdin: IO[str] | None = None) -> Iterator[Input]:
    """The arguments, or one input per non-blank line of stdin when none is given or for ``-``."""
    if not values:
        values = ["-"]
    for value in values:
        if value == "-":
            yield from _lines(stdin if stdin is not None else sys.stdin)
        else:
            yield Input(value)


def _lines(stream: IO[str]) -> Iterator[Input]:
    for number, line in enumerate(stream, start=1):
        text = line.strip()
        if text:
            yield Input(text, number)


def add_rule_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rule",
        choices=[rule.value for rule in Rule],
        default=Rule.COUNT.value,
        help="count (default): 9 for three or more of a type; promoted: also 9 for a second queen",
    )


def add_input_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "inputs",
        nargs="*",
        metavar=what.upper(),
        help=f"{what}s to process; none or '-' reads one {what} per line from stdin",
    )


class Problems:
    """Reports bad inputs on stderr and remembers whether there were any."""

    def __init__(self, command: str, stream: IO[str] | None = None) -> None:
        self.command = command
        self.stream = stream
        self.count = 0

    def report(self, item: Input, error: GbrError) -> None:
        self.count += 1
        stream = self.stream or sys.stderr
        spot = "" if error.position is None else f" (at character {error.position + 1})"
        print(f"gbr-tui {self.command}: {item.where}: {error.message}{spot}", file=stream)
        if error.position is not None:
            print(f"    {item.text}\n    {' ' * error.position}^", file=stream)

    @property
    def exit_status(self) -> int:
        return EXIT_BAD_INPUT if self.count else EXIT_OK


def write_json_lines(objects: Iterable[dict], stream: IO[str] | None = None) -> None:
    out = stream or sys.stdout
    for obj in objects:
        out.write(json.dumps(obj, ensure_ascii=False) + "\n")
