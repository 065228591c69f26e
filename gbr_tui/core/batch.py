"""Encoding many FENs fast, with exactly the answers python-chess parsing would give.

Collections repeat the same rank strings ("8", "pppppppp", "4k3") and the same material over
and over, so the encoder validates and counts each distinct rank once and computes each distinct
material's code once. A FEN whose ranks and trailing fields are all known good is encoded with a
split, eight dictionary look-ups and one sum. Anything unusual goes to python-chess, whose verdict
(and error message) is final.
"""

from __future__ import annotations

import re

from gbr_tui.core.code import Rule, format_code, material_digits
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import Material, board_from_fen

_COUNTED = "QRBNPqrbnp"
_FIELD_BITS = 7  # a field holds up to 127: more than the 64 squares of a board
_RANK_SHIFT = _FIELD_BITS * len(_COUNTED)
_FIELD_MASK = (1 << _FIELD_BITS) - 1
_CACHE_LIMIT = 1 << 20

# The fields after the placement, as python-chess accepts them (stricter is fine: the rest falls
# back to python-chess itself).
_TRAILING = re.compile(
    r"[wb](?: (?:-|[KQA-H]{0,2}[kqa-h]{0,2})(?: (?:-|[a-h][1-8])(?: \d+(?: \d+)?)?)?)?"
)


def _rank_pattern(filled: int = 0, after_digit: bool = False) -> str:
    """A regex for the rest of a rank once ``filled`` squares are accounted for.

    Spelled out as a tree of alternatives (each starting with a different character), so a
    rank is checked in one pass: pieces and digits adding up to 8, no two digits in a row.
    """
    if filled == 8:
        return ""
    branches = ["[KQRBNPkqrbnp]" + _rank_pattern(filled + 1, False)]
    if not after_digit:
        branches += [str(n) + _rank_pattern(filled + n, True) for n in range(1, 9 - filled)]
    return "(?:" + "|".join(branches) + ")"


_RANK = re.compile(_rank_pattern())
_CHAR_VALUES = {char: 1 << (_FIELD_BITS * index) for index, char in enumerate(_COUNTED)}
_CHAR_VALUES.update(dict.fromkeys("Kk12345678", 0))


def _rank_value(rank: str) -> int | None:
    """The packed counts of one rank string, or None when python-chess would reject it."""
    if _RANK.fullmatch(rank) is None:
        return None
    return (1 << _RANK_SHIFT) + sum(map(_CHAR_VALUES.__getitem__, rank))


def _unpack(total: int) -> Material | None:
    if total >> _RANK_SHIFT != 8:
        return None
    counts = [(total >> (_FIELD_BITS * i)) & _FIELD_MASK for i in range(len(_COUNTED))]
    return Material(tuple(counts[:5]), tuple(counts[5:]))


class FenEncoder:
    """Codes of FENs (full, or the placement field alone), one rule and form per encoder."""

    def __init__(self, rule: Rule = Rule.COUNT, short: bool = False) -> None:
        self.rule = rule
        self.short = short
        self._ranks: dict[str, int] = {}
        self._trailing: set[str] = set()
        self._by_total: dict[int, tuple[Material, str]] = {}

    def code(self, fen: str) -> str:
        """The code of one FEN; raises GbrError for a FEN python-chess would reject."""
        return self.entry(fen)[1]

    def material(self, fen: str) -> Material:
        return self.entry(fen)[0]

    def entry(self, fen: str) -> tuple[Material, str]:
        """The material and the code of one FEN (the hot path of batch encoding)."""
        placement, _, trailing = fen.partition(" ")
        try:
            total = sum(map(self._ranks.__getitem__, placement.split("/")))
        except KeyError:
            total = self._learn_ranks(placement)
        if trailing and trailing not in self._trailing:
            if _TRAILING.fullmatch(trailing) is None:
                return self._slow(fen)
            if len(self._trailing) > _CACHE_LIMIT:
                self._trailing.clear()
            self._trailing.add(trailing)
        try:
            return self._by_total[total]
        except KeyError:
            return self._learn_total(total, fen)

    def _learn_ranks(self, placement: str) -> int:
        """Validate and remember the ranks of one placement; -1 when one is bad."""
        if len(self._ranks) > _CACHE_LIMIT:
            self._ranks.clear()
        total = 0
        for rank in placement.split("/"):
            value = self._ranks.get(rank)
            if value is None:
                value = _rank_value(rank)
                if value is None:
                    return -1
                self._ranks[rank] = value
            total += value
        return total

    def _learn_total(self, total: int, fen: str) -> tuple[Material, str]:
        material = _unpack(total) if total >= 0 else None
        if material is None:
            return self._slow(fen)
        entry = (material, self._format(material))
        self._by_total[total] = entry
        return entry

    def _format(self, material: Material) -> str:
        return format_code(material_digits(material, self.rule), self.short)

    def _slow(self, fen: str) -> tuple[Material, str]:
        """python-chess decides: either a good FEN in an unusual spelling, or the error."""
        material = Material.from_board(board_from_fen(fen))
        return material, self._format(material)
