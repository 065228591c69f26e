"""ASCII mode's last line of defence: every character drawn becomes ASCII of the same width.

The screens draw ASCII themselves in ASCII mode (letters for the men, ``ascii`` borders, the code
as text instead of ``Digits``, key names instead of arrows). What Textual draws on its own is
caught here: an ellipsis where a title is cut, the eighth blocks that end a scrollbar's thumb,
the rules of a widget whose border we do not style. A terminal that cannot show UTF-8 would print
those as mojibake, each byte a cell, and tear the layout apart.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from gbr_tui.widgets.board import UNICODE_GLYPHS

#: Characters Textual and the app draw, and what stands for each.
REPLACEMENTS = {
    "…": ".", "·": "-", "•": "*", "–": "-", "—": "-", "▪": "*",
    "↑": "^", "↓": "v", "←": "<", "→": ">", "⭘": "o",
    **{glyph: letter for letter, glyph in UNICODE_GLYPHS.items()},
}  # fmt: skip


@lru_cache(maxsize=512)
def ascii_character(character: str) -> str:
    """ASCII for one character, as many cells wide as the character."""
    if character.isascii():
        return character
    if character in REPLACEMENTS:
        return REPLACEMENTS[character]
    name = unicodedata.name(character, "")
    if name.startswith("BOX DRAWINGS"):
        return _box_line(name)
    if name in ("FULL BLOCK", "DARK SHADE"):
        return "#"
    if name.endswith(("BLOCK", "SHADE")) or name.startswith("QUADRANT"):
        return " "  # a part of a cell filled: its colour, not its shape, carries the meaning
    return "?" * cell_len(character)


def _box_line(name: str) -> str:
    """A line of a box: ``-`` or ``=`` (heavy, double) across, ``|`` up and down, ``+`` where
    lines meet or turn."""
    if " AND " in name or " ARC " in name or "DIAGONAL" in name:
        return "+"
    if "HORIZONTAL" in name or name.endswith((" LEFT", " RIGHT")):
        return "=" if "HEAVY" in name or "DOUBLE" in name else "-"
    if "VERTICAL" in name or name.endswith((" UP", " DOWN")):
        return "|"
    return "+"


@lru_cache(maxsize=4096)
def to_ascii(text: str) -> str:
    return text if text.isascii() else "".join(ascii_character(character) for character in text)


class AsciiOnly(LineFilter):
    """A line filter (``App.get_line_filters``) that leaves only ASCII on screen."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            segment if segment.text.isascii() else Segment(to_ascii(segment.text), segment.style, segment.control)
            for segment in segments
        ]
