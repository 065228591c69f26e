"""The editor's part in publishing a study: the solution mode (``v``, F6), the solution kept for
saving, and the diagram written from the editor (``D``). Kept apart from ``editor.py``, whose
keys for setting up a position are its own."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual.binding import Binding

from gbr_tui.core import GbrError
from gbr_tui.interfaces import GbrAppInterface

if TYPE_CHECKING:
    import chess.pgn
    from textual.screen import Screen

    from gbr_tui.core.publish.solution import Solution
    from gbr_tui.core.setup import PositionSetup
    from gbr_tui.widgets.board import BoardView

#: The editor's keys for publishing (in ``EditorScreen.BINDINGS``).
PUBLISHING_BINDINGS = [
    Binding(
        "v,f6",
        "solve",
        "Solution mode: play the moves of the study's solution from the position",
        show=False,
        id="editor.solve",
    ),
    Binding(
        "D", "diagram", "Write the position's diagram with its caption (SVG, PNG, PDF)", show=False, id="editor.diagram"
    ),
]


class PublishingEditor:
    """What ``EditorScreen`` mixes in: the solution entered for its position, and its diagram."""

    setup: PositionSetup
    #: The solution entered (``v``) or loaded with a study; kept while it starts from the position.
    solution: Solution | None = None

    if TYPE_CHECKING:

        @property
        def board_view(self) -> BoardView: ...

    @property
    def _screen(self) -> Screen:
        """The editor screen this is part of."""
        return cast("Screen", self)

    def solution_game(self) -> chess.pgn.Game | None:
        """The solution's game, when it starts from the position on the board now."""
        if self.solution is None or self.solution.game.board().fen() != self.setup.board.fen():
            return None
        return self.solution.game

    def keep_solution(self, game: chess.pgn.Game | None) -> None:
        """A solution loaded with a study (from a PGN): entered as if played here."""
        from gbr_tui.core.publish.solution import Solution

        self.solution = None if game is None else Solution(game.board(), game)

    def action_solve(self) -> None:
        """The solution mode, on the solution entered before when it still fits the position;
        refused, with the reasons, for a position that is not legal (no moves can follow it)."""
        from gbr_tui.core.publish.solution import Solution
        from gbr_tui.core.validity import position_warnings
        from gbr_tui.screens.solution import SolutionScreen

        problems = position_warnings(self.setup.board)
        if problems:
            words = "; ".join(problems)
            self._screen.notify(
                f"No moves can be played from this position: {words}", title="Solution", severity="error", markup=False
            )
            return
        game = self.solution_game()
        solution = Solution(self.setup.board.copy(), game)
        self._screen.app.push_screen(
            SolutionScreen(solution, self.setup.stipulation, self.board_view.flipped), callback=self._solved
        )

    def _solved(self, solution: Solution | None) -> None:
        if solution is not None:
            self.solution = solution
            moves = len(list(solution.game.mainline_moves()))
            self._screen.notify(
                f"Solution kept: {moves} plies in its main line; w saves it with the study", title="Solution"
            )

    def action_diagram(self) -> None:
        """The file name, then the diagram written with the position's caption."""
        from gbr_tui.dialogs.diagram import DiagramDialog

        self._screen.app.push_screen(DiagramDialog(), callback=self._write_diagram)

    def _write_diagram(self, path: Path | None) -> None:
        from gbr_tui.core.captions import write_caption
        from gbr_tui.core.publish.diagram import DiagramStyle, diagram_svg
        from gbr_tui.core.publish.rendering import write_diagram
        from gbr_tui.core.text import printable

        if path is None:
            return
        board, stipulation = self.setup.board, self.setup.stipulation
        try:
            caption = write_caption(board, "compact", stipulation, rule=cast(GbrAppInterface, self._screen.app).rule)
        except GbrError:
            caption = None  # not one king a side: the board alone
        try:
            write_diagram(diagram_svg(board, caption, DiagramStyle(flipped=self.board_view.flipped)), path)
        except GbrError as error:
            self._screen.notify(error.message, title="No diagram", severity="error", markup=False)
            return
        self._screen.notify(f"Wrote the diagram to {printable(str(path), 200)}", title="Diagram", markup=False)
