"""Reading a collection's records: FEN lines, EPD, CSV with a FEN column, JSON Lines with a
``fen`` field, PGN games; and what a bad record is told. A record keeps the caption printed with
it when the collection names where captions are (``caption``: a PGN tag, an EPD opcode, a CSV
column or a JSON field of that name; ``code_column`` for another CSV column).

Games are replayed for ``final`` and ``all``; for ``start`` only the tags of a game that has
any are read (the start position is in them), so a study whose solution is damaged is still
classified. A game without tags is replayed all the same: its moves are all that says it is one.
"""

from __future__ import annotations

import csv
import itertools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import BinaryIO

import chess

from gbr_tui.core import pgn
from gbr_tui.core.batch import FenEncoder
from gbr_tui.core.code import Rule, encode
from gbr_tui.core.collection.codecs import codec_by_suffix
from gbr_tui.core.collection.positions import EPD_ID, EPD_POSITION, in_batches, position_entries, tally_positions
from gbr_tui.core.collection.records import (
    GAME_TAGS,
    HEADERS,
    BadRecord,
    CollectionError,
    Format,
    GamePositions,
    Item,
    Record,
    caption_text,
    with_caption,
)
from gbr_tui.core.collection.source import (
    MAX_LINE,
    OVERLONG_LINE,
    READ_ERRORS,
    Source,
    detect_format,
    looks_binary,
    not_utf8,
)
from gbr_tui.core.collection.tally import ONE_KING_A_SIDE, UNKNOWN_RESULT, Tally, result_index
from gbr_tui.core.describe import not_a_collection
from gbr_tui.core.errors import GbrError, chess_reason
from gbr_tui.core.material import Material, board_from_fen
from gbr_tui.core.replay import STANDARD_START, BothSidesCounts, MoveError, Replayed, StartPosition, replay

