"""The installed gbr-tui in a real pseudo-terminal, for the terminals our users have.

Each test starts the console script in a PTY (pexpect), types keys and reads the screen back
through a terminal emulator (pyte). ``s`` sets up the start position, whose code is 4888.88:
one queen each (1 + 3), two rooks, bishops and knights each (2 + 6), eight pawns each; with
the kings' squares, 4888.88e1e8.
"""

from __future__ import annotations

import os

import pexpect
import pytest

from tests.terminal.pty_screen import GBR_TUI, PtyScreen, base_environment

START_CODE = "4888.88e1e8"
F2 = "\x1bOQ"
#: pyte's names for the 16 colours of an 8/16-colour terminal (and the terminal's own).
SIXTEEN_COLOURS = {
    "default",
    *(
        prefix + name
        for prefix in ("", "bright")
        for name in ("black", "red", "green", "brown", "blue", "magenta", "cyan", "white")
    ),
}


def start(env: dict[str, str], *args: str, width: int = 80, height: int = 24) -> PtyScreen:
    terminal = PtyScreen([GBR_TUI, *args], env, width=width, height=height)
    terminal.wait_for("Examples")
    return terminal


def one_line(text: str) -> str:
    return " ".join(text.split())


def cells(terminal: PtyScreen):
    screen = terminal.screen
    return [screen.buffer[y][x] for y in range(screen.lines) for x in range(screen.columns)]


def assert_readable(terminal: PtyScreen, needle: str) -> None:
    """The line holding ``needle`` is drawn in another colour than its background."""
    for y, line in enumerate(terminal.screen.display):
        if needle in line:
            row = terminal.screen.buffer[y]
            start = line.index(needle)
            for cell in (row[x] for x in range(start, start + len(needle))):
                assert cell.fg != cell.bg or cell.fg == "default" or cell.reverse, (needle, cell)
            return
    raise AssertionError(f"{needle!r} not on screen:\n{terminal.text}")


def square_cells(terminal: PtyScreen, rank_label: str) -> list:
    """The cells of a rank's first two squares (a and b), read off the board's left edge: the
    border, the rank number and a space, then three cells a square."""
    for y, line in enumerate(terminal.screen.display):
        if line[1:3] == f"{rank_label} ":
            row = terminal.screen.buffer[y]
            return [row[x] for x in range(3, 9)]
    raise AssertionError(f"no rank {rank_label} on screen:\n{terminal.text}")


@pytest.mark.parametrize(
    ("name", "env", "args"),
    [
        ("TERM=xterm", {"TERM": "xterm"}, ()),
        ("xterm-256color", {}, ()),
        ("truecolor", {"COLORTERM": "truecolor"}, ()),
        ("NO_COLOR", {"NO_COLOR": "1"}, ()),
        ("LANG=C", {"LANG": "C"}, ()),
        ("ISO-8859-1", {"LANG": "en_US.ISO-8859-1"}, ()),
        ("--ascii", {}, ("--ascii",)),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_the_code_appears(name: str, env: dict[str, str], args: tuple[str, ...]) -> None:
    terminal = start(base_environment(**env), *args)
    try:
        terminal.press("s")
        text = terminal.wait_for(START_CODE)
        assert_readable(terminal, START_CODE)
        ascii_mode = "--ascii" in args or env.get("LANG") in ("C", "en_US.ISO-8859-1")
        # Without colours (ASCII mode or NO_COLOR) a man on a dark square (a1 c1 e1 g1) keeps the
        # square's dot beside it.
        if ascii_mode:
            # The men as letters; the screen may arrive in several writes, so wait for the row.
            text = terminal.wait_for(".R. N .B. Q .K. B .N. R")
            assert text.isascii(), sorted({character for character in text if not character.isascii()})
        elif "NO_COLOR" in env:
            terminal.wait_for("·♖· ♘ ·♗· ♕ ·♔· ♗ ·♘· ♖")
        else:
            terminal.wait_for("♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖")
        colours = {colour for cell in cells(terminal) for colour in (cell.fg, cell.bg)}
        if "NO_COLOR" in env:
            assert colours == {"default"}
            assert any(cell.reverse for cell in cells(terminal))  # the cursor, in reverse video
        if env.get("TERM") == "xterm":
            assert colours <= SIXTEEN_COLOURS, colours - SIXTEEN_COLOURS
        if "NO_COLOR" not in env:
            # Readable: light and dark squares apart, the men in another colour than both.
            a1, b1 = square_cells(terminal, "1")[1], square_cells(terminal, "1")[4]
            assert a1.bg != b1.bg
            assert a1.fg not in (a1.bg, b1.bg) and b1.fg not in (a1.bg, b1.bg)
    finally:
        terminal.close()


def test_compact_at_60x20() -> None:
    terminal = start(base_environment(), width=60, height=20)
    try:
        terminal.press("s")
        text = terminal.wait_for(START_CODE)
        assert "a  b  c  d  e  f  g  h" in text  # the whole board
        footer = text.splitlines()[-1]
        assert "f1 help" in footer and "^p" in footer
    finally:
        terminal.close()


def test_too_small_at_40x12_then_back() -> None:
    env = base_environment()
    terminal = PtyScreen([GBR_TUI], env, width=40, height=12)
    try:
        terminal.wait_for("too small")
        terminal.pump(0.3)
        assert "terminal too small: need at least 60x20, have 40x12" in one_line(terminal.text)
        assert_readable(terminal, "terminal too small")
        terminal.resize(80, 24)
        terminal.wait_for("Examples")
        terminal.press("s")
        terminal.wait_for(START_CODE)
    finally:
        terminal.close()


def test_resizing_at_any_moment() -> None:
    terminal = start(base_environment(), width=80, height=24)
    try:
        terminal.press("s")
        terminal.wait_for(START_CODE)
        for width, height in ((60, 20), (40, 12), (100, 30), (20, 5), (59, 20), (120, 40), (1, 1), (80, 24)):
            terminal.resize(width, height)
            terminal.press(F2, F2)  # decode and back (nothing while too small)
        # Every key acted on, however far a loaded machine lags behind them: ctrl+p after them
        # opens the palette over whatever screen they left, once they all have acted; ctrl+p
        # again closes it.
        terminal.press("\x10")
        terminal.wait_for("Search for commands")
        terminal.press("\x10")
        terminal.wait_until_gone("Search for commands")
        if "Decode a GBR code" in terminal.text:  # an F2 came while the terminal was too small
            terminal.press(F2)
        terminal.wait_for("Examples")
        terminal.press("c")
        terminal.wait_for("0000.00")
        terminal.press("s")
        terminal.wait_for(START_CODE)
        assert terminal.child.isalive()
    finally:
        terminal.close()


def test_a_pipe_that_never_sends_still_lets_the_app_quit(tmp_path) -> None:
    # A FIFO nobody writes to: reading it would wait for ever. The browser shows it being read,
    # and ctrl+q still ends the app at once (issue 15: the app never exited).
    fifo = tmp_path / "silent.pgn"
    os.mkfifo(fifo)
    terminal = PtyScreen([GBR_TUI, str(fifo)], base_environment(), width=100, height=30)
    try:
        terminal.wait_for("Reading silent.pgn")
        terminal.press("\x11")  # ctrl+q
        terminal.child.expect(pexpect.EOF, timeout=10)
    finally:
        terminal.close()
