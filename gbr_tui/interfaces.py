"""What screens and widgets use of the app and of the editor screen, for the type checker.

Textual types ``self.app`` as a plain ``App`` and ``self.screen`` as a plain ``Screen``; the
modules that need more cannot import ``GbrApp`` or ``EditorScreen`` (those import them), so
they cast to these protocols instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from gbr_tui.core import Rule
    from gbr_tui.core.collection.browsed import BrowsedIndex
    from gbr_tui.core.examples import Example
    from gbr_tui.tablebase_support import AppTablebases


class GbrAppInterface(Protocol):
    """``GbrApp`` as the screens, the help and the palette use it."""

    rule: Rule
    ascii_mode: bool
    tablebases: AppTablebases

    def offers(self, action: str) -> bool: ...

    async def in_editor(self, action: str) -> None: ...

    async def load_example(self, example: Example) -> None: ...

    def action_toggle_rule(self) -> None: ...


class TypingScreen(Protocol):
    """The editor screen as its board hands it the men typed with ``m``."""

    def action_stop_typing(self) -> None: ...

    def action_typing_side(self) -> None: ...

    def type_key(self, char: str) -> None: ...

    def typing_back(self) -> None: ...


class BrowsingScreen(Protocol):
    """The collection browser as its lists read it."""

    index: BrowsedIndex | None
