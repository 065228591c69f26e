"""Where a collection's text comes from: a file, stdin or a stream, decompressed when it is, read in
blocks of whole lines.

Files are read in blocks of lines, so memory stays flat whatever their size. A compressed file
(``codecs``) is recognised by its first bytes. Text is decoded as UTF-8 with undecodable bytes
kept as surrogates, so a bad byte spoils only the record it is in, which is reported with its
line like every other bad record.
"""

from __future__ import annotations

import codecs
import io
import itertools
import os
import re
import select
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Protocol, cast

from gbr_tui.core import pgn
from gbr_tui.core.collection.codecs import MAGIC_BYTES, Codec, codec_of
from gbr_tui.core.collection.records import CollectionError

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

BLOCK_CHARS = 1 << 16  # text handed out at a time (about; a block ends at a line end)
MAX_LINE = 1 << 20  # a longer line is reported as bad, not kept
_CHUNK = 1 << 16  # bytes read, and decompressed, at a time
#: What a line too long to keep is handed out as: no reader takes it for a record.
OVERLONG_LINE = pgn.OVERLONG_LINE


class ReadFault(Exception):
    """Reading stopped part way: a truncated or corrupt compressed file, or a read error. Every
    line read before it has been handed out."""


#: What reading can raise part way through.
READ_ERRORS = (ReadFault,)

_SURROGATE = re.compile("[\udc80-\udcff]")
_NOT_TEXT = re.compile("[\x00-\x08\x0e-\x1a\x1c-\x1f\udc80-\udcff]")


def not_utf8(text: str) -> int | None:
    """The index of the first undecodable byte in text decoded with surrogateescape, if any."""
    if text.isascii():
        return None
    match = _SURROGATE.search(text)
    return match.start() if match else None


def looks_binary(text: str) -> bool:
    """Whether text (decoded with surrogateescape) is rather binary data than text: more than one
    character in twenty is a control character (other than tab, line and page ends) or a byte
    that is not UTF-8."""
    if _NOT_TEXT.search(text) is None:
        return False
    return len(_NOT_TEXT.findall(text)) * 20 > len(text)


def lines_of(text: str) -> list[str]:
    """The lines of a block's text (``Source.text_blocks``), without their ends; a line too long
    to keep is ``OVERLONG_LINE`` (every reader compares a line with it by value)."""
    lines = text.split("\n")
    lines.pop()  # after the last line end
    return lines


class Source:
    """One file (or stdin, given as ``"-"``, or a binary stream) as lines of text.

    ``cancelled``, when given, is asked now and then whether to give up reading a pipe or a device that may
    never end or never send (``Cancelled`` is raised in the reading thread).

    ``head`` is the first block, to tell the format from, until ``blocks()`` hands it out;
    ``line`` counts the lines handed out so far; ``codec`` is the compression its data is in (``codecs``), if any, and ``compression`` its name.
    """

    def __init__(
        self,
        source: str | os.PathLike[str] | BinaryIO,
        name: str | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        self._raw, self.name, self.size = _open_raw(source, name, cancelled)
        self.line = 0
        self.fault: ReadFault | None = None  # what stopped reading, once it has
        # A stream with ``peek`` is a buffered one; any other (a BytesIO, a socket's file) has
        # ``readinto``, all BufferedReader uses, though BinaryIO does not declare it.
        buffered = (
            cast(Buffered, self._raw)
            if hasattr(self._raw, "peek")
            else io.BufferedReader(cast(io.RawIOBase, self._raw))
        )
        try:
            start = buffered.peek(MAGIC_BYTES)[:MAGIC_BYTES]
        except OSError as error:
            raise CollectionError(f"{self.name}: cannot read: {error.strerror or error}") from None
        self.codec = codec_of(start)
        self.compression = self.codec.name if self.codec is not None else None
        self._pieces = self._decoded(decompressed(buffered, self.codec))
        head: list[str] = []
        size = 0
        for piece in self._pieces:
            head.append(piece)
            size += len(piece)
            if size >= BLOCK_CHARS:
                break
        self.head = "".join(head)
        if self.head.startswith("\ufeff"):
            self.head = self.head[1:]

    @property
    def bytes_read(self) -> int | None:
        """How far into the (compressed) file reading has got, when that can be told."""
        try:
            return self._raw.tell()
        except (OSError, ValueError):
            return None

    def close(self) -> None:
        self._raw.close()

    def _decoded(self, chunks: Iterator[bytes]) -> Iterator[str]:
        """Text from byte chunks: UTF-8 with bad bytes as surrogates, line ends as ``\\n``. A
        fault is kept in ``fault`` once everything before it has been given."""
        decoder = io.IncrementalNewlineDecoder(codecs.getincrementaldecoder("utf-8")("surrogateescape"), True)
        try:
            for chunk in chunks:
                text = decoder.decode(chunk)
                if text:
                    yield text
        except ReadFault as fault:
            self.fault = fault
        text = decoder.decode(b"", True)
        if text:
            yield text

    def blocks(self) -> Iterator[tuple[int, list[str]]]:
        """(number of the first line, lines without their ends), a block at a time.

        A line longer than ``MAX_LINE`` is given as ``OVERLONG_LINE`` (and not kept while it is
        read). Raises ``ReadFault`` after the last whole line when reading stopped at a fault.
        """
        for first, text, _ in self.text_blocks():
            yield first, lines_of(text)

    def text_blocks(self) -> Iterator[tuple[int, str, int]]:
        """As ``blocks``, each block's lines as one text, a line end after each: (number of the
        first line, the text, how many lines it holds). Batch work reads it whole, and no line
        is made a string of its own."""
        carry = ""
        skipping = False  # inside a line too long to keep
        pieces = itertools.chain((self.head,), self._pieces)
        self.head = ""
        for piece in pieces:
            if skipping:
                end = piece.find("\n")
                if end < 0:
                    continue
                skipping = False
                self.line += 1
                yield self.line, OVERLONG_LINE + "\n", 1
                piece = piece[end + 1 :]
            text = carry + piece if carry else piece
            end = text.rfind("\n")
            if end < 0:
                carry = text
            else:
                carry = text[end + 1 :]
                text = text[: end + 1]
                if end > MAX_LINE:
                    text = "".join(
                        (OVERLONG_LINE if len(line) > MAX_LINE else line) + "\n" for line in text[:-1].split("\n")
                    )
                first = self.line + 1
                count = text.count("\n")
                self.line += count
                yield first, text, count
            if len(carry) > MAX_LINE:
                carry, skipping = "", True
        if self.fault is not None:  # a line cut by the fault is reported with it, at its number
            raise self.fault
        if skipping or carry:
            self.line += 1
            yield self.line, (OVERLONG_LINE if skipping else carry) + "\n", 1

    def lines(self) -> Iterator[str]:
        for _, lines in self.blocks():
            yield from lines


class Cancelled(ReadFault):
    """Reading was given up from outside (``Source``'s ``cancelled()`` said so)."""


class Buffered(Protocol):
    """A buffered binary stream, as decompressing reads one."""

    def peek(self, size: int = ..., /) -> bytes: ...

    def read1(self, size: int = ..., /) -> bytes: ...


class PipeReader(io.RawIOBase):
    """A pipe or a device, read without blocking for more than a moment at a time, so that
    reading can be given up (``cancelled()`` true) even while nothing comes or no writer is there."""

    WAIT = 0.1  # seconds between two looks at ``cancelled``

    def __init__(self, path: Path, cancelled: Callable[[], bool]) -> None:
        # Non-blocking: opening a FIFO with no writer yet would wait for one.
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.cancelled = cancelled

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer)
        while True:
            if self.cancelled():
                raise Cancelled("reading was cancelled")
            ready, _, _ = select.select([self.fd], [], [], self.WAIT)
            if ready:
                try:
                    data = os.read(self.fd, len(view))
                except BlockingIOError:
                    continue
                view[: len(data)] = data
                return len(data)

    def close(self) -> None:
        if not self.closed:
            os.close(self.fd)
        super().close()


