"""The help screen: every key of the screen below it, read from the bindings themselves."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.keys import REPLACED_KEYS, key_to_character
from textual.screen import Screen
from textual.widgets import Input, Static

from gbr_tui.interfaces import GbrAppInterface
from gbr_tui.widgets.key_footer import KeyFooter


def types_a_character(key: str) -> bool:
    """Whether the key types a character: a focused Input takes it before any binding of its own
    screen or the app. Textual names some keys by a short name ("plus") that its own
    ``key_to_character`` does not read back: those are looked up by their Unicode names."""
    character = key_to_character(REPLACED_KEYS.get(key, key))
    return character is not None and character.isprintable()


ABOUT = (
    "gbr-tui shows the GBR code (Guy-Blandford-Roycroft) of the position on the board as you set "
    "it up. Keys follow FEN: upper case is White. In the examples pane, type a code, a "
    "material or words of a name (reti) to filter, arrows choose, Enter loads. In a dialog, "
    "Enter loads what you typed; "
    "Esc, F10 (FEN/code input) or F2 (decode) go back without loading; ctrl+p opens the command "
    "palette and closes it again. y copies the position in any form. When you quit, the "
    "position on the board is kept and set up again at the next start, and so are the theme and "
    "the rule (in gbr-tui's settings.json in your config directory; nothing when served)."
)


def key_sections(screen: Screen) -> list[tuple[str, list[tuple[str, str]]]]:
    """(pane, [(keys, what they do)]) for every binding with an id, pane by pane, then the app.

    The panes are the screen's widgets in focus order, then the screen, then the app. Keys that
    do the same (``x,space,delete,backspace``; the files after ``g``) share one row. Keys whose
    action the app does not offer (served, those that open the host's files) are left out, and so
    are the keys a focused Input types (``d`` and ``q`` over the decode screen's input).
    """
    nodes: list[DOMNode] = [*screen.walk_children(), screen, screen.app]
    focused = screen.focused
    typing = set(focused.ancestors_with_self) if isinstance(focused, Input) else set()
    sections: dict[str, dict[str, list[str]]] = {}  # pane -> what it does -> keys
    for node in nodes:
        for binding in own_bindings(type(node)):
            if not cast(GbrAppInterface, screen.app).offers(binding.action):
                continue
            if (node in typing or node is screen.app) and typing and types_a_character(binding.key):
                continue
            rows = sections.setdefault(getattr(node, "HELP_TITLE", type(node).__name__), {})
            keys = rows.setdefault(binding.tooltip or binding.description, [])
            display = screen.app.get_key_display(replace(binding, key_display=None))
            if display not in keys:
                keys.append(display)
    return [(title, [(" ".join(keys), text) for text, keys in rows.items()]) for title, rows in sections.items()]


def own_bindings(node_class: type[DOMNode]) -> list[Binding]:
    """The bindings this project declared (they have ids) on a class and its bases."""
    declared = [cls.__dict__.get("BINDINGS", []) for cls in reversed(node_class.__mro__)]
    return [binding for bindings in declared for binding in Binding.make_bindings(bindings) if binding.id is not None]


class HelpScreen(Screen):
    """Lists every key; ``?``, F1, ``q`` or Esc go back."""

    DEFAULT_CSS = """
    HelpScreen VerticalScroll { padding: 0 2; }
    HelpScreen #help-about, HelpScreen .help-section { margin: 1 0 0 0; }
    """

    # F1 first: the Footer shows the first key, and Esc alone must never be the way out.
    BINDINGS = [Binding("f1,question_mark,q,escape", "app.pop_screen", "Back", id="help.back")]

    def __init__(self, sections: list[tuple[str, list[tuple[str, str]]]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        with VerticalScroll(can_focus=True):
            yield Static(ABOUT, id="help-about")
            for title, rows in self.sections:
                table = Table(title=title, title_justify="left", title_style="bold", box=None, show_header=False)
                table.add_column("keys", style="bold", no_wrap=True, min_width=14)
                table.add_column("does")
                for keys, description in rows:
                    table.add_row(keys, Text(description))
                yield Static(table, classes="help-section")
        yield KeyFooter()
