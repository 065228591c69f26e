"""The conventions of HHdb, the study database (as CQL's ``hhdb`` filter reads them): the code
with its stipulation and king squares in the ``Black`` tag (``=0323.12g3g1``), followed there
by marks (``U1``-``U5`` unsound or dualled, ``MC`` several composers, ``AN`` anticipated, ``TW``
a twin); the composers in ``White`` (a trailing `` NN`` is no part of a name); the diagram
number as ``#N`` in ``Event``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from gbr_tui.core.describe import STIPULATION_WORDS

BLACK_TAG = "Black"
#: HHdb's Black tag: the stipulation, the code, the white and black king squares.
CODE_IN_BLACK = re.compile(r"([+\-=])(\d{4}\.\d{2})([a-h][1-8])([a-h][1-8])")
_CODE_IN_HEAD = re.compile(r'\[Black\s+"[+\-=]\d{4}\.\d{2}[a-h][1-8][a-h][1-8]')
_MARK = re.compile(r"\b(U[1-5]|MC|AN|TW)\b")
_DIAGRAM = re.compile(r"#\s*(\d+)")
_TRAILING_NUMBER = re.compile(r"\s+\d{1,3}$")

#: What each mark says, in words.
MARK_WORDS = {
    **{f"U{number}": f"unsound or dualled (U{number})" for number in range(1, 6)},
    "MC": "several composers",
    "AN": "anticipated",
    "TW": "a twin",
}
#: HHdb's ``-``: neither of the code's stipulations (a win or a draw for White).
OTHER_STIPULATION = "another stipulation (-)"


@dataclass(frozen=True)
class HhdbCode:
    """What HHdb's Black tag holds."""

    stipulation: str  # + = -
    code: str  # 0323.12
    white_king: str
    black_king: str
    marks: tuple[str, ...]

    @property
    def sound(self) -> bool:
        """Not marked unsound or dualled (no ``U`` mark)."""
        return not any(mark.startswith("U") for mark in self.marks)

    @property
    def caption(self) -> str:
        """The code as printed: ``=0323.12g3g1``."""
        return f"{self.stipulation}{self.code}{self.white_king}{self.black_king}"


def read_black(text: str | None) -> HhdbCode | None:
    """HHdb's Black tag read (None when ``text`` is not one)."""
    if text is None:
        return None
    found = CODE_IN_BLACK.match(text.strip())
    if found is None:
        return None
    marks = tuple(_MARK.findall(text[found.end() :]))
    return HhdbCode(found[1], found[2], found[3], found[4], marks)


def looks_like_hhdb(head: str) -> bool:
    """Whether the start of a PGN has a Black tag in HHdb's form."""
    return _CODE_IN_HEAD.search(head) is not None


def recognised_words(name: str) -> str:
    """What a command says, once, of a collection in HHdb's form."""
    return f"{name}: an HHdb study collection: codes, stipulations and marks read from its Black tag"


def composers(white: str) -> str:
    """The composers of HHdb's White tag, without its trailing number."""
    return _TRAILING_NUMBER.sub("", white.strip())


def diagram_number(event: str | None) -> int | None:
    """The diagram number, ``#N`` in HHdb's Event tag."""
    found = _DIAGRAM.search(event or "")
    return int(found[1]) if found else None


def hhdb_fields(headers: Mapping[str, str]) -> dict[str, str | int | list[str]]:
    """A record's HHdb conventions in words (none when its Black tag is not HHdb's): composer,
    diagram number, stipulation, marks."""
    held = read_black(headers.get(BLACK_TAG))
    if held is None:
        return {}
    fields: dict[str, str | int | list[str]] = {
        "stipulation": STIPULATION_WORDS.get(held.stipulation, OTHER_STIPULATION)
    }
    if headers.get("White"):
        fields["composer"] = composers(headers["White"])
    diagram = diagram_number(headers.get("Event"))
    if diagram is not None:
        fields["diagram"] = diagram
    fields["marks"] = [MARK_WORDS[mark] for mark in held.marks]
    fields["sound"] = "sound" if held.sound else "unsound"
    return fields


def hhdb_words(headers: Mapping[str, str]) -> str:
    """A record's HHdb conventions in one line: ``Kubbel · diagram 12 · White to play and win ·
    anticipated`` (empty when its Black tag is not HHdb's)."""
    fields = hhdb_fields(headers)
    if not fields:
        return ""
    words = [str(fields[name]) for name in ("composer",) if name in fields]
    if "diagram" in fields:
        words.append(f"diagram {fields['diagram']}")
    words.append(str(fields["stipulation"]))
    marks = fields["marks"]
    assert isinstance(marks, list)
    words += marks
    return " · ".join(words)


def kept(headers: Mapping[str, str], studies: str | None) -> bool:
    """Whether a record passes ``--studies sound|unsound`` (a record without HHdb's marks is
    sound: nothing says otherwise)."""
    if studies is None:
        return True
    held = read_black(headers.get(BLACK_TAG))
    sound = held is None or held.sound
    return sound == (studies == "sound")