def _open_raw(
    source: str | os.PathLike[str] | BinaryIO, name: str | None, cancelled: Callable[[], bool] | None
) -> tuple[BinaryIO, str, int | None]:
    if isinstance(source, (str, os.PathLike)) and os.fspath(source) == "-":
        return sys.stdin.buffer, name or "<stdin>", None
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            if cancelled is not None and path.exists() and not path.is_file() and not path.is_dir():
                return io.BufferedReader(PipeReader(path, cancelled)), name or str(path), None
            raw = open(path, "rb")
        except FileNotFoundError:
            raise CollectionError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise CollectionError(f"{path}: is a directory, not a file") from None
        except OSError as error:
            raise CollectionError(f"{path}: cannot open: {error.strerror}") from None
        status = os.fstat(raw.fileno())
        return raw, name or str(path), status.st_size if stat.S_ISREG(status.st_mode) else None
    return source, name or str(getattr(source, "name", "<stream>")), None


def decompressed(buffered: Buffered, codec: Codec | None) -> Iterator[bytes]:
    """The bytes of the stream, decompressed when its first bytes are a codec's signature (the
    file name is not trusted): concatenated members are read on, zero padding after the last
    is ignored (as gzip does). Raises ReadFault after the last bytes it could get."""
    corrupt = codec.corrupt if codec is not None else ()
    try:
        if codec is None:
            while chunk := buffered.read1(_CHUNK):
                yield chunk
            return
        yield from _decompressed_members(buffered, codec)
    except ReadFault:
        raise
    except Exception as error:
        if codec is not None and isinstance(error, corrupt) and not isinstance(error, FileNotFoundError):
            raise ReadFault(f"corrupt {codec.name} data ({error})") from None
        if isinstance(error, OSError):
            raise ReadFault(f"read error: {error.strerror or error}") from None
        raise


def _decompressed_members(buffered: Buffered, codec: Codec) -> Iterator[bytes]:
    decompressor = codec.decompressor()
    started = False  # whether the current member has had any input
    pending = b""
    while True:
        data = pending or buffered.read1(_CHUNK)
        pending = b""
        if not data:
            break
        started = True
        yield from codec.output(decompressor, data, _CHUNK)
        if decompressor.eof:
            pending = decompressor.unused_data
            while len(pending) < len(codec.magic) and (more := buffered.read1(_CHUNK)):
                pending += more
            if not pending.strip(b"\x00"):  # zero padding, then perhaps more of it
                while more := buffered.read1(_CHUNK):
                    if more.strip(b"\x00"):
                        raise ReadFault(f"data after the end of the {codec.name} data (not read)")
                return
            if not pending.startswith(codec.magic):
                raise ReadFault(f"data after the end of the {codec.name} data (not read)")
            decompressor, started = codec.decompressor(), False
    if started and not decompressor.eof:
        raise ReadFault(f"the {codec.name} data is truncated (the file ends inside it)")
