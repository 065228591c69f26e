"""The SSH server (asyncssh): its options and host key, who may log in, and the sessions.

A connection may log in with a key or anonymously, never with a password. Each session runs
the app on its own pseudo-terminal (``pty``); every other request (exec of another command,
subsystems, forwarding) is refused and logged.

Nothing a client sends is trusted: connections are limited in number (in all and per address)
and in time (to log in, to open a session, without a key), the terminal type and the few
variables passed on to the app are checked before it starts, the window size is clamped, and
what is logged is escaped and cut.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import asyncssh

from gbr_tui.core.text import printable
from gbr_tui.serve.pty import AppProcess, clamped_size

log = logging.getLogger("gbr_tui.serve")

_LOCALE = re.compile(r"[A-Za-z0-9_.@+-]{0,64}")
_WORD = re.compile(r"[A-Za-z0-9_.+-]{0,32}")
#: Client environment variables passed on to the app, with the values each may take; a value
#: that does not match is dropped (and logged). Everything else is the server's own.
CLIENT_ENVIRONMENT: dict[str, re.Pattern[str]] = {
    "LANG": _LOCALE,
    "LC_ALL": _LOCALE,
    "LC_CTYPE": _LOCALE,
    "NO_COLOR": re.compile(r"[ -~]{0,32}"),
    "COLORTERM": _WORD,
    "TEXTUAL_COLOR_SYSTEM": re.compile(r"auto|standard|256|truecolor"),
    "TEXTUAL_ANIMATIONS": re.compile(r"(?i:none|basic|full)"),
    "GBR_TUI_ASCII": _WORD,
}
#: What a terminal type (TERM) may be: a terminfo name.
TERMINAL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
#: ``exec`` requests that are simply a way of starting the app.
APP_COMMANDS = ("", "gbr-tui")
#: What a client that asks for any other command (``ssh host cmd``) reads; nothing is run.
COMMAND_REFUSAL = "gbr-tui: this server offers only the app; connect with `ssh -t host`\r\n"
DEFAULT_SIZE = (80, 24)
#: How much of one string from a client is logged, and of one log line.
LOGGED_VALUE_LENGTH, LOG_LINE_LENGTH = 80, 1000


@dataclass
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    authorized_keys: Path | None = None
    allow_anonymous: bool = False
    max_sessions: int = 20
    #: Connections open at once, logged in or not: in all, and from one address.
    max_connections: int = 40
    max_connections_per_address: int = 10
    #: Seconds: to log in; to open a session once logged in (or after the last one ended);
    #: without a key in a session (0: never).
    login_timeout: float = 20.0
    session_wait: float = 10.0
    idle_timeout: float = 15 * 60
    app_command: tuple[str, ...] = (sys.executable, "-m", "gbr_tui", "--served")


class SetupError(Exception):
    """The server cannot start as it was told to: a message for whoever started it."""


#: What a client sent, as it may be logged: control characters escaped, cut.
logged = partial(printable, limit=LOGGED_VALUE_LENGTH)


class PrintableFormatter(logging.Formatter):
    """Log lines that a client cannot forge or flood: escaped and cut, asyncssh's too."""

    def format(self, record: logging.LogRecord) -> str:
        return printable(super().format(record), LOG_LINE_LENGTH)


def default_host_key_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("gbr-tui") / "ssh_host_ed25519_key"


def ensure_host_key(path: Path) -> Path:
    """Generate an Ed25519 host key on first run, in a folder that must exist; keep it, readable
    by the owner only."""
    if path.exists():
        return path
    if not path.parent.is_dir():
        raise SetupError(f"no such folder for the host key: {path.parent}")
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(key.export_private_key())
    except OSError as error:
        raise SetupError(f"cannot write the host key {path}: {error.strerror or error}") from None
    log.info("generated host key %s", path)
    return path


