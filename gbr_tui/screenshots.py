"""Write the app's screenshots as SVG: ``python -m gbr_tui.screenshots DIR``.

Each shot is data: a terminal size, a starting position and the keys a user presses. A new
screen's shots are new rows in ``SHOTS``.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path

from textual.widgets import Input

from gbr_tui.app import make_app
from gbr_tui.core import board_from_fen

#: Kubbel, 1st prize Shakhmaty 1925: =0323.12g3g1 (spec section 3).
KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"


@dataclass(frozen=True)
class Shot:
    name: str
    size: tuple[int, int]
    keys: tuple[str, ...] = ()
    fen: str = KUBBEL
    stipulation: str | None = "="
    ascii_mode: bool = False
    theme: str | None = None


SHOTS: tuple[Shot, ...] = (
    Shot("editor-kubbel", (100, 30)),
    Shot("editor-80x24", (80, 24)),
    Shot("editor-160x50", (160, 50)),
    Shot("examples-filtered", (100, 30), keys=("tab", "tab", *"000")),
    Shot("help", (100, 30), keys=("f1",)),
    Shot("decode-valid", (100, 30), keys=("f2", *"=0323.12g3g1")),
    Shot("decode-error", (100, 30), keys=("f2", *"0323.19")),
    Shot("editor-ascii-80x24", (80, 24), ascii_mode=True),
    Shot("editor-60x20", (60, 20)),
    Shot("editor-high-contrast", (100, 30), theme="gbr-high-contrast"),
)


async def take(shot: Shot, directory: Path) -> Path:
    app = make_app(board_from_fen(shot.fen), shot.stipulation, ascii_mode=shot.ascii_mode)
    if shot.theme is not None:
        app.theme = shot.theme
    async with app.run_test(size=shot.size) as pilot:
        await pilot.press(*shot.keys)
        for field in app.screen.query(Input):
            field.cursor_blink = False  # the same picture every run
        await pilot.pause()
        await pilot.pause()  # what a screen lays out after its own refresh (the decode caret)
        return Path(app.save_screenshot(f"{shot.name}.svg", str(directory)))


async def take_all(directory: Path, shots: tuple[Shot, ...] = SHOTS) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    return [await take(shot, directory) for shot in shots]


def write(directory: Path) -> int:
    """Take every shot into ``directory`` and print where each went."""
    for path in asyncio.run(take_all(directory)):
        print(path)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m gbr_tui.screenshots DIR", file=sys.stderr)
        return 2
    return write(Path(args[0]))


if __name__ == "__main__":
    sys.exit(main())
