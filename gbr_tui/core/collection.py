"""Reading collections (PGN, EPD, FEN lines, CSV with a FEN column) and indexing them by class.

Files are read in blocks of lines, so memory stays flat whatever their size. gzip, bz2 and xz
are recognised by their first bytes and the format by the first lines; both can be overridden.
Text is decoded as UTF-8 with undecodable bytes kept as surrogates, so a bad byte spoils only
the record it is in, which is reported with its line like every other bad record.

Games are replayed in every position mode, so a game with an illegal move is reported as bad
even when only its start position is classified.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import itertools
import lzma
import os
import re
import sys
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import BinaryIO

import chess
import chess.pgn

from gbr_tui.core import pgn, replay
from gbr_tui.core.batch import FenEncoder
from gbr_tui.core.code import Rule, digit_sides, encode
from gbr_tui.core.errors import GbrError, chess_reason
from gbr_tui.core.material import Material, board_from_fen


class Format(str, Enum):
    PGN = "pgn"
    EPD = "epd"
    FEN = "fen"
    CSV = "csv"


class Position(str, Enum):
    """Which positions of a game are classified."""

    START = "start"  # the start position (what study indexes use)
    FINAL = "final"  # the position after the last move
    ALL = "all"  # every class the game passes through, once each


class CollectionError(GbrError):
    """A whole file cannot be read as a collection (missing, unreadable, no FEN column...)."""


@dataclass(frozen=True)
class Record:
    """One classified position of a collection."""

    number: int  # 1-based record (game) number in its file
    line: int  # the line where the record starts
    code: str  # full form abcd.ef
    material: Material
    position: str | None  # the classified position as FEN (a placement for replayed games)
    ply: int | None = None  # games: the ply of the position, 0 for the start
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class BadRecord:
    number: int
    line: int  # where the fault is (for games, the line of the bad move or tag)
    reason: str


Item = Record | BadRecord

_BLOCK_CHARS = 1 << 16  # small enough that a corrupt compressed file loses little before the fault
_CODES_KEPT = 1 << 12
_SURROGATE = re.compile("[\udc80-\udcff]")
_EPD_POSITION = re.compile(r"(?m)^[ \t]*(\S+(?:[ \t]+\S+){0,3})")
_EPD_ID = re.compile(r'(?<![^\s;])id\s+"([^"]*)"')
_MAGIC = (
    (b"\x1f\x8b", lambda stream: gzip.GzipFile(fileobj=stream)),
    (b"BZh", bz2.BZ2File),
    (b"\xfd7zXZ\x00", lzma.LZMAFile),
)
# What a truncated or corrupt compressed file raises part way through.
_READ_ERRORS = (OSError, EOFError, lzma.LZMAError, zlib.error)


def not_utf8(text: str) -> int | None:
    """The index of the first undecodable byte in text decoded with surrogateescape, if any."""
    if text.isascii():
        return None
    match = _SURROGATE.search(text)
    return match.start() if match else None


class Collection:
    """One file (or stdin, given as ``"-"`` or a binary stream) read as a collection.

    ``records()`` yields every record, classified or bad; ``tally()`` counts classes the fast
    way. Either may be called once.
    """

    def __init__(
        self,
        source: str | os.PathLike | BinaryIO,
        *,
        format: Format | None = None,
        position: Position = Position.START,
        fen_column: str | None = None,
        rule: Rule = Rule.COUNT,
        name: str | None = None,
    ) -> None:
        self.position = Position(position)
        self.rule = Rule(rule)
        self.fen_column = fen_column
        self.encoder = FenEncoder(self.rule)
        self._raw, self.name, self.size = _open_raw(source, name)
        self._line = 0  # lines handed out so far
        self._number = 0  # records handed out so far
        self._codes: dict[tuple[int, ...], tuple[Material, str]] = {}
        self._read_error: Exception | None = None  # met while reading the first block
        try:
            self._text = io.TextIOWrapper(
                _decompressed(self._raw), encoding="utf-8-sig", errors="surrogateescape", newline=None
            )
            self._pending = self._text.read(_BLOCK_CHARS)
        except _READ_ERRORS as error:
            self._pending, self._read_error = "", error
        self.format = Format(format) if format else detect_format(self._pending)

    # --- public ----------------------------------------------------------------------------

    @property
    def bytes_read(self) -> int | None:
        """How far into the (compressed) file reading has got, when that can be told."""
        try:
            return self._raw.tell()
        except (OSError, ValueError):
            return None

    def close(self) -> None:
        self._raw.close()

    def __enter__(self) -> Collection:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def records(self, positions: bool = True) -> Iterator[Item]:
        """Every record in file order; a game in ``all`` mode gives one Record per class.

        ``positions=False`` leaves the FEN of replayed games' positions out (it costs time).
        """
        if self.format == Format.PGN:
            return self._guarded(self._pgn_records(positions))
        readers = {Format.FEN: self._fen_records, Format.EPD: self._epd_records, Format.CSV: self._csv_records}
        return self._guarded(readers[self.format]())

    def tally(
        self, on_bad: Callable[[BadRecord], None] | None = None, on_block: Callable[[], None] | None = None
    ) -> Tally:
        """Count records per class. Bad records go to ``on_bad`` as they are found."""
        tally = Tally()
        if self.format in (Format.FEN, Format.EPD):
            items = self._guarded(self._fast_position_tally(tally, on_block))
        else:
            items = self.records(positions=False)
        game = 0
        for item in items:
            if type(item) is BadRecord:
                tally.bad += 1
                if on_bad is not None:
                    on_bad(item)
                continue
            if item.number != game:  # all mode: several classes of one game
                game = item.number
                tally.classified += 1
                if on_block is not None and game % 256 == 0:
                    on_block()
            tally.add(item.code, item.material)
        return tally

    # --- reading ---------------------------------------------------------------------------

    def _blocks(self) -> Iterator[tuple[int, list[str]]]:
        """(number of the first line, lines without their ends), a block at a time."""
        if self._read_error is not None:
            raise self._read_error
        carry = ""
        block = self._pending
        self._pending = ""
        while block:
            text = carry + block
            end = text.rfind("\n")
            if end < 0:
                carry = text
            else:
                carry = text[end + 1 :]
                lines = text[:end].split("\n")
                first = self._line + 1
                self._line += len(lines)
                yield first, lines
            block = self._text.read(_BLOCK_CHARS)
        if carry:
            self._line += 1
            yield self._line, [carry]

    def _lines(self) -> Iterator[str]:
        for _, lines in self._blocks():
            yield from lines

    def _guarded(self, items: Iterator[Item]) -> Iterator[Item]:
        """The items, then a bad record for the unreadable rest of a corrupt compressed file."""
        try:
            yield from items
        except _READ_ERRORS as error:
            yield BadRecord(self._number + 1, self._line + 1, f"cannot read further: {error}")

    def _classify_fen(self, number: int, line: int, text: str) -> Item:
        bad = not_utf8(text)
        if bad is not None:
            return BadRecord(number, line, f"bytes that are not UTF-8 (column {bad + 1})")
        try:
            material, code = self.encoder.entry(text)
        except GbrError as error:
            return BadRecord(number, line, error.message)
        return Record(number, line, code, material, text)

    def _fen_records(self) -> Iterator[Item]:
        for first, lines in self._blocks():
            for offset, text in enumerate(lines):
                if text and not text.isspace():
                    self._number += 1
                    yield self._classify_fen(self._number, first + offset, text.strip())

    def _epd_records(self) -> Iterator[Item]:
        for first, lines in self._blocks():
            for offset, text in enumerate(lines):
                if text and not text.isspace():
                    self._number += 1
                    yield self._classify_epd(self._number, first + offset, text)

    def _classify_epd(self, number: int, line: int, text: str) -> Item:
        position = _EPD_POSITION.match(text)
        item = self._classify_fen(number, line, position.group(1))
        if type(item) is Record:
            found = _EPD_ID.search(text, position.end())
            if found:
                return Record(number, line, item.code, item.material, item.position, headers={"id": found[1]})
        return item

    def _fast_position_tally(self, tally: Tally, on_block: Callable[[], None] | None) -> Iterator[Item]:
        """Count a block at a time in C loops; a block with any bad line goes line by line."""
        epd = self.format == Format.EPD
        for first, lines in self._blocks():
            entry = self.encoder.entry
            if epd:
                texts = _EPD_POSITION.findall("\n".join(lines))
            else:
                texts = list(filter(None, lines))
            codes = self.encoder.codes(texts)
            clean = not any(isinstance(code, GbrError) for code in codes) and not any(
                not_utf8(text) is not None for text in texts if not text.isascii()
            )
            if not clean:
                for offset, text in enumerate(lines):
                    if text and not text.isspace():
                        self._number += 1
                        if epd:
                            yield self._classify_epd(self._number, first + offset, text)
                        else:
                            yield self._classify_fen(self._number, first + offset, text.strip())
            else:
                self._number += len(texts)
                tally.classified += len(texts)
                tally.codes.update(codes)
                hidden = {found for found in set(codes) if "9" in found[:4]}
                if hidden:  # a 9 hides the exact material: count each record's
                    for material, found in map(entry, itertools.compress(texts, map(hidden.__contains__, codes))):
                        tally.add_hidden(found, material)
            if on_block is not None:
                on_block()

    def _csv_records(self) -> Iterator[Item]:
        reader = csv.reader(self._lines())
        first_row = next(reader, None)
        if first_row is None:
            return
        first_end = reader.line_num
        second_row = next(reader, None)
        column, has_header = _fen_column(first_row, second_row, self.fen_column, self.name)
        width = len(first_row)
        peeked = [] if has_header else [(first_row, 1)]
        if second_row is not None:
            peeked.append((second_row, first_end + 1))

        def rows_with_lines() -> Iterator[tuple[list[str], int]]:
            yield from peeked
            start = reader.line_num + 1
            for row in reader:
                yield row, start
                start = reader.line_num + 1

        for row, line in rows_with_lines():
            if not row:
                continue
            self._number += 1
            if len(row) != width:
                yield BadRecord(self._number, line, f"{len(row)} columns where the first row has {width}")
            elif not all(map(str.isascii, row)) and not_utf8("".join(row)) is not None:
                yield BadRecord(self._number, line, "bytes that are not UTF-8")
            else:
                yield self._classify_fen(self._number, line, row[column].strip())

    def _pgn_records(self, positions: bool) -> Iterator[Item]:
        position = self.position
        every_change = position == Position.ALL
        fens = positions and position != Position.START
        for game in pgn.split_games(self._lines()):
            self._number += 1
            number = self._number
            headers = {key: game.headers[key] for key in pgn.HEADERS_KEPT if key in game.headers}
            try:
                replayed = self._replay(game, every_change, fens)
            except pgn.PgnError as error:
                yield BadRecord(number, game.line_of(error.offset), f"game from line {game.line}: {error.message}")
                continue
            if position == Position.START:
                ply, counts, fen = replayed.changes[0]
                material, code = self._material_code(counts)
                start_fen = game.headers.get("FEN") or chess.STARTING_FEN
                yield Record(number, game.line, code, material, start_fen, ply, headers)
            elif position == Position.FINAL:
                ply, counts, fen = replayed.final
                material, code = self._material_code(counts)
                yield Record(number, game.line, code, material, fen, ply, headers)
            else:
                seen = set()
                for ply, counts, fen in replayed.changes:
                    material, code = self._material_code(counts)
                    if code not in seen:
                        seen.add(code)
                        yield Record(number, game.line, code, material, fen, ply, headers)

    def _replay(self, game: pgn.RawGame, every_change: bool, fens: bool) -> replay.Replayed:
        """Replay a game's mainline; PgnError (with the offset of the fault) when it is broken."""
        if game.error is not None:
            raise game.error
        for text in (game.movetext, *game.headers.values()):
            bad = not_utf8(text)
            if bad is not None:
                offset = bad if text is game.movetext else None
                raise pgn.PgnError(f"bytes that are not UTF-8 ({text[max(0, bad - 10) : bad].strip()!r}...)", offset)
        start = self._start(game)
        sans = pgn.san_tokens(game.movetext)
        try:
            return replay.replay(start, sans, every_change, fens)
        except replay.MoveError as error:
            offset = pgn.move_offset(game.movetext, error.index)
            raise pgn.PgnError(f"{error.message} at ply {error.index + 1}", offset) from None

    @staticmethod
    def _start(game: pgn.RawGame) -> replay.StartPosition:
        headers = game.headers
        if "FEN" not in headers and "Variant" not in headers:
            if headers.get("SetUp") == "1":
                raise pgn.PgnError("SetUp is 1 but there is no FEN tag")
            return replay.STANDARD_START
        try:
            return replay.StartPosition(chess.pgn.Headers(headers).board())
        except ValueError as error:
            raise pgn.PgnError(f"bad start position: {chess_reason(error)}") from None

    def _material_code(self, counts: tuple[int, ...]) -> tuple[Material, str]:
        try:
            return self._codes[counts]
        except KeyError:
            if len(self._codes) > _CODES_KEPT:
                self._codes.clear()
            material = Material(counts[:5], counts[5:])
            entry = self._codes[counts] = (material, encode(material, self.rule))
            return entry


