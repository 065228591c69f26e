"""The frames the installed gbr-tui writes while it starts: none shows a half-made pane."""

from __future__ import annotations

import time

import pexpect

from gbr_tui.core.examples import ALL
from tests.terminal.pty_screen import GBR_TUI, TIMEOUT, PtyScreen, base_environment


def test_no_frame_shows_the_examples_cut_to_an_unmeasured_width() -> None:
    """The name column takes the width the pane leaves, known only once the pane is laid out:
    a table filled before that drew "queen aga…" for a frame, then the whole name."""
    terminal = PtyScreen([GBR_TUI], base_environment())
    written = b""
    try:
        deadline = time.monotonic() + TIMEOUT
        while "commands" not in terminal.text:  # the footer: the last part of the screen made
            assert time.monotonic() < deadline, terminal.text
            try:
                chunk = terminal.child.read_nonblocking(65536, timeout=0.1)
            except pexpect.TIMEOUT:
                continue
            written += chunk
            terminal.stream.feed(chunk)
    finally:
        terminal.close()
    first = ALL[0].name  # "queen against bare king", the first row: wider than the 10 columns
    assert first[:9].encode() in written
    assert f"{first[:9]}…".encode() not in written
    assert any(line.startswith(f"│ {ALL[0].white} ") and first in line for line in terminal.screen.display)
