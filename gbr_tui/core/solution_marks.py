"""Tablebase marks on every move of a solution's tree: the main line and each variation marked
by ``tablebase_lines.mark_line`` from the start, each mark kept under the moves that lead to it.

A move's mark depends on the line before it (the result held to, a spoiling move earlier), so
the moves from the start are its key: a line marked once keeps its marks while moves are added
to it or taken back elsewhere, and only lines with a move not yet marked are marked again.
Probing is imported only when a line is marked (tables set), never on the way to a frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import chess
import chess.pgn

if TYPE_CHECKING:
    from gbr_tui.core.tablebase_lines import MarkedMove
    from gbr_tui.core.tablebases import Tablebases

#: The moves from the start of the solution up to and with one move.
MovePath = tuple[chess.Move, ...]


def solution_lines(game: chess.pgn.GameNode) -> list[MovePath]:
    """Each line of ``game`` from its start to a last move: the main line, then each
    variation with the moves before it, followed to its end."""
    lines: list[MovePath] = []
    waiting: list[tuple[chess.pgn.GameNode, MovePath]] = [(game, ())]
    while waiting:
        node, path = waiting.pop()
        if not node.variations and path:
            lines.append(path)
        waiting += [(child, (*path, child.move)) for child in reversed(node.variations)]
    return lines


def mark_lines(
    tables: Tablebases,
    start: chess.Board,
    lines: Sequence[MovePath],
    stipulation: str | None,
    cancelled: Callable[[], bool] = lambda: False,
) -> dict[MovePath, MarkedMove | None]:
    """The mark of each move of ``lines`` (played from ``start``), None where it is not judged;
    stops between lines once ``cancelled`` says so (a newer solution to mark)."""
    from gbr_tui.core.tablebase_lines import mark_line

    found: dict[MovePath, MarkedMove | None] = {}
    for line in lines:
        if cancelled():
            break
        for length, marked in enumerate(mark_line(tables, start, line, stipulation), start=1):
            found[line[:length]] = marked
    return found


class SolutionMarks:
    """The marks found so far for one solution's start and stipulation."""

    def __init__(self) -> None:
        self.by_path: dict[MovePath, MarkedMove | None] = {}

    def unmarked(self, lines: Sequence[MovePath]) -> list[MovePath]:
        """The lines with a move not marked yet (a line marked whole has its last move marked)."""
        return [line for line in lines if line not in self.by_path]

    def add(self, found: dict[MovePath, MarkedMove | None]) -> None:
        self.by_path.update(found)

    def words(self, board: chess.Board, move: chess.Move) -> str:
        """The mark of ``move`` played on ``board`` (whose move stack runs from the start), in
        words; "" where it is not marked (yet, or not judged): a move list's ``MoveMark``."""
        marked = self.by_path.get((*board.move_stack, move))
        return "" if marked is None else f"— {marked.words()}"
