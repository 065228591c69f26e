"""`gbr-tui serve --web` in a real headless Chromium, and the web server's limits.

The browser is driven over the DevTools protocol (aiohttp, already there for textual-serve): it
loads the page, its JavaScript opens the websocket and draws the terminal, keys go in as the
keyboard would type them. The terminal is drawn on a canvas, so what the page shows is read from
what its own websocket received (recorded by a script the page runs first), replayed on a pyte
screen of the size the page asked for.

Without Chromium the browser test is skipped, unless GBR_TUI_REQUIRE_BROWSER is set (.ci/run
installs Chromium and sets it). GBR_TUI_WEB_SCREENSHOT=PATH saves the page as a PNG there (the
README's screenshots/web-kubbel.png).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import pyte
import pytest

from tests.serve.client import free_port

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
#: Kubbel, 1st prize Shakhmaty 1925 (spec section 3): =0323.12g3g1, 6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1.
KUBBEL_MEN = {"g8": "n", "h6": "P", "c6": "p", "a3": "r", "c3": "p", "g3": "K", "a2": "B", "e1": "B", "g1": "k"}

#: Runs in the page before its own scripts: keeps what every websocket of the page receives.
RECORD_WEBSOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__received = {size: null, bytes: []};
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      const query = new URL(String(url)).searchParams;
      window.__received.size = [Number(query.get("width")), Number(query.get("height"))];
      this.addEventListener("message", (event) => {
        if (event.data instanceof ArrayBuffer) {
          window.__received.bytes.push(...new Uint8Array(event.data));
        }
      });
    }
    send(data) {  // a resize asks the app for another size: the screen follows it
      try {
        const [kind, value] = JSON.parse(data);
        if (kind === "resize") window.__received.size = [value.width, value.height];
      } catch (error) {}
      super.send(data);
    }
  };
})();
"""


class WebServerProcess:
    """`gbr-tui serve --web` on a free loopback port, ready once its page answers."""

    def __init__(self, *options: str) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gbr_tui", "serve", "--web", f"127.0.0.1:{self.port}", *options],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.url, timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise
                time.sleep(0.2)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture
def web_server(request):
    servers = []

    def start(*options: str) -> WebServerProcess:
        servers.append(WebServerProcess(*options))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


class Browser:
    """Headless Chromium with one page, over the DevTools protocol."""

    def __init__(self, profile: Path) -> None:
        self.process = subprocess.Popen(
            [
                CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1000,720", f"--user-data-dir={profile}",
                "--remote-debugging-port=0", "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        self.next_id = 0
        for line in self.process.stderr:
            found = re.search(r"DevTools listening on ws://([^/]+)/", line)
            if found:
                self.address = found.group(1)
                break
        else:
            raise AssertionError("Chromium did not start its DevTools server")

    async def open(self, session: aiohttp.ClientSession) -> None:
        async with session.get(f"http://{self.address}/json/list") as response:
            pages = [target for target in await response.json() if target["type"] == "page"]
        self.socket = await session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=1 << 26)

    async def call(self, method: str, **params) -> dict:
        self.next_id += 1
        await self.socket.send_json({"id": self.next_id, "method": method, "params": params})
        while True:
            message = json.loads((await self.socket.receive()).data)
            if message.get("id") == self.next_id:
                assert "error" not in message, message
                return message.get("result", {})

    async def evaluate(self, expression: str):
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def click(self, x: int, y: int) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            await self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    async def type(self, text: str) -> None:
        """Each character as a key press, into whatever has the keyboard focus."""
        for character in text:
            await self.call("Input.dispatchKeyEvent", type="keyDown", text=character, key=character)
            await self.call("Input.dispatchKeyEvent", type="keyUp", key=character)

    def close(self) -> None:
        self.process.kill()
        self.process.wait(10)


async def page_screen(browser: Browser) -> str:
    """What the page's terminal shows: its websocket's bytes on a screen of the page's size."""
    received = await browser.evaluate("window.__received")
    if not received or not received["size"]:
        return ""  # the page has not connected yet
    screen = pyte.Screen(*received["size"])
    pyte.ByteStream(screen).feed(bytes(received["bytes"]))
    return "\n".join(screen.display)


async def wait_for(browser: Browser, text: str, seconds: float = 30) -> str:
    deadline = time.monotonic() + seconds
    while True:
        shown = await page_screen(browser)
        if text in shown:
            return shown
        assert time.monotonic() < deadline, f"{text!r} never appeared; page shows:\n{shown}"
        await asyncio.sleep(0.2)


@pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("GBR_TUI_REQUIRE_BROWSER"), reason="needs Chromium (.ci/run installs it)"
)
def test_a_study_typed_in_a_real_browser_shows_its_published_code(web_server, tmp_path):
    server = web_server()
    browser = Browser(tmp_path / "profile")

    async def drive() -> bytes:
        async with aiohttp.ClientSession() as session:
            await browser.open(session)
            await browser.call("Page.enable")
            # A headless window never has the focus: the page would tell the app it is blurred,
            # and the app would take the focus off the board, as when a user looks elsewhere.
            await browser.call("Emulation.setFocusEmulationEnabled", enabled=True)
            await browser.call("Page.addScriptToEvaluateOnNewDocument", source=RECORD_WEBSOCKETS)
            await browser.call("Page.navigate", url=server.url)
            await wait_for(browser, "Board")
            await browser.click(150, 200)  # into the page, on the board, as a user starts
            await wait_for(browser, "┏━ Board")  # the board has the focus (a heavy border)
            keys = "".join(f"g{square}{symbol}" for square, symbol in KUBBEL_MEN.items()) + "="
            await browser.type(keys)
            shown = await wait_for(browser, "=0323.12g3g1")
            assert "KBBP v KRNPP" in shown
            await asyncio.sleep(0.5)  # the canvas draws a frame after the bytes came
            shot = await browser.call("Page.captureScreenshot", format="png")
            return base64.b64decode(shot["data"])

    try:
        png = asyncio.run(asyncio.wait_for(drive(), 90))
    finally:
        browser.close()
    assert png.startswith(b"\x89PNG")
    target = Path(os.environ.get("GBR_TUI_WEB_SCREENSHOT") or tmp_path / "web-kubbel.png")
    target.write_bytes(png)


