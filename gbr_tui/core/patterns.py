"""Class patterns: which classes a user wants, as a wildcard code or a material string.

``0?0?.1*`` and ``04*`` are codes with wildcards (``?`` one character, ``*`` any run), matched
against the full ``abcd.ef`` form. A pattern without ``*`` and without pawn digits is a short
code, so ``0400`` and ``0?0?`` mean no pawns, as ``0400`` means ``0400.00``. ``,`` may stand
for ``.``. Anything with a king in it (``KR v KR``, ``KRPvKR``) is a material string and matches
exactly that material, which also tells apart the materials behind a 9.

The examples filter takes the same language, so two short forms are patterns too: a code of
fewer than four piece digits and no ``.`` is the start of a code (``03`` is ``03*``), and one
side's material (``KRP``, a single king) matches a class where either side has exactly it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import Material

_CODE_CHARACTERS = re.compile(r"[0-9?*.,\s]+")


@dataclass(frozen=True)
class ClassPattern:
    text: str
    material: Material | None = None
    regex: re.Pattern[str] | None = None
    #: One side's men (``KRP``): either side has exactly these.
    side: tuple[int, ...] | None = None

    def matches(self, code: str, material: Material) -> bool:
        """Whether a class (its full code and exact material) is wanted."""
        if self.side is not None:
            return self.side in (material.white, material.black)
        if self.material is not None:
            return material == self.material
        return self.regex is not None and self.regex.fullmatch(code) is not None


def parse_pattern(text: str) -> ClassPattern:
    """A pattern from user input; GbrError naming the bad spot otherwise."""
    stripped = text.strip()
    if not stripped:
        raise GbrError("empty pattern: give a code such as 04* or material such as 'KR v KR'", 0)
    if "k" in stripped.lower():
        if stripped.lower().count("k") == 1 and re.fullmatch(r"[kK][QRBNPqrbnp]*", stripped):
            return ClassPattern(text, side=Material.from_string(f"{text} v K").white)
        return ClassPattern(text, material=Material.from_string(text))
    if _CODE_CHARACTERS.fullmatch(text) is None:
        bad = next(i for i, char in enumerate(text) if not _CODE_CHARACTERS.fullmatch(char))
        raise GbrError(
            "a pattern is a code with wildcards (digits, ? and *, like 0?0?.1*) or material with kings (like KR v KR)",
            bad,
        )
    code = re.sub(r"\s+", "", stripped).replace(",", ".")
    separators = [index for index, char in enumerate(text) if char in ".,"]
    if len(separators) > 1:
        raise GbrError("a code has one '.' between the piece and the pawn digits", separators[1])
    pieces, dot, pawns = code.partition(".")
    if not dot and "*" not in pieces and len(pieces) < 4:
        pieces += "*"  # the start of a code: 03 is 03*
    if "*" not in pieces and len(pieces) != 4:
        raise GbrError(f"a code has 4 piece digits before the '.', not {len(pieces)}", text.index(stripped[0]))
    if dot and "*" not in pawns and len(pawns) != 2:
        raise GbrError(f"a code has 2 pawn digits after the '.', not {len(pawns)}", len(text.rstrip()) - 1)
    if not dot and "*" not in pieces:
        pawns, dot = "00", "."  # a short code: no pawns
    if not dot:
        pattern = _wildcards(pieces)
    else:
        pattern = _wildcards(pieces) + r"\." + _wildcards(pawns)
    return ClassPattern(text, regex=re.compile(pattern))


def _wildcards(part: str) -> str:
    return "".join({"?": "[0-9]", "*": "[0-9.]*"}.get(char, re.escape(char)) for char in part)
