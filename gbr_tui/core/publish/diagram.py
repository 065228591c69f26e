"""A study's diagram as an SVG: python-chess's ``chess.svg`` board with the caption printed
under it, as magazines print a diagram with its GBR line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

import chess
import chess.svg

from gbr_tui.core.text import printable

#: The side of the board, in pixels, unless a size is asked for.
DEFAULT_SIZE = 360
#: Sizes outside these are refused: a diagram is printed, not tiled.
SIZE_RANGE = (64, 4096)
#: Of a caption, at most this much is printed under the board.
CAPTION_CHARACTERS = 120
#: The caption line's height, in the board's own units (a square is 45).
_CAPTION_HEIGHT = 34
_MAX_FONT = 18.0
#: About how wide a character of the caption's font is, in ems: a long caption gets a smaller font.
_CHARACTER_WIDTH = 0.62
_VIEW_BOX = re.compile(r'viewBox="0 0 (\d+) (\d+)" width="(\d+)" height="(\d+)"')


@dataclass(frozen=True)
class DiagramStyle:
    """How the board is drawn: from Black's side (``flipped``), with or without the files and
    ranks around it, and its side in pixels."""

    flipped: bool = False
    coordinates: bool = True
    size: int = DEFAULT_SIZE


def diagram_svg(board: chess.BaseBoard, caption: str | None = None, style: DiagramStyle = DiagramStyle()) -> str:
    """The board drawn by ``chess.svg.board``, and ``caption`` (made printable, bounded) on a
    line of its own under it, centred, its font shrunk to fit the board's width."""
    svg = chess.svg.board(
        board,
        orientation=chess.BLACK if style.flipped else chess.WHITE,
        coordinates=style.coordinates,
        size=style.size,
    )
    if not caption:
        return svg
    match = _VIEW_BOX.search(svg)
    assert match is not None, "chess.svg writes its viewBox and size first"
    width, height = int(match[1]), int(match[2])
    total = height + _CAPTION_HEIGHT
    pixels = round(style.size * total / width)
    text = printable(caption, CAPTION_CHARACTERS)
    font = min(_MAX_FONT, (width - 10) / (_CHARACTER_WIDTH * max(len(text), 1)))
    svg = svg.replace(match[0], f'viewBox="0 0 {width} {total}" width="{style.size}" height="{pixels}"', 1)
    line = (
        f'<rect x="0" y="{height}" width="{width}" height="{_CAPTION_HEIGHT}" fill="#ffffff" />'
        f'<text class="caption" x="{width / 2:g}" y="{height + _CAPTION_HEIGHT * 0.68:g}" '
        f'text-anchor="middle" font-family="DejaVu Serif, Georgia, serif" font-size="{font:.1f}" '
        f'fill="#000000">{escape(text)}</text>'
    )
    return svg.removesuffix("</svg>") + line + "</svg>"
