"""The conventions of HHdb, the study database (as CQL's ``hhdb`` filter reads them): the code
with its stipulation and king squares in the ``Black`` tag (``=0323.12g3g1``), followed there
by marks (``U1``-``U5`` unsound or dualled, ``MC`` several composers, ``AN`` anticipated, ``TW``
a twin, and the others CQL names: ``MARK_WORDS``); the composers in ``White`` (a trailing `` NN`` is no part of a name); the diagram
number as ``#N`` in ``Event``; and in the game's first comment (before its first move), the
stipulation as HHdb writes it (``stipulation: =.``) and the study's number in the magazine EG
(``EG#1234``). A PGN reader keeps that comment of a game whose Black tag is HHdb's under
``FIRST_COMMENT`` among its headers (``first_comment``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from gbr_tui.core.captions import read_result
from gbr_tui.core.describe import STIPULATION_WORDS, plural
from gbr_tui.core.errors import GbrError
from gbr_tui.core.notation import decode

BLACK_TAG = "Black"
#: HHdb's Black tag: the stipulation, the code, the white and black king squares.
CODE_IN_BLACK = re.compile(r"([+\-=])(\d{4}\.\d{2})([a-h][1-8])([a-h][1-8])")
_CODE_IN_HEAD = re.compile(r'\[Black\s+"[+\-=]\d{4}\.\d{2}[a-h][1-8][a-h][1-8]')
_MARK = re.compile(r"\b(?:U[1-5]|MC|AN|TW|CR|PH|TE|TT)\b|\([cmsv]\)")
_DIAGRAM = re.compile(r"#\s*(\d+)")
#: A Black tag that starts with a stipulation and a code, as HHdb's does.
_STIPULATED_BLACK = re.compile(r"^[+=]\d{4}")
_TRAILING_NUMBER = re.compile(r"\s+(?:NN|\d{1,3})$")  # CQL strips " NN"; HHdb's numbers too
#: The comment before a game's first move (at the start of its movetext).
_OPENING_COMMENT = re.compile(r"\s*\{([^}]*)\}")
#: The first comment's stipulation, up to a full stop (as CQL reads it) or the line's end; then
#: up to ``EG#`` (``_EG_MARK``). Two linear searches: one lazy pattern with the ends in it took
#: time in the square of a run of blanks (a hostile comment).
_COMMENT_STIPULATION = re.compile(r"\bstipulation\s*:[ \t]*([^.\n]*)", re.IGNORECASE)
_EG_MARK = re.compile(r"\bEG\s*#", re.IGNORECASE)
_EG_NUMBER = re.compile(r"\bEG\s*#\s*(\d+)", re.IGNORECASE)
#: The digits of an EG number read at most (EG has printed some 20,000 studies): a longer
#: number is none (Python refuses to read an int of thousands of digits).
_EG_DIGITS = 9
#: What an index keeps of each part of a first comment (``kept_comment``), in characters; and
#: the most it reads back of a whole one (``with_kept_comment``).
KEPT_PART = 200
KEPT_CHARS = 2 * KEPT_PART + 40
#: The headers' key of HHdb's first comment: no PGN tag a record keeps (``GAME_TAGS``) has it.
FIRST_COMMENT = "FirstComment"

#: What each mark says, in words: as CQL's ``hhdb`` filter names them (``dual_at_move_1`` for
#: U1, ..., ``unreachable`` for U5; ``colors_reversed``, ``posthumous``, ...).
MARK_WORDS = {
    "U1": "dualled at move 1 (U1)",
    "U2": "dualled after move 1 (U2)",
    "U3": "unsound: White fails (U3)",
    "U4": "unsound: White wins in a draw (U4)",
    "U5": "unsound: the position cannot be reached (U5)",
    "MC": "several composers",
    "AN": "anticipated",
    "TW": "a twin",
    "CR": "colours reversed",
    "PH": "posthumous",
    "TE": "a theoretical ending",
    "TT": "a theme tourney",
    "(c)": "a correction",
    "(m)": "a modification",
    "(s)": "a corrected solution",
    "(v)": "a version",
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
    return (
        f"{name}: an HHdb study collection: codes, stipulations and marks read from its Black tag, "
        "EG numbers and stipulations from each study's first comment"
    )


def composers(white: str) -> str:
    """The composers of HHdb's White tag, without its trailing number."""
    return _TRAILING_NUMBER.sub("", white.strip())


def diagram_number(event: str | None) -> int | None:
    """The diagram number, ``#N`` in HHdb's Event tag."""
    found = _DIAGRAM.search(event or "")
    return int(found[1]) if found else None


def first_comment(movetext: str, headers: Mapping[str, str]) -> str | None:
    """The comment before the first move of a game whose Black tag is HHdb's (None for other
    games, or when its movetext does not start with a comment). Cheap for other games: the
    match fails at their first move."""
    found = _OPENING_COMMENT.match(movetext)
    if found is None or read_black(headers.get(BLACK_TAG)) is None:
        return None
    return found[1].strip() or None


@dataclass(frozen=True)
class FirstComment:
    """What HHdb's first comment says: its stipulation as written, the EG number."""

    stipulation: str | None  # "=", "+", "Win", as written
    eg: int | None

    @property
    def sign(self) -> str | None:
        """The stipulation as a sign (+ = -), None when its words say neither a win nor a draw."""
        text = (self.stipulation or "").strip().lower()
        if text in ("+", "=", "-"):
            return text
        if "draw" in text:
            return "="
        return "+" if "win" in text else None


def read_comment(text: str | None) -> FirstComment:
    """The stipulation and EG number of HHdb's first comment (None each when it has none)."""
    stipulation = _COMMENT_STIPULATION.search(text or "")
    said = None
    if stipulation is not None:
        words = stipulation[1]
        mark = _EG_MARK.search(text or "", stipulation.start(1))  # "EG\n#" too: the mark may go on
        if mark is not None and mark.start() < stipulation.end(1):
            words = words[: mark.start() - stipulation.start(1)]
        said = words.strip() or None
    eg = _EG_NUMBER.search(text or "")
    return FirstComment(said, int(eg[1]) if eg and len(eg[1]) <= _EG_DIGITS else None)


def kept_comment(headers: Mapping[str, str]) -> str | None:
    """What an index keeps of a record's first comment (``FIRST_COMMENT``): what ``hhdb_fields``
    reads of it (its stipulation, its EG number, and with the ``MC`` mark the composers before
    its first full stop), written again short, each part at most ``KEPT_PART`` characters; None
    when it says none of them. Read again, it says what the comment says (a part cut short aside)."""
    text = headers.get(FIRST_COMMENT)
    held = read_black(headers.get(BLACK_TAG))
    if text is None or held is None:
        return None
    said = read_comment(text)
    named = _comment_composers(text) if "MC" in held.marks else None
    parts = [] if named is None else [named[:KEPT_PART].strip()]
    if said.stipulation is not None:
        parts.append(f"stipulation: {said.stipulation[:KEPT_PART].strip()}")
    if said.eg is not None:
        parts.append(f"EG#{said.eg}")
    return ". ".join(parts) or None


def with_kept_comment(headers: dict[str, str], kept: object) -> dict[str, str]:
    """``headers`` with the first comment an index kept (``kept_comment``) read back, cut to
    ``KEPT_CHARS``: only text, and only for a record whose Black tag is HHdb's."""
    if isinstance(kept, str) and read_black(headers.get(BLACK_TAG)) is not None:
        headers[FIRST_COMMENT] = kept[:KEPT_CHARS]
    return headers


def _comment_composers(comment: str | None) -> str | None:
    """With the ``MC`` mark (too many composers for White), CQL reads the composers from the
    first comment, up to a full stop; None when that text is no names (a ``stipulation:``)."""
    lead = (comment or "").split(".", 1)[0].strip()
    return lead if lead and ":" not in lead and "#" not in lead else None


