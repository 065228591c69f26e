"""What the command reads from the environment and its flags: ASCII mode, mouse, animations."""

from __future__ import annotations

import pytest

import gbr_tui.app
import gbr_tui.terminal
from gbr_tui.cli import main
from gbr_tui.terminal import animation_level, ascii_wanted, locale_is_utf8, not_a_terminal

UTF8 = {"LANG": "en_US.UTF-8", "TERM": "xterm-256color"}


@pytest.mark.parametrize(
    ("environ", "utf8"),
    [
        ({}, True),  # nothing set: we choose UTF-8 (see locale_is_utf8)
        ({"LANG": "C.UTF-8"}, True),
        ({"LANG": "en_US.UTF-8"}, True),
        ({"LANG": "de_DE.utf8"}, True),
        ({"LANG": "de_DE.UTF-8@euro"}, True),
        ({"LANG": "C"}, False),
        ({"LANG": "POSIX"}, False),
        ({"LANG": "en_US.ISO-8859-1"}, False),
        ({"LANG": "ru_RU.KOI8-R"}, False),
        ({"LANG": "en_US"}, False),  # no charset named: the C library's legacy default
        ({"LC_ALL": "C", "LANG": "en_US.UTF-8"}, False),  # LC_ALL first
        ({"LC_CTYPE": "en_US.UTF-8", "LANG": "C"}, True),  # then LC_CTYPE
        # What Python's start-up leaves for LANG=C (PEP 538), and for nothing set:
        ({"LC_CTYPE": "C.UTF-8", "LANG": "C"}, False),
        ({"LC_CTYPE": "C.UTF-8"}, True),
        ({"LC_ALL": "", "LC_CTYPE": "", "LANG": "C"}, False),  # empty ones do not count
        ({"LC_ALL": "", "LANG": "C.UTF-8"}, True),
    ],
)
def test_locale_is_utf8(environ: dict[str, str], utf8: bool) -> None:
    assert locale_is_utf8(environ) is utf8


@pytest.mark.parametrize(
    ("environ", "wanted"),
    [
        (UTF8, False),
        ({**UTF8, "LANG": "C"}, True),
        ({**UTF8, "LANG": "en_US.ISO-8859-1"}, True),
        ({**UTF8, "TERM": "linux"}, True),  # the Linux console has no chess glyphs
        ({**UTF8, "TERM": "vt100"}, True),
        ({**UTF8, "GBR_TUI_ASCII": "1"}, True),
        ({**UTF8, "GBR_TUI_ASCII": "yes"}, True),
        ({**UTF8, "LANG": "C", "GBR_TUI_ASCII": "0"}, False),  # the user knows better
        ({**UTF8, "GBR_TUI_ASCII": ""}, False),
    ],
)
def test_ascii_wanted(environ: dict[str, str], wanted: bool) -> None:
    assert ascii_wanted(environ) is wanted


def test_animations() -> None:
    assert animation_level({}, no_animation=False, served=False) is None  # Textual decides
    assert animation_level({}, no_animation=True, served=False) == "none"
    assert animation_level({"SSH_CONNECTION": "10.0.0.1 5 10.0.0.2 22"}, False, False) == "none"
    assert animation_level({}, no_animation=False, served=True) == "none"
    # Asked for over ssh: Textual reads TEXTUAL_ANIMATIONS itself.
    assert animation_level({"SSH_TTY": "/dev/pts/1", "TEXTUAL_ANIMATIONS": "full"}, False, False) is None
    assert animation_level({"TEXTUAL_ANIMATIONS": "full"}, no_animation=True, served=False) == "none"


@pytest.fixture
def started(monkeypatch) -> dict[str, object]:
    """What the command passes to ``run_app``, instead of starting the app."""
    calls: dict[str, object] = {}

    def run_app(**options) -> int:
        calls.update(options)
        return 0

    monkeypatch.setattr(gbr_tui.app, "run_app", run_app)
    monkeypatch.setattr(gbr_tui.terminal, "not_a_terminal", lambda *streams: None)  # pytest's are not
    for name in (
        "LC_ALL",
        "LC_CTYPE",
        "GBR_TUI_ASCII",
        "SSH_CONNECTION",
        "SSH_TTY",
        "SSH_CLIENT",
        "TEXTUAL_ANIMATIONS",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("TERM", "xterm-256color")
    return calls


def test_the_app_starts_with_mouse_glyphs_and_animations_by_default(started) -> None:
    assert main([]) == 0
    assert started == {
        "served": False,
        "ascii_mode": False,
        "mouse": True,
        "animation_level": None,
        "tablebases": None,
    }


def test_flags(started) -> None:
    main(["--ascii", "--no-mouse", "--no-animation"])
    assert started["ascii_mode"] is True
    assert started["mouse"] is False
    assert started["animation_level"] == "none"


def test_a_c_locale_or_the_variable_means_ascii(started, monkeypatch) -> None:
    monkeypatch.setenv("LANG", "C")
    main([])
    assert started["ascii_mode"] is True
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("GBR_TUI_ASCII", "1")
    main([])
    assert started["ascii_mode"] is True


def test_over_ssh_no_animations(started, monkeypatch) -> None:
    monkeypatch.setenv("SSH_CONNECTION", "127.0.0.1 50000 127.0.0.1 22")
    main([])
    assert started["animation_level"] == "none"


class Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("stdin", "stdout", "refused"),
    [(True, True, None), (False, True, "stdin"), (True, False, "stdout"), (False, False, "stdin")],
)
def test_the_app_needs_a_terminal_for_its_keys_and_its_screen(stdin: bool, stdout: bool, refused: str | None) -> None:
    problem = not_a_terminal({}, Stream(stdin), Stream(stdout))
    if refused is None:
        assert problem is None
    else:
        assert problem.startswith(f"{refused} is not a terminal")
        assert "ssh -t" in problem and "gbr-tui encode" in problem


def test_a_textual_driver_brings_its_own_terminal() -> None:
    """textual-serve (gbr-tui serve --web) talks to the app through pipes, with its driver."""
    environ = {"TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver"}
    assert not_a_terminal(environ, Stream(False), Stream(False)) is None
