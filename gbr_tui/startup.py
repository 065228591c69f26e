"""Start-up with the garbage collector paused.

Start-up makes tens of thousands of objects that live as long as the process: the classes and
functions of Textual, rich and python-chess as they load, then the app's widgets and styles.
While they are made, the collector would walk them again and again for nothing: about an
eighth of the app's start-up time (``benchmarks/startup.py``). So the entry point
(``gbr_tui.__main__``) pauses it, freezes what the imports made out of its way (``gc.freeze``)
and leaves it paused until start-up is over: for a sub-command when it starts, for the app when
its first screen is drawn.

Only a pause made by ``pause`` is ever resumed: tests and other callers keep their collector.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def loaded() -> None:
    """The modules are loaded: they live as long as the process, so the collector can skip them."""
    if _paused:
        gc.freeze()


def done() -> None:
    """Start-up is over: resume the collector, if ``pause`` paused it."""
    global _paused
    if _paused:
        gc.enable()
        _paused = False
