"""One SSH session: the app on its own pseudo-terminal, bytes passed both ways, and its end.

Every request but the app (exec of another command, subsystems) is refused and logged; the
window size is clamped; a session without a key for the idle timeout is closed with a word.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable, Mapping

import asyncssh

from gbr_tui.core.settings import TABLEBASES_VARIABLE
from gbr_tui.serve.config import (
    CLIENT_ENVIRONMENT,
    TERMINAL_NAME,
    ServeOptions,
    log,
    logged,
    refused,
)
from gbr_tui.serve.pty import AppProcess, clamped_size

#: ``exec`` requests that are simply a way of starting the app.
APP_COMMANDS = ("", "gbr-tui")
#: What a client that asks for any other command (``ssh host cmd``) reads; nothing is run.
COMMAND_REFUSAL = "gbr-tui: this server offers only the app; connect with `ssh -t host`\r\n"
DEFAULT_SIZE = (80, 24)


class Timer:
    """One pending call at most: ``start`` schedules it (a delay of 0 or less means never),
    ``cancel`` drops it."""

    def __init__(self) -> None:
        self.handle: asyncio.TimerHandle | None = None

    def start(self, delay: float, callback: Callable[[], object]) -> None:
        self.cancel()
        if delay > 0:
            self.handle = asyncio.get_running_loop().call_later(delay, callback)

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None


class AppSession(asyncssh.SSHServerSession[bytes]):
    """One session: the app on a pseudo-terminal, bytes passed both ways with flow control.

    What the client types is written to the app's terminal in full: what the terminal cannot
    take yet waits, and the client is paused meanwhile. What the app writes is read only while
    the channel to the client takes it. When the app ends, for whatever reason, the channel is
    closed with the app's exit status.
    """

    #: Set by ``connection_made``, which asyncssh calls before any other method.
    channel: asyncssh.SSHServerChannel[bytes]

    def __init__(self, options: ServeOptions, running: set[AppSession], peer: str, closed: Callable[[], None]) -> None:
        self.options = options
        #: The server's sessions whose app runs, this one among them while its app does.
        self.running = running
        self.peer = peer
        #: Called once the channel is gone.
        self.closed = closed
        self.term_type = "xterm-256color"
        self.size = DEFAULT_SIZE
        self.has_pty = False
        self.app: AppProcess | None = None
        #: Ending the app and closing the channel, once started.
        self.ending: asyncio.Task[None] | None = None
        self.idle_timer = Timer()
        self.pending_input = bytearray()
        #: The app's terminal while it is being written to (input waits) or read from.
        self.writing_fd: int | None = None
        self.reading_fd: int | None = None
        #: The client asked for a command, which is never run.
        self.refused_command = False

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.channel = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self.has_pty = True
        self.term_type = term_type or self.term_type
        width, height = term_size[:2]
        if width and height:
            self.size = clamped_size(width, height)
        return True

    def shell_requested(self) -> bool:
        # The "shell" of this server is the app itself; no real shell is ever started.
        return True

    def exec_requested(self, command: str) -> bool:
        # Any other command is accepted only so that the client can be told why nothing runs
        # (``session_started``); refused, it would see just "exec request failed".
        if command.strip() not in APP_COMMANDS:
            refused(self.peer, f"exec {logged(command)}")
            self.refused_command = True
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return refused(self.peer, f"subsystem {logged(subsystem)}")

    def session_started(self) -> None:
        if self.refused_command:
            self._say_goodbye(COMMAND_REFUSAL, 1)
            return
        if not self.has_pty:
            self._say_goodbye("gbr-tui needs a terminal: connect with ssh -t\r\n", 1)
            return
        if not TERMINAL_NAME.fullmatch(self.term_type):
            refused(self.peer, f"terminal type {logged(self.term_type)}")
            self._say_goodbye("gbr-tui: the terminal type (TERM) is not a terminal name.\r\n", 1)
            return
        if len(self.running) >= self.options.max_sessions:
            log.warning("%s turned away: %d sessions running", self.peer, len(self.running))
            self._say_goodbye(
                f"gbr-tui: the server is full ({self.options.max_sessions} sessions). Please try again later.\r\n",
                1,
            )
            return
        try:
            self.app = AppProcess(self.options.app_command, self._app_environment(), self.size)
        except Exception as error:  # whatever it is, the client gets a word, not a traceback
            log.error("%s the app could not start: %s", self.peer, logged(str(error)))
            self._say_goodbye("gbr-tui: the app could not start. Please try again later.\r\n", 1)
            return
        self.running.add(self)
        self._read_output()
        log.info("%s started app pid %d (%s, %dx%d)", self.peer, self.app.pid, self.term_type, *self.size)
        self._restart_idle_timer()

    def _app_environment(self) -> dict[str, str]:
        # The server's own tablebases (gbr-tui serve --tablebases): never a client's.
        kept = ("PATH", "HOME", "LANG", "LC_ALL", TABLEBASES_VARIABLE)
        env = {key: os.environ[key] for key in kept if key in os.environ}
        for name, value in self.channel.get_environment().items():
            pattern = CLIENT_ENVIRONMENT.get(name)
            if pattern is None:
                continue
            if pattern.fullmatch(value):
                env[name] = value
            else:
                log.warning("%s ignored %s=%s", self.peer, name, logged(value))
        env["TERM"] = self.term_type
        return env

    # From the app to the client.

    def _read_output(self) -> None:
        if self.app is not None and self.app.terminal_fd is not None and self.reading_fd is None:
            self.reading_fd = self.app.terminal_fd
            asyncio.get_running_loop().add_reader(self.reading_fd, self._pass_output, self.reading_fd)

    def _stop_reading_output(self) -> None:
        if self.reading_fd is not None:
            asyncio.get_running_loop().remove_reader(self.reading_fd)
            self.reading_fd = None

    def _pass_output(self, fd: int) -> None:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app has closed its terminal
            data = b""
        if data:
            self.channel.write(data)
        else:
            self.end_app(hang_up=False)

    def pause_writing(self) -> None:
        # The channel's buffer is full: leave the app's output in its terminal for now.
        self._stop_reading_output()

    def resume_writing(self) -> None:
        if self.ending is None:
            self._read_output()

    # From the client to the app.

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self._restart_idle_timer()
        # The terminal is closed only once the app is ending.
        if self.app is None or self.app.terminal_fd is None or self.ending is not None:
            return
        self.pending_input += data
        self._write_input(self.app.terminal_fd)

    def _write_input(self, fd: int) -> None:
        """Write what waits to the app's terminal; while some is left, the client is paused."""
        while self.pending_input:
            try:
                written = os.write(fd, self.pending_input)
            except BlockingIOError:
                break
            except OSError:  # the terminal is gone: the app is ending
                self.pending_input.clear()
                break
            del self.pending_input[:written]
        if self.pending_input and self.writing_fd is None:
            self.writing_fd = fd
            asyncio.get_running_loop().add_writer(fd, self._write_input, fd)
            self.channel.pause_reading()
        elif not self.pending_input and self.writing_fd is not None:
            asyncio.get_running_loop().remove_writer(self.writing_fd)
            self.writing_fd = None
            self.channel.resume_reading()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width and height:
            self.size = clamped_size(width, height)
            if self.app is not None:
                self.app.resize(*self.size)

    def break_received(self, msec: int) -> bool:
        return False

    def eof_received(self) -> bool:
        # No more input: the app ends, and the channel closes with its status.
        self.end_app()
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        self.end_app()
        self.closed()

    # Idle time.

    def _restart_idle_timer(self) -> None:
        self.idle_timer.cancel()
        if self.ending is None:
            self.idle_timer.start(self.options.idle_timeout, self._close_idle)

    def _close_idle(self) -> None:
        log.info("%s idle for %.0f s: closing", self.peer, self.options.idle_timeout)
        minutes = self.options.idle_timeout / 60
        self.end_app(goodbye=f"\r\ngbr-tui: closed after {minutes:g} minutes without a key.\r\n")

    # The end.

    def end_app(self, hang_up: bool = True, goodbye: str | None = None) -> None:
        """Begin ending the app (see ``AppProcess.end``), once; then close the channel, with
        ``goodbye`` and status 0 if given, else with how the app ended."""
        self.idle_timer.cancel()
        if self.app is None or self.ending is not None:
            return
        self._stop_reading_output()
        if self.writing_fd is not None:
            asyncio.get_running_loop().remove_writer(self.writing_fd)
            self.writing_fd = None
        self.pending_input.clear()
        self.ending = asyncio.get_running_loop().create_task(self._finish(self.app, hang_up, goodbye))

    async def _finish(self, app: AppProcess, hang_up: bool, goodbye: str | None) -> None:
        try:
            status = await app.end(hang_up)
        finally:
            self.running.discard(self)
        log.info("%s app pid %d ended with status %d", self.peer, app.pid, status)
        if goodbye is not None:
            self._say_goodbye(goodbye, 0)
        elif status < 0:
            self.channel.exit_with_signal(_signal_name(-status))
        else:
            self.channel.exit(status)

    def _say_goodbye(self, message: str, status: int) -> None:
        with contextlib.suppress(OSError):  # the client may be gone already
            self.channel.write(message.encode())
        self.channel.exit(status)


def _signal_name(signum: int) -> str:
    """As SSH names signals: ``KILL`` for SIGKILL."""
    try:
        return signal.Signals(signum).name.removeprefix("SIG")
    except ValueError:
        return str(signum)
