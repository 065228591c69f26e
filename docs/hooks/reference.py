"""A mkdocs hook: the reference parts of the docs, written at build time from the code itself.

A page asks for a part with a comment of its own on a line, ``<!-- generated: NAME -->``:

- ``keys``: a table per pane of every key the app binds (the bindings with an id), with what
  the key does as the help screen (F1) says it;
- ``command-line``: the ``--help`` of ``gbr-tui``, of ``gbr-tui FILE...`` and of every
  sub-command, from the argparse parsers the command builds.

The screenshots (``screenshots/``) and the files kept at the top of the repository
(``CHANGELOG.md``, ``benchmarks/RESULTS.md``) are added to the site as they are, so each has one
copy. An unknown part stops the build.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import os
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import format_key

import gbr_tui
from gbr_tui import cli
from gbr_tui.commands import browse

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^<!-- generated: ([\w-]+) -->$", re.MULTILINE)

#: Panes whose class names no ``HELP_TITLE``: their name in the docs.
UNTITLED_PANES = {"InputDialog": "Dialogs", "HelpScreen": "Help"}
#: The panes in the order a user meets them; a pane not named here follows them, by title.
PANE_ORDER = (
    "Everywhere",
    "Editor",
    "Board (when it has the focus)",
    "Copy menu",
    "Examples (type to filter)",
    "Decode",
    "Collection",
    "Classes",
    "Positions",
    "Lists of classes, positions and bad records",
    "Dialogs",
    "Help",
)
#: Packages with no panes: the command line and the servers (which need extras to import).
NO_PANES = ("gbr_tui.serve", "gbr_tui.commands", "gbr_tui.__main__")
#: Files outside docs/ that the site shows: where they are, where the site has them.
OUTSIDE_FILES = {"CHANGELOG.md": "changelog.md", "benchmarks/RESULTS.md": "results.md"}
HELP_WIDTH = 100  # columns of the generated --help texts


# The key tables ----------------------------------------------------------------------------


def pane_bindings() -> dict[str, list[Binding]]:
    """Pane title -> the bindings with an id its class declares (inherited ones are listed
    under the class that declares them), panes in ``PANE_ORDER``."""
    panes: dict[str, list[Binding]] = {}
    for module in pkgutil.walk_packages(gbr_tui.__path__, "gbr_tui."):
        if module.name.startswith(NO_PANES):
            continue
        for cls in vars(importlib.import_module(module.name)).values():
            if not (inspect.isclass(cls) and issubclass(cls, DOMNode) and cls.__module__ == module.name):
                continue
            declared = Binding.make_bindings(cls.__dict__.get("BINDINGS", []))
            bindings = [binding for binding in declared if binding.id is not None]
            if bindings:
                title = cls.__dict__.get("HELP_TITLE") or UNTITLED_PANES.get(cls.__name__)
                if title is None:
                    raise PluginError(f"{cls.__qualname__} ({module.name}) binds keys: name its pane with HELP_TITLE")
                panes.setdefault(title, []).extend(bindings)
    rank = {title: number for number, title in enumerate(PANE_ORDER)}
    return dict(sorted(panes.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])))


def typed_key(key: str) -> str:
    """A key as it is typed: ``?`` for textual's ``question_mark``, ``+`` for ``plus``; keys that
    type no character (``f1``, ``up``, ``ctrl+p``, ``escape``) by their names."""
    character = format_key(key)
    typed = len(character) == 1 and character.isascii() and character.isprintable() and not character.isspace()
    return character if typed else key


def key_tables() -> str:
    """Markdown: a table per pane, keys that do the same sharing a row, as the help screen does."""
    sections = []
    for title, bindings in pane_bindings().items():
        rows: dict[str, list[str]] = {}  # what it does -> its keys
        for binding in bindings:
            keys = rows.setdefault(binding.tooltip or binding.description, [])
            if (key := typed_key(binding.key)) not in keys:
                keys.append(key)
        lines = [f"### {title}", "", "| keys | do |", "|---|---|"]
        lines += [f"| {' '.join(f'`{key}`' for key in keys)} | {escaped(does)} |" for does, keys in rows.items()]
        sections.append("\n".join(lines))
    return "\n\n".join(sections)


def escaped(text: str) -> str:
    """Text safe in a Markdown table cell."""
    return text.replace("|", r"\|").replace("<", "&lt;")


# The command line --------------------------------------------------------------------------


@contextlib.contextmanager
def plain_help_text() -> Iterator[None]:
    """argparse wraps to the terminal's width (``COLUMNS``) and newer Pythons colour it: neither here."""
    saved = {name: os.environ.get(name) for name in ("COLUMNS", "NO_COLOR", "PYTHON_COLORS")}
    os.environ.update(COLUMNS=str(HELP_WIDTH), NO_COLOR="1", PYTHON_COLORS="0")
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Command line -> its parser: ``gbr-tui``, ``gbr-tui FILE...``, then each sub-command."""
    main = cli.build_parser()
    parsers = {"gbr-tui": main, "gbr-tui FILE...": browse.build_parser()}
    for action in main._actions:  # argparse keeps its sub-commands on this one action
        if isinstance(action, argparse._SubParsersAction):
            parsers.update((f"gbr-tui {name}", parser) for name, parser in action.choices.items())
    return parsers


def command_line_reference() -> str:
    """Markdown: a section per command line with its ``--help`` text."""
    with plain_help_text():
        sections = [
            f"## `{command}`\n\n```text\n{parser.format_help().rstrip()}\n```"
            for command, parser in command_parsers().items()
        ]
    return "\n\n".join(sections)


GENERATED = {"keys": key_tables, "command-line": command_line_reference}


# The hook ----------------------------------------------------------------------------------


def expanded(markdown: str, where: str) -> str:
    """The page with each of its generated parts written in."""

    def part(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATED:
            raise PluginError(f"{where}: no generated part named {name!r} (there are: {', '.join(GENERATED)})")
        return GENERATED[name]()

    return MARKER.sub(part, markdown)


def on_files(files: Files, config) -> Files:
    for path in sorted((ROOT / "screenshots").iterdir()):
        if path.suffix in (".svg", ".png"):
            files.append(File.generated(config, f"screenshots/{path.name}", abs_src_path=str(path)))
    for source, uri in OUTSIDE_FILES.items():
        files.append(File.generated(config, uri, abs_src_path=str(ROOT / source)))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    return expanded(markdown, page.file.src_uri)
