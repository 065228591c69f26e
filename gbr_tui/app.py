"""The terminal app: the editor screen, the global keys and the command palette."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

import chess
from textual.app import App, SystemCommand
from textual.binding import Binding

from gbr_tui.core import DecodedCode
from gbr_tui.core.examples import arrange
from gbr_tui.palette import GbrCommands
from gbr_tui.screens.editor import EditorScreen

if TYPE_CHECKING:
    from textual.screen import Screen

    from gbr_tui.core.index import Files


class GbrApp(App[None]):
    """The editor is the default screen; decode and help are pushed over it."""

    TITLE = "gbr-tui"
    SUB_TITLE = "GBR codes of chess endgames"
    COMMANDS = App.COMMANDS | {GbrCommands}
    HELP_TITLE = "Everywhere"

    BINDINGS = [
        # F-keys first: the Footer shows the first key, and F-keys work in every pane (d and ?
        # type into the examples filter).
        Binding("f2,d", "decode", "decode", tooltip="Decode a code in any printed dialect", id="app.decode"),
        Binding("f1,question_mark", "help", "help", tooltip="This help: every key", id="app.help"),
        Binding("ctrl+p", "command_palette", "commands", show=False, priority=True, tooltip="Command palette: every action by name", id="app.palette"),
        Binding("ctrl+q,q", "quit", "quit", tooltip="Quit gbr-tui", id="app.quit"),
    ]

    def __init__(
        self,
        board: chess.Board | None = None,
        stipulation: str | None = None,
        served: bool = False,
        files: Files | None = None,
    ) -> None:
        super().__init__()
        #: Served to others (gbr-tui serve): nothing is opened or saved on the host.
        self.served = served
        self.editor = EditorScreen(board, stipulation)
        #: A collection to browse from the start (``gbr-tui FILE``).
        self.files = files

    async def on_mount(self) -> None:
        if self.files is not None and not self.served:
            from gbr_tui.screens.collection import browse

            await browse(self, self.files)

    def get_default_screen(self) -> EditorScreen:
        return self.editor

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's own palette commands; served, without "Screenshot", which saves a file
        on the host."""
        for command in super().get_system_commands(screen):
            if not (self.served and command.title == "Screenshot"):
                yield command

    def action_decode(self) -> None:
        from gbr_tui.screens.decode import DecodeScreen

        self.push_screen(DecodeScreen(rule=self.editor.rule), callback=self.load_decoded)

    def load_decoded(self, decoded: DecodedCode | None) -> None:
        """Put a decoded code on the board: its squares when it gives them, else its material."""
        if decoded is None:
            return
        if decoded.board is not None:
            board, how = decoded.board, "with the squares it gives"
        elif decoded.material is not None:
            turn = chess.WHITE if decoded.side_to_move is None else decoded.side_to_move
            kings = (chess.E1, chess.E8) if decoded.kings is None else tuple(map(chess.parse_square, decoded.kings))
            try:
                board = arrange(decoded.material, turn, kings)
            except ValueError as error:
                self.notify(f"{decoded.code} cannot be set up: {error}", severity="error", markup=False)
                return
            if decoded.kings is None:
                how = "in a legal arrangement (the code gives no squares)"
            else:
                how = "with its king squares, the other men in a legal arrangement (the code gives no other squares)"
        else:
            self.notify(
                f"{decoded.code}: a 9 hides how many men there are, so it cannot be set up", severity="error", markup=False
            )
            return
        self.editor.load(board, decoded.stipulation, f"{decoded.compact} {how}")
        if self.screen is not self.editor:  # decoded over the collection browser: show what loaded
            self.pop_screen()

    def action_help(self) -> None:
        from gbr_tui.screens.help import HelpScreen, key_sections

        self.push_screen(HelpScreen(key_sections(self.screen)))


def make_app(
    board: chess.Board | None = None,
    stipulation: str | None = None,
    served: bool = False,
    files: Files | None = None,
) -> GbrApp:
    """The app as the command starts it; tests, snapshots and screenshots use it too."""
    return GbrApp(board, stipulation, served, files)


def run_app(served: bool = False, files: Files | None = None) -> int:
    make_app(served=served, files=files).run()
    return 0
