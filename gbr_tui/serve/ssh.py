"""The SSH server (asyncssh): the connections, who may log in, and serving until stopped.

A connection may log in with a key or anonymously, never with a password. Each session runs
the app on its own pseudo-terminal (``session``); forwarding of any kind is refused and logged.

Connections are limited in number (in all and per address) and in time (to log in, to open a
session, without a key); see ``config`` for the options and what a client may send.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

import asyncssh

from gbr_tui.serve.config import (
    PrintableFormatter,
    ServeOptions,
    SetupError,
    load_authorized_keys,
    load_host_key,
    log,
    logged,
    refused,
)
from gbr_tui.serve.session import AppSession, Timer


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
        return refused(self.peer, f"remote port forwarding to {logged(listen_host)}:{listen_port}")

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        return refused(self.peer, f"port forwarding to {logged(dest_host)}:{dest_port}")

    def unix_server_requested(self, listen_path: str) -> bool:
        return refused(self.peer, f"unix socket forwarding {logged(listen_path)}")

    def unix_connection_requested(self, dest_path: str) -> bool:
        return refused(self.peer, f"unix socket connection {logged(dest_path)}")

    def session_requested(self) -> AppSession:
        self.session_timer.cancel()
        self.open_sessions += 1
        return AppSession(self.server.options, self.server.sessions, self.peer, self.session_closed)

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