@dataclass
class Tally:
    """Records per class. A code without a 9 fixes its material; behind a code with a 9 the
    exact materials are counted too."""

    codes: Counter = field(default_factory=Counter)
    hidden: dict[str, Counter] = field(default_factory=dict)  # code with a 9 -> materials
    classified: int = 0
    bad: int = 0

    @property
    def read(self) -> int:
        return self.classified + self.bad

    def add(self, code: str, material: Material, count: int = 1) -> None:
        self.codes[code] += count
        if "9" in code[:4]:
            self.add_hidden(code, material, count)

    def add_hidden(self, code: str, material: Material, count: int = 1) -> None:
        """Count one material behind a code with a 9 (the code itself is counted apart)."""
        materials = self.hidden.get(code)
        if materials is None:
            materials = self.hidden[code] = Counter()
        materials[material] += count

    def materials(self, code: str) -> Counter:
        """The materials behind one code, with their counts."""
        if code in self.hidden:
            return self.hidden[code]
        return Counter({material_of_code(code): self.codes[code]})

    def merge(self, other: Tally) -> None:
        self.codes.update(other.codes)
        for code, materials in other.hidden.items():
            for material, count in materials.items():
                self.add_hidden(code, material, count)
        self.classified += other.classified
        self.bad += other.bad


