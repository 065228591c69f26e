"""Helpers for the app's Pilot tests: read what the panes show, not the app's internals."""

from __future__ import annotations

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Digits, OptionList, Static

from gbr_tui.widgets.code_pane import CodePane

#: Kubbel, 1st prize Shakhmaty 1925 (spec section 3): published as =0323.12g3g1.
KUBBEL_FEN = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"
KUBBEL_CODE = "=0323.12g3g1"


def shown_code_pane(app: App) -> str:
    """The big digits, then every line of the code pane, as the user reads them."""
    pane = app.screen.query_one(CodePane)
    lines = [pane.query_one(Digits).value]
    lines += [str(static.content) for static in pane.query(Static)]
    return "\n".join(lines)


def shown_digits(app: App) -> str:
    return app.screen.query_one(CodePane).query_one(Digits).value


def toasts(app: App) -> list[str]:
    """The notifications on screen (run the app with ``notifications=True``)."""
    return [str(toast.render()) for toast in app.screen.query("Toast")]


def keys_to_set_up(placement: dict[str, str]) -> list[str]:
    """The keys a user types to put each man on its square: ``g``, the square, the FEN letter."""
    keys = []
    for square, symbol in placement.items():
        keys += ["g", square[0], square[1], symbol]
    return keys


async def run_command(pilot: Pilot, words: str) -> None:
    """Open the command palette, type ``words``, wait for its first hit and run it."""
    await pilot.press("ctrl+p", *words)
    for _ in range(100):  # the palette searches in the background
        hits = pilot.app.screen.query(OptionList)
        if hits and hits.first().highlighted is not None:
            break
        await pilot.pause(0.02)
    await pilot.press("enter")
    await pilot.pause()
