"""The solution mode (``v`` or F6 in the editor): moves played from the position set up, typed
as SAN (``Bf2+``) or picked on the board (a man, then its square), refused with the reason when
illegal; the move list shows the main line and its variations, and the code pane follows the
position shown (the class a line ends in is what composers quote).

The moves are a ``core.publish.solution.Solution`` on python-chess's GameNode; leaving the mode
hands it back to the editor, which keeps it for saving (``w``) while the position is unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import chess
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input
from textual.worker import get_current_worker

from gbr_tui.core import GbrError
from gbr_tui.core.explanation import describe_board
from gbr_tui.core.publish.solution import MoveMark, Solution
from gbr_tui.interfaces import GbrAppInterface
from gbr_tui.tablebase_support import ShownVerdict, probe_verdict
from gbr_tui.widgets.board import BoardView
from gbr_tui.widgets.bounded_input import BoundedInput
from gbr_tui.widgets.code_pane import CodePane
from gbr_tui.widgets.key_footer import KeyFooter
from gbr_tui.widgets.move_list import MoveList

if TYPE_CHECKING:
    from gbr_tui.core.solution_marks import MovePath, SolutionMarks
    from gbr_tui.core.tablebase_lines import MarkedMove
    from gbr_tui.core.tablebases import Tablebases

#: A typed move is never longer than this (``exd8=Q+!?``); more is not a move.
MOVE_LENGTH = 16
PICK_HINT = "Enter on a man, then on its square"


#: The keys the move input hands to the screen as it reads them, in order with the letters of
#: the moves: a key typed ahead in a burst (``Bf2+`` Enter F7 ``Kf3`` Enter) acts where it
#: came. (Bindings act when the key comes back up from the input, after the keys behind it.)
ORDERED_KEYS = {
    "enter": "play_typed",
    "f7": "back",
    "f8": "forward",
    "f9": "take_back",
    "ctrl+z": "take_back",
    "f6": "leave",
    "f10": "leave",
    "escape": "leave",
}


class MoveInput(BoundedInput):
    """The move typed: Enter plays it, and the screen's keys act, as the input reads them."""

    async def _on_key(self, event: events.Key) -> None:
        action = ORDERED_KEYS.get(event.key)
        if action is None:
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        await self.screen.run_action(action)


class SolutionBoard(BoardView):
    """The board of the solution mode: the cursor keys, and Enter (or space, or a click) to
    pick a man and then its square. None of the editor's keys: the position is not edited here."""

    HELP_TITLE = "Solution board (when it has the focus)"
    BINDINGS = [
        Binding("up", "step(0, 1)", "Cursor up", show=False, id="solution.board_up"),
        Binding("down", "step(0, -1)", "Cursor down", show=False, id="solution.board_down"),
        Binding("left", "step(-1, 0)", "Cursor left", show=False, id="solution.board_left"),
        Binding("right", "step(1, 0)", "Cursor right", show=False, id="solution.board_right"),
        Binding("enter,space", "screen.pick", "pick", tooltip="Pick a man, then its square", id="solution.pick"),
    ]

    def action_step(self, right: int, up: int) -> None:
        """The cursor a square along, as the board is seen (turned round when flipped)."""
        sign = -1 if self.flipped else 1
        file = chess.square_file(self.cursor) + sign * right
        rank = chess.square_rank(self.cursor) + sign * up
        self.cursor = chess.square(max(0, min(7, file)), max(0, min(7, rank)))

    async def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        square = None if offset is None else self.square_at(offset.x, offset.y)
        if square is not None:
            self.cursor = square
            await self.run_action("screen.pick")


