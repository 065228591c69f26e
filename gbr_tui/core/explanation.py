"""What a code says, worked out and worded: each digit's meaning, each side's men, a printed
result's words, and everything the code pane shows of a board being set up.

The sentences' words are ``describe``'s; here they are put to a code, a decoded caption or a board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import chess

from gbr_tui.core.captions import read_result, write_caption
from gbr_tui.core.code import Rule, encode, extended_code, material_digits
from gbr_tui.core.describe import (
    NUMBER_WORDS,
    SIDE_NAMES,
    join_words,
    number_of,
    plural,
    stipulation_conflict,
    stipulation_words,
    to_move_words,
)
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import TYPE_NAMES, TYPES, Material, men_on_board
from gbr_tui.core.text import printable
from gbr_tui.core.validity import position_warnings

if TYPE_CHECKING:
    from gbr_tui.core.notation import DecodedCode

#: A side's counts by type letter (Q R B N P); None where a 9 hides the count.
SideCounts = Mapping[str, "int | None"]


RESULT_MEANINGS = {"+": "a win for White (+)", "=": "a draw (=)"}


def result_words(result: str, limit: int | None = None) -> str:
    """A printed result and what its words say, in one line:
    ``'Black to move loses' as printed: a win for White (+), Black to move``."""
    reading = read_result(result)
    said = []
    if reading.stipulation:
        said.append(RESULT_MEANINGS[reading.stipulation])
    if reading.side_to_move is not None:
        said.append(to_move_words(reading.side_to_move))
    if reading.queried:
        said.append("queried (the '?' is printed)")
    meaning = ", ".join(said) if said else "no win, draw or side to move that the words say"
    return f"'{printable(result, limit)}' as printed: {meaning}"


def side_words(counts: SideCounts) -> str:
    """``king, two bishops and a pawn``; a type hidden by a 9 is named as unknown."""
    men = []
    for piece_type in TYPES:
        count = counts[piece_type]
        name = TYPE_NAMES[piece_type]
        if count is None:
            men.append(f"an unknown number of {name}s")
        elif count:
            men.append(number_of(count, name))
    return join_words(["king", *men]) if men else "bare king"


def men_total_words(counts: SideCounts) -> str:
    """``4 men`` (king included); empty when a 9 hides the total."""
    known = [count for count in counts.values() if count is not None]
    if len(known) < len(counts):
        return ""
    return plural(1 + sum(known), "man", "men")


@dataclass(frozen=True)
class DigitExplanation:
    label: str  # "Q", "R", "B", "N", then "P" (White's pawns) and "p" (Black's)
    digit: str
    text: str


def explain_digits(
    digits: str, white: SideCounts, black: SideCounts, rule: Rule = Rule.COUNT
) -> list[DigitExplanation]:
    """One line per digit, e.g. ``R 3 = 0 White + 1 Black (rooks)``.

    ``white`` and ``black`` are the counts behind the digits, None where a 9 hides one.
    """
    lines = []
    for piece_type, digit in zip(TYPES, digits[:4]):
        name = TYPE_NAMES[piece_type]
        white_count, black_count = white[piece_type], black[piece_type]
        if digit == "9" and white_count is not None and black_count is not None:
            meaning = known_nine_words(piece_type, white_count, black_count, rule)
        elif digit == "9":
            if piece_type == "Q" and rule == Rule.PROMOTED:
                meaning = "more than one queen on at least one side: exact count unknown"
            else:
                meaning = f"three or more {name}s on at least one side: exact count unknown"
        else:
            meaning = f"{white[piece_type]} White + {black[piece_type]} Black ({name}s)"
        lines.append(DigitExplanation(piece_type, digit, meaning))
    for label, color, digit in zip("Pp", (chess.WHITE, chess.BLACK), digits[4:]):
        count = int(digit)
        lines.append(DigitExplanation(label, digit, f"{count} {SIDE_NAMES[color]} {'pawn' if count == 1 else 'pawns'}"))
    return lines


def known_nine_words(piece_type: str, white: int, black: int, rule: Rule = Rule.COUNT) -> str:
    """What a 9 stands for when the men are known (a board): ``White has three knights and
    Black two; the code writes 9 when a side has three or more``."""
    name = TYPE_NAMES[piece_type]
    white_words = f"White has {number_of(white, name)}"
    black_words = {0: "none", 1: "one"}.get(black) or (NUMBER_WORDS[black] if black < len(NUMBER_WORDS) else str(black))
    if piece_type == "Q" and rule == Rule.PROMOTED and max(white, black) < 3:
        why = "the promoted rule writes 9 when a side has more than one queen"
    else:
        why = "the code writes 9 when a side has three or more"
    return f"{white_words} and Black {black_words}; {why}"


def explain(decoded: DecodedCode, rule: Rule = Rule.COUNT) -> list[DigitExplanation]:
    """Each digit of a decoded code."""
    return explain_digits(decoded.digits, decoded.white, decoded.black, rule)


def counts_by_type(counts: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(TYPES, counts))


def digit_disagreement_words(
    printed: str, actual: str, white: SideCounts, black: SideCounts, rule: Rule = Rule.COUNT
) -> list[str]:
    """For each digit the position gives otherwise than printed: ``N printed 4, the position 3:
    0 White + 1 Black (knights)``."""
    explained = explain_digits(actual, white, black, rule)
    return [
        f"{line.label} printed {digit}, the position {line.digit}: {line.text}"
        for line, digit in zip(explained, printed)
        if digit != line.digit
    ]


@dataclass(frozen=True)
class BoardDescription:
    """What the code pane shows of a board: each part already worded."""

    code: str | None  # abcd.ef; None when a side has more than eight pawns
    men: str  # KBBP v KRNPP, the kings as they stand
    to_move: str
    stipulation: str
    #: With the stipulation and king squares (=0323.12g3g1), or the basic code when the board
    #: has no single king a side: what ``y`` copies.
    kings_code: str | None
    every_man: str | None  # with every man's square; None without one king a side
    code_note: str | None  # why there is no extended code
    fen: str
    warnings: list[str] = field(default_factory=list)
    digits: list[DigitExplanation] = field(default_factory=list)
    #: The side to move contradicts the stipulation: said, but the position stays legal.
    stipulation_warning: str | None = None
    #: The captions as EG and ARVES print them (label, text), when the board has a stipulation
    #: and one king a side: shown where the pane has room.
    captions: list[tuple[str, str]] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.warnings


def describe_board(board: chess.Board, stipulation: str | None, rule: Rule = Rule.COUNT) -> BoardDescription:
    warnings = position_warnings(board)
    material = Material.from_board(board)
    try:
        digits = material_digits(material, rule)
    except GbrError as error:
        warnings.insert(0, f"no code: {error.message}")
        digits = None
    code = kings_code = every_man = note = None
    explanations = []
    if digits is not None:
        code = encode(material, rule)
        try:
            kings_code = extended_code(board, stipulation, rule, kings_only=True)
            every_man = extended_code(board, stipulation, rule)
        except GbrError as error:
            kings_code, note = f"{stipulation or ''}{code}", error.message
        white, black = counts_by_type(material.white), counts_by_type(material.black)
        explanations = explain_digits(digits, white, black, rule)
    return BoardDescription(
        code,
        men_on_board(board),
        to_move_words(board.turn),
        stipulation_words(stipulation, board.turn),
        kings_code,
        every_man,
        note,
        board.fen(),
        warnings,
        explanations,
        stipulation_conflict(stipulation, board.turn),
        [] if not stipulation or every_man is None else _pane_captions(board, stipulation, rule),
    )


#: The captions the code pane shows, with their labels.
PANE_CAPTIONS = (("EG", "eg"), ("ARVES", "arves"))


def _pane_captions(board: chess.Board, stipulation: str, rule: Rule) -> list[tuple[str, str]]:
    return [(label, write_caption(board, form, stipulation, rule=rule)) for label, form in PANE_CAPTIONS]
