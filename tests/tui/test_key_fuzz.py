"""2,000 random keys across every screen, with resizes down to one cell: nothing may raise.

Seeded, so a failure comes back the same on the next run. The keys reach every screen by
themselves (d and F2 decode, F1 and ? help, i the FEN/code input, ctrl+p the palette and its
Theme picker, Esc F10 F2 F1 back); the test checks that each was visited. Any exception inside
the app ends ``run_test`` with that exception, which fails the test.

Keys come in bursts of one to twelve, as the terminal delivers them when typing runs ahead of
the screen (or a paste, or a slow ssh link): a burst is posted to the app as the terminal
driver does, then the app gets to finish its work. Pilot's ``press`` would wait for the app
to go idle after every key, and 2,000 keys would take minutes.
"""

from __future__ import annotations

import random

import pytest
from textual import events
from textual.command import CommandPalette

from gbr_tui.app import GbrApp
from gbr_tui.dialogs.copy_menu import CopyMenu
from gbr_tui.dialogs.input_dialog import InputDialog
from gbr_tui.dialogs.position_input import PositionInputDialog
from gbr_tui.screens.decode import DecodeScreen
from gbr_tui.screens.editor import EditorScreen
from gbr_tui.screens.help import HelpScreen
from gbr_tui.screens.too_small import TooSmallScreen, too_small
from tests.support.tui import key_event, screen_text, shown_digits

pytestmark = pytest.mark.slow  # about a minute: `uv run pytest -m slow`

SEED = 20240611
KEY_COUNT = 2000

#: Keys that move between screens and panes, so that every screen gets its share ("i" twice:
#: it opens the input only from the board, one pane of three).
NAVIGATION = [
    "d", "f2", "f1", "?", "i", "i", "ctrl+p", "escape", "f10", "tab", "shift+tab", "enter",
]  # fmt: skip
#: Keys that edit, type and move inside a screen: the men, the editing keys, squares (g then a
#: file and a rank), what codes and FENs are made of.
EDITING = [
    *"KQRBNPkqrbnp", *"xcsftuUyY", *"abcdefgh12345678", *"09.,/- =+wWv",
    "up", "down", "left", "right", "pageup", "pagedown", "home", "end",
    "backspace", "delete", "ctrl+z", "ctrl+y", "q", "ctrl+q", "ctrl+c",
]  # fmt: skip
#: The key that leaves each screen (none of them Esc).
LEAVE = {CommandPalette: "ctrl+p", InputDialog: "f10", CopyMenu: "f10", DecodeScreen: "f2", HelpScreen: "f1"}
#: Usable sizes (the first eight), compact ones among them, and too small ones down to one cell.
SIZES = [
    (80, 24), (60, 20), (100, 30), (130, 40), (79, 23), (120, 30), (70, 22), (90, 35),
    (59, 20), (40, 12), (20, 5), (1, 1),
]  # fmt: skip


def leave_key(screen: object) -> str | None:
    return next((key for screen_class, key in LEAVE.items() if isinstance(screen, screen_class)), None)


class FuzzedApp(GbrApp):
    """The app, except that quitting, saving a screenshot (palette commands a random key may
    run) and saving the position (w, then a name a random key may type) are counted instead of
    done: the fuzz must go on, and write no files."""

    quits = 0
    screenshots = 0
    saves = 0

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.pushed: set[type] = set()
        self.keys_handled = 0

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            self.keys_handled += 1
        await super().on_event(event)

    def push_screen(self, screen, *args, **kwargs):
        self.pushed.add(type(screen))
        return super().push_screen(screen, *args, **kwargs)

    async def action_quit(self) -> None:
        self.quits += 1

    def deliver_screenshot(self, *args, **kwargs) -> None:
        self.screenshots += 1

    def _save_position(self, path) -> None:
        self.saves += 1


@pytest.mark.parametrize(
    ("ascii_mode", "key_count"), [(False, KEY_COUNT), (True, KEY_COUNT // 4)], ids=["unicode", "ascii"]
)
async def test_random_keys_and_resizes_raise_nothing(ascii_mode: bool, key_count: int) -> None:
    """In ASCII mode, fewer keys (they take the same paths) but the screen checked at every
    resize: it must hold nothing but ASCII whatever state the keys left it in."""
    rng = random.Random(SEED)
    app = FuzzedApp(ascii_mode=ascii_mode, animation_level="none")
    shown: set[type] = set()
    async with app.run_test(size=(80, 24)) as pilot:
        sent = 0
        while sent < key_count:
            if rng.random() < 0.1:
                await pilot.resize_terminal(*rng.choice(SIZES))
                if ascii_mode:
                    assert screen_text(app).isascii(), f"after {sent} keys"
            burst = [rng.choice(NAVIGATION if rng.random() < 0.25 else EDITING) for _ in range(rng.randint(1, 12))]
            # Now and then the way back from where the keys have led (screens stack up: F1 on
            # decode pushes help, F2 on help pushes decode), as a user finds it.
            if rng.random() < 0.15 and (key := leave_key(app.screen)):
                burst.insert(0, key)
            for key in burst[: key_count - sent]:
                app.post_message(key_event(key))
                sent += 1
            await pilot.pause(0.01)  # not "until idle": timers (the palette's search) keep it busy for up to a second
            shown.add(type(app.screen))
            if too_small(app.size):  # a few keys at a tiny size, then a usable one again
                await pilot.resize_terminal(*rng.choice(SIZES[:8]))

        # Still alive and answering: each screen still leaves with its own key, and on the
        # editor a key still edits the board.
        await pilot.resize_terminal(80, 24)
        for _ in range(100):  # decode and help can stack: F1 on decode, F2 on help
            if isinstance(app.screen, EditorScreen):
                break
            await pilot.press(leave_key(app.screen))
        assert isinstance(app.screen, EditorScreen)
        app.editor.board_view.focus()
        await pilot.pause()
        assert app.focused is app.editor.board_view
        await pilot.press("f10", "c", "s")  # F10 first: a g may wait for its square
        # The start position: 4888.88 (one queen each: 1 + 3; two rooks, bishops and knights
        # each: 2 + 6; eight pawns each), and 0000.00 after the board is cleared.
        assert shown_digits(app) == "4888.88"
        await pilot.press("c")
        assert shown_digits(app) == "0000.00"
        assert app.is_running
        assert app.keys_handled >= key_count  # every random key reached the app

    for screen in (DecodeScreen, HelpScreen, PositionInputDialog, CopyMenu, CommandPalette, TooSmallScreen):
        reached = app.pushed | shown
        assert any(issubclass(seen, screen) for seen in reached), f"the fuzz never reached {screen.__name__}"
