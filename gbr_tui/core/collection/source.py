"""Where a collection's text comes from: a file, stdin or a stream, decompressed when it is, read in
blocks of whole lines; and its format, told from its first lines.

Files are read in blocks of lines, so memory stays flat whatever their size. gzip, bz2 and xz
are recognised by their first bytes and the format by the first lines; both can be overridden.
Text is decoded as UTF-8 with undecodable bytes kept as surrogates, so a bad byte spoils only
the record it is in, which is reported with its line like every other bad record.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import re
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from gbr_tui.core.collection.records import CollectionError, Format

BLOCK_CHARS = 1 << 16  # small enough that a corrupt compressed file loses little before the fault
#: What a truncated or corrupt compressed file raises part way through.
READ_ERRORS = (OSError, EOFError, lzma.LZMAError, zlib.error)

_SURROGATE = re.compile("[\udc80-\udcff]")
_MAGIC = (
    (b"\x1f\x8b", lambda stream: gzip.GzipFile(fileobj=stream)),
    (b"BZh", bz2.BZ2File),
    (b"\xfd7zXZ\x00", lzma.LZMAFile),
)
_MOVE_NUMBER_START = re.compile(r"\d+\s*\.")


def not_utf8(text: str) -> int | None:
    """The index of the first undecodable byte in text decoded with surrogateescape, if any."""
    if text.isascii():
        return None
    match = _SURROGATE.search(text)
    return match.start() if match else None


class Source:
    """One file (or stdin, given as ``"-"``, or a binary stream) as lines of text.

    ``head`` is the first block, to tell the format from, until ``blocks()`` hands it out;
    ``line`` counts the lines handed out so far.
    """

    def __init__(self, source: str | os.PathLike | BinaryIO, name: str | None = None) -> None:
        self._raw, self.name, self.size = _open_raw(source, name)
        self.line = 0
        self._read_error: Exception | None = None  # met while reading the first block
        try:
            self._text = io.TextIOWrapper(
                _decompressed(self._raw), encoding="utf-8-sig", errors="surrogateescape", newline=None
            )
            self.head = self._text.read(BLOCK_CHARS)
        except READ_ERRORS as error:
            self.head, self._read_error = "", error

    @property
    def bytes_read(self) -> int | None:
        """How far into the (compressed) file reading has got, when that can be told."""
        try:
            return self._raw.tell()
        except (OSError, ValueError):
            return None

    def close(self) -> None:
        self._raw.close()

    def blocks(self) -> Iterator[tuple[int, list[str]]]:
        """(number of the first line, lines without their ends), a block at a time."""
        if self._read_error is not None:
            raise self._read_error
        carry = ""
        block = self.head
        self.head = ""
        while block:
            text = carry + block
            end = text.rfind("\n")
            if end < 0:
                carry = text
            else:
                carry = text[end + 1 :]
                lines = text[:end].split("\n")
                first = self.line + 1
                self.line += len(lines)
                yield first, lines
            block = self._text.read(BLOCK_CHARS)
        if carry:
            self.line += 1
            yield self.line, [carry]

    def lines(self) -> Iterator[str]:
        for _, lines in self.blocks():
            yield from lines


def _open_raw(source, name: str | None) -> tuple[BinaryIO, str, int | None]:
    if isinstance(source, (str, os.PathLike)) and os.fspath(source) == "-":
        return sys.stdin.buffer, name or "<stdin>", None
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            raw = open(path, "rb")
        except FileNotFoundError:
            raise CollectionError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise CollectionError(f"{path}: is a directory, not a file") from None
        except OSError as error:
            raise CollectionError(f"{path}: cannot open: {error.strerror}") from None
        return raw, name or str(path), os.fstat(raw.fileno()).st_size
    return source, name or getattr(source, "name", "<stream>"), None


def _decompressed(raw: BinaryIO) -> BinaryIO:
    """The stream itself, or a decompressing reader when its first bytes are a gzip, bz2 or xz
    signature (the file name is not trusted)."""
    buffered = raw if hasattr(raw, "peek") else io.BufferedReader(raw)
    head = buffered.peek(6)[:6]
    for magic, opener in _MAGIC:
        if head.startswith(magic):
            return opener(buffered)
    return buffered


def detect_format(sample: str) -> Format:
    """The format of a collection from its first lines: PGN tags or move numbers, a CSV header
    or row, EPD operations after four fields, otherwise one FEN per line."""
    for line in sample.split("\n", 200)[:200]:
        text = line.strip()
        if not text or text[0] in "%;":
            continue
        if text[0] == "[" or _MOVE_NUMBER_START.match(text):
            return Format.PGN
        if "," in text:
            return Format.CSV
        fields = text.split()
        if len(fields) == 4 or (len(fields) > 4 and not fields[4].isdigit()):
            return Format.EPD
        return Format.FEN
    return Format.FEN
