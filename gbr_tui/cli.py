"""The ``gbr-tui`` command: sub-commands for scripts, the terminal app otherwise.

Only what the command line asks for is loaded: the app does not wait for the collection readers
(nor, started with no arguments, for argparse), and ``gbr-tui encode`` in a shell loop does not
load the app. ``gbr-tui --help`` loads every sub-command, to list them.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Callable
from functools import partial
from importlib import import_module
from typing import TYPE_CHECKING

from gbr_tui import __version__, startup

if TYPE_CHECKING:
    import argparse

#: The sub-commands, each a module of ``gbr_tui.commands`` with ``register`` and ``run``.
COMMAND_NAMES = (
    "encode",
    "decode",
    "classify",
    "check",
    "index",
    "similar",
    "duplicates",
    "diagram",
    "report",
    "screenshots",
    "serve",
)
HELP_FLAGS = ("-h", "--help")


def build_parser(commands: tuple[str, ...] = COMMAND_NAMES) -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="gbr-tui",
        usage="gbr-tui [-h] [--version] [FILE... | COMMAND ...]",
        description="Compute, decode and browse chess GBR codes. With no command, start the app; "
        "with files, start it browsing them (gbr-tui FILE --help tells more).",
    )
    parser.add_argument("--version", action="version", version=f"gbr-tui {__version__}")
    parser.add_argument("--served", action="store_true", help=argparse.SUPPRESS)
    app = parser.add_argument_group("the app (no COMMAND)")
    app.add_argument(
        "--ascii",
        action="store_true",
        help="draw with ASCII only: men as letters, ASCII lines (also GBR_TUI_ASCII=1; "
        "automatic when the locale is not UTF-8)",
    )
    app.add_argument("--no-mouse", action="store_true", help="do not capture the mouse: the terminal selects text")
    app.add_argument(
        "--no-animation",
        action="store_true",
        help="no animations or blinking cursors, for slow links (off over ssh unless TEXTUAL_ANIMATIONS is set)",
    )
    app.add_argument(
        "--tablebases",
        action="append",
        metavar="DIR",
        help="a directory of endgame tablebases whose verdicts the code pane shows (repeatable; also "
        "GBR_TUI_TABLEBASES, parted by ':', or the palette's Tablebases command, which keeps them)",
    )
    if commands:
        subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", prog="gbr-tui")
        for name in commands:
            import_module(f"gbr_tui.commands.{name}").register(subparsers)
    return parser


def commands_named(argv: list[str]) -> tuple[str, ...]:
    """The sub-commands the parser needs for this command line: the one it names, every one when
    it asks for the program's help, none when it starts the app."""
    for arg in argv:
        if arg in COMMAND_NAMES:
            return (arg,)
        if arg in HELP_FLAGS:
            return COMMAND_NAMES
    return ()


def prepare(argv: list[str]) -> Callable[[], int]:
    """Parse the command line and load what it runs; return that, to be called.

    Usage errors exit here, as argparse does. Loading and running are apart so that the entry
    point (``gbr_tui.__main__``) can treat start-up as start-up.
    """
    if not argv:  # the app, as a user starts it most: what the parser would say, without it
        from gbr_tui.commands.start import app_starter

        return app_starter()
    if not argv[0].startswith("-") and argv[0] not in COMMAND_NAMES:
        guess = _command_meant(argv[0])
        if guess is not None:
            from gbr_tui.commands.common import SHOWN_CHARACTERS
            from gbr_tui.commands.start import refuse
            from gbr_tui.core.text import printable

            return partial(
                refuse,
                f"gbr-tui: {printable(argv[0], SHOWN_CHARACTERS)}: no such command or file; did you mean `{guess}`?",
            )
        from gbr_tui.commands import browse

        return browse.prepare(argv)
    args = build_parser(commands_named(argv)).parse_args(argv)
    if getattr(args, "command", None) is None:
        from gbr_tui.commands.start import app_starter

        return app_starter(
            served=args.served,
            ascii_mode=args.ascii,
            mouse=not args.no_mouse,
            no_animation=args.no_animation,
            tablebases=args.tablebases,
        )
    return partial(_run_command, args)


def _command_meant(word: str) -> str | None:
    """The sub-command a first argument that names no file is close to (a typo), if any."""
    if os.path.exists(word):
        return None
    close = difflib.get_close_matches(word, COMMAND_NAMES, n=1)
    return close[0] if close else None


def _run_command(args: argparse.Namespace) -> int:
    startup.done()
    try:
        status = args.run(args)
        sys.stdout.flush()  # here, where a full disk can still be reported
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (head, less) went away: not an error of ours.
        _drop_output()
        sys.stderr.close()
        return 0
    except OSError as error:  # stdout on a full disk (/dev/full), a file that went away
        from gbr_tui.commands import EXIT_BAD_INPUT
        from gbr_tui.commands.common import SHOWN_CHARACTERS
        from gbr_tui.core.text import printable

        what = "cannot write the output" if error.filename is None else printable(str(error.filename), SHOWN_CHARACTERS)
        print(f"gbr-tui {args.command}: {what}: {error.strerror or error}", file=sys.stderr)
        _drop_output()
        return EXIT_BAD_INPUT


def _drop_output() -> None:
    """Send what stdout still buffers nowhere, so that Python's flush at exit cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def main(argv: list[str] | None = None) -> int:
    return prepare(sys.argv[1:] if argv is None else argv)()


if __name__ == "__main__":
    sys.exit(main())
