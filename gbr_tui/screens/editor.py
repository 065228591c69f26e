"""The editor screen: set up a position from the keyboard and read its code live.

Data flows one way: a key edits ``EditorScreen.board`` (the one board of the app), the screen
keeps castling rights and en passant consistent, then the panes redraw from the core's answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import chess
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.screen import Screen
from textual.widgets import Footer, Header

from gbr_tui.core import Rule
from gbr_tui.core.examples import Example, arrange
from gbr_tui.screens import COLLECTION_SCREEN
from gbr_tui.widgets.board import BoardView
from gbr_tui.widgets.code_pane import CodePane
from gbr_tui.widgets.examples_table import ExamplesPane

#: What an undo step restores: the full FEN (en passant square kept as set) and the stipulation.
Snapshot = tuple[str, str | None]

PIECE_NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}
PLACE = Binding.Group("put", compact=True)


def _place_bindings() -> list[Binding]:
    bindings = []
    for symbol in "KQRBNPkqrbnp":
        side = "White" if symbol.isupper() else "Black"
        bindings.append(
            Binding(
                symbol,
                f"screen.place('{symbol}')",
                "put",
                tooltip=f"Put a {side} {PIECE_NAMES[symbol.upper()]} on the cursor's square",
                group=PLACE,
                id=f"board.place_{side.lower()}_{PIECE_NAMES[symbol.upper()]}",
            )
        )
    return bindings


def _jump_bindings() -> list[Binding]:
    """After ``g``: a file letter, then a rank digit. They share keys with the editing keys
    (``b`` is also a Black bishop); ``EditorScreen.check_action`` lets only one of them act."""
    files = [
        Binding(name, f"screen.jump_file('{name}')", "After g: the file", show=False, id=f"board.go_to_file_{name}")
        for name in chess.FILE_NAMES
    ]
    ranks = [
        Binding(name, f"screen.jump_rank('{name}')", "After g: the rank", show=False, id=f"board.go_to_rank_{name}")
        for name in chess.RANK_NAMES
    ]
    return files + ranks


class BoardEditor(BoardView):
    """The board pane: ``BoardView`` plus the keys that edit it.

    The cursor belongs to the widget; every edit, and the ``g`` jump, is an action of the editor
    screen, which owns the board and the undo history. Key order is kept because every key acts
    through the bindings, in the order the keys came.
    """

    HELP_TITLE = "Board (when it has the focus)"
    BINDINGS = [
        Binding("up", "move(0, 1)", "Cursor up", show=False, id="board.up"),
        Binding("down", "move(0, -1)", "Cursor down", show=False, id="board.down"),
        Binding("left", "move(-1, 0)", "Cursor left", show=False, id="board.left"),
        Binding("right", "move(1, 0)", "Cursor right", show=False, id="board.right"),
        Binding("g", "screen.start_jump", "Go to a square (then e.g. e4)", show=False, id="board.go_to"),
        *_place_bindings(),
        Binding(
            "x,space,delete,backspace",
            "screen.empty",
            "Empty the square",
            key_display="x",
            show=False,
            id="board.empty",
        ),
        Binding("c", "screen.clear", "Clear the board", show=False, id="board.clear"),
        Binding("s", "screen.start_position", "Start position", show=False, id="board.start"),
        Binding("f", "screen.flip", "Flip the board", show=False, id="board.flip"),
        Binding("t", "screen.toggle_turn", "Toggle the side to move", show=False, id="board.turn"),
        Binding("plus", "screen.stipulation('+')", "Stipulation + (win; again to unset)", show=False, id="board.win"),
        Binding(
            "equals_sign",
            "screen.stipulation('=')",
            "Stipulation = (draw; again to unset)",
            show=False,
            id="board.draw",
        ),
        Binding("u", "screen.undo", "undo", tooltip="Undo the last edit", id="board.undo"),
        Binding("U", "screen.redo", "Redo", show=False, id="board.redo"),
        Binding("i", "screen.input_position", "load", tooltip="Load a FEN or a code you type", id="board.input"),
        Binding("y", "screen.copy_code", "copy", tooltip="Copy the code (OSC 52)", id="board.copy_code"),
        Binding("Y", "screen.copy_fen", "Copy the FEN (OSC 52)", show=False, id="board.copy_fen"),
        *_jump_bindings(),  # last: the keys they share keep their places in the Footer
        Binding("f10,escape", "screen.cancel_jump", "After g: cancel", show=False, id="board.go_to_cancel"),
    ]

    def action_move(self, right: int, up: int) -> None:
        """Move the cursor as the board is seen: up is towards the top of the screen."""
        if self.flipped:
            right, up = -right, -up
        file = min(7, max(0, chess.square_file(self.cursor) + right))
        rank = min(7, max(0, chess.square_rank(self.cursor) + up))
        self.cursor = chess.square(file, rank)

    def on_click(self, event: events.Click) -> None:
        """A click on a square puts the cursor there."""
        offset = event.get_content_offset(self)
        square = None if offset is None else self.square_at(offset.x, offset.y)
        if square is not None:
            self.cursor = square

    def watch_cursor(self) -> None:
        self.border_title = f"Board · {chess.square_name(self.cursor)}"


class EditorScreen(Screen):
    """Board, code and examples panes around one ``chess.Board``."""

    # The board is bounded by the terminal's size (vw, vh); the code pane and the examples
    # share what is left. Narrow: board and code side by side over the examples; wide: board
    # over code, examples on the right.
    DEFAULT_CSS = """
    EditorScreen #panes { layout: vertical; }
    EditorScreen #position { layout: horizontal; height: auto; max-height: 60vh; }
    EditorScreen BoardEditor { max-width: 50vw; max-height: 60vh; margin-right: 1; }
    /* As tall as the board, at least 14 rows, whatever it shows: panes must not jump as you edit. */
    EditorScreen CodePane { height: 1fr; min-height: 14; }
    EditorScreen ExamplesPane > DataTable { overflow-x: hidden; }
    EditorScreen.-wide #panes { layout: horizontal; }
    EditorScreen.-wide #position { layout: vertical; width: auto; height: 1fr; max-height: 100%; }
    EditorScreen.-wide BoardEditor { max-width: 45vw; max-height: 62vh; margin-right: 0; }
    EditorScreen.-wide CodePane { width: 100%; min-width: 56; }
    EditorScreen.-wide ExamplesPane > DataTable { overflow-x: auto; }
    EditorScreen.-short Header, EditorScreen.-low Header { display: none; }
    /* Compact (below 80 columns): the code as a bold line, its big digits would crowd out the
       material and the side to move. */
    EditorScreen.-slim CodePane Digits { display: none; }
    /* ... and the Footer without the men's keys (F1 lists them), so that help and the palette
       keep their places. */
    EditorScreen.-slim Footer KeyGroup, EditorScreen.-slim Footer FooterLabel { display: none; }
    EditorScreen.-low CodePane { min-height: 0; }
    EditorScreen BoardEditor, EditorScreen CodePane, EditorScreen ExamplesPane { border: round $secondary; }
    /* Heavy, not only coloured: the focused pane shows under NO_COLOR too. */
    EditorScreen BoardEditor:focus, EditorScreen CodePane:focus, EditorScreen ExamplesPane:focus-within {
        border: heavy $accent;
    }
    /* One space between a key and its description: the keys that matter fit in 80 columns. */
    EditorScreen FooterKey .footer-key--key { padding: 0 0 0 1; }
    EditorScreen FooterKey .footer-key--description { padding: 0 0 0 1; }
    """

    HELP_TITLE = "Editor"
    # -slim and -low: the compact layout, from 60x20 (smaller, the app says it is too small).
    HORIZONTAL_BREAKPOINTS = [(0, "-slim"), (80, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-low"), (24, "-short"), (30, "-tall")]
    AUTO_FOCUS = "BoardEditor"

    BINDINGS = [
        Binding("tab", "app.focus_next", "Next pane", show=False, id="editor.next_pane"),
        Binding("shift+tab", "app.focus_previous", "Previous pane", show=False, id="editor.previous_pane"),
        Binding("ctrl+z", "undo", "Undo", show=False, id="editor.undo"),
        Binding("ctrl+y", "redo", "Redo", show=False, id="editor.redo"),
        # Not in the Footer: at 80 columns they would push out quit, decode and help.
        Binding(
            "f3,o",
            "open_collection",
            "Open a collection (PGN, EPD, FEN, CSV) to browse by class",
            show=False,
            id="editor.open_collection",
        ),
        Binding(
            "f4,l", "show_collection", "Back to the collection opened last", show=False, id="editor.show_collection"
        ),
    ]

    #: The file letter typed after ``g``; "" right after ``g``; None when no jump is pending.
    jump: str | None = None

    def __init__(self, board: chess.Board | None = None, stipulation: str | None = None) -> None:
        super().__init__()
        self.board = board if board is not None else chess.Board(None)
        self.stipulation = stipulation
        self.rule = Rule.COUNT
        self.undo_stack: list[Snapshot] = []
        self.redo_stack: list[Snapshot] = []

    def compose(self) -> ComposeResult:
        # Textual sets the breakpoint classes on the first Resize, which comes after the first
        # layout: set now, the panes are styled and laid out once, not twice, at start-up.
        width, height = self.app.size
        horizontal = self._get_breakpoint_classes(width, self.HORIZONTAL_BREAKPOINTS)
        self.add_class(*horizontal, *self._get_breakpoint_classes(height, self.VERTICAL_BREAKPOINTS))
        yield Header()
        with Container(id="panes"):
            with Container(id="position"):
                yield BoardEditor(self.board)
                yield CodePane()
            yield ExamplesPane(self.rule)
        yield Footer()

    def on_mount(self) -> None:
        self.board_view.ascii_mode = getattr(self.app, "ascii_mode", False)
        self.code_pane.border_title = "Code"
        self.query_one(ExamplesPane).border_title = "Examples"
        self._redraw()
        # The code pane's text is styled when written: a new theme needs it written again.
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._redraw())

    @property
    def board_view(self) -> BoardEditor:
        return self.query_one(BoardEditor)

    @property
    def code_pane(self) -> CodePane:
        return self.query_one(CodePane)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool:
        """While ``g`` waits for its square, the square's keys act and every other key waits."""
        if action in ("jump_file", "cancel_jump"):
            return self.jump is not None
        if action == "jump_rank":
            return bool(self.jump)
        if action == "open_collection":
            return self.jump is None and not self.app.served
        if action == "show_collection":
            return self.jump is None and self.app.is_screen_installed(COLLECTION_SCREEN)
        return self.jump is None

    def action_start_jump(self) -> None:
        self._set_jump("")

    def action_jump_file(self, file: str) -> None:
        self._set_jump(file)

    def action_jump_rank(self, rank: str) -> None:
        self.board_view.cursor = chess.parse_square(f"{self.jump}{rank}")
        self._set_jump(None)

    def action_cancel_jump(self) -> None:
        self._set_jump(None)

    def _set_jump(self, jump: str | None) -> None:
        self.jump = jump
        self.board_view.border_subtitle = "" if jump is None else f"go to: {jump}_"
        self.refresh_bindings()

    # The one place where the board changes --------------------------------------------------

    def snapshot(self) -> Snapshot:
        return self.board.fen(en_passant="fen"), self.stipulation

    def _restore(self, snapshot: Snapshot) -> None:
        fen, self.stipulation = snapshot
        self.board.set_fen(fen)

    @contextmanager
    def _editing(self) -> Iterator[chess.Board]:
        """Around every edit: afterwards, make it consistent, record it for undo, redraw."""
        before = self.snapshot()
        yield self.board
        self.board.castling_rights = self.board.clean_castling_rights()
        if self.board.ep_square is not None and self.board.status() & chess.STATUS_INVALID_EP_SQUARE:
            self.board.ep_square = None
        if self.snapshot() != before:
            self.undo_stack.append(before)
            self.redo_stack.clear()
        self._redraw()

    def _redraw(self) -> None:
        self.board_view.refresh()
        self.code_pane.show(self.board, self.stipulation, self.rule)

    def load(self, board: chess.Board, stipulation: str | None, message: str) -> None:
        """Replace the position (one undo step) and say what was loaded."""
        with self._editing():
            self.board.set_fen(board.fen(en_passant="fen"))
            self.stipulation = stipulation
        self.notify(message, title="Loaded", markup=False)

    # Edits ----------------------------------------------------------------------------------

    def action_place(self, symbol: str) -> None:
        with self._editing() as board:
            board.set_piece_at(self.board_view.cursor, chess.Piece.from_symbol(symbol))

    def action_empty(self) -> None:
        with self._editing() as board:
            board.remove_piece_at(self.board_view.cursor)

    def action_clear(self) -> None:
        with self._editing() as board:
            board.clear()

    def action_start_position(self) -> None:
        with self._editing() as board:
            board.reset()

    def action_toggle_turn(self) -> None:
        with self._editing() as board:
            board.turn = not board.turn

    def action_stipulation(self, sign: str) -> None:
        """Set ``+`` or ``=``; the same key again unsets it."""
        with self._editing():
            self.stipulation = None if self.stipulation == sign else sign

    def action_undo(self) -> None:
        self._step(self.undo_stack, self.redo_stack, "undo")

    def action_redo(self) -> None:
        self._step(self.redo_stack, self.undo_stack, "redo")

    def _step(self, source: list[Snapshot], target: list[Snapshot], name: str) -> None:
        if not source:
            self.notify(f"Nothing to {name}", severity="warning")
            return
        target.append(self.snapshot())
        self._restore(source.pop())
        self._redraw()

    def load_example(self, example: Example) -> None:
        """The example's material in a legal arrangement; side to move and stipulation stay."""
        board = arrange(example.material, self.board.turn)
        self.load(board, self.stipulation, f"{example.code(self.rule, short=False)} {example.name}")

    def on_examples_pane_chosen(self, message: ExamplesPane.Chosen) -> None:
        self.load_example(message.example)

    # View and clipboard ---------------------------------------------------------------------

    def action_flip(self) -> None:
        self.board_view.flipped = not self.board_view.flipped

    def toggle_letters(self) -> None:
        self.board_view.ascii_mode = not self.board_view.ascii_mode

    def set_rule(self, rule: Rule) -> None:
        self.rule = rule
        self.query_one(ExamplesPane).set_rule(rule)
        self.code_pane.border_title = "Code" if rule == Rule.COUNT else "Code · promoted rule"
        self._redraw()

    def action_copy_code(self) -> None:
        code = self.code_pane.shown_code
        if code is None:
            self.notify("This board has no code: a side has more than eight pawns", severity="error")
            return
        self.app.copy_to_clipboard(code)
        self.notify(f"Copied the code {code}", title="Clipboard", markup=False)

    def action_copy_fen(self) -> None:
        fen = self.board.fen()
        self.app.copy_to_clipboard(fen)
        self.notify(f"Copied the FEN {fen}", title="Clipboard", markup=False)

    def action_input_position(self) -> None:
        from gbr_tui.screens.position_input import PositionInputScreen

        self.app.push_screen(PositionInputScreen(), callback=self._input_done)

    def action_open_collection(self) -> None:
        from gbr_tui.screens.collection import ask_for_collection

        ask_for_collection(self.app)

    def action_show_collection(self) -> None:
        from gbr_tui.screens.collection import show_collection

        show_collection(self.app)

    def _input_done(self, result) -> None:
        if isinstance(result, chess.Board):
            self.load(result, self.stipulation, f"FEN {result.fen()}")
        elif result is not None:
            self.app.load_decoded(result)
