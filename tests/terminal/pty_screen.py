"""Run a program in a real pseudo-terminal and read its screen back as text.

pexpect gives the program a PTY of a chosen size; pyte, a terminal emulator, turns the bytes the
program writes into the screen a person would see.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pexpect
import pyte

#: The installed console script (the one `pip install .` or `uv sync` put beside Python).
GBR_TUI = str(Path(sys.executable).with_name("gbr-tui"))
TIMEOUT = 60.0


class PtyScreen:
    def __init__(self, argv: list[str], env: dict[str, str], width: int = 80, height: int = 24) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(argv[0], argv[1:], env=env, dimensions=(height, width))

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def pump(self, seconds: float = 0.1) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                self.stream.feed(self.child.read_nonblocking(65536, timeout=0.05))
            except pexpect.TIMEOUT:
                pass
            except pexpect.EOF:
                return

    def wait_until_gone(self, needle: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while needle in self.text:
            if time.monotonic() > deadline or not self.child.isalive():
                raise AssertionError(f"{needle!r} never went; screen:\n{self.text}")
            self.pump(0.1)
        return self.text

    def wait_for(self, needle: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while needle not in self.text:
            if time.monotonic() > deadline or not self.child.isalive():
                self.pump(0.2)
                if needle in self.text:
                    break
                raise AssertionError(f"{needle!r} never appeared; screen:\n{self.text}")
            self.pump(0.1)
        return self.text

    def press(self, *keys: str) -> None:
        for key in keys:
            self.child.send(key)
            self.pump(0.05)

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(height, width)
        self.child.setwinsize(height, width)
        self.pump(0.3)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)
        self.child.close()


def base_environment(**overrides: str) -> dict[str, str]:
    """A clean terminal environment: UTF-8, 256 colours, no NO_COLOR; then the overrides.

    No COLUMNS or LINES either: they would override the PTY's size (pytest-xdist's workers have
    them, COLUMNS=80 LINES=24, once readline is loaded).
    """
    env = {key: value for key, value in os.environ.items() if not key.startswith(("LC_", "TEXTUAL"))}
    for key in ("NO_COLOR", "COLUMNS", "LINES"):
        env.pop(key, None)
    env.update(LANG="C.UTF-8", TERM="xterm-256color", COLORTERM="")
    env.update(overrides)
    return env
