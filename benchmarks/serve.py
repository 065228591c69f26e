"""Memory per session and time to the first screen for 1, 10 and 20 concurrent SSH sessions.

Run: uv run python benchmarks/serve.py

The server runs in this process; each client is an asyncssh session whose screen is rebuilt
with pyte. "First screen" is the moment the app's title is on the client's screen. Memory is
the proportional set size (PSS, shared pages divided among the processes sharing them) of each
session's app process, read from /proc. As a baseline measured in the same run, the time for
one bare `python -c pass` process to start and exit is printed, so the numbers can be read
against this machine's speed.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
import pyte

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from usage import answer_help

from gbr_tui.serve.config import ServeOptions
from gbr_tui.serve.ssh import AppServer

TITLE = "Board"  # the board pane title: on screen at every size


class Client(asyncssh.SSHClientSession):
    def __init__(self) -> None:
        self.screen = pyte.Screen(100, 30)
        self.stream = pyte.ByteStream(self.screen)
        self.seen: float | None = None

    def data_received(self, data: bytes, datatype) -> None:
        self.stream.feed(data)
        if self.seen is None and any(TITLE in line for line in self.screen.display):
            self.seen = time.perf_counter()


def pss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


async def measure(server: AppServer, port: int, count: int) -> tuple[list[float], list[int]]:
    async def one() -> tuple[asyncssh.SSHClientConnection, Client, float]:
        started = time.perf_counter()
        conn = await asyncssh.connect("127.0.0.1", port, known_hosts=None, username="bench")
        _, client = await conn.create_session(Client, term_type="xterm-256color", term_size=(100, 30), encoding=None)
        return conn, client, started

    sessions = await asyncio.gather(*(one() for _ in range(count)))
    deadline = time.perf_counter() + 120
    while any(client.seen is None for _, client, _ in sessions) and time.perf_counter() < deadline:
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.5)  # let every app settle before reading memory
    times = [client.seen - started for _, client, started in sessions if client.seen]
    memory = [pss_kib(s.app.pid) for s in server.sessions if s.app]
    for conn, _, _ in sessions:
        conn.close()
    while server.sessions:
        await asyncio.sleep(0.05)
    return times, memory


def bare_python_seconds() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - started


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        options = ServeOptions(port=0, host_key=Path(tmp) / "key", allow_anonymous=True, max_connections_per_address=20)
        server = AppServer(options)
        acceptor = await server.start()
        port = acceptor.sockets[0].getsockname()[1]
        baseline = statistics.median(bare_python_seconds() for _ in range(5))
        print(f"baseline: a bare Python process starts and exits in {baseline * 1000:.0f} ms")
        print(f"{'sessions':>8} {'first screen median':>20} {'slowest':>9} {'PSS per session':>16}")
        for count in (1, 10, 20):
            times, memory = await measure(server, port, count)
            if len(times) < count:
                print(f"{count:>8} only {len(times)} sessions showed a screen")
                continue
            median = statistics.median(times)
            print(
                f"{count:>8} {median * 1000:>17.0f} ms {max(times) * 1000:>6.0f} ms"
                f" {statistics.mean(memory) / 1024:>12.1f} MiB"
                f"   (first screen = {median / baseline:.1f}x a bare Python start)"
            )
        acceptor.close()


if __name__ == "__main__":
    answer_help(__doc__)
    asyncio.run(main())
