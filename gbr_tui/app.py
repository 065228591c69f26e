"""The terminal app: the editor screen, the global keys and the command palette.

How it adapts to the terminal lives here too: ASCII mode, NO_COLOR, the themes, the message
shown when the terminal is too small, animations off for slow links.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

import chess
from textual import events
from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.command import CommandPalette
from textual.filter import LineFilter
from textual.geometry import Size
from textual.keys import KEY_DISPLAY_ALIASES
from textual.reactive import var
from textual.screen import Screen
from textual.theme import ThemeProvider
from textual.widgets import Input

from gbr_tui import startup
from gbr_tui.ascii import AsciiOnly
from gbr_tui.core import Rule, board_from_fen
from gbr_tui.core.describe import (
    QUIT_HINT_WORDS,
    first_start_words,
    not_kept_words,
    not_offered_words,
    restored_words,
    unknown_theme_words,
)
from gbr_tui.core.examples import first_start_example
from gbr_tui.core.settings import Settings, read_settings, settings_path, write_settings
from gbr_tui.hang_up import end_with_the_input
from gbr_tui.host_actions import HOST_FILE_ACTIONS, HostActions
from gbr_tui.messages import LoadPosition
from gbr_tui.screens import COLLECTION_SCREEN
from gbr_tui.screens.editor import EditorScreen
from gbr_tui.screens.too_small import TooSmallScreen, too_small
from gbr_tui.tablebase_support import AppTablebases
from gbr_tui.themes import THEMES
from gbr_tui.widgets.board import BOARD_COLOURS

#: Key names for the arrows and symbols Textual shows keys as (``up`` for ``↑``), for ASCII mode.
KEY_NAMES = {symbol: name for name, symbol in KEY_DISPLAY_ALIASES.items() if not symbol.isascii()}

#: The stylesheets, wherever the app is subclassed (a CSS_PATH is read from the subclass's folder).
STYLES = Path(__file__).parent / "styles"
EDITOR_STYLES = STYLES / "editor.tcss"

if TYPE_CHECKING:
    from textual.actions import ActionParseResult
    from textual.command import Provider
    from textual.dom import DOMNode

    from gbr_tui.core.collection import CollectionRequest
    from gbr_tui.core.examples import Example


def gbr_commands() -> type[Provider]:
    """Our palette commands, loaded when the palette first opens (as Textual's own are)."""
    from gbr_tui.palette import GbrCommands

    return GbrCommands


class EditorToCome(Screen):
    """Stands for the editor under the browser the app opens on (``gbr-tui FILE``): the editor
    is composed the first time it is shown, not before the class table. Shown, it shows the
    editor over itself."""

    async def on_screen_resume(self) -> None:
        if self.app.screen is self:
            await cast(GbrApp, self.app).show_editor()


class GbrApp(HostActions):
    """The editor is the default screen; decode and help are pushed over it."""

    TITLE = "gbr-tui"
    SUB_TITLE = "GBR codes of chess endgames"
    COMMANDS = App.COMMANDS | {gbr_commands}
    HELP_TITLE = "Everywhere"

    BINDINGS = [
        # F-keys first: the Footer shows the first key, and F-keys work in every pane (d and ?
        # type into the examples filter).
        Binding("f2,d", "decode", "decode", tooltip="Decode a code in any printed dialect", id="app.decode"),
        Binding("f1,question_mark", "help", "help", tooltip="This help: every key", id="app.help"),
        # Not a priority binding: it must not overtake keys typed before it (see DecodeScreen);
        # so it does not act in the modal FEN/code input.
        Binding(
            "ctrl+p",
            "command_palette",
            "commands",
            show=False,
            tooltip="Command palette: every action by name",
            id="app.palette",
        ),
        # Not q: on the board q puts a Black queen, and one Tab away it would quit without a
        # word. Where no pane takes it, q says how to quit.
        Binding("ctrl+q", "quit", "quit", tooltip="Quit gbr-tui (also from the palette)", id="app.quit"),
        Binding("q", "quit_hint", "Say how to quit: ctrl+q", show=False, id="app.quit_hint"),
    ]

    # The editor's stylesheet too: Textual reads a screen's CSS_PATH when the screen is pushed,
    # and the default screen never is.
    CSS_PATH = [STYLES / "app.tcss", EDITOR_STYLES]

    #: The rule every code is computed under; every screen follows it.
    rule: var[Rule] = var(Rule.COUNT)
    #: Everything drawn is ASCII: letters for the men, ASCII lines, key names.
    ascii_mode: var[bool] = var(False)
    #: Served to others (gbr-tui serve): nothing is opened or saved on the host (``offers``).
    served: var[bool] = var(False)

    def __init__(
        self,
        board: chess.Board | None = None,
        stipulation: str | None = None,
        served: bool = False,
        files: CollectionRequest | None = None,
        ascii_mode: bool = False,
        animation_level: Literal["none"] | None = None,
        settings_file: Path | None = None,
        tablebases: Sequence[str] | None = None,
    ) -> None:
        """``settings_file``: where the theme, the rule and the position left on the board are
        kept between runs (``core.settings``); None keeps nothing, and so does a served app.
        ``tablebases``: the directories to probe (None: those kept in the settings)."""
        # Under NO_COLOR, Textual paints in shades of grey unless the colours are the terminal's
        # own (ANSI): then it strips them all, as NO_COLOR asks.
        super().__init__(ansi_color=True if "NO_COLOR" in os.environ else None)
        self.set_reactive(GbrApp.served, served)
        self.set_reactive(GbrApp.ascii_mode, ascii_mode)
        self.set_class(ascii_mode, "-ascii")
        self._ascii_only = AsciiOnly()
        if animation_level is not None:
            self.animation_level = animation_level
        for theme in THEMES:
            self.register_theme(theme)
        self.settings_file = None if served else settings_file
        self.kept = Settings()
        self._settings_problems: list[str] = []
        self._not_kept_said = False  # a settings file that cannot be written is said once
        #: No settings kept yet: the very first start, which opens on a study, not on an empty
        #: board under three warnings.
        self.first_start = self.settings_file is not None and not self.settings_file.exists() and board is None
        if self.settings_file is not None:
            self.kept, self._settings_problems = read_settings(self.settings_file)
        self._restore_settings()
        kept_tables = self.kept.tablebases or ()
        self.tablebases = AppTablebases(kept_tables if tablebases is None else tablebases, self._tablebase_problem)
        #: The position left on the board last time, set up again (when none is given).
        restored_fen = self.kept.fen if board is None else None
        self.restored = restored_fen is not None
        if restored_fen is not None:
            board, stipulation = board_from_fen(restored_fen), self.kept.stipulation
        elif self.first_start:
            board, stipulation = first_start_example().board, first_start_example().stipulation
        self.editor = EditorScreen(board, stipulation)
        #: A collection to browse from the start (``gbr-tui FILE``).
        self.files = files
        if self._opens_on_files:  # the editor is pushed (``EditorToCome``): its stylesheet is read then
            self.css_path.remove(EDITOR_STYLES)
            self.editor.css_path = [EDITOR_STYLES]

    def on_ready(self) -> None:
        startup.done()  # the first screen is drawn
        if not self.is_headless and sys.__stdin__ is not None:  # a terminal, or a web server's pipe
            end_with_the_input(self, sys.__stdin__.fileno())
        for problem in self._settings_problems:
            self.notify(problem, title="Settings", severity="warning", markup=False)
        if self.restored:
            setup = self.editor.setup
            self.notify(restored_words(setup.board.fen(), setup.stipulation), title="Kept from last time", markup=False)
        if self.first_start and self.settings_file is not None:
            self.notify(first_start_words(first_start_example()), title="Welcome", markup=False, timeout=15)
            # The next start is not the first, whatever is left on the board; a file that
            # cannot be written is said when a setting is kept (_keep).
            with contextlib.suppress(OSError):
                write_settings(self.settings_file, self.kept)

    # What is kept between runs (never when served) ----------------------------------------

    def _restore_settings(self) -> None:
        if self.kept.rule is not None:
            self.set_reactive(GbrApp.rule, self.kept.rule)
        if self.kept.theme is not None:
            if self.kept.theme in self.available_themes:
                self.theme = self.kept.theme
            else:
                self._settings_problems.append(unknown_theme_words(self.kept.theme))

    def _keep(self, kept: Settings) -> None:
        """Write ``kept`` (the settings with a change made), when it changes anything; a file
        that cannot be written is said once."""
        if self.settings_file is None or self.served:
            return
        if kept == self.kept:
            return
        self.kept = kept
        try:
            write_settings(self.settings_file, kept)
        except OSError as error:
            if not self._not_kept_said:
                self.notify(
                    not_kept_words(self.settings_file, error), title="Settings", severity="warning", markup=False
                )
                self._not_kept_said = True

    def watch_theme(self, theme: str) -> None:
        self._keep(replace(self.kept, theme=theme))

    def watch_rule(self, rule: Rule) -> None:
        self._keep(replace(self.kept, rule=rule))

    async def action_quit(self) -> None:
        """Quit, keeping the position on the board for the next start (an empty board: none)."""
        setup = self.editor.setup
        if setup.board.occupied or setup.stipulation:
            self._keep(replace(self.kept, fen=setup.board.fen(en_passant="fen"), stipulation=setup.stipulation))
        else:
            self._keep(replace(self.kept, fen=None, stipulation=None))
        await super().action_quit()

    def on_unmount(self) -> None:
        """The tablebases' files closed, however the app ends (a served session's too)."""
        self.tablebases.close()

    def action_quit_hint(self) -> None:
        self.notify(QUIT_HINT_WORDS, title="Quit?", markup=False)

    def get_default_screen(self) -> Screen:
        """The editor; what stands for it when the app opens on files (``EditorToCome``)."""
        return EditorToCome() if self._opens_on_files else self.editor

    @property
    def _opens_on_files(self) -> bool:
        return self.files is not None and self.offers("open_collection")

    def offers(self, action: str) -> bool:
        """The served-mode policy, in one place: a served client is offered no action that
        opens or saves a file on the host. ``action`` may carry a namespace (``app.``)."""
        return not (self.served and action.rpartition(".")[2] in HOST_FILE_ACTIONS)

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Every key's action passes here: one ``offers`` refuses is said, not silently dropped."""
        name = action.partition("(")[0].rpartition(".")[2] if isinstance(action, str) else action[1]
        if not self.offers(name):
            if isinstance(self.screen, EditorScreen) and not self.screen.check_action(name, ()):
                # Not the screen's key now (``a`` is a file letter after ``m``): the next
                # binding of the key acts, as when the app is not served.
                return False
            self.notify(not_offered_words(name), severity="warning")
            return True
        return await super().run_action(action, default_namespace, namespaces)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's own palette commands, as far as ``offers`` allows."""
        for command in super().get_system_commands(screen):
            if self.offers(command.title.lower()):
                yield command

    def watch_ascii_mode(self, ascii_mode: bool) -> None:
        self.set_class(ascii_mode, "-ascii")

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **BOARD_COLOURS}

    def get_line_filters(self) -> Sequence[LineFilter]:
        filters = super().get_line_filters()
        return [*filters, self._ascii_only] if self.ascii_mode else filters

    def get_key_display(self, binding: Binding) -> str:
        display = super().get_key_display(binding)
        if self.ascii_mode:
            for symbol, name in KEY_NAMES.items():
                display = display.replace(symbol, name)
        return display

    # The terminal's size ------------------------------------------------------------------

    async def on_mount(self) -> None:
        self._fit(self.size)
        if self._opens_on_files and self.files is not None:
            await self.browse(self.files)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size)

    @property
    def covered(self) -> bool:
        """Whether the too-small cover is up."""
        return isinstance(self.screen, TooSmallScreen)

    def _fit(self, size: Size) -> None:
        """Cover the app with a message while the terminal is too small; uncover it after."""
        if too_small(size):
            if isinstance(self.screen, TooSmallScreen):  # covered
                self.screen.update_size(size)
            else:
                super().push_screen(TooSmallScreen())
        elif self.covered:
            super().pop_screen()

    # The cover stays on top. Keys typed just before the terminal shrank may still be on their
    # way: a dialog they close, or a screen a palette command opens, come and go under it.

    def push_screen(self, screen, *args, **kwargs):
        if not self.covered:
            return super().push_screen(screen, *args, **kwargs)
        super().pop_screen()
        pushed = super().push_screen(screen, *args, **kwargs)
        super().push_screen(TooSmallScreen())
        return pushed

    def pop_screen(self) -> AwaitComplete:
        if not self.covered:
            return super().pop_screen()
        super().pop_screen()
        popped = super().pop_screen()
        super().push_screen(TooSmallScreen())
        return popped

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the terminal is too small, only quitting acts; served, ``offers`` decides."""
        if action == "quit":
            return True
        if self.covered or not self.offers(action):
            return False
        if action == "show_collection":
            return self.is_screen_installed(COLLECTION_SCREEN)
        return True

    # Keys and pastes reach here after the focused widget and its screen, in the order they came,
    # where the bindings act: the editor reads here what no binding takes (EditorScreen.paste).
    def on_key(self, event: events.Key) -> None:
        if isinstance(self.screen, EditorScreen) and self.screen.type_unbound_key(event):
            event.prevent_default()

    def on_paste(self, event: events.Paste) -> None:
        if isinstance(self.screen, EditorScreen):
            self.screen.paste(event.text)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Without animations, text cursors do not blink either: each blink is a redraw."""
        if self.animation_level == "none" and isinstance(event.widget, Input):
            event.widget.cursor_blink = False

    # Navigation: screens post messages or name these actions; only the app moves between them.

    def action_decode(self) -> None:
        from gbr_tui.screens.decode import DecodeScreen

        if not self._back_to(DecodeScreen):
            self.push_screen(DecodeScreen(self.editor.code_to_edit()))

    def _back_to(self, kind: type[Screen]) -> bool:
        """Close the screens over an open one of this kind, if any. F2 on the help shown over
        the decode screen goes back to it: F1 and F2 in turn do not pile up screens."""
        below = self.screen_stack[:-1]
        for depth, screen in enumerate(reversed(below), start=1):
            if isinstance(screen, kind):
                for _ in range(depth):
                    self.pop_screen()
                return True
        return False

    async def show_editor(self) -> None:
        """The editor to the top, the screens over it closed; shown the first time (see
        ``EditorToCome``), it is made now, over what stood for it."""
        if self.screen is not self.editor and not self._back_to(EditorScreen):
            self._back_to(EditorToCome)
            await self.push_screen(self.editor)

    async def in_editor(self, action: str) -> None:
        """An editor command from the palette: the editor comes to the top (made now if it never
        was shown), where its effect is seen, then acts."""
        await self.show_editor()
        await self.editor.run_action(action)

    async def load_example(self, example: Example) -> None:
        """An example from the palette, loaded into the editor brought to the top."""
        await self.show_editor()
        self.editor.load_example(example)

    async def on_load_position(self, message: LoadPosition) -> None:
        """Into the editor, which comes to the top (the collection browser stays installed)."""
        await self.show_editor()
        arrangement = message.arrangement
        self.editor.load(
            arrangement.board, arrangement.stipulation, " ".join(filter(None, (arrangement.how, message.source)))
        )
        self.editor.keep_solution(message.solution)

    def _tablebase_problem(self, problem: str) -> None:
        self.notify(problem, title="Tablebases", severity="warning", markup=False)

    def action_toggle_rule(self) -> None:
        self.rule = Rule.PROMOTED if self.rule == Rule.COUNT else Rule.COUNT

    def action_command_palette(self) -> None:
        """Our palette (``GbrCommandPalette``): ctrl+p closes it again."""
        # Textual types is_open's app as App[object], which an App[None] is not (invariance).
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            from gbr_tui.palette import GbrCommandPalette

            self.push_screen(GbrCommandPalette(id="--command-palette"))

    def search_themes(self) -> None:
        """The palette's Theme command: the themes in our palette (see ``GbrCommandPalette``)."""
        from gbr_tui.palette import GbrCommandPalette

        self.push_screen(GbrCommandPalette(providers=[ThemeProvider], placeholder="Search for themes…"))

    def action_help(self) -> None:
        from gbr_tui.screens.help import HelpScreen, key_sections

        self.push_screen(HelpScreen(key_sections(self.screen)))


def make_app(*args, **options) -> GbrApp:
    """The app as the command starts it (``GbrApp``'s arguments); tests, snapshots and
    screenshots use it too.

    Nothing here reads the environment (the command does, see ``gbr_tui.terminal``), so tests
    and screenshots look the same wherever they run. ``animation_level`` None leaves Textual's
    own, from ``TEXTUAL_ANIMATIONS``.
    """
    return GbrApp(*args, **options)


def run_app(
    served: bool = False,
    files: CollectionRequest | None = None,
    ascii_mode: bool = False,
    mouse: bool = True,
    animation_level: Literal["none"] | None = None,
    tablebases: Sequence[str] | None = None,
) -> int:
    # What the imports made lives as long as the app: moved out of the collector's generations,
    # it is not walked again by every collection of start-up and of each key press (about a
    # fifth of the CPU time from the imports to the first frame).
    gc.freeze()
    settings_file = None if served else settings_path()
    app = make_app(
        served=served,
        files=files,
        ascii_mode=ascii_mode,
        animation_level=animation_level,
        settings_file=settings_file,
        tablebases=tablebases,
    )
    app.run(mouse=mouse)
    return 0
