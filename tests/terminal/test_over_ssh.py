"""The installed app through a real OpenSSH server and client on loopback.

The test starts sshd on a free port with a throwaway host key and a throwaway user key, then runs
`ssh -tt ... gbr-tui` in a pseudo-terminal, types a position and reads the code off the screen.
"""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import time

import pexpect
import pytest

from tests.terminal.pty_screen import GBR_TUI, PtyScreen, base_environment

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _keygen(path) -> None:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    if not os.path.exists(SSHD) or shutil.which("ssh") is None:
        pytest.skip("OpenSSH server or client is not installed (apt-get install openssh-server openssh-client)")
    home = tmp_path_factory.mktemp("sshd")
    host_key, user_key = home / "host_key", home / "user_key"
    _keygen(host_key)
    _keygen(user_key)
    authorized = home / "authorized_keys"
    authorized.write_text((home / "user_key.pub").read_text())
    authorized.chmod(0o600)
    port = _free_port()
    config = home / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {host_key}\n"
        f"AuthorizedKeysFile {authorized}\nPidFile {home / 'sshd.pid'}\n"
        "PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\n"
        "StrictModes no\nPermitRootLogin prohibit-password\nAcceptEnv LANG LC_* NO_COLOR\n"
    )
    if os.geteuid() == 0:
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # privilege separation directory
    process = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 10
    while True:
        if process.poll() is not None:
            pytest.skip(f"sshd could not start: {process.stderr.read().strip()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                pytest.skip("sshd did not start listening within 10 s")
            time.sleep(0.1)
    yield port, user_key
    process.terminate()
    process.wait(10)


def test_the_app_over_a_real_ssh_connection(sshd):
    port, user_key = sshd
    argv = [
        "ssh", "-tt", "-p", str(port), "-i", str(user_key),
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "LogLevel=ERROR", "-o", "SendEnv=LANG", "-o", "BatchMode=yes",
        f"{getpass.getuser()}@127.0.0.1", GBR_TUI,
    ]  # fmt: skip
    terminal = PtyScreen(argv, base_environment(), width=100, height=30)
    try:
        terminal.wait_for("Board")
        terminal.press("s")  # the start position: every man on the board
        # 4888.88: one queen each (1 + 3), two rooks, bishops and knights each (2 + 6), 8 pawns each.
        terminal.wait_for("code  4888.88")
        terminal.press("c")  # an empty board has no men: 0000.00
        terminal.wait_for("code  0000.00")
        terminal.press("\x11")  # ctrl+q quits from any pane (q is a Black queen on the board)
        terminal.child.expect(pexpect.EOF, timeout=30)  # quitting the app ends the connection
    finally:
        terminal.close()
