"""The core never imports the terminal libraries: importing any module of ``gbr_tui.core`` in a
fresh interpreter leaves neither textual nor rich in ``sys.modules``."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import gbr_tui.core

# Imports the modules named in argv in turn; after each, prints the terminal modules loaded.
PROBE = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich"))
    print(json.dumps([name, loaded]), flush=True)
"""


def core_modules() -> list[str]:
    found = pkgutil.walk_packages(gbr_tui.core.__path__, prefix="gbr_tui.core.")
    return ["gbr_tui.core", *sorted(module.name for module in found)]


def terminal_modules_after_importing(names: list[str], first: str = "") -> dict[str, list[str]]:
    """For each module, the textual and rich modules loaded once it (and those before) are
    imported in one fresh interpreter; ``first`` is code run before."""
    done = subprocess.run([sys.executable, "-c", first + PROBE, *names], capture_output=True, text=True, check=True)
    return dict(json.loads(line) for line in done.stdout.splitlines())


def test_every_core_module_is_found():
    names = core_modules()
    for wanted in ("gbr_tui.core.replay", "gbr_tui.core.patterns", "gbr_tui.core.collection.readers"):
        assert wanted in names


def test_importing_any_core_module_loads_neither_textual_nor_rich() -> None:
    # One interpreter for all, checked after each import: what a module loads stays loaded, so
    # a module that pulls in textual or rich shows, whichever came before it.
    names = core_modules()
    assert terminal_modules_after_importing(names) == {name: [] for name in names}


def test_the_probe_sees_rich_when_it_is_loaded() -> None:
    loaded = terminal_modules_after_importing(["gbr_tui.core.material"], first="import rich\n")
    assert "rich" in loaded["gbr_tui.core.material"]
