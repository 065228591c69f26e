"""Helpers for the app's Pilot tests: read what the panes show, not the app's internals."""

from __future__ import annotations

import html
import re
import time
from collections import Counter

from rich.cells import cell_len
from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Digits, OptionList, Static

from gbr_tui.app import GbrApp
from gbr_tui.widgets.board import BoardView
from gbr_tui.widgets.code_pane import CodePane
from gbr_tui.widgets.record_list import RecordList

#: Kubbel, 1st prize Shakhmaty 1925 (spec section 3): published as =0323.12g3g1.
KUBBEL_FEN = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"
KUBBEL_CODE = "=0323.12g3g1"


def shown_code_pane(app: App) -> str:
    """The big digits, then every line of the code pane, as the user reads them."""
    pane = app.screen.query_one(CodePane)
    lines = [pane.query_one(Digits).value]
    lines += [str(static.content) for static in pane.query(Static)]
    return "\n".join(lines)


def board_lines(board: BoardView) -> list[str]:
    """The board's lines as drawn, in plain text."""
    return [board.render_line(y).text for y in range(board.size.height)]


def shown_digits(app: App) -> str:
    return app.screen.query_one(CodePane).query_one(Digits).value


def listed_rows(records: RecordList) -> list[tuple[str, ...]]:
    """Every row of a list, each cell as drawn (fitted to its column) without its padding."""
    return [tuple(cell.strip() for cell in records.cells(index)) for index in range(records.count)]


def toasts(app: App) -> list[str]:
    """The notifications on screen (run the app with ``notifications=True``)."""
    return [str(toast.render()) for toast in app.screen.query("Toast")]


def keys_to_set_up(placement: dict[str, str]) -> list[str]:
    """The keys a user types to put each man on its square: ``g``, the square, the FEN letter."""
    keys = []
    for square, symbol in placement.items():
        keys += ["g", square[0], square[1], symbol]
    return keys


async def until(pilot: Pilot, condition, seconds: float = 30.0) -> None:
    """Let the app work until ``condition()`` holds, or ``seconds`` have passed: a loaded machine
    makes workers, timers and typed-ahead keys slow, so tests wait for a state, not a time (the
    assertion after says what failed)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        await pilot.pause(0.02)


async def settled(pilot: Pilot) -> None:
    """Once the app's workers are done (a table refilled after a filter, the palette's search, an
    input's suggestion) and the messages they sent are handled."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def palette_hit(app: App) -> bool:
    """Whether the command palette highlights a hit."""
    hits = app.screen.query(OptionList)
    return bool(hits) and hits.first().highlighted is not None


async def run_command(pilot: Pilot, words: str) -> None:
    """Open the command palette, type ``words``, wait for its first hit and run it."""
    await pilot.press("ctrl+p", *words)
    await until(pilot, lambda: palette_hit(pilot.app))  # the palette searches in the background
    await pilot.press("enter")
    await pilot.pause()


def screen_text(app: App) -> str:
    """The whole screen as text, one line a row, read from the app's own SVG screenshot.

    Each ``<text>`` of the SVG is a run of cells at ``x``; blank runs are left out, so the
    cells are put back where ``x`` says.
    """
    svg = app.export_screenshot()
    runs = re.findall(
        r'<text class="[^"]*-r\d+" x="([\d.]+)" y="([\d.]+)" textLength="([\d.]+)"[^>]*>([^<]*)</text>', svg
    )
    widths = Counter(
        float(length) / cell_len(html.unescape(text)) for _, _, length, text in runs if cell_len(html.unescape(text))
    )
    if not widths:
        return ""
    cell_width = widths.most_common(1)[0][0]
    rows: dict[float, list[str]] = {}
    for x, y, _, text in runs:
        row = rows.setdefault(float(y), [" "] * app.size.width)
        column = round(float(x) / cell_width)
        for character in html.unescape(text).replace("\xa0", " "):
            if column < len(row):
                row[column] = character
            column += cell_len(character)
    return "\n".join("".join(row).rstrip() for _, row in sorted(rows.items()))


#: Textual's names for the printable keys that are not letters or digits.
KEY_NAMES = {
    "?": "question_mark", ".": "full_stop", ",": "comma", "/": "slash", "-": "minus",
    " ": "space", "=": "equals_sign", "+": "plus",
}  # fmt: skip
#: The characters the terminal sends for the named keys that have one.
CHARACTERS = {"enter": "\r", "tab": "\t", "escape": "\x1b", "backspace": "\x7f", "ctrl+p": "\x10"}


def key_event(key: str) -> events.Key:
    """The key event the terminal driver posts for a key (``a``, ``?``, ``enter``, ``ctrl+p``)."""
    if len(key) == 1:
        return events.Key(KEY_NAMES.get(key, key), key)
    return events.Key(key, CHARACTERS.get(key))


class KeyedApp(GbrApp):
    """The app, telling when the keys posted to it have all been read, whatever the machine's
    load: a key comes back to the app, where the bindings act, after the focused widget and its
    screen have seen it, and in the order the keys came; so a last key bound to nothing (F12)
    comes back once every key before it has acted."""

    sentinels_read = 0

    def on_key(self, event: events.Key) -> None:  # runs besides GbrApp.on_key (Textual calls each class's)
        if event.key == "f12":
            self.sentinels_read += 1

    async def keys_read(self, pilot: Pilot) -> None:
        wanted = self.sentinels_read + 1
        self.post_message(events.Key("f12", None))
        await until(pilot, lambda: self.sentinels_read >= wanted)
        assert self.sentinels_read >= wanted, "the keys were not read in 30 s"


async def burst(pilot: Pilot, keys: list[str]) -> None:
    """Keys as one read of the terminal brings them (a paste, a fast typist, a laggy SSH link):
    posted at once, as the terminal driver does; returns once all have acted (``KeyedApp``)."""
    app = pilot.app
    assert isinstance(app, KeyedApp)
    for key in keys:
        app.post_message(key_event(key))
    await app.keys_read(pilot)


async def one_by_one(pilot: Pilot, keys: list[str], gap: float = 0.08) -> None:
    """Keys as a person types them, ``gap`` seconds apart; returns once all have acted."""
    app = pilot.app
    assert isinstance(app, KeyedApp)
    for key in keys:
        app.post_message(key_event(key))
        await pilot.pause(gap)
    await app.keys_read(pilot)
