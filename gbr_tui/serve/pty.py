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

#: The largest window an app is given, in columns and rows; a client asking for more gets this.
MAX_WIDTH, MAX_HEIGHT = 500, 200
#: How long an app has to exit, once hung up on, before what is left of its group is killed.
KILL_GRACE_SECONDS = 2.0
POLL_SECONDS = 0.05


def clamped_size(width: int, height: int) -> tuple[int, int]:
    """A window size the app is given: at least 1x1, at most MAX_WIDTH x MAX_HEIGHT."""
    return max(1, min(width, MAX_WIDTH)), max(1, min(height, MAX_HEIGHT))


class AppProcess:
    """The app on a pseudo-terminal; ``terminal_fd`` is the master end, None once hung up.

    Starting opens the pty pair and closes both ends again if the app cannot be started, so a
    failed start leaves no descriptor behind. The environment must hold no NUL character.
    """

    def __init__(self, command: Sequence[str], env: Mapping[str, str], size: tuple[int, int]) -> None:
        master, slave = pty.openpty()
        try:
            set_window_size(master, *clamped_size(*size))
            os.set_blocking(master, False)
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
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.terminal_fd: int | None = master

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        """The app's exit status once it has been reaped (negative: killed by that signal)."""
        return self.process.returncode

    def resize(self, width: int, height: int) -> None:
        # The kernel tells the app (SIGWINCH) when the window size changes.
        if self.terminal_fd is not None:
            set_window_size(self.terminal_fd, *clamped_size(width, height))

    async def end(self, hang_up: bool = True) -> int:
        """End the app and reap it; its exit status.

        The terminal is closed and the process group sent SIGHUP (with ``hang_up=False``, for an
        app that has closed its terminal itself, it is first given time to exit by itself). What
        is left of the group after KILL_GRACE_SECONDS is killed.
        """
        self._close_terminal()
        if not hang_up:
            await self._exited_within(KILL_GRACE_SECONDS)
        self._signal_group(signal.SIGHUP)
        await self._exited_within(KILL_GRACE_SECONDS)
        # The leader is not reaped yet, so the group's id is still this app's.
        self._signal_group(signal.SIGKILL)
        while not self._has_exited():
            await asyncio.sleep(POLL_SECONDS)
        return self.process.wait()

    def _close_terminal(self) -> None:
        if self.terminal_fd is not None:
            os.close(self.terminal_fd)
            self.terminal_fd = None

    async def _exited_within(self, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not self._has_exited() and loop.time() < deadline:
            await asyncio.sleep(POLL_SECONDS)

    def _has_exited(self) -> bool:
        """Whether the leader has exited, without reaping it."""
        if self.process.returncode is not None:
            return True
        try:
            return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
        except ChildProcessError:
            return True

    def _signal_group(self, signum: int) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signum)


def set_window_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


def _take_controlling_terminal() -> None:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
