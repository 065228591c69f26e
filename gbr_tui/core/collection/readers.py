"""Reading a collection's records: FEN lines, EPD, CSV with a FEN column, PGN games; and what a
bad record is told.

Games are replayed in every position mode, so a game with an illegal move is reported as bad
even when only its start position is classified.
"""

from __future__ import annotations

import csv
import itertools
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

import chess
import chess.pgn

from gbr_tui.core import pgn
from gbr_tui.core.batch import FenEncoder
from gbr_tui.core.code import Rule, encode
from gbr_tui.core.collection.positions import EPD_ID, EPD_POSITION, in_batches, position_entries, tally_positions
from gbr_tui.core.collection.records import GAME_TAGS, BadRecord, CollectionError, Format, GamePositions, Item, Record
from gbr_tui.core.collection.source import (
    MAX_LINE,
    OVERLONG_LINE,
    READ_ERRORS,
    Source,
    detect_format,
    looks_binary,
    not_utf8,
)
from gbr_tui.core.collection.tally import Tally
from gbr_tui.core.errors import GbrError, chess_reason
from gbr_tui.core.material import Material, board_from_fen
from gbr_tui.core.replay import STANDARD_START, BothSidesCounts, MoveError, Replayed, StartPosition, replay

_CODES_KEPT = 1 << 12
_CSV_RECORD_LINES = 1000  # lines a quoted CSV field may span


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
        game_positions: GamePositions = GamePositions.START,
        fen_column: str | None = None,
        rule: Rule = Rule.COUNT,
        name: str | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        self.game_positions = GamePositions(game_positions)
        self.rule = Rule(rule)
        self.fen_column = fen_column
        self.encoder = FenEncoder(self.rule)
        self.source = Source(source, name, cancelled)
        self.name, self.size = self.source.name, self.source.size
        if looks_binary(self.source.head):
            self.source.close()
            raise CollectionError(f"{self.name}: not a chess collection: binary data{_binary_note(self.source)}")
        self._number = 0  # records handed out so far
        self._by_counts: dict[BothSidesCounts, tuple[Material, str]] = {}
        self.format = Format(format) if format else detect_format(self.source.head)

    # --- public ----------------------------------------------------------------------------

    @property
    def bytes_read(self) -> int | None:
        """How far into the (compressed) file reading has got, when that can be told."""
        return self.source.bytes_read

    def close(self) -> None:
        self.source.close()

    def __enter__(self) -> Collection:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def records(self, fens: bool = True) -> Iterator[Item]:
        """Every record in file order; a game in ``all`` mode gives one Record per class.

        ``fens=False`` leaves the FEN of replayed games' positions out (it costs time).
        """
        if self.format == Format.PGN:
            return self._guarded(self._pgn_records(fens))
        if self.format == Format.CSV:
            return self._guarded(in_batches(self, self._csv_records()))
        return self._guarded(in_batches(self, position_entries(self, self.format == Format.EPD)))

    def tally(
        self, on_bad: Callable[[BadRecord], None] | None = None, on_block: Callable[[], None] | None = None
    ) -> Tally:
        """Count records per class. Bad records go to ``on_bad`` as they are found."""
        tally = Tally()
        if self.format in (Format.FEN, Format.EPD):
            items = self._guarded(tally_positions(self, tally, self.format == Format.EPD, on_block))
        else:
            items = self.records(fens=False)
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

    def _guarded(self, items: Iterator[Item]) -> Iterator[Item]:
        """The items, then a bad record for the unreadable rest of a corrupt compressed file."""
        try:
            yield from items
        except READ_ERRORS as error:
            read = self._number
            yield BadRecord(
                self._number + 1,
                self.source.line + 1,
                f"cannot read further: {error}; the {read} record{'' if read == 1 else 's'} before were read",
            )

    def _classify_fen(self, number: int, line: int, text: str) -> Item:
        if text[:1] == "\x00" and text == OVERLONG_LINE:
            return BadRecord(number, line, "a line over 1 MB long (not read)")
        bad = not_utf8(text)
        if bad is not None:
            return BadRecord(number, line, f"bytes that are not UTF-8 (column {bad + 1})")
        try:
            material, code = self.encoder.material_and_code(text)
        except GbrError as error:
            return BadRecord(number, line, error.message)
        return Record(number, line, code, material, text)

    def _classify_epd(self, number: int, line: int, text: str) -> Item:
        if text is OVERLONG_LINE:
            return self._classify_fen(number, line, text)
        fields = EPD_POSITION.match(text)
        if fields is None:  # it starts with a space other than a blank or a tab
            return self._classify_fen(number, line, text.strip())
        item = self._classify_fen(number, line, fields.group(1))
        if type(item) is Record:
            found = EPD_ID.search(text, fields.end())
            if found:
                return Record(number, line, item.code, item.material, item.fen, headers={"id": found[1]})
        return item

    def _csv_rows(self) -> Iterator[tuple[int, list[str] | str]]:
        """(line where it starts, row) for each CSV record, or (line, why it is bad).

        A record is one line unless a quoted field spans lines; one whose quote is not closed
        within ``_CSV_RECORD_LINES`` lines, ``MAX_LINE`` characters or the file is bad, and
        reading goes on at the line after its start. Empty lines are skipped.
        """
        lines = self._numbered_lines()
        front: list[tuple[int, str]] = []  # lines to read again, the next one last
        record: list[tuple[int, str]] = []  # the lines of the record being read

        def feed() -> Iterator[str]:
            size = 0
            while True:
                found = front.pop() if front else next(lines, None)
                if found is None:
                    if record:  # the file ends inside a quoted field
                        raise _CsvStop
                    return
                if not record:
                    size = 0
                elif found[1] is OVERLONG_LINE or len(record) >= _CSV_RECORD_LINES or size > MAX_LINE:
                    front.append(found)
                    raise _CsvStop
                record.append(found)
                if found[1] is OVERLONG_LINE:
                    raise _CsvStop
                size += len(found[1])
                yield found[1] + "\n"

        while True:
            try:
                for row in csv.reader(feed()):
                    start = record[0][0]
                    record.clear()
                    if row:
                        yield start, row
                return
            except _CsvStop:
                (start, line), *rest = record
                if line is OVERLONG_LINE:
                    yield start, "a line over 1 MB long (not read)"
                else:
                    yield start, "a quote '\"' opened on this line is never closed"
                front.extend(reversed(rest))
            except csv.Error as error:
                yield record[0][0], f"not a CSV row: {error}"
            record.clear()

    def _numbered_lines(self) -> Iterator[tuple[int, str]]:
        for first, lines in self.source.blocks():
            yield from zip(itertools.count(first), lines)

    def _csv_records(self) -> Iterator[Item]:
        rows = self._csv_rows()
        bad_before: list[tuple[int, str]] = []  # bad records before the first two rows
        good: list[tuple[int, list[str]]] = []
        for line, row in rows:
            if isinstance(row, str):
                bad_before.append((line, row))
            else:
                good.append((line, row))
                if len(good) == 2:
                    break
        if not good:
            for line, reason in bad_before:
                self._number += 1
                yield BadRecord(self._number, line, reason)
            return
        first_row = good[0][1]
        second_row = good[1][1] if len(good) > 1 else None
        column, has_header = _fen_column(first_row, second_row, self.fen_column, self.name)
        width = len(first_row)
        peeked = sorted([*bad_before, *(good[1:] if has_header else good)], key=lambda found: found[0])

        for line, row in itertools.chain(peeked, rows):
            self._number += 1
            if isinstance(row, str):
                yield BadRecord(self._number, line, row)
            elif len(row) != width:
                yield BadRecord(self._number, line, f"{len(row)} columns where the first row has {width}")
            elif not all(map(str.isascii, row)) and not_utf8("".join(row)) is not None:
                yield BadRecord(self._number, line, "bytes that are not UTF-8")
            else:
                yield self._number, line, row[column].strip(), None  # classified in batches

    def _pgn_records(self, fens: bool) -> Iterator[Item]:
        mode = self.game_positions
        every_change = mode == GamePositions.ALL
        fens = fens and mode != GamePositions.START
        for game in pgn.split_games(self.source.lines()):
            self._number += 1
            number = self._number
            headers = {key: game.headers[key] for key in GAME_TAGS if key in game.headers}
            try:
                replayed = self._replay(game, every_change, fens)
            except pgn.PgnError as error:
                yield BadRecord(number, game.line_of(error.offset), f"game from line {game.line}: {error.message}")
                continue
            if mode == GamePositions.START:
                ply, counts, fen = replayed.changes[0]
                material, code = self._material_code(counts)
                start_fen = game.headers.get("FEN") or chess.STARTING_FEN
                yield Record(number, game.line, code, material, start_fen, ply, headers)
            elif mode == GamePositions.FINAL:
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

    def _replay(self, game: pgn.RawGame, every_change: bool, fens: bool) -> Replayed:
        """Replay a game's mainline; PgnError (with the offset of the fault) when it is broken."""
        if game.error is not None:
            raise game.error
        for text in (game.movetext, *game.headers.values()):
            bad = not_utf8(text)
            if bad is not None:
                offset = bad if text is game.movetext else None
                raise pgn.PgnError(f"bytes that are not UTF-8 ({text[max(0, bad - 10) : bad].strip()!r}...)", offset)
        start = _start(game)
        sans = pgn.san_tokens(game.movetext)
        try:
            return replay(start, sans, every_change, fens)
        except MoveError as error:
            offset = pgn.move_offset(game.movetext, error.index)
            raise pgn.PgnError(f"{error.message} at ply {error.index + 1}", offset) from None

    def _material_code(self, counts: BothSidesCounts) -> tuple[Material, str]:
        try:
            return self._by_counts[counts]
        except KeyError:
            if len(self._by_counts) > _CODES_KEPT:
                self._by_counts.clear()
            material = Material(counts[:5], counts[5:])
            found = self._by_counts[counts] = (material, encode(material, self.rule))
            return found


