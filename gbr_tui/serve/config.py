"""How the SSH server is set up: its options, its host key and who may log in, what a client
may pass on to the app, and how what a client sends is logged.

Nothing a client sends is trusted: the terminal type and the few variables passed on to the app
are checked against the patterns here, and what is logged is escaped and cut.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import asyncssh

from gbr_tui.core.text import printable

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


def refused(peer: str, request: str) -> bool:
    """Log a refused request; False is asyncssh's "no"."""
    log.warning("%s refused: %s", peer, request)
    return False


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
