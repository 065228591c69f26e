"""The README's key tables against the app's bindings: every key bound (with an id) is in the
README under its pane, and the README lists no key the app does not bind there."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

from textual.binding import Binding
from textual.dom import DOMNode

import gbr_tui

README = Path(__file__).parents[2] / "README.md"
# Panes whose class names no HELP_TITLE: the README's name for them.
UNTITLED = {"InputDialog": "Dialogs", "HelpScreen": "Help"}
# README spells a key as it is typed; textual names these keys.
TYPED = {"+": "plus", "=": "equals_sign", "?": "question_mark", "/": "slash"}


def bound_keys() -> dict[str, set[str]]:
    """Pane title -> the keys of the bindings with an id declared by its class (not inherited)."""
    panes: dict[str, set[str]] = {}
    for module in pkgutil.walk_packages(gbr_tui.__path__, "gbr_tui."):
        if module.name.startswith(("gbr_tui.serve", "gbr_tui.commands", "gbr_tui.__main__")):
            continue
        for cls in vars(importlib.import_module(module.name)).values():
            if not (inspect.isclass(cls) and issubclass(cls, DOMNode) and cls.__module__ == module.name):
                continue
            bindings = [b for b in Binding.make_bindings(cls.__dict__.get("BINDINGS", [])) if b.id is not None]
            if bindings:
                title = cls.__dict__.get("HELP_TITLE") or UNTITLED[cls.__name__]
                panes.setdefault(title, set()).update(b.key for b in bindings)
    return panes


def readme_keys() -> dict[str, set[str]]:
    """Pane title (the bold line above each table) -> the keys in its table's first column."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n### Keys\n", 1)[1].split("\n#", 1)[0]
    panes: dict[str, set[str]] = {}
    pane = None
    for line in section.splitlines():
        heading = re.match(r"\*\*(.+?)\*\*", line)
        if heading:
            pane = heading.group(1)
            panes[pane] = set()
        elif line.startswith("| `") and pane is not None:
            keys_cell, does = line.split("|")[1:3]
            for first, last in re.findall(r"`(.)`–`(.)`", keys_cell + does):  # `a`–`h`
                panes[pane].update(chr(code) for code in range(ord(first), ord(last) + 1))
            keys = re.findall(r"`([^`]+)`", keys_cell + " ".join(re.findall(r"\(`[^)]*`[^)]*\)", does)))
            panes[pane].update(TYPED.get(key, key) for key in keys)
    return panes


def test_the_readme_lists_every_key_of_every_pane_and_no_other() -> None:
    assert readme_keys() == bound_keys()
