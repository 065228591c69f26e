"""gbr-tui serve --ssh, driven by a real SSH client (asyncssh) on loopback."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import stat
import subprocess
import sys
import time
import urllib.request

import asyncssh
import pytest

from gbr_tui.cli import main
from gbr_tui.serve.config import ServeOptions, ensure_host_key
from gbr_tui.serve.ssh import AppServer
from tests.serve.client import APP_MARK, ScreenSession, connect, free_port, open_app, running, until, window_size


async def test_a_client_sees_the_app(server):
    _, port = await server()
    async with await connect(port) as conn:
        session = await open_app(conn)
        await session.wait_for(APP_MARK)


async def test_the_pty_follows_the_client_size(server):
    app_server, port = await server()
    async with await connect(port) as conn:
        chan, session = await conn.create_session(
            lambda: ScreenSession(100, 30), term_type="xterm", term_size=(100, 30), encoding=None
        )
        await session.wait_for(APP_MARK)
        (served,) = app_server.sessions
        assert served.size == (100, 30)
        chan.change_terminal_size(70, 20)
        await until(lambda: served.size == (70, 20))
        rows, cols = window_size(served.app.terminal_fd)
        assert (cols, rows) == (70, 20)


async def test_exec_of_a_command_is_refused_with_a_word(server, tmp_path):
    # The client is told what the server offers, gets status 1, and nothing runs.
    _, port = await server()
    witness = tmp_path / "ran"
    async with await connect(port) as conn:
        result = await asyncio.wait_for(conn.run(f"touch {witness}; cat /etc/passwd"), 10)
        with_pty = await asyncio.wait_for(conn.run(f"touch {witness}", term_type="xterm"), 10)
    for run in (result, with_pty):
        assert run.exit_status == 1
        assert "gbr-tui: this server offers only the app; connect with `ssh -t host`" in run.stdout
        assert "root:" not in run.stdout
    assert not witness.exists()


async def test_sftp_is_refused(server):
    _, port = await server()
    async with await connect(port) as conn:
        with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
            await conn.start_sftp_client()


async def test_port_forwarding_is_refused(server):
    _, port = await server()
    async with await connect(port) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", port)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", port)


async def test_a_shell_request_gets_the_app_not_a_shell(server):
    _, port = await server()
    async with await connect(port) as conn:
        session = await open_app(conn)
        await session.wait_for(APP_MARK)
        # A shell would print gbr42; the app only takes the keys. F1 after them: once its help
        # shows, every key before it has been read (a state, not a second's wait).
        session.type("echo gbr$((6*7))\r")
        session.type("\x1bOP")
        await session.wait_for("Guy-Blandford-Roycroft", timeout=60)
        assert "gbr42" not in session.text
        assert APP_MARK in session.text


async def test_the_server_turns_away_a_client_when_full(server):
    _, port = await server(max_sessions=2)
    conns = [await connect(port) for _ in range(3)]
    try:
        first = await open_app(conns[0])
        second = await open_app(conns[1])
        await first.wait_for(APP_MARK)
        await second.wait_for(APP_MARK)
        third = await open_app(conns[2])
        await third.wait_for("server is full")
        await asyncio.wait_for(third.closed.wait(), 10)
    finally:
        for conn in conns:
            conn.close()


async def test_a_disconnect_ends_that_app_and_leaves_the_others(server):
    app_server, port = await server()
    leaving, staying = await connect(port), await connect(port)
    try:
        first = await open_app(leaving)
        second = await open_app(staying)
        await first.wait_for(APP_MARK)
        await second.wait_for(APP_MARK)
        by_screen = {}
        for served in app_server.sessions:
            by_screen[served.peer] = served.app
        assert len(by_screen) == 2
        leaving_port = leaving.get_extra_info("sockname")[1]
        (gone,) = [p for peer, p in by_screen.items() if peer.endswith(f":{leaving_port}")]
        (kept,) = [p for p in by_screen.values() if p is not gone]
        leaving.abort()
        await until(lambda: gone.returncode is not None)
        assert kept.returncode is None
        assert len(app_server.sessions) == 1
        # The one left still answers keys: s sets the start position, 4888.88 (see below).
        second.type("s")
        await second.wait_for("code  4888.88")
    finally:
        staying.close()


#: Four sessions already interleave; twenty (a full server by default) in the slow part, each
#: session being an app of its own.
@pytest.mark.parametrize("count", [4, pytest.param(20, marks=pytest.mark.slow)])
async def test_concurrent_sessions_each_see_their_own_code(server, count):
    """Each session clears the board and puts one man on it, then reads its own code.

    A White queen alone gives 1000.00 (queen digit 1 x 1); a Black rook alone 0300.00 (rook
    digit 1 x 3). Half the sessions type one, half the other, so a mix-up would show.
    """
    app_server, port = await server(max_sessions=count, max_connections_per_address=count)
    conns = await asyncio.gather(*(connect(port) for _ in range(count)))
    try:
        sessions = await asyncio.gather(*(open_app(conn) for conn in conns))
        await asyncio.gather(*(session.wait_for(APP_MARK, timeout=120) for session in sessions))
        assert len(app_server.sessions) == count
        expected = []
        for index, session in enumerate(sessions):
            man, code = ("Q", "1000.00") if index % 2 == 0 else ("r", "0300.00")
            session.type("c" + man)
            expected.append(f"code  {code}")  # the code pane's line (the examples table has codes too)
        await asyncio.gather(*(s.wait_for(line, timeout=120) for s, line in zip(sessions, expected)))
        for session, line in zip(sessions, expected):
            other = "code  0300.00" if "1000.00" in line else "code  1000.00"
            assert other not in session.text
    finally:
        for conn in conns:
            conn.close()


async def test_an_idle_session_is_closed_with_a_message(server):
    app_server, port = await server(idle_timeout=3)
    async with await connect(port) as conn:
        session = await open_app(conn)
        await session.wait_for(APP_MARK, keep_active=True)  # idle from here, however slow the start
        (served,) = app_server.sessions
        app = served.app
        await session.wait_for("without a key", timeout=30)
        await asyncio.wait_for(session.closed.wait(), 30)
        await until(lambda: app.returncode is not None)
        assert not app_server.sessions


async def test_the_server_survives_garbage_on_its_port(server):
    _, port = await server()
    for payload in (os.urandom(4096), b"GET / HTTP/1.0\r\n\r\n", b"SSH-2.0-x\r\n" + os.urandom(512)):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(payload)
        await writer.drain()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(reader.read(1024), 2)
        writer.close()
    async with await connect(port) as conn:
        session = await open_app(conn)
        await session.wait_for(APP_MARK)


async def test_password_login_is_off_and_keys_work(host_key, tmp_path):
    client_key = asyncssh.generate_private_key("ssh-ed25519")
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(client_key.export_public_key())
    options = ServeOptions(port=free_port(), host_key=host_key, authorized_keys=authorized)
    acceptor = await AppServer(options).start()
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(options.port, password="secret", client_keys=None)
        stranger = asyncssh.generate_private_key("ssh-ed25519")
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(options.port, client_keys=[stranger])
        async with await connect(options.port, client_keys=[client_key]) as conn:
            session = await open_app(conn)
            await session.wait_for(APP_MARK)
    finally:
        acceptor.close()


def test_the_host_key_is_made_once_and_kept_private(tmp_path):
    path = tmp_path / "key"
    ensure_host_key(path)
    first = path.read_bytes()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    ensure_host_key(path)
    assert path.read_bytes() == first


def test_serve_without_access_rules_is_a_usage_error(capsys):
    # Refused before anything is served: the command runs here, not in a process of its own.
    status = main(["serve", "--ssh", str(free_port())])
    stderr = capsys.readouterr().err
    assert status == 2
    assert "--allow-anonymous" in stderr
    assert "Traceback" not in stderr


def test_serve_web_answers_on_loopback():
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gbr_tui", "serve", "--web", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    page = response.read().decode()
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        assert response.status == 200
        assert "gbr-tui" in page
        assert "Board" in asyncio.run(asyncio.wait_for(first_screen_over_websocket(port), 30))
    finally:
        process.terminate()
        process.wait(10)


async def first_screen_over_websocket(port: int) -> str:
    """Connect as the page does: textual-serve starts the app, whose screen comes as bytes."""
    import aiohttp  # textual-serve's own client library

    written = ""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24") as websocket,
    ):
        while "Board" not in written:
            message = await websocket.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                written += message.data.decode("utf-8", "replace")
            elif message.type != aiohttp.WSMsgType.TEXT:
                break
    return written


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (children, their children...), read from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/stat") as stat:
                parents[int(entry)] = int(stat.read().rpartition(")")[2].split()[1])
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


async def test_a_web_app_ends_when_its_server_is_killed():
    """Killed outright, the web server closes nothing: its app reads a pipe with no writer left
    (no signal comes), and must go by itself instead of staying for ever."""
    import aiohttp

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gbr_tui", "serve", "--web", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    apps: list[int] = []
    try:
        async with aiohttp.ClientSession() as session:
            deadline = time.monotonic() + 30
            while True:
                try:
                    websocket = await session.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24")
                    break
                except aiohttp.ClientError:
                    assert time.monotonic() < deadline, "the web server never answered"
                    await asyncio.sleep(0.2)
            written = ""
            while "Board" not in written:
                message = await asyncio.wait_for(websocket.receive(), 30)
                if message.type == aiohttp.WSMsgType.BINARY:
                    written += message.data.decode("utf-8", "replace")
            apps = descendants(server.pid)
            assert apps, "the app runs below the server"
            server.kill()
            server.wait(10)
            await until(lambda: not any(running(pid) for pid in apps), timeout=15)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        for pid in apps:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


async def test_served_apps_use_the_servers_tablebases_never_a_clients(server, monkeypatch):
    """gbr-tui serve --tablebases puts them in GBR_TUI_TABLEBASES, which each app process gets
    from the server (a client's own variable is not passed on)."""
    from tests.support.tablebases import SYZYGY

    monkeypatch.setenv("GBR_TUI_TABLEBASES", str(SYZYGY))
    _, port = await server()
    async with await connect(port) as conn:
        session = await open_app(conn, 100, 30, env={"GBR_TUI_TABLEBASES": "/elsewhere"})
        await session.wait_for(APP_MARK)
        session.type("i")
        await session.wait_for("Load a FEN")
        session.type("8/8/8/8/8/8/8/K2kr3 w - - 0 1\r")  # K v KR, White to move: Black wins
        await session.wait_for("table Black wins")