class _CsvStop(Exception):
    """A CSV record whose quoted field does not end in bounds."""


@dataclass(frozen=True)
class CollectionRequest:
    """The collection to open: its files, and how to read them (format and FEN column are
    detected when not given)."""

    paths: tuple[str, ...]
    format: Format | None = None
    game_positions: GamePositions = GamePositions.START
    fen_column: str | None = None

    def open(self, path: str, rule: Rule, cancelled: Callable[[], bool] | None = None) -> Collection:
        """The collection at ``path``; ``cancelled()`` true gives up reading a pipe or device."""
        return Collection(
            path,
            format=self.format,
            game_positions=self.game_positions,
            fen_column=self.fen_column,
            rule=rule,
            cancelled=cancelled,
        )

    @property
    def title(self) -> str:
        names = [os.path.basename(path) for path in self.paths]
        return names[0] if len(names) == 1 else f"{names[0]} and {len(names) - 1} more"


def _binary_note(source: Source) -> str:
    """Where binary data was found: after decompression, or in a file whose name says it is
    compressed when its content does not start as such a file does."""
    if source.compression:
        return f" (after {source.compression} decompression)"
    kind = next((kind for kind in ("gz", "bz2", "xz") if source.name.lower().endswith("." + kind)), None)
    if kind is not None:
        return f" (corrupt {'gzip' if kind == 'gz' else kind} data? it does not start as {kind} data does)"
    return ""


def _start(game: pgn.RawGame) -> StartPosition:
    """The game's start position; a PgnError reported at the line of the tag at fault."""
    headers = game.headers
    if "FEN" not in headers and "Variant" not in headers:
        if headers.get("SetUp") == "1":
            game.error_line = game.tag_lines.get("SetUp")
            raise pgn.PgnError("SetUp is 1 but there is no FEN tag")
        return STANDARD_START
    tags = chess.pgn.Headers(headers)
    try:
        tags.variant()
    except ValueError as error:
        game.error_line = game.tag_lines.get("Variant")
        raise pgn.PgnError(f"bad start position: {chess_reason(error)}") from None
    try:
        return StartPosition(tags.board())
    except ValueError as error:
        game.error_line = game.tag_lines.get("FEN", game.tag_lines.get("Variant"))
        raise pgn.PgnError(f"bad start position: {chess_reason(error)}") from None


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
        if wanted.isascii() and wanted.isdigit():  # only ASCII digits: int() takes other scripts'
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
