"""The docs' generated reference against the app: the key page lists every key bound (with an id)
under its pane and no key the app does not bind there; the command line reference has every
sub-command. Both are written by the docs' build hook, read here as the site shows them."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType

from textual.binding import Binding
from textual.dom import DOMNode

import gbr_tui
from gbr_tui.cli import COMMAND_NAMES

DOCS = Path(__file__).parents[2] / "docs"
# The docs spell a key as it is typed; textual names these keys.
TYPED = {"+": "plus", "=": "equals_sign", "?": "question_mark", "/": "slash"}


def docs_hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hook", DOCS / "hooks" / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def built_page(name: str) -> str:
    """A page of the docs with its generated parts written in, as the site's build does."""
    return docs_hook().expanded((DOCS / name).read_text(encoding="utf-8"), name)


def bound_keys() -> dict[str, set[str]]:
    """Pane title -> the keys of the bindings with an id declared by its class (not inherited)."""
    untitled = docs_hook().UNTITLED_PANES
    panes: dict[str, set[str]] = {}
    for module in pkgutil.walk_packages(gbr_tui.__path__, "gbr_tui."):
        if module.name.startswith(("gbr_tui.serve", "gbr_tui.commands", "gbr_tui.__main__")):
            continue
        for cls in vars(importlib.import_module(module.name)).values():
            if not (inspect.isclass(cls) and issubclass(cls, DOMNode) and cls.__module__ == module.name):
                continue
            bindings = [b for b in Binding.make_bindings(cls.__dict__.get("BINDINGS", [])) if b.id is not None]
            if bindings:
                title = cls.__dict__.get("HELP_TITLE") or untitled[cls.__name__]
                panes.setdefault(title, set()).update(b.key for b in bindings)
    return panes


def documented_keys() -> dict[str, set[str]]:
    """Pane title (the heading above each table) -> the keys in its table's first column."""
    section = built_page("keys.md").split("\n## Every key, pane by pane\n", 1)[1]
    panes: dict[str, set[str]] = {}
    pane = None
    for line in section.splitlines():
        heading = re.match(r"### (.+)", line)
        if heading:
            pane = heading.group(1)
            panes[pane] = set()
        elif line.startswith("| `") and pane is not None:
            keys_cell = line.split("|")[1]
            panes[pane].update(TYPED.get(key, key) for key in re.findall(r"`([^`]+)`", keys_cell))
    return panes


def test_the_key_page_lists_every_key_of_every_pane_and_no_other() -> None:
    assert documented_keys() == bound_keys()


def test_the_command_line_reference_has_every_sub_command_and_the_browser() -> None:
    page = built_page("command-line-reference.md")
    headings = re.findall(r"^## `(gbr-tui[^`]*)`$", page, re.MULTILINE)
    assert headings == ["gbr-tui", "gbr-tui FILE...", *(f"gbr-tui {name}" for name in COMMAND_NAMES)]
    for name in COMMAND_NAMES:
        assert f"usage: gbr-tui {name} " in page