def load_host_key(path: Path | None) -> asyncssh.SSHKey:
    """The server's key: from ``path``, or from the user data folder (made if need be); generated
    on first run."""
    if path is None:
        path = default_host_key_path()
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise SetupError(f"cannot make the folder {path.parent}: {error.strerror or error}") from None
    ensure_host_key(path)
    try:
        return asyncssh.read_private_key(path)
    except asyncssh.KeyImportError as error:
        if "assphrase" in str(error):
            raise SetupError(f"the host key {path} is protected by a passphrase: give one without") from None
        raise SetupError(f"{path} is not a private key (give an OpenSSH or PEM private key)") from None
    except OSError as error:
        raise SetupError(f"cannot read the host key {path}: {error.strerror or error}") from None


def load_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    try:
        return asyncssh.read_authorized_keys(path)
    except OSError as error:
        raise SetupError(f"cannot read {path}: {error.strerror or error}") from None
    except ValueError:
        raise SetupError(f"no valid key in {path} (one public key a line, as in ~/.ssh/authorized_keys)") from None


class AppServer:
    """The connections and sessions of one running server, and the limits they share."""

    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self.connections: set[Gatekeeper] = set()
        self.sessions: set[AppSession] = set()
        self.acceptor: asyncssh.SSHAcceptor | None = None

    async def start(self) -> asyncssh.SSHAcceptor:
        options = self.options
        if options.authorized_keys is None and not options.allow_anonymous:
            raise SetupError("give --authorized-keys FILE, --allow-anonymous, or both")
        host_key = load_host_key(options.host_key)
        authorized = load_authorized_keys(options.authorized_keys) if options.authorized_keys else None
        self.acceptor = await asyncssh.create_server(
            lambda: Gatekeeper(self),
            options.host,
            options.port,
            server_host_keys=[host_key],
            authorized_client_keys=authorized,
            encoding=None,
            line_editor=False,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            sftp_factory=None,
            login_timeout=options.login_timeout,
            keepalive_interval=30,
        )
        return self.acceptor

    def admit(self, connection: Gatekeeper) -> str | None:
        """Count a new connection in; or why it is turned away."""
        if len(self.connections) >= self.options.max_connections:
            return f"{len(self.connections)} connections open"
        from_there = sum(1 for other in self.connections if other.address == connection.address)
        if from_there >= self.options.max_connections_per_address:
            return f"{from_there} connections from {connection.address}"
        self.connections.add(connection)
        return None

    async def stop(self) -> None:
        """Stop listening; end every app (its whole process group) and wait for them; disconnect."""
        if self.acceptor is not None:
            self.acceptor.close()
        sessions = list(self.sessions)
        for session in sessions:
            session.end_app()
        await asyncio.gather(*(session.ending for session in sessions if session.ending), return_exceptions=True)
        for connection in list(self.connections):
            if connection.connection is not None:
                connection.connection.close()


def _refused(peer: str, request: str) -> bool:
    """Log a refused request; False is asyncssh's "no"."""
    log.warning("%s refused: %s", peer, request)
    return False


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


class Gatekeeper(asyncssh.SSHServer):
    """One connection: whether it is let in, who may log in, which requests are refused, and how
    long it may stay without a session."""

    def __init__(self, server: AppServer) -> None:
        self.server = server
        self.connection: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.peer = "?"
        self.admitted = False
        self.open_sessions = 0
        self.session_timer = Timer()

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.connection = conn
        host, port = conn.get_extra_info("peername")[:2]
        self.address, self.peer = host, f"{host}:{port}"
        refusal = self.server.admit(self)
        if refusal is not None:
            log.warning("%s turned away: %s", self.peer, refusal)
            reason = "gbr-tui: too many connections, please try again later"
            asyncio.get_running_loop().call_soon(conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, reason)
            return
        self.admitted = True
        log.info("%s connected", self.peer)

    def connection_lost(self, exc: Exception | None) -> None:
        self.session_timer.cancel()
        if self.admitted:
            self.server.connections.discard(self)
            log.info("%s disconnected%s", self.peer, f" ({logged(str(exc))})" if exc else "")

    def begin_auth(self, username: str) -> bool:
        # False means: no authentication needed.
        return not self.server.options.allow_anonymous

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def auth_completed(self) -> None:
        self._wait_for_a_session()

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return _refused(self.peer, f"remote port forwarding to {logged(listen_host)}:{listen_port}")

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        return _refused(self.peer, f"port forwarding to {logged(dest_host)}:{dest_port}")

    def unix_server_requested(self, listen_path: str) -> bool:
        return _refused(self.peer, f"unix socket forwarding {logged(listen_path)}")

    def unix_connection_requested(self, dest_path: str) -> bool:
        return _refused(self.peer, f"unix socket connection {logged(dest_path)}")

    def session_requested(self) -> AppSession:
        self.session_timer.cancel()
        self.open_sessions += 1
        return AppSession(self.server, self)

    def session_closed(self) -> None:
        self.open_sessions -= 1
        if self.open_sessions == 0:
            self._wait_for_a_session()

    def _wait_for_a_session(self) -> None:
        self.session_timer.cancel()
        if self.connection is not None:
            self.session_timer.start(self.server.options.session_wait, self._close_sessionless)

    def _close_sessionless(self) -> None:
        log.info("%s no session for %g s: closing", self.peer, self.server.options.session_wait)
        if self.connection is not None:
            self.connection.disconnect(asyncssh.DISC_BY_APPLICATION, "gbr-tui: no session was opened")


