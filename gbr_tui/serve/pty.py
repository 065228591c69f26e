"""One app process on its own pseudo-terminal: started, sized, hung up on, reaped.

The app leads a new session whose controlling terminal is the pty's slave end, so it and
everything it starts form one process group, signalled as a whole. The server keeps the
master end: what the app writes is read there, and what is written there is the app's input.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import signal
import struct
import subprocess
import termios
from collections.abc import Mapping, Sequence

#: How long a hung-up app has to exit before its process group is killed.
KILL_GRACE_SECONDS = 2.0


class AppProcess:
    """The app on a pseudo-terminal; ``terminal_fd`` is the master end, None once hung up."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str], size: tuple[int, int]) -> None:
        master, slave = pty.openpty()
        set_window_size(master, *size)
        self.process = subprocess.Popen(
            list(command),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=dict(env),
            start_new_session=True,
            preexec_fn=_take_controlling_terminal,
            close_fds=True,
        )
        os.close(slave)
        os.set_blocking(master, False)
        self.terminal_fd: int | None = master

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        """The app's exit status once it has ended (negative: killed by that signal), else None."""
        return self.process.poll()

    def resize(self, width: int, height: int) -> None:
        # The kernel tells the app (SIGWINCH) when the window size changes.
        if self.terminal_fd is not None:
            set_window_size(self.terminal_fd, width, height)

    def hang_up(self) -> None:
        """Close the terminal and send the app's process group SIGHUP; kill it if it does not go."""
        if self.terminal_fd is not None:
            os.close(self.terminal_fd)
            self.terminal_fd = None
        if self.returncode is not None:
            return
        self.signal_group(signal.SIGHUP)
        asyncio.get_running_loop().create_task(self._reap())

    def signal_group(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signum)

    async def _reap(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + KILL_GRACE_SECONDS
        while self.returncode is None and loop.time() < deadline:
            await asyncio.sleep(0.05)
        if self.returncode is None:
            self.signal_group(signal.SIGKILL)
            await loop.run_in_executor(None, self.process.wait)


def set_window_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


def _take_controlling_terminal() -> None:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
