"""The SSH server (asyncssh): its options and host key, who may log in, and the sessions.

A connection may log in with a key or anonymously, never with a password. Each session runs
the app on its own pseudo-terminal (``pty``); every other request (exec of another command,
subsystems, forwarding) is refused and logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from gbr_tui.serve.pty import AppProcess

log = logging.getLogger("gbr_tui.serve")

#: Client environment variables passed on to the app; everything else is the server's own.
CLIENT_ENVIRONMENT = (
    "LANG", "LC_ALL", "LC_CTYPE", "NO_COLOR", "COLORTERM",
    "TEXTUAL_COLOR_SYSTEM", "TEXTUAL_ANIMATIONS", "GBR_TUI_ASCII",
)  # fmt: skip
#: ``exec`` requests that are simply a way of starting the app.
APP_COMMANDS = ("", "gbr-tui")
DEFAULT_SIZE = (80, 24)


@dataclass
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    authorized_keys: Path | None = None
    allow_anonymous: bool = False
    max_sessions: int = 20
    idle_timeout: float = 15 * 60
    app_command: tuple[str, ...] = (sys.executable, "-m", "gbr_tui", "--served")


def default_host_key_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("gbr-tui") / "ssh_host_ed25519_key"


def ensure_host_key(path: Path) -> Path:
    """Generate an Ed25519 host key on first run; keep it, readable by the owner only."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        key = asyncssh.generate_private_key("ssh-ed25519")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(key.export_private_key())
        log.info("generated host key %s", path)
    return path


class AppServer:
    """The sessions of one running server, and the limits they share."""

    def __init__(self, options: ServeOptions) -> None:
        self.options = options
        self.sessions: set[AppSession] = set()

    async def start(self) -> asyncssh.SSHAcceptor:
        options = self.options
        if options.authorized_keys is None and not options.allow_anonymous:
            raise ValueError("give --authorized-keys FILE, --allow-anonymous, or both")
        host_key = ensure_host_key(options.host_key or default_host_key_path())
        return await asyncssh.create_server(
            lambda: Gatekeeper(self),
            options.host,
            options.port,
            server_host_keys=[str(host_key)],
            authorized_client_keys=str(options.authorized_keys) if options.authorized_keys else None,
            encoding=None,
            line_editor=False,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            sftp_factory=None,
            login_timeout=60,
            keepalive_interval=30,
        )


def _refused(peer: str, request: str) -> bool:
    """Log a refused request; False is asyncssh's "no"."""
    log.warning("%s refused: %s", peer, request)
    return False


class Gatekeeper(asyncssh.SSHServer):
    """One connection: who may log in, and which requests are refused."""

    def __init__(self, server: AppServer) -> None:
        self.server = server
        self.peer = "?"

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        host, port = conn.get_extra_info("peername")[:2]
        self.peer = f"{host}:{port}"
        log.info("%s connected", self.peer)

    def connection_lost(self, exc: Exception | None) -> None:
        log.info("%s disconnected%s", self.peer, f" ({exc})" if exc else "")

    def begin_auth(self, username: str) -> bool:
        # False means: no authentication needed.
        return not self.server.options.allow_anonymous

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return _refused(self.peer, f"remote port forwarding to {listen_host}:{listen_port}")

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        return _refused(self.peer, f"port forwarding to {dest_host}:{dest_port}")

    def unix_server_requested(self, listen_path: str) -> bool:
        return _refused(self.peer, f"unix socket forwarding {listen_path}")

    def unix_connection_requested(self, dest_path: str) -> bool:
        return _refused(self.peer, f"unix socket connection {dest_path}")

    def session_requested(self) -> AppSession:
        return AppSession(self.server, self.peer)


