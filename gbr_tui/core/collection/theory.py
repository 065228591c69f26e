"""Theory against play, per class: the tablebase's result of each position within the tables
(won, drawn or lost for White) beside the game's result, and how often the two differ.

Fed the records of a collection read once more when tables are given (the tally's batch path
keeps no positions). A game's
position read back as its placement alone (``--position final``/``all``) has its side to move
from the ply it was reached at and the game's start. The 50-move rule is set aside, as in
``core.tablebases``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import chess

from gbr_tui.core.collection.records import BadRecord, Item, Record
from gbr_tui.core.collection.tally import folded, result_index, stronger_first, swapped_code
from gbr_tui.core.material import Material

if TYPE_CHECKING:
    from gbr_tui.core.tablebases import Tablebases

#: The tally's index of each result for White (1, 0, -1): won, drawn, lost.
_RESULT_INDEX = {1: 0, 0: 1, -1: 2}


@dataclass
class ClassTheory:
    """One class's positions within the tables: won, drawn, lost for White in theory; of those
    in games with a result, how many games were won, drawn, lost, and how many differ."""

    theory: list[int] = field(default_factory=lambda: [0, 0, 0])
    play: list[int] = field(default_factory=lambda: [0, 0, 0])
    differs: int = 0

    @property
    def positions(self) -> int:
        return sum(self.theory)

    @property
    def games(self) -> int:
        return sum(self.play)

    def words(self) -> str:
        """``61% won in theory, 48% won in play (differs 12%)``: White's share of wins."""
        theory = f"{_percent(self.theory[0], self.positions)} won in theory"
        if not self.games:
            return theory
        play = f"{_percent(self.play[0], self.games)} won in play"
        return f"{theory}, {play} (differs {_percent(self.differs, self.games)})"

    @property
    def fields(self) -> dict[str, int]:
        won, drawn, lost = self.theory
        return {
            "positions": self.positions,
            "won": won,
            "drawn": drawn,
            "lost": lost,
            "games": self.games,
            "games_won": self.play[0],
            "games_drawn": self.play[1],
            "games_lost": self.play[2],
            "differs": self.differs,
        }

    def add(self, other: ClassTheory, swapped: bool = False) -> None:
        """``other``'s counts added, White's and Black's exchanged when ``swapped``."""
        order = (2, 1, 0) if swapped else (0, 1, 2)
        for index, source in enumerate(order):
            self.theory[index] += other.theory[source]
            self.play[index] += other.play[source]
        self.differs += other.differs


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "-"


class Theory:
    """Per class and material, what the tables say of the positions counted."""

    def __init__(self, tables: Tablebases) -> None:
        self.tables = tables
        self.by_material: dict[tuple[str, Material], ClassTheory] = {}

    def add(self, record: Record) -> None:
        board = _board(record)
        if board is not None:
            self.add_position(record.code, record.material, board, record.headers.get("Result"))

    def add_position(self, code: str, material: Material, board: chess.Board, result: str | None) -> None:
        """One position of the class ``code`` (of ``material``), with its game's ``Result``
        tag if any; nothing when it is outside the tables."""
        wdl = self.tables.probe_wdl(board)
        if wdl is None:
            return
        white = (wdl > 0) - (wdl < 0)
        if board.turn == chess.BLACK:
            white = -white
        counts = self.by_material.setdefault((code, material), ClassTheory())
        counts.theory[_RESULT_INDEX[white]] += 1
        played = result_index(result)
        if played < 3:  # a known result: 0 White won, 1 drawn, 2 Black won
            counts.play[played] += 1
            counts.differs += played != _RESULT_INDEX[white]

    def add_listed(self, code: str, board: chess.Board, result: str | None, either_colour: bool = False) -> None:
        """One position of a class as the browser lists it, ``code`` the class's (with
        ``either_colour``, folded: the stronger side as White). A position whose stronger side is
        Black is kept under its own code, its twin's, for ``classes(either_colour=True)`` to fold
        as it folds classify's."""
        material = Material.from_board(board)
        if either_colour and not stronger_first(material):
            code = swapped_code(code)
        self.add_position(code, material, board, result)

    def add_items(self, items: Iterable[Item]) -> None:
        """Each record of ``items`` (bad ones skipped)."""
        for item in items:
            if not isinstance(item, BadRecord):
                self.add(item)

    def classes(self, either_colour: bool = False) -> dict[str, ClassTheory]:
        """By code; with ``either_colour`` each class folded with its colour twin, as the tally
        folds them (the stronger side as White)."""
        found: dict[str, ClassTheory] = {}
        for (code, material), counts in self.by_material.items():
            swapped = False
            if either_colour:
                shown_code, _, _ = folded(code, material, None)
                swapped, code = shown_code != code, shown_code
            found.setdefault(code, ClassTheory()).add(counts, swapped)
        return found


def _board(record: Record) -> chess.Board | None:
    """The record's position with its side to move, None when it cannot be told."""
    fen = record.fen
    if fen is None:
        return None
    try:
        if " " in fen:
            return chess.Board(fen)
        board = chess.Board(f"{fen} w - - 0 1")
    except ValueError:
        return None
    start = record.headers.get("FEN")
    white_starts = True
    if start:
        parts = start.split()
        white_starts = len(parts) < 2 or parts[1] != "b"
    if record.ply is not None:
        board.turn = white_starts == (record.ply % 2 == 0)
    return board
