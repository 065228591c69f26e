"""Reading a collection's records: a file opened (``reading.Reading``) and read as its format's
module reads it (``formats``): FEN lines, EPD, CSV with a FEN column, JSON Lines with a ``fen``
field, PGN games. A record keeps the caption printed with it when the collection names where
captions are (``caption``: a PGN tag, an EPD opcode, a CSV column or a JSON field of that name;
``code_column`` for another CSV column).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from gbr_tui.core.code import Rule
from gbr_tui.core.collection.codecs import codec_by_suffix
from gbr_tui.core.collection.formats import detect_format, format_module
from gbr_tui.core.collection.reading import Reading
from gbr_tui.core.collection.records import BadRecord, CollectionError, Format, GamePositions, Item
from gbr_tui.core.collection.source import Source, looks_binary
from gbr_tui.core.collection.tally import Tally
from gbr_tui.core.collection.walk import Counting, walk

#: Where a printed caption is looked for unless the collection says otherwise: PGN's tag, EPD's
#: opcode, a CSV column, a JSON field of this name.
CAPTION_NAME = "GBR"


class Collection(Reading):
    """One file (or stdin, given as ``"-"`` or a binary stream) read as a collection of its
    format (``format``, told from its first lines when not given).

    ``records()`` yields every record, classified or bad; ``tally()`` counts classes the fast
    way. Either may be called once.
    """

    def __init__(
        self,
        source: str | os.PathLike[str] | BinaryIO,
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
        super().__init__(
            source,
            game_positions=game_positions,
            fen_column=fen_column,
            rule=rule,
            name=name,
            cancelled=cancelled,
            caption=caption,
            code_column=code_column,
            min_plies=min_plies,
            part=part,
        )
        if not part and looks_binary(self.source.head):
            self.source.close()
            raise CollectionError(f"{self.name}: not a chess collection: binary data{_binary_note(self.source)}")
        self.format = Format(format) if format else detect_format(self.source.head)
        #: The module that reads the format (``formats``).
        self.reader = format_module(self.format)

    def __enter__(self) -> Collection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def records(self, fens: bool = True) -> Iterator[Item]:
        """Every record in file order; a game in ``all`` mode gives one Record per class.

        ``fens=False`` leaves the FEN of replayed games' positions out (it costs time).
        """
        return self.guarded(self.reader.records(self, fens))

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
        games = self.reader.HOLDS_GAMES
        walk(
            self.guarded(self.reader.counted(self, tally, on_block)),
            Counting(tally, games, on_bad, on_block, either_colour),
            games,
        )
        if games:  # every game read well, also one whose classes were all too short to keep
            tally.classified = self.records_read - (tally.bad - self.faults)
        return tally


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
