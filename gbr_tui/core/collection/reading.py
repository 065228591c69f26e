"""One file being read as a collection: its source, the options it is read with, and what
every format's reader shares (records counted, the guard against a file that is no collection,
a FEN or EPD line classified on its own).

The format modules (``formats``) read their records through it; ``readers.Collection`` is
one, with the format chosen.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import BinaryIO, TypeVar

from gbr_tui.core.batch import FenEncoder
from gbr_tui.core.code import Rule
from gbr_tui.core.collection.records import BadRecord, CollectionError, GamePositions, Item, Record, caption_text
from gbr_tui.core.collection.source import OVERLONG_LINE, READ_ERRORS, Source, not_utf8
from gbr_tui.core.collection.tally import ONE_KING_A_SIDE
from gbr_tui.core.describe import not_a_collection
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import Material

#: A file whose first this many records are all bad is no chess collection (a program, a
#: picture, a text that is not chess): it is reported as such, not as a run of bad records.
NOT_A_COLLECTION = 10
#: An EPD line's position: its placement and three fields.
EPD_POSITION = re.compile(r"(?m)^[ \t]*(\S+(?:[ \t]+\S+){0,3})")
EPD_ID = re.compile(r'(?<![^\s;])id\s+"([^"]*)"')
OVERLONG_REASON = "a line over 1 MB long (not read)"


_Item = TypeVar("_Item")


class Reading:
    """A file (or stdin, given as ``"-"``, or a binary stream) opened to be read as a
    collection, with the options it is read with.

    ``records_read`` counts the records (games) handed out so far, ``classified_any`` says
    whether one was classified (counted by the batch path, not handed out); the format readers
    keep both.
    """

    def __init__(
        self,
        source: str | os.PathLike[str] | BinaryIO,
        *,
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
        self._caption_word = caption or ""  # self.caption, as a str where the pattern below is set
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
        self.records_read = 0
        self.faults = 0  # bad records that are no record: the unreadable rest of the file
        self.classified_any = False

    @property
    def bytes_read(self) -> int | None:
        """How far into the (compressed) file reading has got, when that can be told."""
        return self.source.bytes_read

    def close(self) -> None:
        self.source.close()

    def numbered_lines(self) -> Iterator[tuple[int, str]]:
        for first, lines in self.source.blocks():
            yield from zip(itertools.count(first), lines)

    def guarded(self, items: Iterator[_Item]) -> Iterator[_Item | BadRecord]:
        """The items, then a bad record for the unreadable rest of a corrupt compressed file.

        Bad records are held back until a record is classified: when the first
        ``NOT_A_COLLECTION`` records are all bad, the file is no chess collection (CollectionError).
        """
        held: list[BadRecord] | None = []
        try:
            for item in items:
                if held is not None:
                    if isinstance(item, BadRecord) and not self.classified_any:
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
            self.faults += 1
            yield fault_record(self.records_read, self.source.line, error)

    def classify_fen(self, number: int, line: int, text: str) -> Item:
        """A FEN (or a placement) classified on its own, python-chess judging it."""
        if text == OVERLONG_LINE:
            return BadRecord(number, line, OVERLONG_REASON)
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

    def classify_epd(self, number: int, line: int, text: str) -> Item:
        """An EPD line classified on its own, with its ``id`` and printed caption."""
        if text == OVERLONG_LINE:
            return self.classify_fen(number, line, text)
        fields = EPD_POSITION.match(text)
        if fields is None:  # it starts with a space other than a blank or a tab
            return self.classify_fen(number, line, text.strip())
        item = self.classify_fen(number, line, fields.group(1))
        if type(item) is Record:
            headers, caption = self.epd_fields(text, fields.end())
            if headers or caption:
                return replace(item, headers=headers, caption=caption)
        return item

    def epd_fields(self, text: str, after: int) -> tuple[dict[str, str], str | None]:
        """An EPD line's ``id`` and printed caption, looked for from ``after`` (its position's end)."""
        found = EPD_ID.search(text, after)
        caption = None
        if self._epd_caption is not None and self._caption_word in text:
            operand = self._epd_caption.search(text, after)
            caption = operand and caption_text(operand[1] if operand[1] is not None else operand[2])
        return ({"id": found[1]} if found else {}), caption


def fault_record(records: int, lines: int, fault: Exception) -> BadRecord:
    """The bad record for the unreadable rest of a file, after its ``records`` records and
    ``lines`` lines."""
    words = f"the {records} record{'' if records == 1 else 's'} before were read"
    return BadRecord(records + 1, lines + 1, f"cannot read further: {fault}; {words}")
