"""``gbr-tui serve``: the app for others, over SSH or in a browser."""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from gbr_tui.commands import EXIT_USAGE
from gbr_tui.commands.tablebase_options import add_tablebases_option

if TYPE_CHECKING:
    from gbr_tui.commands.common import CommandParsers

MISSING_EXTRA = "gbr-tui serve needs its extra packages: pip install 'gbr-tui[serve]'"


def register(commands: CommandParsers) -> None:
    parser = commands.add_parser(
        "serve",
        help="serve the app to others over SSH or the web",
        description="Serve gbr-tui: over SSH (each connection gets its own app) or in a browser. "
        "Binds to 127.0.0.1 unless a host is given.",
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--ssh", metavar="[HOST:]PORT", help="serve over SSH on this port")
    where.add_argument("--web", metavar="[HOST:]PORT", help="serve in a browser (textual-serve)")
    parser.add_argument("--authorized-keys", type=Path, metavar="FILE", help="allow key login for these keys")
    parser.add_argument("--allow-anonymous", action="store_true", help="let anyone in, without a login")
    parser.add_argument(
        "--host-key",
        type=Path,
        metavar="FILE",
        help="the server's key (default: generated once, kept in the user data directory)",
    )
    parser.add_argument(
        "--max-sessions", type=int, default=20, metavar="N", help="concurrent sessions, SSH or web (default 20)"
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=40,
        metavar="N",
        help="connections open at once, logged in or not (default 40)",
    )
    parser.add_argument(
        "--max-per-address",
        type=int,
        default=10,
        metavar="N",
        help="connections open at once from one address (default 10)",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=15.0,
        metavar="MINUTES",
        help="close a session (SSH or web) after this many minutes without a key (default 15; 0: never)",
    )
    add_tablebases_option(parser, "each served app's code pane gives their verdicts; clients cannot change them")
    parser.set_defaults(run=run)


def parse_address(text: str, default_host: str = "127.0.0.1") -> tuple[str, int]:
    """``PORT`` or ``HOST:PORT`` (``[::1]:PORT`` for IPv6)."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or default_host
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected PORT or HOST:PORT, got {text!r}")
    return host, int(port)


def run(args: argparse.Namespace) -> int:
    if args.tablebases:  # each app process the server starts finds them there
        from gbr_tui.core.settings import TABLEBASES_VARIABLE

        os.environ[TABLEBASES_VARIABLE] = os.pathsep.join(args.tablebases)
    try:  # only the server asked for: each brings heavy libraries of its own (asyncssh, aiohttp)
        if args.web:
            from gbr_tui.serve import web
        else:
            from gbr_tui.serve import config, ssh
    except ImportError:
        print(MISSING_EXTRA, file=sys.stderr)
        return EXIT_USAGE
    try:
        host, port = parse_address(args.ssh or args.web)
    except ValueError as error:
        print(f"gbr-tui serve: {error}", file=sys.stderr)
        return EXIT_USAGE
    if min(args.max_sessions, args.max_connections, args.max_per_address) < 1 or not 0 <= args.idle_timeout < math.inf:
        print(
            "gbr-tui serve: --max-sessions, --max-connections and --max-per-address must be at least 1 "
            "and --idle-timeout a number of minutes, not negative",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.web:
        try:
            return web.run_web(host, port, args.max_sessions, args.idle_timeout * 60)
        except OSError as error:
            print(f"gbr-tui serve: cannot serve on {host}:{port}: {error.strerror or error}", file=sys.stderr)
            return EXIT_USAGE
    if args.authorized_keys is None and not args.allow_anonymous:
        print("gbr-tui serve: give --authorized-keys FILE, --allow-anonymous, or both", file=sys.stderr)
        return EXIT_USAGE
    if args.authorized_keys is not None and not args.authorized_keys.is_file():
        print(f"gbr-tui serve: no such file: {args.authorized_keys}", file=sys.stderr)
        return EXIT_USAGE
    options = config.ServeOptions(
        host=host,
        port=port,
        host_key=args.host_key,
        authorized_keys=args.authorized_keys,
        allow_anonymous=args.allow_anonymous,
        max_sessions=args.max_sessions,
        max_connections=args.max_connections,
        max_connections_per_address=args.max_per_address,
        idle_timeout=args.idle_timeout * 60,
    )
    try:
        return ssh.run_ssh(options)
    except config.SetupError as error:
        print(f"gbr-tui serve: {error}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"gbr-tui serve: cannot serve on {host}:{port}: {error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE
