"""The footer is rebuilt when the keys it shows change, and only then."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from gbr_tui.app import make_app
from gbr_tui.widgets.key_footer import KeyFooter
from tests.support.tui import screen_text


def count_rebuilds(monkeypatch) -> list[int]:
    """Counts the rebuilds that reach Textual's Footer (KeyFooter skips the others)."""
    rebuilds = [0]
    rebuild = Footer.recompose

    async def counted(self) -> None:
        rebuilds[0] += 1
        await rebuild(self)

    monkeypatch.setattr(Footer, "recompose", counted)
    return rebuilds


async def test_signals_before_one_refresh_share_one_rebuild_and_unchanged_keys_none(monkeypatch):
    rebuilds = count_rebuilds(monkeypatch)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # Start-up sends the footer four signals (focus, the screen's start, the key hints, a
        # focus after refresh): Textual's Footer would rebuild four times, KeyFooter once.
        assert rebuilds[0] == 1
        footer = app.screen.query_one(KeyFooter)
        keys_before = [key.key for key in footer.query("FooterKey")]
        for _ in range(3):
            app.screen.refresh_bindings()
        await pilot.pause()
        assert rebuilds[0] == 1  # the same keys: nothing rebuilt
        assert [key.key for key in footer.query("FooterKey")] == keys_before


async def test_the_footer_follows_keys_that_change(monkeypatch):
    rebuilds = count_rebuilds(monkeypatch)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("m")  # typing men: the footer offers its own keys
        await pilot.pause()
        assert rebuilds[0] == 2 and "/ other side's men" in screen_text(app).splitlines()[-1]
        await pilot.press("enter")
        await pilot.pause()
        assert rebuilds[0] == 3 and "other side" not in screen_text(app).splitlines()[-1]


class TwoFooters(App):
    """Textual's Footer and KeyFooter over the same keys (the palette's among them)."""

    BINDINGS = [("a", "bell", "ring"), Binding("b", "bell", "hidden", show=False), ("c", "focus_next", "next")]

    def __init__(self, compact: bool) -> None:
        super().__init__()
        self.compact = compact

    def compose(self) -> ComposeResult:
        yield Footer(compact=self.compact, id="stock")
        yield KeyFooter(compact=self.compact, id="ours")


def key_states(footer: Footer) -> list[tuple[str, bool, bool, tuple]]:
    return [
        (key.key, key.compact, key.has_class("-compact"), (key.styles.padding, key.styles.margin))
        for key in footer.query(FooterKey)
    ]


@pytest.mark.parametrize("compact", [False, True])
async def test_keys_end_as_textuals_footer_leaves_them_without_restyling(compact, monkeypatch):
    restyled = {"stock": 0, "ours": 0}  # keys whose class the compact watcher changes, by footer
    watch = FooterKey._watch_compact

    def counted(key: FooterKey, value: bool) -> None:
        restyled[key.parent.id] += key.has_class("-compact") != value
        watch(key, value)

    monkeypatch.setattr(FooterKey, "_watch_compact", counted)
    app = TwoFooters(compact)
    async with app.run_test(size=(60, 6)) as pilot:
        await pilot.pause()
        stock, ours = app.query_one("#stock", Footer), app.query_one("#ours", KeyFooter)
        assert len(key_states(stock)) == 3  # a, c and the palette's
        assert key_states(ours) == key_states(stock)
        # Textual's footer restyles each key on mounting for its default (compact: the class
        # added), and a bound key again where the footer's value differs (the class taken off):
        # 1 + 1 + 1 compact, 2 + 2 + 1 not. KeyFooter's keys are mounted already right.
        assert restyled == {"stock": 3 if compact else 5, "ours": 0}
        ours.compact = stock.compact = not compact  # a later change still reaches every key
        await pilot.pause()
        assert [state[1:3] for state in key_states(ours)] == [state[1:3] for state in key_states(stock)]
