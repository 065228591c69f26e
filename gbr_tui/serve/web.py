"""The app in a browser: textual-serve starts one app per page and relays it over a websocket.

textual-serve's own server, with the limits the SSH server has: at most ``max_sessions`` pages
at once, a page closed after ``idle_timeout`` seconds without a key, the window size clamped,
and nothing but the page, its websocket and textual-serve's own static files reachable (no
download route, no directory listings).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time

import aiohttp_jinja2
import jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from gbr_tui.serve.pty import clamped_size


def _size(text: str | None, default: int) -> int:
    """A size from the page's query string: ASCII digits only, else the default."""
    return int(text) if text and text.isascii() and text.isdigit() and len(text) < 6 else default


class WebServer(Server):
    """textual-serve's server, bounded like the SSH server."""

    def __init__(self, host: str, port: int, max_sessions: int = 20, idle_timeout: float = 15 * 60) -> None:
        command = " ".join([sys.executable, "-m", "gbr_tui", "--served"])
        super().__init__(command, host=host, port=port, title="gbr-tui")
        self.max_sessions = max_sessions
        self.idle_timeout = idle_timeout
        self.sessions: set[AppService] = set()

    async def _make_app(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.static("/static", self.statics_path, show_index=False, name="static"),
            ]
        )
        app.on_startup.append(self.on_startup)
        return app

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One app per page, within the limits; a refused or idle page is told why."""
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=1 << 20)
        await websocket.prepare(request)
        if len(self.sessions) >= self.max_sessions:
            await websocket.send_bytes(b"gbr-tui: too many sessions at once, please try again later\r\n")
            await websocket.close()
            return websocket
        width, height = clamped_size(_size(request.query.get("width"), 80), _size(request.query.get("height"), 24))

        async def close() -> None:
            await websocket.close()

        service = AppService(
            self.command,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
            debug=False,
        )
        self.sessions.add(service)
        try:
            await service.start(width, height)
            await self._relay(websocket, service)
        except asyncio.CancelledError:
            pass
        finally:
            self.sessions.discard(service)
            with contextlib.suppress(Exception):
                await service.stop()
            await websocket.close()
        return websocket

    async def _relay(self, websocket: web.WebSocketResponse, service: AppService) -> None:
        """The page's messages to the app until it goes or stays idle (pings are not keys)."""
        last_key = time.monotonic()
        while True:
            wait = None if self.idle_timeout <= 0 else last_key + self.idle_timeout - time.monotonic()
            try:
                message = await asyncio.wait_for(websocket.receive(), wait)
            except asyncio.TimeoutError:
                minutes = self.idle_timeout / 60
                await websocket.send_bytes(f"\r\ngbr-tui: closed after {minutes:g} minutes without a key.\r\n".encode())
                return
            if message.type != WSMsgType.TEXT:
                return
            try:
                kind, data = message.json()
            except ValueError:
                continue
            if kind == "stdin" and isinstance(data, str):
                if not data:  # Textual would take empty input for the end of its input
                    continue
                last_key = time.monotonic()
                await service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                await service.set_terminal_size(
                    *clamped_size(_size(str(data.get("width")), 80), _size(str(data.get("height")), 24))
                )
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()


def run_web(host: str, port: int, max_sessions: int = 20, idle_timeout: float = 15 * 60) -> int:
    WebServer(host, port, max_sessions, idle_timeout).serve()
    return 0