_CODES_KEPT = 1 << 12
#: A file whose first this many records are all bad is no chess collection (a program, a
#: picture, a text that is not chess): it is reported as such, not as a run of bad records.
NOT_A_COLLECTION = 10
_CSV_RECORD_LINES = 1000  # lines a quoted CSV field may span
#: Where a printed caption is looked for unless the collection says otherwise: PGN's tag, EPD's
#: opcode, a CSV column, a JSON field of this name.
CAPTION_NAME = "GBR"


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
        caption: str | None = None,
        code_column: str | None = None,
        min_plies: int = 0,
        part: bool = False,
    ) -> None:
        self.game_positions = GamePositions(game_positions)
        self.min_plies = min_plies  # ``all``: the classes a game stayed in fewer plies are left out
        self.rule = Rule(rule)
        self.fen_column = fen_column
        self.caption = caption or None
        self.code_column = code_column
        self._epd_caption = (
            re.compile(rf'(?<![^\s;]){re.escape(self.caption)}\s+(?:"([^"]*)"|([^;"]*))') if self.caption else None
        )
        self.encoder = FenEncoder(self.rule)
        self.source = Source(source, name, cancelled)
        self.name, self.size = self.source.name, self.source.size
        #: A byte range of a file after its start (``parallel``): whether the file is a
        #: collection at all is told from its start only, so neither binary data nor a run of
        #: bad records says otherwise here; ``leading_bad`` counts the bad records before the
        #: first one classified, for the reader of the whole file to judge.
        self.part = part
        self.leading_bad = 0
        if not part and looks_binary(self.source.head):
            self.source.close()
            raise CollectionError(f"{self.name}: not a chess collection: binary data{_binary_note(self.source)}")
        self._number = 0  # records handed out so far
        self._classified_any = False  # a record was classified (counted in a tally, not handed out)
        self._by_counts: dict[tuple[BothSidesCounts, tuple[int, int]], tuple[Material, str]] = {}
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
        if self.format == Format.JSONL:
            return self._guarded(self._jsonl_records())
        if self.format == Format.CSV:
            return self._guarded(in_batches(self, self._csv_records()))
        return self._guarded(in_batches(self, position_entries(self, self.format == Format.EPD)))

    def tally(
        self,
        on_bad: Callable[[BadRecord], None] | None = None,
        on_block: Callable[[], None] | None = None,
        either_colour: bool = False,
    ) -> Tally:
        """Count records per class (games: with their results, and per family). Bad records go
        to ``on_bad`` as they are found; ``either_colour`` counts a family's results for its
        stronger side."""
        tally = Tally()
        if self.format in (Format.FEN, Format.EPD):
            items = self._guarded(tally_positions(self, tally, self.format == Format.EPD, on_block))
        else:
            items = self.records(fens=False)
        games = self.format == Format.PGN
        game = 0
        classes: list[tuple[str, Material]] = []  # of the game being read
        result = UNKNOWN_RESULT
        for item in items:
            if type(item) is BadRecord:
                tally.bad += 1
                if on_bad is not None:
                    on_bad(item)
                continue
            if item.number != game:  # all mode: several classes of one game
                if classes:
                    tally.add_game(classes, result, either_colour)
                    classes = []
                game = item.number
                if games:
                    result = result_index(item.headers.get("Result"))
                else:
                    tally.classified += 1
                if on_block is not None and game % 256 == 0:
                    on_block()
            if games:
                classes.append((item.code, item.material))
            else:
                tally.add(item.code, item.material)
        if classes:
            tally.add_game(classes, result, either_colour)
        if games:  # every game read well, also one whose classes were all too short to keep
            tally.classified = self.records_read - tally.bad
        return tally

    @property
    def records_read(self) -> int:
        """The records (games) read so far, classified or bad."""
        return self._number

    # --- reading ---------------------------------------------------------------------------

    def _guarded(self, items: Iterator[Item]) -> Iterator[Item]:
        """The items, then a bad record for the unreadable rest of a corrupt compressed file.

        Bad records are held back until a record is classified: when the first
        ``NOT_A_COLLECTION`` records are all bad, the file is no chess collection (CollectionError).
        """
        held: list[BadRecord] | None = []
        try:
            for item in items:
                if held is not None:
                    if type(item) is BadRecord and not self._classified_any:
                        if self.part:
                            self.leading_bad += 1
                            yield item
                            continue
                        held.append(item)
                        if len(held) == NOT_A_COLLECTION:
                            raise CollectionError(
                                not_a_collection(self.name, NOT_A_COLLECTION, held[0].line, held[0].reason)
                            )
                        continue
                    yield from held
                    held = None
                yield item
            if held:
                yield from held
        except READ_ERRORS as error:
            if held:
                yield from held
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
        end = text.find(" ")
        kings = (text.count("K", 0, end), text.count("k", 0, end)) if end >= 0 else (text.count("K"), text.count("k"))
        if kings != ONE_KING_A_SIDE:
            material = Material(material.white, material.black, kings)
        return Record(number, line, code, material, text)

    def _classify_epd(self, number: int, line: int, text: str) -> Item:
        if text is OVERLONG_LINE:
            return self._classify_fen(number, line, text)
        fields = EPD_POSITION.match(text)
        if fields is None:  # it starts with a space other than a blank or a tab
            return self._classify_fen(number, line, text.strip())
        item = self._classify_fen(number, line, fields.group(1))
        if type(item) is Record:
            headers, caption = self.epd_fields(text, fields.end())
            if headers or caption:
                return replace(item, headers=headers, caption=caption)
        return item

    def epd_fields(self, text: str, after: int) -> tuple[dict[str, str], str | None]:
        """An EPD line's ``id`` and printed caption, looked for from ``after`` (its position's end)."""
        found = EPD_ID.search(text, after)
        caption = None
        if self._epd_caption is not None and self.caption in text:
            operand = self._epd_caption.search(text, after)
            caption = operand and caption_text(operand[1] if operand[1] is not None else operand[2])
        return ({"id": found[1]} if found else {}), caption

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
        caption_column = self._caption_column(first_row, has_header)
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
                caption = row[caption_column] if caption_column is not None else None
                yield self._number, line, row[column].strip(), None, caption  # classified in batches

    def _caption_column(self, first_row: list[str], has_header: bool) -> int | None:
        """The column of the printed captions: ``code_column`` (a name or a 1-based number),
        else the header's column named as ``caption`` (none: no caption is read)."""
        if self.code_column is not None:
            return _column_index(first_row, self.code_column, self.name, has_header)
        names = [cell.strip().casefold() for cell in first_row]
        if has_header and self.caption is not None and self.caption.casefold() in names:
            return names.index(self.caption.casefold())
        return None

    def _jsonl_records(self) -> Iterator[Item]:
        for line, text in self._numbered_lines():
            if text and not text.isspace():
                self._number += 1
                yield self._classify_json(self._number, line, text)

    def _classify_json(self, number: int, line: int, text: str) -> Item:
        """One JSON Lines object: its ``fen`` field, the headers and the caption it has."""
        if text is OVERLONG_LINE or not_utf8(text) is not None:
            return self._classify_fen(number, line, text)
        try:
            fields = json.loads(text)
        except RecursionError:
            return BadRecord(number, line, "not a JSON object: nested too deeply")
        except ValueError as error:
            where = f" (column {error.colno})" if isinstance(error, json.JSONDecodeError) else ""
            return BadRecord(number, line, f"not a JSON object: {getattr(error, 'msg', error)}{where}")
        if not isinstance(fields, dict):
            return BadRecord(number, line, f"not a JSON object but {_json_kind(fields)}")
        fen = fields.get("fen")
        if not isinstance(fen, str):
            missing = "no" if fen is None else f"{_json_kind(fen)} in its"
            return BadRecord(number, line, f'{missing} "fen" field: expected a FEN as a string')
        caption = fields.get(self.caption) if self.caption is not None else None
        if caption is not None and not isinstance(caption, str):
            return BadRecord(number, line, f'the "{self.caption}" field is {_json_kind(caption)}, not a string')
        item = self._classify_fen(number, line, fen.strip())
        if type(item) is not Record:
            return item
        headers = {name: value for name in HEADERS if isinstance(value := fields.get(name), str) and name != "FEN"}
        return with_caption(Record(number, line, item.code, item.material, item.fen, headers=headers), caption)

    def _pgn_records(self, fens: bool) -> Iterator[Item]:
        mode = self.game_positions
        every_change = mode == GamePositions.ALL
        fens = fens and mode != GamePositions.START
        for game in pgn.split_games(self.source.lines()):
            self._number += 1
            number = self._number
            headers = {key: game.headers[key] for key in GAME_TAGS if key in game.headers}
            try:
                if mode == GamePositions.START and game.headers:  # the movetext is not read at all
                    yield self._start_record(game, number, headers)
                    continue
                replayed = self._replay(game, every_change, fens)
            except pgn.PgnError as error:
                yield BadRecord(number, game.line_of(error.offset), f"game from line {game.line}: {error.message}")
                continue
            self._classified_any = True
            kings = replayed.kings
            caption = self._game_caption(game)
            if mode == GamePositions.START:  # a game without tags: only its moves say it is one
                ply, counts, fen = replayed.changes[0]
                material, code = self._material_code(counts, kings)
                yield Record(
                    number, game.line, code, material, chess.STARTING_FEN, ply, headers=headers, caption=caption
                )
                continue
            if mode == GamePositions.FINAL:
                ply, counts, fen = replayed.final
                material, code = self._material_code(counts, kings)
                yield Record(number, game.line, code, material, fen, ply, headers=headers, caption=caption)
                continue
            # Every class once, with the plies the game stayed in it: material only shrinks
            # (a capture, or a pawn promoted), so a class is never left and entered again.
            changes = replayed.changes
            last_ply = replayed.final[0]
            entered: Record | None = None
            for index, (ply, counts, fen) in enumerate(changes):
                material, code = self._material_code(counts, kings)
                if entered is None or code != entered.code:
                    entered = Record(number, game.line, code, material, fen, ply, headers=headers, caption=caption)
                if index + 1 == len(changes) or self._material_code(changes[index + 1][1], kings)[1] != code:
                    held = (changes[index + 1][0] if index + 1 < len(changes) else last_ply) - entered.ply
                    if held >= self.min_plies:
                        yield replace(entered, plies=held)

    def _game_caption(self, game: pgn.RawGame) -> str | None:
        return caption_text(game.headers.get(self.caption)) if self.caption is not None else None

    def _start_record(self, game: pgn.RawGame, number: int, headers: dict[str, str]) -> Item:
        """A game's record in ``start`` mode: from its tags alone, the movetext unread."""
        if game.error is not None and not game.movetext_fault:
            raise game.error
        self._check_utf8(game.headers.values())
        board = _start(game).board
        self._classified_any = True
        material = Material.from_board(board)
        return Record(
            number,
            game.line,
            encode(material, self.rule),
            material,
            board.fen(),
            0,
            headers=headers,
            caption=self._game_caption(game),
        )

    def _replay(self, game: pgn.RawGame, every_change: bool, fens: bool) -> Replayed:
        """Replay a game's mainline; PgnError (with the offset of the fault) when it is broken."""
        if game.error is not None:
            raise game.error
        self._check_utf8((game.movetext, *game.headers.values()), game.movetext)
        start = _start(game)
        sans = pgn.san_tokens(game.movetext)
        try:
            return replay(start, sans, every_change, fens)
        except MoveError as error:
            offset = pgn.move_offset(game.movetext, error.index)
            raise pgn.PgnError(f"{error.message} at ply {error.index + 1}", offset) from None

    @staticmethod
    def _check_utf8(texts: Iterable[str], movetext: str | None = None) -> None:
        """PgnError for the first text with bytes that are not UTF-8 (its offset in the movetext)."""
        for text in texts:
            bad = not_utf8(text)
            if bad is not None:
                offset = bad if text is movetext else None
                raise pgn.PgnError(f"bytes that are not UTF-8 ({text[max(0, bad - 10) : bad].strip()!r}...)", offset)

    def _material_code(self, counts: BothSidesCounts, kings: tuple[int, int]) -> tuple[Material, str]:
        try:
            return self._by_counts[counts, kings]
        except KeyError:
            if len(self._by_counts) > _CODES_KEPT:
                self._by_counts.clear()
            material = Material(counts[:5], counts[5:], kings)
            found = self._by_counts[counts, kings] = (material, encode(material, self.rule))
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
    caption: str | None = CAPTION_NAME  # see Collection
    code_column: str | None = None
    min_plies: int = 0  # ``all``: the classes a game stayed in fewer plies are left out
    #: Worker processes per file for the browser (``parallel.planned_jobs``; None: one per core
    #: for files of at least ``parallel.MIN_RANGE_BYTES`` a worker).
    jobs: int | None = None

    def open(
        self,
        source: str | BinaryIO,
        rule: Rule,
        cancelled: Callable[[], bool] | None = None,
        name: str | None = None,
        part: bool = False,
    ) -> Collection:
        """The collection at a path or in a stream (named ``name``); ``cancelled()`` true gives
        up reading a pipe or device; ``part``: a byte range of a file after its start."""
        return Collection(
            source,
            name=name,
            format=self.format,
            game_positions=self.game_positions,
            fen_column=self.fen_column,
            rule=rule,
            cancelled=cancelled,
            caption=self.caption,
            code_column=self.code_column,
            min_plies=self.min_plies,
            part=part,
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
    named = codec_by_suffix(source.name)
    if named is not None:
        return f" (corrupt {named.name} data? it does not start as {named.suffix} data does)"
    return ""


def _start(game: pgn.RawGame) -> StartPosition:
    """The game's start position; a PgnError reported at the line of the tag at fault."""
    headers = game.headers
    if "FEN" not in headers and "Variant" not in headers:
        if headers.get("SetUp") == "1":
            game.error_line = game.tag_lines.get("SetUp")
            raise pgn.PgnError("SetUp is 1 but there is no FEN tag")
        return STANDARD_START
    import chess.pgn  # here: it imports chess.engine and asyncio, which most games never need

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
        index = _column_index(first_row, wanted, file)
        return index, not (_is_number(wanted) and _looks_like_fen(first_row[index].strip()))
    if "fen" in names:
        return names.index("fen"), True
    for row, is_header in ((first_row, False), (second_row or [], True)):
        for index, cell in enumerate(row):
            if _looks_like_fen(cell.strip()):
                return index, is_header
    raise CollectionError(f"{file}: no FEN column found; name it with --fen-column")


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()  # only ASCII digits: int() takes other scripts'


def _column_index(first_row: list[str], wanted: str, file: str, has_header: bool = True) -> int:
    """The index of a column named by the user: a 1-based number, or a name in the header."""
    if _is_number(wanted):
        index = int(wanted) - 1
        if not 0 <= index < len(first_row):
            raise CollectionError(f"{file}: there is no column {wanted} (the rows have {len(first_row)})")
        return index
    names = [cell.strip().casefold() for cell in first_row]
    if has_header and wanted.strip().casefold() in names:
        return names.index(wanted.strip().casefold())
    if not has_header:
        raise CollectionError(f"{file}: no header to find column {wanted!r} in: give its number")
    raise CollectionError(f"{file}: no column named {wanted!r} in the header ({', '.join(first_row)})")


def _json_kind(value: object) -> str:
    """How a JSON value that is not what was wanted is named."""
    kinds = ((bool, "true or false"), (int, "a number"), (float, "a number"), (list, "an array"), (dict, "an object"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "null" if value is None else "a string")
