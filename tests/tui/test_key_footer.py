"""The footer is rebuilt when the keys it shows change, and only then."""

from __future__ import annotations

from textual.widgets import Footer
from tui_helpers import screen_text

from gbr_tui.app import make_app
from gbr_tui.widgets.key_footer import KeyFooter


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
        assert rebuilds[0] == 2 and "done / other side" in screen_text(app).splitlines()[-1]
        await pilot.press("enter")
        await pilot.pause()
        assert rebuilds[0] == 3 and "other side" not in screen_text(app).splitlines()[-1]
