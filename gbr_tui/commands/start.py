"""Starting the app from the command line, with no command or with files.

Light on purpose: on the way to the app's first screen, nothing the sub-commands need is loaded.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from gbr_tui.commands import EXIT_USAGE

if TYPE_CHECKING:
    from gbr_tui.core.collection import CollectionRequest

#: The app's thread switch interval, in seconds (Python's default: 0.005). Textual writes each
#: frame to the terminal from a thread of its own, which waits for the interpreter's lock while
#: the app works on: with the default, the first frame reached the terminal 5-8 ms after it was
#: made; with this, within about 1 ms.
SWITCH_INTERVAL = 0.0005


def refuse(message: str) -> int:
    """Say on stderr why nothing runs; the exit status of a usage error."""
    print(message, file=sys.stderr)
    return EXIT_USAGE


def app_starter(
    files: CollectionRequest | None = None,
    served: bool = False,
    ascii_mode: bool = False,
    mouse: bool = True,
    no_animation: bool = False,
    tablebases: list[str] | None = None,
) -> Callable[[], int]:
    """What starts the app, or says why it cannot start here (no terminal to draw on).

    The terminal is asked first, and the app's modules load only when it can start.
    """
    from gbr_tui import terminal

    problem = terminal.not_a_terminal(os.environ, sys.stdin, sys.stdout)
    if problem is not None:
        return partial(refuse, f"gbr-tui: {problem}")
    from gbr_tui.app import run_app
    from gbr_tui.core.settings import Settings, tablebase_directories

    sys.setswitchinterval(SWITCH_INTERVAL)
    # --tablebases, else GBR_TUI_TABLEBASES; else (None) the app takes those kept in its settings.
    directories = tablebase_directories(tablebases, os.environ, Settings()) or None
    options = {} if files is None else {"files": files}
    return partial(
        run_app,
        served=served,
        ascii_mode=ascii_mode or terminal.ascii_wanted(os.environ),
        mouse=mouse,
        animation_level=terminal.animation_level(os.environ, no_animation, served),
        tablebases=directories,
        **options,
    )