class AppSession(asyncssh.SSHServerSession):
    """One session: the app on a pseudo-terminal, bytes passed both ways with flow control.

    What the client types is written to the app's terminal in full: what the terminal cannot
    take yet waits, and the client is paused meanwhile. What the app writes is read only while
    the channel to the client takes it. When the app ends, for whatever reason, the channel is
    closed with the app's exit status.
    """

    def __init__(self, server: AppServer, gatekeeper: Gatekeeper) -> None:
        self.server = server
        self.gatekeeper = gatekeeper
        self.peer = gatekeeper.peer
        self.channel: asyncssh.SSHServerChannel | None = None
        self.term_type = "xterm-256color"
        self.size = DEFAULT_SIZE
        self.has_pty = False
        self.app: AppProcess | None = None
        #: Ending the app and closing the channel, once started.
        self.ending: asyncio.Task | None = None
        self.idle_timer = Timer()
        self.pending_input = bytearray()
        self.writing_input = False
        self.reading_output = False
        #: The client asked for a command, which is never run.
        self.refused_command = False

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.channel = chan

    def pty_requested(self, term_type: str, term_size: tuple, term_modes: dict) -> bool:
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
            _refused(self.peer, f"exec {logged(command)}")
            self.refused_command = True
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return _refused(self.peer, f"subsystem {logged(subsystem)}")

    def session_started(self) -> None:
        assert self.channel is not None
        if self.refused_command:
            self._say_goodbye(COMMAND_REFUSAL, 1)
            return
        if not self.has_pty:
            self._say_goodbye("gbr-tui needs a terminal: connect with ssh -t\r\n", 1)
            return
        if not TERMINAL_NAME.fullmatch(self.term_type):
            _refused(self.peer, f"terminal type {logged(self.term_type)}")
            self._say_goodbye("gbr-tui: the terminal type (TERM) is not a terminal name.\r\n", 1)
            return
        if len(self.server.sessions) >= self.server.options.max_sessions:
            log.warning("%s turned away: %d sessions running", self.peer, len(self.server.sessions))
            self._say_goodbye(
                f"gbr-tui: the server is full ({self.server.options.max_sessions} sessions). "
                "Please try again later.\r\n",
                1,
            )
            return
        try:
            self.app = AppProcess(self.server.options.app_command, self._app_environment(), self.size)
        except Exception as error:  # whatever it is, the client gets a word, not a traceback
            log.error("%s the app could not start: %s", self.peer, logged(str(error)))
            self._say_goodbye("gbr-tui: the app could not start. Please try again later.\r\n", 1)
            return
        self.server.sessions.add(self)
        self._read_output()
        log.info("%s started app pid %d (%s, %dx%d)", self.peer, self.app.pid, self.term_type, *self.size)
        self._restart_idle_timer()

    def _app_environment(self) -> dict[str, str]:
        env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "LC_ALL") if key in os.environ}
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
        if self.app is not None and self.app.terminal_fd is not None and not self.reading_output:
            asyncio.get_running_loop().add_reader(self.app.terminal_fd, self._pass_output)
            self.reading_output = True

    def _stop_reading_output(self) -> None:
        if self.reading_output:
            asyncio.get_running_loop().remove_reader(self.app.terminal_fd)
            self.reading_output = False

    def _pass_output(self) -> None:
        try:
            data = os.read(self.app.terminal_fd, 65536)
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
        if self.app is None or self.ending is not None:
            return
        self.pending_input += data
        self._write_input()

    def _write_input(self) -> None:
        """Write what waits to the app's terminal; while some is left, the client is paused."""
        fd = self.app.terminal_fd
        while self.pending_input:
            try:
                written = os.write(fd, self.pending_input)
            except BlockingIOError:
                break
            except OSError:  # the terminal is gone: the app is ending
                self.pending_input.clear()
                break
            del self.pending_input[:written]
        waiting = bool(self.pending_input)
        if waiting != self.writing_input:
            self.writing_input = waiting
            if waiting:
                asyncio.get_running_loop().add_writer(fd, self._write_input)
                self.channel.pause_reading()
            else:
                asyncio.get_running_loop().remove_writer(fd)
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
        self.gatekeeper.session_closed()

    # Idle time.

    def _restart_idle_timer(self) -> None:
        self.idle_timer.cancel()
        if self.ending is None:
            self.idle_timer.start(self.server.options.idle_timeout, self._close_idle)

    def _close_idle(self) -> None:
        log.info("%s idle for %.0f s: closing", self.peer, self.server.options.idle_timeout)
        minutes = self.server.options.idle_timeout / 60
        self.end_app(goodbye=f"\r\ngbr-tui: closed after {minutes:g} minutes without a key.\r\n")

    # The end.

    def end_app(self, hang_up: bool = True, goodbye: str | None = None) -> None:
        """Begin ending the app (see ``AppProcess.end``), once; then close the channel, with
        ``goodbye`` and status 0 if given, else with how the app ended."""
        self.idle_timer.cancel()
        if self.app is None or self.ending is not None:
            return
        self._stop_reading_output()
        if self.writing_input:
            asyncio.get_running_loop().remove_writer(self.app.terminal_fd)
            self.writing_input = False
        self.pending_input.clear()
        self.ending = asyncio.get_running_loop().create_task(self._finish(hang_up, goodbye))

    async def _finish(self, hang_up: bool, goodbye: str | None) -> None:
        try:
            status = await self.app.end(hang_up)
        finally:
            self.server.sessions.discard(self)
        log.info("%s app pid %d ended with status %d", self.peer, self.app.pid, status)
        if goodbye is not None:
            self._say_goodbye(goodbye, 0)
        elif status < 0:
            self.channel.exit_with_signal(_signal_name(-status))
        else:
            self.channel.exit(status)

    def _say_goodbye(self, message: str, status: int) -> None:
        if self.channel is not None:
            with contextlib.suppress(OSError):  # the client may be gone already
                self.channel.write(message.encode())
            self.channel.exit(status)


def _signal_name(signum: int) -> str:
    """As SSH names signals: ``KILL`` for SIGKILL."""
    try:
        return signal.Signals(signum).name.removeprefix("SIG")
    except ValueError:
        return str(signum)


def run_ssh(options: ServeOptions) -> int:
    """Serve until SIGTERM or SIGINT, then end every app and wait for them."""
    handler = logging.StreamHandler()
    handler.setFormatter(PrintableFormatter("%(asctime)s %(name)s %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    logging.getLogger("asyncssh").setLevel(logging.INFO)
    with contextlib.suppress(KeyboardInterrupt):  # ctrl+c before the handlers are in place
        asyncio.run(_serve_until_stopped(options))
    return 0


async def _serve_until_stopped(options: ServeOptions) -> None:
    server = AppServer(options)
    await server.start()
    log.info("serving gbr-tui over SSH on %s port %d", options.host, options.port)
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopped.set)
    await stopped.wait()
    log.info("stopping: ending %d apps", len(server.sessions))
    await server.stop()
    log.info("stopped")
