"""gbr-tui serve --ssh against hostile and careless clients, and a server told to stop.

Every test here reproduces a finding of a probe from outside (issue 15, "Served mode"): each
failed before the fix it comes with.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import random
import signal
import string
import subprocess
import sys

import asyncssh
import pytest

from gbr_tui.cli import main
from tests.serve.client import (
    APP_MARK,
    ServerProcess,
    connect,
    free_port,
    open_app,
    open_descriptors,
    running,
    until,
    window_size,
)

#: An app that ignores SIGHUP, and a child of it in its process group that does too.
STUBBORN_APP = """
import os, signal, time
signal.signal(signal.SIGHUP, signal.SIG_IGN)
child = os.fork()
if child:
    print(f"pids {os.getpid()} {child} running", flush=True)
while True:
    time.sleep(1)
"""

#: An app that reads SIZE bytes in raw mode, slowly, and prints their SHA-256.
PASTE_APP = """
import hashlib, os, sys, time, tty
size = int(sys.argv[1])
tty.setraw(0)
sys.stdout.write("READY\\r\\n")
sys.stdout.flush()
data = b""
while len(data) < size:
    data += os.read(0, 4096)
    time.sleep(0.005)
sys.stdout.write("sha " + hashlib.sha256(data).hexdigest() + "\\r\\n")
sys.stdout.flush()
"""


async def settled_descriptors(baseline: int) -> int:
    """This process's open descriptors once closed connections have let go of theirs."""
    with contextlib.suppress(AssertionError):
        await until(lambda: open_descriptors() <= baseline, timeout=5)
    return open_descriptors()


# Leaked ptys: every failure path closes what it opened.


async def test_an_app_that_cannot_start_leaks_no_pty(server):
    _, port = await server(app_command=("/nonexistent/gbr-tui",))
    async with await connect(port) as conn:  # asyncssh's own first descriptors, once
        session = await open_app(conn)
        await asyncio.wait_for(session.closed.wait(), 30)
    baseline = open_descriptors()
    for _ in range(5):
        async with await connect(port) as conn:
            session = await open_app(conn)
            await session.wait_for("could not start", timeout=30)
            await asyncio.wait_for(session.closed.wait(), 30)
            assert session.channel.get_exit_status() == 1
    assert await settled_descriptors(baseline) == baseline


@pytest.mark.parametrize(
    ("request_options", "expected"),
    [
        ({"term_type": "xterm\0evil"}, "not a terminal name"),
        ({"term_type": "xterm", "env": {"LANG": "C.UTF-8\0evil"}}, APP_MARK),
    ],
    ids=["NUL in TERM", "NUL in LANG"],
)
async def test_a_bad_terminal_type_or_variable_leaks_no_pty(server, request_options, expected):
    _, port = await server()
    async with await connect(port) as conn:
        session = await open_app(conn, **request_options)
        await session.wait_for(expected, timeout=30)
    baseline = open_descriptors()
    async with await connect(port) as conn:
        session = await open_app(conn, **request_options)
        await session.wait_for(expected, timeout=30)
    assert await settled_descriptors(baseline) == baseline


# The window size has a ceiling.


async def test_the_window_size_is_clamped_to_500_by_200(server):
    app_server, port = await server()
    async with await connect(port) as conn:
        session = await open_app(conn, 65535, 65535)
        await until(lambda: len(app_server.sessions) == 1)
        (served,) = app_server.sessions
        assert served.size == (500, 200)
        assert window_size(served.app.terminal_fd) == (200, 500)
        session.channel.change_terminal_size(100_000, 30)
        await until(lambda: served.size == (500, 30))
        assert window_size(served.app.terminal_fd) == (30, 500)


# Connections are limited, and none is held forever.


async def test_connections_are_limited_per_address_and_in_total(server):
    app_server, port = await server(max_connections=3, max_connections_per_address=2)
    kept = [await connect(port), await connect(port)]
    try:
        with pytest.raises((asyncssh.DisconnectError, ConnectionError)):
            await connect(port)  # a third from 127.0.0.1
        kept.append(await connect(port, local_addr=("127.0.0.2", 0)))
        with pytest.raises((asyncssh.DisconnectError, ConnectionError)):
            await connect(port, local_addr=("127.0.0.3", 0))  # a fourth in all
        kept.pop(0).close()
        await until(lambda: len(app_server.connections) == 2)  # the server has counted it out
        kept.append(await connect(port))
    finally:
        for conn in kept:
            conn.close()


async def seconds_until_closed(reader: asyncio.StreamReader, opened: float, timeout: float = 30) -> float:
    """Seconds from ``opened`` (the loop's time) until the server closes the connection."""
    await asyncio.wait_for(reader.read(), timeout)
    return asyncio.get_running_loop().time() - opened