def material_of_code(code: str) -> Material:
    """The material of a full code without a 9 (each digit then says both sides' counts)."""
    pieces, pawns = code[:4], code[5:]
    white, black = zip(*(digit_sides(int(digit)) for digit in pieces))
    return Material((*white, int(pawns[0])), (*black, int(pawns[1])))


# --- opening and detecting -----------------------------------------------------------------------


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


_MOVE_NUMBER_START = re.compile(r"\d+\s*\.")


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


def _looks_like_fen(text: str) -> bool:
    if text.count("/") != 7:
        return False
    try:
        board_from_fen(text)
    except GbrError:
        return False
    return True


def _fen_column(first_row: list[str], second_row: list[str] | None, wanted: str | None, file: str) -> tuple[int, bool]:
    """The FEN column's index and whether the first row is a header: a column named FEN (or
    ``wanted``), else the first column holding a FEN in the first row (no header) or the second."""
    names = [cell.strip().casefold() for cell in first_row]
    if wanted is not None:
        if wanted.isdigit():
            index = int(wanted) - 1
            if not 0 <= index < len(first_row):
                raise CollectionError(f"{file}: there is no column {wanted} (the rows have {len(first_row)})")
            return index, not _looks_like_fen(first_row[index].strip())
        if wanted.strip().casefold() in names:
            return names.index(wanted.strip().casefold()), True
        shown = ", ".join(first_row)
        raise CollectionError(f"{file}: no column named {wanted!r} in the header ({shown})")
    if "fen" in names:
        return names.index("fen"), True
    for row, is_header in ((first_row, False), (second_row or [], True)):
        for index, cell in enumerate(row):
            if _looks_like_fen(cell.strip()):
                return index, is_header
    raise CollectionError(f"{file}: no FEN column found; name it with --fen-column")