#: What a terminal sends when its window gets the focus: a key for the server's idle timer,
#: nothing for the app to act on (it has the focus already). Not an empty key: Textual takes
#: empty input for the end of its input.
FOCUS_IN = "\x1b[I"
F1 = "\x1bOP"
#: Seconds between two FOCUS_IN of a page kept active.
KEEP_ACTIVE_EVERY = 0.2


async def first_bytes(url: str, seconds: float = 20, active_until: bytes | None = None) -> bytes:
    """What the server sends a page's websocket until it closes it (or ``seconds`` pass).

    ``active_until``: until these bytes have come, the page sends ``FOCUS_IN`` now and then, as
    a user at the keyboard keeps it, so that an idle timeout counts from when they came, however
    long a loaded machine took to send them."""
    received = b""
    async with aiohttp.ClientSession() as session, session.ws_connect(url.replace("http", "ws") + "ws") as socket:

        async def keep_active() -> None:
            while active_until not in received:
                await socket.send_json(["stdin", FOCUS_IN])
                await asyncio.sleep(KEEP_ACTIVE_EVERY)

        async def read_until_closed() -> None:
            nonlocal received
            while True:
                message = await socket.receive()
                if message.type == aiohttp.WSMsgType.BINARY:
                    received += message.data
                elif message.type != aiohttp.WSMsgType.TEXT:
                    return

        keeping = asyncio.create_task(keep_active()) if active_until is not None else None
        # One bound for the whole: receive's own timeout starts again at each ping it answers.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(read_until_closed(), seconds)
        if keeping is not None:
            keeping.cancel()
    return received


def test_the_web_server_refuses_pages_beyond_its_session_limit(web_server):
    server = web_server("--max-sessions", "1")

    async def two_pages() -> bytes:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url + "ws") as first:
            while b"Board" not in (await first.receive(timeout=30)).data:
                pass
            return await first_bytes(server.url, 10)

    second = asyncio.run(two_pages())
    assert b"too many sessions" in second
    assert b"Board" not in second


def test_the_web_server_closes_an_idle_page_with_a_message(web_server):
    server = web_server("--idle-timeout", "0.05")  # 3 seconds, from when the app has drawn
    shown = asyncio.run(first_bytes(server.url, 60, active_until=b"Board"))
    assert b"Board" in shown  # the app came up
    assert b"closed after 0.05 minutes without a key" in shown


def test_an_empty_key_from_a_page_leaves_the_app_reading_keys(web_server):
    """Relayed, an empty 'stdin' message reached Textual as the end of its input: the app read
    no more keys, and the page was never closed, not even when idle."""
    server = web_server()

    async def page() -> bytes:
        received = b""
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url + "ws") as socket:
            for expected in (b"Board", b"Guy-Blandford-Roycroft"):  # F1: the help, which names GBR
                while expected not in received:
                    message = await socket.receive(timeout=30)
                    assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), received
                    if message.type == aiohttp.WSMsgType.BINARY:
                        received += message.data
                if expected == b"Board":
                    await socket.send_json(["stdin", ""])
                    await socket.send_json(["stdin", F1])
        return received

    assert b"Guy-Blandford-Roycroft" in asyncio.run(asyncio.wait_for(page(), 90))


@pytest.fixture(scope="module")
def plain_web_server():
    """One server with the default options, for the tests that only ask it for pages."""
    server = WebServerProcess()
    yield server
    server.stop()


@pytest.mark.parametrize("path", ["static/", "static/js/", "download/anything", "static/../server.py"])
def test_the_web_server_offers_nothing_but_the_page(plain_web_server, path):
    server = plain_web_server
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(server.url + path, timeout=5)
    assert refused.value.code in (403, 404)
