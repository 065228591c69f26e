"""What the sub-commands share: where inputs come from, how bad ones are reported."""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import select
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import IO, TYPE_CHECKING, Any, Protocol, cast, overload

from gbr_tui.commands import EXIT_BAD_INPUT, EXIT_OK
from gbr_tui.core import GbrError, Rule
from gbr_tui.core.describe import RULE_CHOICE, not_legal_count_words, not_legal_words

if TYPE_CHECKING:
    from gbr_tui.core.collection import CollectionRequest

STDIN_BLOCK_BYTES = 1 << 20
#: How long a block read from a pipe waits for more to come before it is handed on (seconds).
STDIN_GATHER_WAIT = 0.002
SHOWN_CHARACTERS = 100  # of a long bad input, only this much around the bad spot is echoed


class CommandParsers(Protocol):
    """Where a sub-command's ``register`` adds its parser: what ``add_subparsers`` returns."""

    def add_parser(self, name: str, *args: Any, **kwargs: Any) -> argparse.ArgumentParser: ...


class ArgumentsHolder(Protocol):
    """A parser or a group of its arguments (``add_argument_group``, ``add_mutually_exclusive_group``)."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action: ...


class StdinFault(Exception):
    """Reading stdin stopped part way: truncated or corrupt compressed data."""


@dataclass(frozen=True)
class Input:
    """One thing to process: its text and where it came from."""

    text: str
    line: int | None = None  # 1-based line number when it came from stdin

    @property
    def where(self) -> str:
        if self.line is not None:
            return f"line {self.line}"
        return repr(self.text) if len(self.text) <= SHOWN_CHARACTERS else f"{self.text[:SHOWN_CHARACTERS]!r}..."


@dataclass(frozen=True)
class Block:
    """Raw inputs in order: one command-line argument (``given``), or many stdin lines (blank
    ones too) as one text, "\n" after each, which the batch path reads whole."""

    first_line: int | None  # stdin line number of the first; None for an argument
    text: str | None = None
    given: list[str] | None = None

    @cached_property
    def texts(self) -> list[str]:
        """The inputs one by one: a text's lines are split only when asked for."""
        return self.text.split("\n")[:-1] if self.text is not None else list(self.given or ())

    @cached_property
    def count(self) -> int:
        return self.text.count("\n") if self.text is not None else len(self.given or ())

    def skipped(self, index: int) -> bool:
        """Whether ``texts[index]`` is a blank stdin line, skipped (a blank argument is bad input)."""
        return self.first_line is not None and not self.texts[index].strip()

    def input(self, index: int) -> Input:
        line = None if self.first_line is None else self.first_line + index
        return Input(self.texts[index].strip(), line)


def input_blocks(values: list[str], stdin: IO | None = None, problems: Problems | None = None) -> Iterator[Block]:
    """The arguments, or stdin's lines in large blocks when none is given or for ``-``.

    ``stdin`` (default: the process's) is best a binary stream; a text one works too. Compressed
    data on it (gzip, bz2, xz, zstd: told by its first bytes) is decompressed as it comes. When
    reading stops at a fault (truncated or corrupt data), every whole line before it is handed
    out and the fault is reported to ``problems`` (raised as ``StdinFault`` without them).
    """
    for value in values or ["-"]:
        if value == "-":
            yield from _line_blocks(stdin if stdin is not None else sys.stdin.buffer, problems)
        else:
            yield Block(None, given=[value])


def inputs(values: list[str], stdin: IO | None = None, problems: Problems | None = None) -> Iterator[Input]:
    """One input per argument, or per non-blank stdin line; surrounding spaces removed.

    ``problems``, when given, counts the blank lines skipped.
    """
    for block in input_blocks(values, stdin, problems):
        for index in range(block.count):
            if block.skipped(index):
                if problems is not None:
                    problems.blank_lines += 1
                continue
            yield block.input(index)


def _line_blocks(stream: IO, problems: Problems | None) -> Iterator[Block]:
    """Whole lines only in each block, so no character is cut in two.

    Bytes that are not UTF-8 are kept as lone surrogates (U+DC80-U+DCFF, Python's
    ``surrogateescape``), so that ``not_utf8`` can name the byte: such a line is bad input. Line ends are \\n, \\r\\n or \\r, as in Python's text files.
    """
    if stream.isatty():
        print("(reading one input per line; end with Ctrl-D)", file=sys.stderr)
    next_line = 1
    pending: list[bytes] = []  # the start of a line that has not ended yet, in pieces
    try:
        for chunk in _gathered(_stdin_chunks(stream), _more_waiting(stream)):
            # Only the new chunk is searched, so a long line costs time in proportion to its length.
            # A '\r' at the very end may be the first half of '\r\n': it waits for the next chunk.
            cut = max(chunk.rfind(b"\n"), chunk.rfind(b"\r", 0, len(chunk) - 1)) + 1
            if not cut:
                pending.append(chunk)
                continue
            block = Block(next_line, _text_of(b"".join([*pending, chunk[:cut]])))
            pending = [chunk[cut:]]
            yield block
            next_line += block.count
    except StdinFault as fault:
        if problems is None:
            raise
        problems.report(Input("", next_line), GbrError(f"cannot read further: {fault}"))
        return
    if any(pending):
        yield Block(next_line, _text_of(b"".join([*pending, b"\n"])))


def _stdin_chunks(stream: IO) -> Iterator[bytes]:
    """The bytes of ``stream`` as they come, decompressed when its first bytes say it is
    compressed. ``read1`` returns what is there (up to a block) instead of waiting for a whole
    block: lines typed or trickling in through a pipe are answered as they come."""
    read = getattr(stream, "read1", stream.read)
    start = stream.peek(_MAGIC_BYTES)[:_MAGIC_BYTES] if hasattr(stream, "peek") else b""
    if _may_be_compressed(start):
        # Imported only here: the collection package costs a shell loop of `encode` 0.1 s a call.
        from gbr_tui.core.collection.codecs import codec_of
        from gbr_tui.core.collection.source import Buffered, ReadFault, decompressed

        codec = codec_of(start)
        if codec is not None:
            try:
                yield from decompressed(cast(Buffered, stream), codec)  # it has ``peek``
            except ReadFault as fault:
                raise StdinFault(str(fault)) from None
            return
    while chunk := read(STDIN_BLOCK_BYTES):
        # A text stream (io.StringIO in a test, say) gives strings.
        yield chunk.encode("utf-8", "surrogatepass") if isinstance(chunk, str) else chunk


#: A compressed stream's first bytes: every codec's magic bytes have one that is not printable
#: ASCII, but bzip2's ("BZh", which starts no FEN or piece list); a test checks them all.
_MAGIC_BYTES = 6
_NOT_TEXT = re.compile(rb"[^\t\n\r\x20-\x7e]")


def _may_be_compressed(start: bytes) -> bool:
    return start.startswith(b"BZh") or _NOT_TEXT.search(start) is not None


def _more_waiting(stream: IO) -> Callable[[], bool]:
    """Whether more of ``stream`` can be read at once or within ``STDIN_GATHER_WAIT`` (a
    file's always can): a pipe that a faster writer fills comes in blocks of a pipe buffer
    each, and the batch path pays per block; a line typed waits no longer than that."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return lambda: True
    return lambda: bool(select.select([descriptor], [], [], STDIN_GATHER_WAIT)[0])


def _gathered(chunks: Iterator[bytes], more_waiting: Callable[[], bool]) -> Iterator[bytes]:
    """The chunks joined into blocks of up to ``STDIN_BLOCK_BYTES``, as many as are there now:
    a block is handed on as soon as nothing more is waiting, so a line typed is answered at once
    and a fast pipe is read in blocks as large as a file's (the batch path's numpy pays on them)."""
    parts: list[bytes] = []
    size = 0
    try:
        for chunk in chunks:
            parts.append(chunk)
            size += len(chunk)
            if size >= STDIN_BLOCK_BYTES or not more_waiting():
                yield b"".join(parts)
                parts, size = [], 0
    except StdinFault:
        if parts:  # what came before the fault
            yield b"".join(parts)
        raise
    if parts:
        yield b"".join(parts)


def _text_of(data: bytes) -> str:
    """``data`` as text, its line ends made "\n"."""
    text = data.decode("utf-8", "surrogateescape")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def not_utf8(text: str) -> GbrError | None:
    """The error for a stdin line that held bytes that are not UTF-8, naming the first one."""
    found = _ESCAPED_BYTE.search(text)
    if found is None:
        return None
    return GbrError(f"not UTF-8: byte 0x{ord(found.group()) - 0xDC00:02x}", found.start())


def add_rule_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rule",
        choices=[rule.value for rule in Rule],
        default=Rule.COUNT.value,
        help=f"{RULE_CHOICE} (default: count)",
    )


def add_collection_options(parser: argparse.ArgumentParser) -> None:
    """``--format``, ``--position`` and ``--fen-column``: how to read the collections named."""
    # Here, not at the top: encode and decode do not load the collection readers.
    from gbr_tui.core.collection import Format, GamePositions

    parser.add_argument(
        "--format",
        choices=[f.value for f in Format],
        help="the file format (default: detected from the content)",
    )
    parser.add_argument(
        "--position",
        choices=[p.value for p in GamePositions],
        default=GamePositions.START.value,
        help="for games: the start position (default), the final one, or every class passed through",
    )
    parser.add_argument("--fen-column", metavar="NAME|N", help="CSV: the FEN column by name or 1-based number")


def add_caption_options(parser: argparse.ArgumentParser) -> None:
    """``--tag`` and ``--code-column``: where the captions printed with the positions are."""
    from gbr_tui.core.collection.formats import caption_places
    from gbr_tui.core.collection.readers import CAPTION_NAME

    parser.add_argument(
        "--tag",
        metavar="NAME",
        type=_caption_name,
        default=CAPTION_NAME,
        help=f"the name of {caption_places()} holding the printed caption (default: {CAPTION_NAME})",
    )
    parser.add_argument(
        "--code-column",
        metavar="NAME|N",
        help="CSV: the caption column by name or 1-based number (default: the column named as --tag)",
    )


def add_studies_option(parser: argparse.ArgumentParser) -> None:
    """``--studies sound|unsound``: HHdb's studies marked unsound or dualled (U1-U5), or not."""
    parser.add_argument(
        "--studies",
        choices=["sound", "unsound"],
        help="keep only the studies HHdb marks unsound or dualled (U1-U5 in its Black tag), or only the others",
    )


def _caption_name(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a name")
    return text


def collection_request(args: argparse.Namespace) -> CollectionRequest:
    """The collections the command line names, and how to read them (see
    ``add_collection_options``, and ``add_caption_options`` where a command has them)."""
    from gbr_tui.core.collection import CollectionRequest, Format, GamePositions

    request = CollectionRequest(
        tuple(args.files),
        args.format and Format(args.format),
        GamePositions(args.position),
        args.fen_column,
        min_plies=getattr(args, "min_plies", 0),
        jobs=getattr(args, "jobs", None),
    )
    if hasattr(args, "tag"):
        request = dataclasses.replace(request, caption=args.tag, code_column=args.code_column)
    return request


def add_jobs_option(
    parser: ArgumentsHolder, *also: str, batch_megabytes: int | None = None, records: bool = False
) -> None:
    """``--jobs N``: worker processes per file; ``also`` names what else is read in one process,
    ``batch_megabytes`` a worker's least share of a file the batch path reads, by default
    (classify); ``records``: the command takes every record back in order (check, index,
    classify's --per-record), which reads FEN and EPD files in this process by default."""
    from gbr_tui.core.cluster_words import jobs_help_words
    from gbr_tui.core.collection.formats import FORMATS

    never_cut = [module.NAME for module in FORMATS if module.UNCUT_REASON is not None]
    batch_formats = " and ".join(module.NAME for module in FORMATS if module.BATCH)
    parser.add_argument(
        "--jobs",
        type=_job_count,
        metavar="N",
        help=jobs_help_words([*never_cut, *also], batch_formats, batch_megabytes, records),
    )


def _job_count(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a number of jobs (1 or more): {text!r}")
    return int(text)


def add_input_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "inputs",
        nargs="*",
        metavar=what.upper(),
        help=f"{what}s to process; none or '-' reads one {what} per line from stdin",
    )


def add_json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json",
        action="store_true",
        help="write JSON Lines: one object per input, in input order; a bad input's object has "
        '"error", "offset" (0-based index of the bad character) and "column" (the same, 1-based)',
    )


