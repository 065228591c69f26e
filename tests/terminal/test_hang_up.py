"""The app ends when its terminal goes, however it goes, instead of spinning on a dead terminal.

Two ways a terminal goes: hung up on with SIGHUP (which the app may have been started with
ignored, as ``nohup`` does), and gone without a signal (the app's terminal not its controlling
one, as for a program started by a server that keeps no session). In both, the server end of
the pty is closed once the app has drawn its screen, and the app must be gone within seconds.
"""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import subprocess
import termios
import time

import pytest

from tests.terminal.pty_screen import GBR_TUI, TIMEOUT, base_environment

#: The app checks its terminal every second; this leaves room for a loaded machine.
GONE_WITHIN = 15.0


def _read_until(master: int, needle: bytes) -> None:
    seen = b""
    deadline = time.monotonic() + TIMEOUT
    while needle not in seen:
        assert time.monotonic() < deadline, f"{needle!r} never appeared"
        try:
            seen = seen[-1000:] + os.read(master, 65536)
        except BlockingIOError:
            time.sleep(0.05)


def _gone_within(process: subprocess.Popen, seconds: float) -> bool:
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        return False
    return True


def _ignore_hang_ups() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def _ignore_hang_ups_and_take_the_terminal() -> None:
    _ignore_hang_ups()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


@pytest.mark.parametrize(
    "start",
    [_ignore_hang_ups_and_take_the_terminal, _ignore_hang_ups],
    ids=["hung-up-with-sighup-ignored", "gone-without-a-signal"],
)
def test_the_app_ends_when_its_terminal_goes(start, tmp_path) -> None:
    master, slave = pty.openpty()
    os.set_blocking(master, False)
    env = base_environment(XDG_CONFIG_HOME=str(tmp_path))
    process = subprocess.Popen(
        [GBR_TUI], stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, preexec_fn=start
    )
    os.close(slave)
    try:
        # A first start (an empty config directory) opens on Kubbel's study, =0323.12g3g1 in
        # the spec: its code in the code pane, the app is up.
        _read_until(master, b"0323.12")
        os.close(master)
        master = None
        assert _gone_within(process, GONE_WITHIN), "the app outlived its terminal"
    finally:
        if master is not None:
            os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()
