"""Textual's Footer, rebuilt only when the keys it shows change."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """A Footer that skips the rebuilds that would show the same keys.

    Textual's Footer makes a widget per key, each styled, on every "bindings changed" signal:
    four of them reach it before the editor's first frame (focus, the screen's start, our own
    key hints), and most later ones (``g`` and ``m`` ask again when they end) leave the keys as
    they were. Signals that come before one rebuild share it; a rebuild that would show the
    keys already shown is skipped.
    """

    _rebuild_pending = False
    _keys_shown: tuple | None = None

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                _set_compact_before_mounting(widget, self.compact)
            yield widget

    def bindings_changed(self, screen: Screen) -> None:
        if self._rebuild_pending:
            return
        # Footer schedules a rebuild only under these conditions (see Footer.bindings_changed).
        self._rebuild_pending = screen.app.app_focus and self.is_attached and screen is self.screen
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        self._rebuild_pending = False
        if not self.is_attached or self._pruning:  # its screen has gone (as Widget.recompose)
            return
        keys = self._keys()
        if keys == self._keys_shown:
            return
        self._keys_shown = keys
        await super().recompose()

    def _keys(self) -> tuple:
        """What the footer's widgets are made from (what Footer.compose reads)."""
        bindings = self.screen.active_bindings.values()
        return (
            self.compact,
            self.show_command_palette,
            tuple(
                (binding, self.app.get_key_display(binding), enabled, tooltip)
                for _, binding, enabled, tooltip in bindings
            ),
        )


def _set_compact_before_mounting(key: FooterKey, footer_compact: bool) -> None:
    """Give a key the compact state it would reach on mounting, without its watcher.

    Mounted as Footer makes it, a key is restyled twice by its ``compact`` watcher (its default,
    True, then the footer's value through ``data_bind``): a whole stylesheet pass each, about a
    twentieth of the app's start-up with the editor's keys. Set before mounting, the watcher is
    not called for the default, and the bound value finds the class already right. The palette's
    key is not bound: it keeps the default.
    """
    compact = footer_compact or key.has_class("-command-palette")
    key.set_reactive(FooterKey.compact, compact)
    key.set_class(compact, "-compact", update=False)