class SolutionScreen(Screen[Solution]):
    """Board and move input on the left, move list and code pane on the right."""

    HELP_TITLE = "Solution mode"
    DEFAULT_CSS = """
    SolutionScreen #solution-panes { height: 1fr; }
    SolutionScreen #solution-left { width: auto; height: 1fr; }
    SolutionScreen SolutionBoard { max-width: 50vw; max-height: 70vh; }
    SolutionScreen #solution-right { width: 1fr; height: 1fr; }
    SolutionScreen MoveList { height: 1fr; min-height: 5; }
    SolutionScreen CodePane { height: 1fr; }
    SolutionScreen SolutionBoard, SolutionScreen MoveList, SolutionScreen CodePane { border: round $secondary; }
    SolutionScreen SolutionBoard:focus, SolutionScreen MoveList:focus, SolutionScreen CodePane:focus {
        border: heavy $accent;
    }
    """
    AUTO_FOCUS = "#solution-move"
    #: How each move is marked in the move list (a function of the position and the move, ""
    #: for none): the tablebase's marks once the app has tables; None marks nothing.
    move_mark: MoveMark | None = None

    BINDINGS = [
        Binding("f6,f10,escape", "leave", "done", tooltip="Back to the editor, the solution kept", id="solution.done"),
        Binding("f7", "back", "back", tooltip="One move back", id="solution.back"),
        Binding("f8", "forward", "on", tooltip="One move on along the line", id="solution.forward"),
        Binding(
            "f9,ctrl+z",
            "take_back",
            "take back",
            tooltip="Remove the move shown and what follows",
            id="solution.take_back",
        ),
        # Priority: in the order keys come, as the save dialog's (moves typed after a Tab go on).
        Binding("tab", "app.focus_next", "Next pane", show=False, priority=True, id="solution.next_pane"),
        Binding(
            "shift+tab", "app.focus_previous", "Previous pane", show=False, priority=True, id="solution.previous_pane"
        ),
    ]

    def __init__(self, solution: Solution, stipulation: str | None, flipped: bool = False) -> None:
        super().__init__()
        self.solution = solution
        self.stipulation = stipulation
        self.flipped = flipped
        #: The square a man was picked on (Enter on the board), waiting for its target.
        self.picked: chess.Square | None = None
        #: The tablebase's marks found so far (None until the app's tables mark a move).
        self.marks: SolutionMarks | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="solution-panes"):
            with Vertical(id="solution-left"):
                yield SolutionBoard(self.solution.board)
                yield MoveInput(
                    placeholder="a move: Bf2+", max_length=MOVE_LENGTH, id="solution-move", select_on_focus=False
                )
            with Vertical(id="solution-right"):
                yield MoveList(id="solution-moves")
                yield CodePane()
        yield KeyFooter()

    def on_mount(self) -> None:
        board = self.query_one(SolutionBoard)
        board.flipped = self.flipped
        board.ascii_mode = cast(GbrAppInterface, self.app).ascii_mode
        board.border_subtitle = PICK_HINT
        board.border_title = "Board"
        self.query_one(MoveList).border_title = "Solution"
        self.query_one(CodePane).border_title = "Code of the position shown"
        self._show()

    def _show(self) -> None:
        """Board, move list and code pane after the node shown."""
        board = self.solution.board
        view = self.query_one(SolutionBoard)
        view.set_board(board)
        view.redraw()
        self.query_one(MoveList).show(self.solution.game, self.solution.node, self.move_mark)
        rule = cast(GbrAppInterface, self.app).rule
        self.query_one(CodePane).description = describe_board(board, self.stipulation, rule)
        tables = cast(GbrAppInterface, self.app).tablebases.tables()
        if tables is not None:
            probe_verdict(self, tables, board, self.stipulation, self._show_verdict)
        side = "White" if board.turn == chess.WHITE else "Black"
        self.query_one("#solution-move", Input).border_title = f"{side} to move"
        self.mark_moves()

    def _show_verdict(self, fen: str, stipulation: str | None, shown: ShownVerdict | None) -> None:
        """The tablebase's verdict on the position shown, unless another is shown since (the
        stipulation is the study's throughout)."""
        if fen == self.solution.board.fen():
            for pane in self.query(CodePane):  # none once the screen has gone
                pane.verdict = shown

    def mark_moves(self) -> None:
        """The tablebase's marks on the lines with a move not yet marked, found in a worker so
        that typing never waits; a newer solution's marking replaces an older one's. Without
        tables nothing is probed or imported."""
        tables = cast(GbrAppInterface, self.app).tablebases.tables()
        if tables is None:
            return
        from gbr_tui.core.solution_marks import SolutionMarks, solution_lines

        if self.marks is None:
            self.marks = SolutionMarks()
        lines = self.marks.unmarked(solution_lines(self.solution.game))
        if lines:
            self._mark(tables, self.solution.game.board(), lines)

    @work(thread=True, exclusive=True, group="solution-marks", exit_on_error=False)
    def _mark(self, tables: Tablebases, start: chess.Board, lines: list[MovePath]) -> None:
        from gbr_tui.core.solution_marks import mark_lines

        worker = get_current_worker()
        found = mark_lines(tables, start, lines, self.stipulation, lambda: worker.is_cancelled)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show_marks, found)

    def _show_marks(self, found: dict[MovePath, MarkedMove | None]) -> None:
        if self.marks is None:
            return
        self.marks.add(found)
        self.move_mark = self.marks.words
        for move_list in self.query(MoveList):  # none once the screen has gone
            move_list.show(self.solution.game, self.solution.node, self.move_mark)
        cast(GbrAppInterface, self.app).tablebases.say_problems()  # a damaged table met

    def _refused(self, error: GbrError) -> None:
        self.app.bell()
        self.notify(error.message, title="Not played", severity="warning", markup=False)

    def action_play_typed(self) -> None:
        """Play the move typed; refused, it stays there to be corrected."""
        move_input = self.query_one("#solution-move", Input)
        text = move_input.value.strip()
        if not text:
            return
        try:
            self.solution.play(text)
        except GbrError as error:
            self._refused(error)
            return
        move_input.value = ""
        self._show()

    def action_pick(self) -> None:
        """The first Enter picks the man on the cursor's square, the second plays it there."""
        view = self.query_one(SolutionBoard)
        board = self.solution.board
        square = view.cursor
        if self.picked is None or self.picked == square:
            piece = board.piece_at(square)
            if self.picked == square or piece is None or piece.color != board.turn:
                self.picked = None
                view.border_subtitle = PICK_HINT
                return
            self.picked = square
            view.border_subtitle = f"{chess.square_name(square)} to: Enter on its square"
            return
        move = chess.Move(self.picked, square)
        if board.piece_type_at(self.picked) == chess.PAWN and chess.square_rank(square) in (0, 7):
            move.promotion = chess.QUEEN  # another man: type it (h8=N)
        self.picked = None
        view.border_subtitle = PICK_HINT
        try:
            self.solution.play_move(move)
        except GbrError as error:
            self._refused(error)
            return
        self._show()

    def on_move_list_node_chosen(self, message: MoveList.NodeChosen) -> None:
        if message.node is not self.solution.node:
            self.solution.go_to(message.node)
            self._show()

    def action_back(self) -> None:
        if self.solution.back():
            self._show()

    def action_forward(self) -> None:
        if self.solution.forward():
            self._show()

    def action_take_back(self) -> None:
        if self.solution.take_back():
            self._show()
        else:
            self.notify("No move to take back", severity="warning")

    def action_leave(self) -> None:
        if self.is_active:  # a second leave key typed ahead, before the screen has gone, does nothing
            self.dismiss(self.solution)
