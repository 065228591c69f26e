"""Write the app's screenshots as SVG: ``python -m gbr_tui.screenshots DIR``.

Each shot is data: a terminal size, a starting position and the keys a user presses. A new
screen's shots are new rows in ``SHOTS``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from textual.widgets import Input

from gbr_tui.app import make_app
from gbr_tui.core import board_from_fen
from gbr_tui.core.collection import CollectionRequest
from gbr_tui.screens.collection import CollectionScreen

#: Kubbel, 1st prize Shakhmaty 1925: =0323.12g3g1 (spec section 3).
KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"
EMPTY = "8/8/8/8/8/8/8/8"


def _game(event: str, white: str, black: str, fen: str, result: str = "*") -> str:
    tags = {"Event": event, "Site": "?", "Date": "????.??.??", "White": white, "Black": black}
    tags |= {"Result": result, "SetUp": "1", "FEN": fen}
    return "".join(f'[{name} "{value}"]\n' for name, value in tags.items()) + f"\n{result}\n\n"


#: A small collection for the browser's shots: Kubbel's study and textbook endings.
STUDIES_PGN = "".join(
    (
        _game("Shakhmaty 1925, 1st prize", "Kubbel, Leonid", "Draw", f"{KUBBEL} w - - 0 1", "1/2-1/2"),
        _game("Lucena position", "Textbook", "Win", "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1", "1-0"),
        _game("Philidor position", "Textbook", "Draw", "4k3/R7/8/4KP2/8/8/8/r7 b - - 0 1", "1/2-1/2"),
        _game("Queen against rook", "Textbook", "Win", "8/8/8/3k4/8/8/r7/Q3K3 w - - 0 1", "1-0"),
        _game("Bishop and knight mate", "Textbook", "Win", "8/8/8/8/8/3k4/8/KBN5 w - - 0 1", "1-0"),
        _game("Rook against bare king", "Textbook", "Win", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "1-0"),
    )
)


@dataclass(frozen=True)
class Shot:
    name: str
    size: tuple[int, int]
    keys: tuple[str, ...] = ()
    fen: str = KUBBEL
    stipulation: str | None = "="
    #: Files (name, text) written to a temporary directory and opened in the browser.
    collection: tuple[tuple[str, str], ...] = ()
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
    Shot("browser-classes", (100, 30), collection=(("studies.pgn", STUDIES_PGN),)),
    Shot("browser-positions", (100, 30), keys=("down", "down", "enter"), collection=(("studies.pgn", STUDIES_PGN),)),
    Shot("editor-ascii-80x24", (80, 24), ascii_mode=True),
    Shot("editor-60x20", (60, 20)),
    Shot("editor-high-contrast", (100, 30), theme="gbr-high-contrast"),
    Shot(
        "piece-list-input",
        (100, 30),
        keys=("i", *"White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6"),
        fen=EMPTY,
        stipulation=None,
    ),
    Shot("copy-menu", (100, 30), keys=("y",)),
    Shot("browser-families", (100, 30), keys=("m",), collection=(("studies.pgn", STUDIES_PGN),)),
)


async def take(shot: Shot, directory: Path) -> Path:
    with tempfile.TemporaryDirectory() as files:
        paths = []
        for name, text in shot.collection:
            paths.append(Path(files, name))
            paths[-1].write_text(text)
        return await _take(shot, directory, CollectionRequest(tuple(map(str, paths))) if paths else None)


async def _take(shot: Shot, directory: Path, files: CollectionRequest | None) -> Path:
    app = make_app(board_from_fen(shot.fen), shot.stipulation, files=files, ascii_mode=shot.ascii_mode)
    if shot.theme is not None:
        app.theme = shot.theme
    async with app.run_test(size=shot.size) as pilot:
        while files is not None and not (isinstance(app.screen, CollectionScreen) and app.screen.listed):
            await pilot.pause(0.01)  # a collection is read in a worker
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
