"""What the serve tests share: an SSH client that keeps a screen, and a server in its own process.

Each session's screen is rebuilt from the bytes the server sends with pyte, a terminal emulator,
so the tests read what a person would see.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import socket
import struct
import subprocess
import sys
import termios
import threading
import time

import asyncssh
import pyte

#: Upper bounds, in seconds, for what a loaded machine may take: a screen to show, a state to
#: come about, a server process to start (it imports asyncssh first).
SCREEN_TIMEOUT = 60.0
STATE_TIMEOUT = 30.0
SERVER_START_TIMEOUT = 60.0
#: Always on the editor screen, whatever the terminal size.
APP_MARK = "Board"
#: What a terminal sends when its window gets the focus: input for the server's idle timer,
#: nothing for the app to act on (it has the focus already).
FOCUS_IN = "\x1b[I"
#: Seconds between two FOCUS_IN while a session is kept active.
KEEP_ACTIVE_EVERY = 0.2


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ScreenSession(asyncssh.SSHClientSession):
    """A client session that keeps a pyte screen of everything received."""

    def __init__(self, width: int = 80, height: int = 24) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.closed = asyncio.Event()
        self.channel = None

    def connection_made(self, chan) -> None:
        self.channel = chan

    def type(self, keys: str) -> None:
        self.channel.write(keys.encode())

    def data_received(self, data: bytes, datatype) -> None:
        self.stream.feed(data)

    def connection_lost(self, exc) -> None:
        self.closed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, needle: str, timeout: float = SCREEN_TIMEOUT, keep_active: bool = False) -> str:
        """The screen once ``needle`` is on it. ``keep_active``: meanwhile send ``FOCUS_IN`` now
        and then, as a user at the keyboard would keep the session, so that an idle timeout
        counts from when ``needle`` appeared, however long a loaded machine took to draw it."""
        deadline = time.monotonic() + timeout
        next_sign = time.monotonic()
        while needle not in self.text:
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} never appeared; screen:\n{self.text}")
            if keep_active and time.monotonic() >= next_sign:
                self.type(FOCUS_IN)
                next_sign = time.monotonic() + KEEP_ACTIVE_EVERY
            await asyncio.sleep(0.05)
        return self.text


async def connect(port: int, **kwargs) -> asyncssh.SSHClientConnection:
    kwargs.setdefault("username", "guest")
    return await asyncssh.connect("127.0.0.1", port, known_hosts=None, **kwargs)


async def open_app(conn, width: int = 80, height: int = 24, **kwargs) -> ScreenSession:
    kwargs.setdefault("term_type", "xterm-256color")
    _, session = await conn.create_session(
        lambda: ScreenSession(width, height), term_size=(width, height), encoding=None, **kwargs
    )
    return session


async def until(condition, timeout: float = STATE_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition never became true")
        await asyncio.sleep(0.05)


def window_size(fd: int) -> tuple[int, int]:
    """(rows, columns) of a terminal."""
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return rows, cols


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def running(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


SERVER_SCRIPT = """
import json, sys
from pathlib import Path
from gbr_tui.serve.config import ServeOptions
from gbr_tui.serve.ssh import run_ssh
options = json.loads(sys.argv[1])
options["host_key"] = Path(options["host_key"])
options["app_command"] = tuple(options.get("app_command") or ServeOptions.app_command)
sys.exit(run_ssh(ServeOptions(**options)))
"""


class ServerProcess:
    """``run_ssh`` in a process of its own, as ``gbr-tui serve --ssh`` runs it; its log kept."""

    def __init__(self, host_key, **options) -> None:
        self.port = free_port()
        options = {"port": self.port, "host_key": str(host_key), "allow_anonymous": True, **options}
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER_SCRIPT, json.dumps(options)],
            stderr=subprocess.PIPE,
            text=True,
        )
        self.log: list[str] = []
        self.reader = threading.Thread(target=self._keep_log, daemon=True)
        self.reader.start()

    def _keep_log(self) -> None:
        for line in self.process.stderr:
            self.log.append(line.rstrip("\n"))

    async def wait_until_serving(self) -> None:
        await until(
            lambda: any("serving gbr-tui" in line for line in self.log) or self.process.poll() is not None,
            SERVER_START_TIMEOUT,
        )
        assert self.process.poll() is None, "\n".join(self.log)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        self.reader.join(5)
