"""One walk over a collection's records: reading yields records and bad records once, and what
is done with them is a consumer's (``Consumer``, in the spirit of python-chess's visitors).

Games are grouped here and nowhere else (``Games``): the records of one game (its classes in
``--position all``) follow one another and share its number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from gbr_tui.core.collection.positions import VouchedLines
from gbr_tui.core.collection.records import BadRecord, Record
from gbr_tui.core.collection.tally import UNKNOWN_RESULT, Tally, result_index
from gbr_tui.core.material import Material

#: A game's classes in the order it entered them: (code, material).
GameClasses = list[tuple[str, Material]]


class Games:
    """Records of games grouped into games: ``add`` each record (its game's number, code,
    material and result), ``close`` after the last; each game is handed to ``on_game(classes,
    result)`` once its last record is added. A game none of whose records is added is none."""

    __slots__ = ("classes", "number", "on_game", "result")

    def __init__(self, on_game: Callable[[GameClasses, int], Any]) -> None:
        self.on_game = on_game
        self.number = 0
        self.classes: GameClasses = []
        self.result = UNKNOWN_RESULT

    def add(self, number: int, code: str, material: Material, result: int) -> None:
        if number != self.number:
            if self.classes:
                self.on_game(self.classes, self.result)
                self.classes = []
            self.number, self.result = number, result
        self.classes.append((code, material))

    def close(self) -> None:
        if self.classes:
            self.on_game(self.classes, self.result)
            self.classes = []


class Consumer:
    """What is done with a collection's records, a method a kind of item (each does nothing
    unless overridden): ``record`` for each classified record (``first``: the first of its
    number, a new game or position), ``bad`` for a bad record, ``vouched`` for a run of lines
    the batch path vouched for (``positions.vouched_positions``), ``game`` for each game once
    its records are read (games only)."""

    def record(self, record: Record, first: bool) -> None:
        pass

    def bad(self, bad: BadRecord) -> None:
        pass

    def vouched(self, lines: VouchedLines) -> None:
        pass

    def game(self, classes: GameClasses, result: int) -> None:
        pass


def walk(items: Iterable[Record | BadRecord | VouchedLines], consumer: Consumer, games: bool) -> None:
    """Hand every item to ``consumer``, in order; with ``games``, each game as well, once its
    records are read (also when reading stops part way: the game read so far)."""
    grouped = Games(consumer.game) if games else None
    record, bad, vouched = consumer.record, consumer.bad, consumer.vouched
    number = 0
    try:
        # The kinds are told apart by exact type (cheaper per item than isinstance), which mypy
        # does not narrow the last branch by: the items are Any here.
        for item in cast(Iterable[Any], items):
            kind = type(item)
            if kind is BadRecord:
                bad(item)
            elif kind is VouchedLines:
                vouched(item)
            else:
                first = item.number != number
                if first:
                    number = item.number
                if grouped is not None:
                    grouped.add(number, item.code, item.material, result_index(item.headers.get("Result")))
                record(item, first)
    finally:
        if grouped is not None:
            grouped.close()


class Counting(Consumer):
    """A tally of the records (``Collection.tally``): each class once a record, a game's once
    a game with its result; bad records counted and handed to ``on_bad``; ``on_block`` called
    every 256 records (games)."""

    def __init__(
        self,
        tally: Tally,
        games: bool,
        on_bad: Callable[[BadRecord], None] | None,
        on_block: Callable[[], None] | None,
        either_colour: bool,
    ) -> None:
        self.tally, self.games, self.on_bad, self.on_block = tally, games, on_bad, on_block
        self.either_colour = either_colour

    def record(self, record: Record, first: bool) -> None:
        if first:
            if not self.games:
                self.tally.classified += 1
            if self.on_block is not None and record.number % 256 == 0:
                self.on_block()
        if not self.games:
            self.tally.add(record.code, record.material)

    def bad(self, bad: BadRecord) -> None:
        self.tally.bad += 1
        if self.on_bad is not None:
            self.on_bad(bad)

    def game(self, classes: GameClasses, result: int) -> None:
        self.tally.add_game(classes, result, self.either_colour)