async def test_unauthenticated_connections_are_bounded(server):
    _, port = await server(max_connections=5, login_timeout=2)
    writers, closing = [], []
    try:
        # None of them says a word: the first five wait for the login timeout, the others go at
        # once. Each is timed from its own opening, however slowly a loaded machine opens them.
        for _ in range(8):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writers.append(writer)
            opened = asyncio.get_running_loop().time()
            closing.append(asyncio.create_task(seconds_until_closed(reader, opened)))
        waited = await asyncio.gather(*closing)
        assert [seconds > 1.5 for seconds in waited] == [True] * 5 + [False] * 3, waited
    finally:
        for writer in writers:
            writer.close()
    async with await connect(port) as conn:
        session = await open_app(conn)
        await session.wait_for(APP_MARK)


async def test_a_connection_without_a_session_is_closed(server):
    _, port = await server(session_wait=1)
    conn = await connect(port)  # as ssh -N does: logged in, and nothing asked
    try:
        await asyncio.wait_for(conn.wait_closed(), 30)
    finally:
        conn.close()


async def test_the_channel_closes_when_the_app_ends_on_end_of_input(server):
    app_server, port = await server()
    async with await connect(port) as conn:
        session = await open_app(conn)
        await session.wait_for(APP_MARK)
        (served,) = app_server.sessions
        app = served.app
        session.channel.write_eof()
        await asyncio.wait_for(session.closed.wait(), 30)
        assert app.returncode is not None


# SIGTERM and SIGINT end every app; an app outlives no terminal.


def app_pids(text: str) -> list[int]:
    words = text.split("pids ", 1)[1].split()
    return [int(words[0]), int(words[1])]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_stopped_server_ends_every_app_and_waits_for_them(host_key, signum):
    served = ServerProcess(host_key, app_command=[sys.executable, "-c", STUBBORN_APP])
    try:
        await served.wait_until_serving()
        pids = []
        conns = [await connect(served.port) for _ in range(2)]
        for conn in conns:
            session = await open_app(conn)
            pids += app_pids(await session.wait_for("running", timeout=30))
        served.process.send_signal(signum)
        assert await asyncio.to_thread(served.process.wait, 15) == 0
        assert [pid for pid in pids if running(pid)] == []
        for conn in conns:
            conn.close()
    finally:
        served.stop()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


async def test_an_app_exits_when_its_terminal_goes_away(host_key):
    """Killed outright, the server can clean nothing up: the app, hung up on, goes by itself."""
    served = ServerProcess(host_key)
    try:
        await served.wait_until_serving()
        async with await connect(served.port) as conn:
            session = await open_app(conn)
            await session.wait_for(APP_MARK)
            (line,) = [line for line in served.log if "started app pid" in line]
            pid = int(line.split("pid ")[1].split()[0])
            served.process.kill()
            await until(lambda: not running(pid))
    finally:
        served.stop()


# What is logged cannot forge a line or flood the log.


async def test_what_a_client_sends_is_logged_escaped_and_cut(host_key):
    served = ServerProcess(host_key)
    try:
        await served.wait_until_serving()
        for term in ("xterm\nFORGED log line", "x" * 100_000):
            async with await connect(served.port) as conn:
                session = await open_app(conn, term_type=term)
                await asyncio.wait_for(session.closed.wait(), 30)
            with contextlib.suppress(asyncssh.ChannelOpenError):
                async with await connect(served.port) as conn:
                    await conn.run("ls\nFORGED exec" + "y" * 100_000)
        served.process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(served.process.wait, 15)
        served.reader.join(5)
    finally:
        served.stop()
    assert any("\\nFORGED log line" in line for line in served.log)
    assert [line for line in served.log if line.startswith("FORGED")] == []
    assert max(len(line) for line in served.log) <= 1000


# Client variables are checked: a client never sees a traceback.


async def test_a_bad_colour_setting_shows_the_app_not_a_traceback(server):
    _, port = await server()
    async with await connect(port) as conn:
        session = await open_app(conn, env={"TEXTUAL_COLOR_SYSTEM": "bogus", "TEXTUAL_ANIMATIONS": "bogus"})
        text = await session.wait_for(APP_MARK, timeout=30)
        assert "Traceback" not in text


# Pastes arrive whole.


async def test_a_64_kb_paste_reaches_the_app_whole(server):
    size = 64 * 1024
    _, port = await server(app_command=(sys.executable, "-c", PASTE_APP, str(size)))
    paste = "".join(random.Random(15).choices(string.ascii_letters + string.digits, k=size)).encode()
    async with await connect(port) as conn:
        session = await open_app(conn)
        await session.wait_for("READY", timeout=30)
        session.channel.write(paste)
        await session.wait_for("sha " + hashlib.sha256(paste).hexdigest(), timeout=30)
        await asyncio.wait_for(session.closed.wait(), 30)
        assert session.channel.get_exit_status() == 0


# The client learns how the app ended.


async def test_the_client_gets_the_apps_real_exit_status(server):
    app_server, port = await server()
    async with await connect(port) as conn:
        session = await open_app(conn)
        await session.wait_for(APP_MARK)
        (served,) = app_server.sessions
        os.kill(served.app.pid, signal.SIGKILL)
        await asyncio.wait_for(session.closed.wait(), 30)
        assert session.channel.get_exit_signal()[0] == "KILL"
    _, exiting_port = await server(app_command=(sys.executable, "-c", "import sys; sys.exit(3)"))
    async with await connect(exiting_port) as conn:
        session = await open_app(conn)
        await asyncio.wait_for(session.closed.wait(), 30)
        assert session.channel.get_exit_status() == 3