class AppSession(asyncssh.SSHServerSession):
    """One session: the app on a pseudo-terminal, bytes passed both ways."""

    def __init__(self, server: AppServer, peer: str) -> None:
        self.server = server
        self.peer = peer
        self.channel: asyncssh.SSHServerChannel | None = None
        self.term_type = "xterm-256color"
        self.size = DEFAULT_SIZE
        self.has_pty = False
        self.app: AppProcess | None = None
        self.idle_timer: asyncio.TimerHandle | None = None

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.channel = chan

    def pty_requested(self, term_type: str, term_size: tuple, term_modes: dict) -> bool:
        self.has_pty = True
        self.term_type = term_type or self.term_type
        width, height = term_size[:2]
        if width and height:
            self.size = (width, height)
        return True

    def shell_requested(self) -> bool:
        # The "shell" of this server is the app itself; no real shell is ever started.
        return True

    def exec_requested(self, command: str) -> bool:
        if command.strip() in APP_COMMANDS:
            return True
        return _refused(self.peer, f"exec {command!r}")

    def subsystem_requested(self, subsystem: str) -> bool:
        return _refused(self.peer, f"subsystem {subsystem!r}")

    def session_started(self) -> None:
        assert self.channel is not None
        if not self.has_pty:
            self._say_goodbye("gbr-tui needs a terminal: connect with ssh -t\r\n", 1)
            return
        if len(self.server.sessions) >= self.server.options.max_sessions:
            log.warning("%s turned away: %d sessions running", self.peer, len(self.server.sessions))
            self._say_goodbye(
                f"gbr-tui: the server is full ({self.server.options.max_sessions} sessions). "
                "Please try again later.\r\n",
                1,
            )
            return
        self.server.sessions.add(self)
        self._start_app()
        self._restart_idle_timer()

    def _start_app(self) -> None:
        env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "LC_ALL") if key in os.environ}
        client_env = self.channel.get_environment() if self.channel else {}
        env.update({key: value for key, value in client_env.items() if key in CLIENT_ENVIRONMENT})
        env["TERM"] = self.term_type
        self.app = AppProcess(self.server.options.app_command, env, self.size)
        asyncio.get_running_loop().add_reader(self.app.terminal_fd, self._pass_output)
        log.info("%s started app pid %d (%s, %dx%d)", self.peer, self.app.pid, self.term_type, *self.size)

    def _pass_output(self) -> None:
        """Bytes from the app to the client; the app's end closes the session."""
        try:
            data = os.read(self.app.terminal_fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            self.channel.write(data)
            return
        app, status = self.app, 0
        self._end_app()
        if app is not None and app.returncode is not None:
            status = max(app.returncode, 0)
        self.channel.exit(status)

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self.app is not None and self.app.terminal_fd is not None:
            with contextlib.suppress(OSError):
                os.write(self.app.terminal_fd, data)
        self._restart_idle_timer()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width and height:
            self.size = (width, height)
            if self.app is not None:
                self.app.resize(width, height)

    def break_received(self, msec: int) -> bool:
        return False

    def eof_received(self) -> bool:
        self._end_app()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._end_app()

    def _restart_idle_timer(self) -> None:
        self._cancel_idle_timer()
        timeout = self.server.options.idle_timeout
        if timeout > 0:
            self.idle_timer = asyncio.get_running_loop().call_later(timeout, self._close_idle)

    def _cancel_idle_timer(self) -> None:
        if self.idle_timer is not None:
            self.idle_timer.cancel()
            self.idle_timer = None

    def _close_idle(self) -> None:
        log.info("%s idle for %.0f s: closing", self.peer, self.server.options.idle_timeout)
        self._end_app()
        minutes = self.server.options.idle_timeout / 60
        self._say_goodbye(f"\r\ngbr-tui: closed after {minutes:g} minutes without a key.\r\n", 0)

    def _say_goodbye(self, message: str, status: int) -> None:
        if self.channel is not None:
            self.channel.write(message.encode())
            self.channel.exit(status)

    def _end_app(self) -> None:
        """Stop reading the app's terminal and hang up on it (it is killed if it does not go)."""
        self._cancel_idle_timer()
        self.server.sessions.discard(self)
        app, self.app = self.app, None
        if app is None:
            return
        if app.terminal_fd is not None:
            asyncio.get_running_loop().remove_reader(app.terminal_fd)
        app.hang_up()


def run_ssh(options: ServeOptions) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("asyncssh").setLevel(logging.INFO)

    async def serve_forever() -> None:
        acceptor = await AppServer(options).start()
        log.info("serving gbr-tui over SSH on %s port %d", options.host, options.port)
        try:
            await acceptor.wait_closed()
        finally:
            acceptor.close()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve_forever())
    return 0