def hhdb_fields(headers: Mapping[str, str]) -> dict[str, str | int | list[str]]:
    """A record's HHdb conventions in words (none when its Black tag is not HHdb's): composer,
    diagram number, EG number, stipulation (the Black tag's: where the first comment says
    another, ``stipulation_disagreement`` says so), marks."""
    held = read_black(headers.get(BLACK_TAG))
    if held is None:
        return {}
    stipulation = STIPULATION_WORDS.get(held.stipulation, OTHER_STIPULATION)
    fields: dict[str, str | int | list[str]] = {"stipulation": stipulation}
    comment = headers.get(FIRST_COMMENT)
    if "MC" in held.marks and (named := _comment_composers(comment)):
        fields["composer"] = named
    elif headers.get("White"):
        fields["composer"] = composers(headers["White"])
    diagram = diagram_number(headers.get("Event"))
    if diagram is not None:
        fields["diagram"] = diagram
    said = read_comment(comment)
    if said.eg is not None:
        fields["eg"] = said.eg
    if said.stipulation is not None:
        fields["comment_stipulation"] = said.stipulation
        sign = said.sign
        if sign is not None and sign != held.stipulation:
            fields["stipulation_disagreement"] = (
                f"the first comment says {STIPULATION_WORDS.get(sign, OTHER_STIPULATION)} ({said.stipulation}): "
                f"the Black tag's {held.stipulation} is used"
            )
    fields["marks"] = [MARK_WORDS[mark] for mark in held.marks]
    fields["sound"] = "sound" if held.sound else "unsound"
    return fields


def hhdb_words(headers: Mapping[str, str]) -> str:
    """A record's HHdb conventions in one line: ``Kubbel · diagram 12 · EG 1234 · White to play
    and win · anticipated`` (empty when its Black tag is not HHdb's). The first comment's
    stipulation is said only where it is not the Black tag's."""
    fields = hhdb_fields(headers)
    if not fields:
        return ""
    words = [str(fields[name]) for name in ("composer",) if name in fields]
    if "diagram" in fields:
        words.append(f"diagram {fields['diagram']}")
    if "eg" in fields:
        words.append(f"EG {fields['eg']}")
    words.append(str(fields["stipulation"]))
    if "stipulation_disagreement" in fields:
        words.append(str(fields["stipulation_disagreement"]))
    elif "comment_stipulation" in fields and read_comment(headers.get(FIRST_COMMENT)).sign is None:
        words.append(f"the first comment's stipulation: {fields['comment_stipulation']}")
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


#: The browser's filter of studies, in turn: all, the sound, the unsound.
STUDIES_CYCLE: tuple[str | None, ...] = (None, "sound", "unsound")
NO_MARKS_WORDS = "No HHdb marks here: the sound/unsound filter is for an HHdb study collection (U1-U5 in Black tags)"


def studies_words(studies: str | None, shown: int, listed: int) -> str:
    """What the filter of studies keeps: ``sound studies only: 3 of 10 positions``."""
    return f"{studies or 'all'} studies only: {shown:,} of {plural(listed, 'position')}"


def tags_only(headers: Mapping[str, str]) -> dict[str, str]:
    """The headers without HHdb's first comment (which ``hhdb_fields`` reads): the tags."""
    return {name: value for name, value in headers.items() if name != FIRST_COMMENT}


def stipulation_from(headers: Mapping[str, str], caption: str | None = None) -> str | None:
    """The stipulation (``+`` or ``=``) a study states: its Stipulation tag, its caption, or
    HHdb's Black tag, the first that says one."""
    if (text := headers.get("Stipulation")) and (found := read_result(text).stipulation) is not None:
        return found
    black = headers.get("Black", "")
    for text in (caption, black if _STIPULATED_BLACK.match(black) else None):
        if text:
            try:
                decoded = decode(text)
            except GbrError:
                continue
            if decoded.stipulation is not None:
                return decoded.stipulation
    return None
