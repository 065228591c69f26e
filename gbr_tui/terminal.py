"""What the user's terminal can take, read from the environment: letters or glyphs, animations.

Only the ``gbr-tui`` command asks these questions (``make_app`` takes explicit values), so tests
and screenshots look the same whatever the environment they run in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Literal

#: The locale variables that name the character set, in the order POSIX consults them.
LOCALE_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")
#: What Python's start-up sets LC_CTYPE to when it coerces a C locale (PEP 538).
PYTHON_COERCED = ("C.UTF-8", "C.utf8", "UTF-8")
#: Terminals whose fonts have box lines but no chess glyphs: the Linux console, DEC VTs.
ASCII_TERMINALS = ("linux", "vt52", "vt100", "vt102", "vt220", "vt320")
YES = ("1", "yes", "true", "on")
NO = ("0", "no", "false", "off")


def locale_is_utf8(environ: Mapping[str, str]) -> bool:
    """Whether the locale's character set is UTF-8.

    The first of LC_ALL, LC_CTYPE and LANG that is set and not empty decides, as it does for
    setlocale(). C and POSIX are ASCII. A name without a character set (``en_US``) gets the C
    library's default for it, a legacy 8-bit set (ISO-8859-1 for en_US): only an explicit UTF-8
    counts.

    Python's start-up hides a C locale (PEP 538): it sets LC_CTYPE=C.UTF-8 in our environment
    (and ``locale.getpreferredencoding()`` answers UTF-8). So an LC_CTYPE that is one of those
    targets decides only when LANG says nothing; a user who sets LC_CTYPE=C.UTF-8 beside
    LANG=C by hand gets ASCII, the safe side of the doubt.

    When none is set, we choose UTF-8. That is what ``env -i``, containers started with
    ``docker run -it`` and ssh sessions whose server sets no locale give: the terminal is then
    the user's own, which nowadays is UTF-8, and nothing says otherwise. Reading it as C would
    put those users in ASCII mode for no reason; a user whose terminal really cannot show UTF-8
    has a locale that says so, or passes ``--ascii`` (``GBR_TUI_ASCII=1``).
    """
    value = ""
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if name == "LC_CTYPE" and value in PYTHON_COERCED and environ.get("LANG"):
            continue
        if value:
            break
    if not value:
        return True
    if value in ("C", "POSIX"):
        return False
    # language[_territory][.codeset][@modifier]
    codeset = value.partition(".")[2].partition("@")[0]
    return codeset.lower().replace("-", "").replace("_", "") == "utf8"


def ascii_wanted(environ: Mapping[str, str]) -> bool:
    """ASCII mode: ``GBR_TUI_ASCII`` when it says yes or no, else a non-UTF-8 locale or a
    terminal without chess glyphs (``TERM=linux``, a VT)."""
    setting = environ.get("GBR_TUI_ASCII", "").strip().lower()
    if setting in YES:
        return True
    if setting in NO:
        return False
    return not locale_is_utf8(environ) or environ.get("TERM", "") in ASCII_TERMINALS


def remote(environ: Mapping[str, str]) -> bool:
    """Whether we run in an ssh session (OpenSSH sets these for the remote command)."""
    return any(environ.get(name) for name in ("SSH_CONNECTION", "SSH_TTY", "SSH_CLIENT"))


def animation_level(environ: Mapping[str, str], no_animation: bool, served: bool) -> Literal["none"] | None:
    """``"none"`` when animations are off, None to leave Textual's own choice.

    Off with ``--no-animation``; off over ssh (and when served) unless ``TEXTUAL_ANIMATIONS``
    asks for them, since every frame of a scroll travels over the link. Textual reads
    ``TEXTUAL_ANIMATIONS`` itself.
    """
    if no_animation:
        return "none"
    if (served or remote(environ)) and not environ.get("TEXTUAL_ANIMATIONS"):
        return "none"
    return None


def not_a_terminal(environ: Mapping[str, str], stdin: IO, stdout: IO) -> str | None:
    """Why the app cannot start here, or None when it can.

    The app reads its keys from the terminal and draws on it. With stdin or stdout redirected
    (``gbr-tui > file``, ``ssh host gbr-tui`` without ``-t``, a cron job) it would wait for
    keys that never come, writing escape codes into a file or a pipe. A Textual driver named in
    the environment brings its own terminal (textual-serve's, for ``gbr-tui serve --web``).
    """
    if environ.get("TEXTUAL_DRIVER"):
        return None
    for name, stream in (("stdin", stdin), ("stdout", stdout)):
        if not stream.isatty():
            return (
                f"{name} is not a terminal: the app reads its keys from one and draws on it "
                "(over ssh: ssh -t).\nFor scripts: gbr-tui encode, decode or classify (gbr-tui --help)."
            )
    return None
