"""The move list pane of the solution mode: the main line and its variations, a move a row, the
move shown highlighted; choosing a row (Enter, a click) shows its position.

Only a choice moves the position shown, not a highlight: the list highlights the move shown each
time it is filled, and those highlights arrive as messages after moves typed ahead."""

from __future__ import annotations

import chess.pgn
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from gbr_tui.core.publish.solution import MoveMark, solution_rows


class MoveList(OptionList):
    """A row a move (``solution_rows``), variations indented; ``show`` fills it."""

    class NodeChosen(Message):
        """A row was chosen: show the position after its move."""

        def __init__(self, node: chess.pgn.GameNode) -> None:
            super().__init__()
            self.node = node

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.nodes: list[chess.pgn.GameNode] = []

    def show(self, game: chess.pgn.Game, shown: chess.pgn.GameNode, mark: MoveMark | None = None) -> None:
        """The rows of ``game``, the row of ``shown`` highlighted (none at the start), each
        move with its ``mark`` (tablebase marks, where they are set)."""
        rows = solution_rows(game, mark)
        self.clear_options()
        self.nodes = [node for node, _, _ in rows]
        self.add_options([Option(("  " * depth) + words) for _, depth, words in rows])
        self.highlighted = self.nodes.index(shown) if shown in self.nodes else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.NodeChosen(self.nodes[event.option_index]))
