"""The ``gbr-tui`` command: sub-commands for scripts, the terminal app otherwise."""

from __future__ import annotations

import argparse
import os
import sys

from gbr_tui import __version__
from gbr_tui.commands import browse, classify, decode, encode, screenshots, serve

SUBCOMMANDS = (encode, decode, classify, screenshots, serve)
COMMAND_NAMES = frozenset(module.__name__.rpartition(".")[2] for module in SUBCOMMANDS)


def build_parser() -> argparse.ArgumentParser:
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
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and not argv[0].startswith("-") and argv[0] not in COMMAND_NAMES:
        return browse.main(argv)
    args = build_parser().parse_args(argv)
    if args.command is None:
        from gbr_tui.app import run_app
        from gbr_tui.terminal import animation_level, ascii_wanted

        return run_app(
            served=args.served,
            ascii_mode=args.ascii or ascii_wanted(os.environ),
            mouse=not args.no_mouse,
            animation_level=animation_level(os.environ, args.no_animation, args.served),
        )
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (head, less) went away: not an error of ours.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