class Problems:
    """Reports bad inputs on stderr and remembers whether there were any."""

    def __init__(self, command: str, stream: IO[str] | None = None) -> None:
        self.command = command
        self.stream = stream
        self.count = 0
        self.blank_lines = 0
        #: Inputs read whose position chess cannot reach: their code is given, and they are said.
        self.not_legal = 0

    def warn_not_legal(self, item: Input, warnings: list[str]) -> None:
        """An input whose code is defined but whose position is not a legal one (python-chess's
        validity flags, worded by ``position_warnings``): said, counted, not an error."""
        self.not_legal += 1
        stream = self.stream or sys.stderr
        print(f"gbr-tui {self.command}: {item.where}: {not_legal_words(warnings)}", file=stream)

    def report(self, item: Input, error: GbrError) -> None:
        self.count += 1
        stream = self.stream or sys.stderr
        spot = "" if error.offset is None else f" (at column {error.offset + 1})"
        print(f"gbr-tui {self.command}: {item.where}: {error.message}{spot}", file=stream)
        if item.text and (item.line is not None or error.offset is not None):
            shown, caret = excerpt(item.text, error.offset)
            print(f"    {shown}", file=stream)
            if caret is not None:
                print(f"    {' ' * caret}^", file=stream)

    def finish(self) -> int:
        """Say how many blank lines were skipped, if any; the exit status."""
        if self.blank_lines:
            lines = "line" if self.blank_lines == 1 else "lines"
            print(f"gbr-tui {self.command}: skipped {self.blank_lines} blank {lines}", file=self.stream or sys.stderr)
        if self.not_legal:
            print(f"gbr-tui {self.command}: {not_legal_count_words(self.not_legal)}", file=self.stream or sys.stderr)
        return EXIT_BAD_INPUT if self.count else EXIT_OK


@overload
def excerpt(text: str, position: int) -> tuple[str, int]: ...
@overload
def excerpt(text: str, position: int | None) -> tuple[str, int | None]: ...
def excerpt(text: str, position: int | None) -> tuple[str, int | None]:
    """A one-line, printable piece of ``text`` around ``position`` and the caret's column.

    Control characters (which could drive the terminal) are shown as U+FFFD, one column each,
    so the caret still points at the right character.
    """
    start = 0
    if len(text) > SHOWN_CHARACTERS:
        centre = position if position is not None else 0
        start = max(0, min(centre - SHOWN_CHARACTERS // 2, len(text) - SHOWN_CHARACTERS))
    piece = text[start : start + SHOWN_CHARACTERS]
    shown = "".join(char if char.isprintable() else "\ufffd" for char in piece)
    prefix = "..." if start else ""
    suffix = "..." if start + SHOWN_CHARACTERS < len(text) else ""
    caret = None if position is None else len(prefix) + position - start
    return prefix + shown + suffix, caret


def error_record(item: Input, error: GbrError) -> dict:
    """The JSON object of a bad input: ``offset`` is the 0-based index of the bad character in
    the input, ``column`` the same 1-based (as stderr says it). A long input is cut to the
    piece around the bad spot, as on stderr."""
    text = _ESCAPED_BYTE.sub("\ufffd", item.text)  # the bytes that are not UTF-8
    if len(text) > SHOWN_CHARACTERS:
        text = excerpt(text, error.offset)[0]
    column = None if error.offset is None else error.offset + 1
    return {"input": text, "error": error.message, "offset": error.offset, "column": column}


def write_json_lines(objects: Iterable[dict], stream: IO[str] | None = None) -> None:
    out = stream or sys.stdout
    for obj in objects:
        out.write(json.dumps(obj) + "\n")
