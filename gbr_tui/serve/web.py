"""The app in a browser: textual-serve starts one app per page and relays it over a websocket."""

from __future__ import annotations

import sys


def run_web(host: str, port: int) -> int:
    from textual_serve.server import Server

    command = " ".join([sys.executable, "-m", "gbr_tui", "--served"])
    Server(command, host=host, port=port, title="gbr-tui").serve()
    return 0
