"""The ``gbr-tui`` command: sub-commands for scripts, the terminal app otherwise."""

from __future__ import annotations

import argparse
import sys

from gbr_tui import __version__
from gbr_tui.commands import classify, decode, encode, screenshots, serve

SUBCOMMANDS = (encode, decode, classify, screenshots, serve)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gbr-tui",
        description="Compute, decode and browse chess GBR codes. With no command, start the app.",
    )
    parser.add_argument("--version", action="version", version=f"gbr-tui {__version__}")
    parser.add_argument("--served", action="store_true", help=argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None:
        from gbr_tui.app import run_app

        return run_app(served=args.served)
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
