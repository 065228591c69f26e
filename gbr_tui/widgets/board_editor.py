"""The board pane: the board view plus the keys that set up a position on it."""

from __future__ import annotations

from typing import cast

import chess
from textual import events
from textual.binding import Binding
from textual.message import Message

from gbr_tui.interfaces import TypingScreen
from gbr_tui.widgets.board import BoardView

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


#: The keys of men typed after ``m`` (``Kg3``, ``xg3``, ``kg1``), by key name: the characters they type.
TYPING_KEYS = {
    **{char: char for char in "KQRBNPkqrbnpx" + "".join(chess.FILE_NAMES) + "".join(chess.RANK_NAMES)},
    "space": " ",
    "comma": ",",
}


def _typing_bindings() -> list[Binding]:
    """After ``m``: a man's keys act through the bindings, as every board key does, so that keys
    typed ahead (``m K g 3 enter`` in one burst) act in the order they came. (Read as keys by
    the screen, they came there before the ``m``'s binding had acted.) They share keys with the
    editing keys; ``check_action`` lets only one of them act. No id: F1 lists ``m`` alone."""
    bindings = [Binding(key, f"type_key({char!r})", show=False) for key, char in TYPING_KEYS.items()]
    return [*bindings, Binding("backspace", "typing_back", show=False)]


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
        Binding(
            "m",
            "screen.start_typing",
            "Type men with their squares: Kg3 Ba2 h6, / for Black's, kg1 a Black king, xg3 empties",
            show=False,
            id="board.type_men",
        ),
        *_place_bindings(),
        Binding(
            "x,space,delete,backspace",
            "screen.empty",
            "Empty the square",
            key_display="x",
            show=False,
            id="board.empty",
        ),
        Binding(
            "a",
            "screen.find_similar",
            "Anticipated? The records of the open collection like this board (turned, a man away)",
            show=False,
            id="board.anticipation",
        ),
        Binding("c", "screen.clear", "Clear the board", show=False, id="board.clear"),
        Binding("s", "screen.start_position", "Start position", show=False, id="board.start"),
        Binding("f", "screen.flip", "Flip the board", show=False, id="board.flip"),
        Binding("t", "screen.toggle_turn", "Toggle the side to move", show=False, id="board.turn"),
        Binding(
            "e",
            "screen.en_passant",
            "En passant square: the cursor's (again: none)",
            show=False,
            id="board.en_passant",
        ),
        Binding("C", "screen.castling", "Castling rights (as in FEN: KQkq, -)", show=False, id="board.castling"),
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
        Binding(
            "y",
            "screen.copy_menu",
            "copy",
            tooltip="Copy the code, a caption, the FEN or the piece list (a menu; OSC 52)",
            id="board.copy_menu",
        ),
        Binding("Y", "screen.copy_form('f')", "Copy the FEN (OSC 52)", show=False, id="board.copy_fen"),
        *_jump_bindings(),  # last: the keys they share keep their places in the Footer
        Binding("f10,escape", "screen.cancel_jump", "After g: cancel", show=False, id="board.go_to_cancel"),
        # After m the Footer shows "/ other side's men  ⏎ stop typing": each key by its own
        # words (once "f10 done / other side", read as "f10 switches sides").
        Binding(
            "slash", "typing_side", "other side's men", tooltip="After m: the other side's men", id="board.typing_side"
        ),
        Binding("enter", "stop_typing", "stop typing", tooltip="After m: stop typing men", id="board.typing_done"),
        Binding("escape,f10", "stop_typing", "After m: stop typing men", show=False, id="board.typing_stop"),
        *_typing_bindings(),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool:
        """The keys of typing men act, and show in the Footer, only while men are typed. Asked
        here, of the board's own screen: ``screen.`` would name the screen on top (a dialog)."""
        if action in ("stop_typing", "typing_side", "type_key", "typing_back"):
            return getattr(self.screen, "typing", None) is not None
        return True

    def action_stop_typing(self) -> None:
        cast(TypingScreen, self.screen).action_stop_typing()

    def action_typing_side(self) -> None:
        cast(TypingScreen, self.screen).action_typing_side()

    def action_type_key(self, char: str) -> None:
        cast(TypingScreen, self.screen).type_key(char)

    def action_typing_back(self) -> None:
        cast(TypingScreen, self.screen).typing_back()

    def action_move(self, right: int, up: int) -> None:
        """Move the cursor as the board is seen: up is towards the top of the screen."""
        if self.flipped:
            right, up = -right, -up
        file = min(7, max(0, chess.square_file(self.cursor) + right))
        rank = min(7, max(0, chess.square_rank(self.cursor) + up))
        self.cursor = chess.square(file, rank)

    class SquareClicked(Message):
        """A square was clicked (the cursor is on it now)."""

        def __init__(self, square: chess.Square) -> None:
            super().__init__()
            self.square = square

    def on_click(self, event: events.Click) -> None:
        """A click on a square puts the cursor there, and says so (the piece palette puts)."""
        offset = event.get_content_offset(self)
        square = None if offset is None else self.square_at(offset.x, offset.y)
        if square is not None:
            self.cursor = square
            self.post_message(self.SquareClicked(square))

    def watch_cursor(self) -> None:
        super().watch_cursor()
        self.border_title = f"Board · {chess.square_name(self.cursor)}"
