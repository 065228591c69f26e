"""Endgame families: the groups of classes a chess reader knows (pawn endings, rook endings,
queen against rook...), as endgame books such as *Fundamental Chess Endings* count them.

A family is told by the pieces alone (queens, rooks, bishops, knights; kings and pawns aside,
any number of pawns) of the two sides, whichever colour has which: ``KRP v KB`` and ``KB v
KRPP`` are both a rook against a minor piece. This table is the one definition: the README
prints it, and a test checks it class by class.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gbr_tui.core.material import TYPES, Material


@dataclass(frozen=True)
class Family:
    name: str
    definition: str  # in words, as the README has it
    pieces: frozenset[tuple[str, str]]  # (one side's pieces, the other's) as ``QRBN`` letters, sorted


def _family(name: str, definition: str, *pairs: str) -> Family:
    """``pairs`` as ``"R v B"``: one side's pieces against the other's (``-``: none)."""
    pieces = set()
    for pair in pairs:
        one, other = (side.strip().replace("-", "") for side in pair.split(" v "))
        pieces.add(_sorted_pair(one, other))
    return Family(name, definition, frozenset(pieces))


def _sorted_pair(one: str, other: str) -> tuple[str, str]:
    """Two sides' pieces in one order, whichever side is named first."""
    return (one, other) if one <= other else (other, one)


#: The families in the order they are listed; a material in none of them is ``OTHER``.
FAMILIES = (
    _family("pawn endings", "no pieces: kings and pawns only (bare kings too)", "- v -"),
    _family("knight endings", "one knight against a knight or no piece", "N v N", "N v -"),
    _family("bishop endings", "one bishop against a bishop or no piece", "B v B", "B v -"),
    _family("bishop v knight", "one bishop against one knight", "B v N"),
    _family(
        "two minor pieces",
        "two minor pieces against one minor piece or none",
        *(f"{two} v {one}" for two in ("BB", "BN", "NN") for one in ("B", "N", "-")),
    ),
    _family("rook endings", "one rook against a rook or no piece", "R v R", "R v -"),
    _family("rook v minor piece", "one rook against one bishop or one knight", "R v B", "R v N"),
    _family("rook and minor piece v rook", "a rook and a bishop or a knight against one rook", "RB v R", "RN v R"),
    _family("rook v two minor pieces", "one rook against two minor pieces", "R v BB", "R v BN", "R v NN"),
    _family("two rooks a side", "two rooks against two rooks", "RR v RR"),
    _family("queen endings", "one queen against a queen or no piece", "Q v Q", "Q v -"),
    _family("queen v rook", "one queen against one rook", "Q v R"),
    _family(
        "queen v minor pieces",
        "one queen against one or two minor pieces",
        "Q v B",
        "Q v N",
        "Q v BB",
        "Q v BN",
        "Q v NN",
    ),
)
OTHER = Family("other", "every other material", frozenset())
ALL_FAMILIES = (*FAMILIES, OTHER)

_BY_PIECES = {pair: family for family in FAMILIES for pair in family.pieces}


def pieces_of(counts: tuple[int, ...]) -> str:
    """A side's pieces as letters in the code's order: ``RBB``; pawns are left out."""
    return "".join(letter * count for letter, count in zip(TYPES[:4], counts[:4]))


@lru_cache(maxsize=1 << 16)
def family_of(material: Material) -> str:
    """The name of a material's family."""
    return _BY_PIECES.get(_sorted_pair(pieces_of(material.white), pieces_of(material.black)), OTHER).name