# Bad keys given on the command line: a message and exit 2.


def serve_command(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gbr_tui", "serve", "--ssh", str(free_port()), *arguments],
        capture_output=True,
        text=True,
        timeout=60,
    )


def write_protected_key(path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.write_bytes(key.export_private_key("pkcs8-pem", passphrase="secret"))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda path: None, "no such folder"),
        (lambda path: path.write_text("hello\n"), "not a private key"),
        (lambda path: path.write_bytes(b""), "not a private key"),
        (write_protected_key, "passphrase"),
    ],
    ids=["missing folder", "text file", "empty file", "passphrase"],
)
def test_a_bad_host_key_is_a_usage_error(tmp_path, make, message):
    path = tmp_path / "missing" / "key" if message == "no such folder" else tmp_path / "key"
    make(path)
    result = serve_command("--allow-anonymous", "--host-key", str(path))
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("content", ["", "garbage\n"], ids=["empty", "no valid entry"])
def test_authorized_keys_without_a_key_is_a_usage_error(tmp_path, host_key, content):
    authorized = tmp_path / "authorized_keys"
    authorized.write_text(content)
    result = serve_command("--authorized-keys", str(authorized), "--host-key", str(host_key))
    assert result.returncode == 2, result.stderr
    assert "no valid key" in result.stderr
    assert "Traceback" not in result.stderr


# A seeded run of hostile clients, bounded and on loopback: the server ends as it began.

#: Stands in for the app: shows a mark, then echoes what comes, until its terminal goes away.
ECHO_APP = """
import os, sys
sys.stdout.write("Board\\r\\n")
sys.stdout.flush()
while True:
    data = os.read(0, 4096)
    if not data:
        break
    os.write(1, data[:64])
"""


def children_of(pid: int) -> list[int]:
    """The running processes whose parent is ``pid``."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            with contextlib.suppress(OSError):
                with open(f"/proc/{name}/stat") as stat:
                    fields = stat.read().rpartition(")")[2].split()
                if int(fields[1]) == pid and fields[0] != "Z":
                    found.append(int(name))
    return found


async def hostile_client(port: int, rng: random.Random) -> None:
    """One client doing one careless or hostile thing, bounded in time."""
    kind = rng.choice(["bad term", "huge window", "no session", "garbage", "eof", "raw bytes", "exec", "abort"])
    if kind == "raw bytes":
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(rng.randbytes(rng.randrange(1, 4096)))
        await writer.drain()
        writer.close()
        return
    async with await connect(port) as conn:
        if kind == "no session":
            return
        if kind == "exec":
            with contextlib.suppress(asyncssh.Error):
                await conn.run("cat /etc/passwd", timeout=5)
            return
        term = {"bad term": rng.choice(["xterm\0x", "x\nfake log line", "x" * 100_000])}.get(kind, "xterm")
        size = (65535, 65535) if kind == "huge window" else (80, 24)
        session = await open_app(conn, *size, term_type=term)
        with contextlib.suppress(AssertionError):
            await session.wait_for(APP_MARK, timeout=5)
        if kind == "garbage":
            session.channel.write(rng.randbytes(rng.randrange(1, 65536)))
        elif kind == "eof":
            session.channel.write_eof()
        elif kind == "abort":
            conn.abort()


@pytest.mark.slow  # some 20 seconds: `uv run pytest -m slow` (.ci/run runs it)
async def test_a_seeded_hostile_run_leaves_no_descriptor_and_no_process(server):
    rng = random.Random(20261201)
    # Processes an earlier test of this worker left (a multiprocessing fork server or resource
    # tracker lives as long as the process that started it) are not this run's.
    children_before = set(children_of(os.getpid()))
    _, port = await server(app_command=(sys.executable, "-c", ECHO_APP), session_wait=1)
    async with await connect(port) as conn:  # asyncssh's own first descriptors, once
        await open_app(conn)
    baseline = open_descriptors()
    for _ in range(4):  # rounds of clients at once
        clients = [hostile_client(port, random.Random(rng.random())) for _ in range(6)]
        results = await asyncio.wait_for(asyncio.gather(*clients, return_exceptions=True), 60)
        unexpected = [r for r in results if isinstance(r, Exception) and not isinstance(r, (OSError, asyncssh.Error))]
        assert unexpected == []
    await until(lambda: set(children_of(os.getpid())) <= children_before, timeout=15)
    assert await settled_descriptors(baseline) <= baseline  # not one more than before the run


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_an_idle_timeout_that_is_no_number_of_minutes_is_a_usage_error(value, capsys):
    # Issue 15: --idle-timeout nan meant no timeout at all. Refused before anything is served,
    # so the command runs here rather than in a process of its own (2 s each).
    for where in ("--ssh", "--web"):
        status = main(["serve", where, str(free_port()), "--allow-anonymous", "--idle-timeout", value])
        stderr = capsys.readouterr().err
        assert status == 2, where
        assert "--idle-timeout a number of minutes" in stderr
        assert "Traceback" not in stderr
