"""Every sentence about a code, a side, a digit, a stipulation or a collection, in one wording.

The command line, the decode screen and the code pane all print these; none words a fact itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import chess

from gbr_tui.core.captions import read_result
from gbr_tui.core.code import Rule, encode, extended_code, material_digits
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import TYPE_NAMES, TYPES, Material, men_on_board
from gbr_tui.core.text import printable
from gbr_tui.core.validity import position_warnings

if TYPE_CHECKING:
    from gbr_tui.core.notation import DecodedCode

#: A side's counts by type letter (Q R B N P); None where a 9 hides the count.
SideCounts = Mapping[str, "int | None"]

SIDE_NAMES = {chess.WHITE: "White", chess.BLACK: "Black"}
NUMBER_WORDS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight")

STIPULATION_WORDS = {"+": "White to play and win", "=": "White to play and draw"}
NO_STIPULATION = "no stipulation"

#: The two rules side by side, for a choice between them.
RULE_CHOICE = "count: 9 for three or more of a type; promoted: 9 also for a second queen on a side"
RULE_MEANINGS = {
    Rule.COUNT: "count rule: a 9 means three or more of that type on a side",
    Rule.PROMOTED: "promoted rule: a 9 means three or more on a side, or two queens",
}


def join_words(words: list[str]) -> str:
    """``a, b and c``."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 class``, ``1,204 classes``."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


def number_of(count: int, noun: str) -> str:
    """``a bishop``, ``two bishops``, ``no pawns``; figures from nine on."""
    number = NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)
    return f"{number} {noun if count == 1 else noun + 's'}"


def stipulation_words(stipulation: str | None) -> str:
    """``+ White to play and win``, or that there is none."""
    if not stipulation:
        return NO_STIPULATION
    return f"{stipulation} {STIPULATION_WORDS[stipulation]}"


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


def to_move_words(color: chess.Color) -> str:
    return f"{SIDE_NAMES[color]} to move"


def castling_words(wanted: str, refused: str) -> str:
    """``castling rights KQkq``, and which of them the men do not allow yet (``-``: none)."""
    if refused == "-":
        return f"castling rights {wanted}"
    return f"castling rights {wanted}: {refused} not until its king and rook stand on their home squares"


def stipulation_conflict(stipulation: str | None, turn: chess.Color) -> str | None:
    """What to say when the side to move contradicts the stipulation (``+`` and ``=`` are
    White to play), else None."""
    if stipulation in STIPULATION_WORDS and turn == chess.BLACK:
        return f"Black to move contradicts the stipulation {stipulation} ({STIPULATION_WORDS[stipulation]})"
    return None


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
    if any(count is None for count in counts.values()):
        return ""
    total = 1 + sum(counts.values())
    return plural(total, "man", "men")


def unknown_types_words(unknown: list[str]) -> str:
    """``knights``, ``queens and knights``: the types a 9 hides."""
    return join_words([TYPE_NAMES[piece_type] + "s" for piece_type in unknown])


def hidden_count_words(unknown: list[str]) -> str:
    """What a 9 leaves open, for the types it hides."""
    return f"a 9 hides the exact number of {unknown_types_words(unknown)}: three or more on a side"


#: The types in the order a piece list names them, king first.
_LIST_ORDER = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)


def piece_list_words(board: chess.BaseBoard, separator: str = " – ") -> str:
    """Which man stands where, as a piece list is printed (spec section 3):
    ``White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6``. Within a side the king,
    then queens, rooks, bishops, knights and pawns; within a type by file a to h, then rank."""
    sides = []
    for color in (chess.WHITE, chess.BLACK):
        men = []
        for piece_type in _LIST_ORDER:
            letter = chess.piece_symbol(piece_type).upper()
            squares = sorted(
                board.pieces(piece_type, color), key=lambda sq: (chess.square_file(sq), chess.square_rank(sq))
            )
            men += [letter + chess.square_name(square) for square in squares]
        sides.append(f"{SIDE_NAMES[color]}: {', '.join(men) or 'none'}")
    return separator.join(sides)


def read_summary(classified: int, bad: int) -> str:
    """``read 1,204 = classified 1,200 + bad 4``: every record read is one or the other."""
    return f"read {classified + bad:,} = classified {classified:,} + bad {bad:,}"


def share_of_games_note(games: int) -> str:
    """Under a summary of every class games pass through: why its shares add up to more than 100%."""
    return (
        f"share: of the {plural(games, 'game')}; a game counts once in each class it passes through, "
        "so the shares add up to more than 100%"
    )


#: The summary's columns for the results of games (the ``Result`` tag), and its score.
RESULT_HEADINGS = ("White", "draw", "Black", "unknown", "score")
#: How ``--either-colour`` (and the browser's toggle) writes a class.
EITHER_COLOUR_NOTE = (
    "either colour: each class is folded with its colour twin and written with the stronger side "
    "as White (more queens, then rooks, bishops, knights, pawns); its results are counted for that side"
)
#: What the score column is.
SCORE_NOTE = "score: White's points in percent (a draw is half) over the games with a known result"


#: The browser's one column for a class's results: White wins, draws, Black wins, unknown.
RESULTS_HEADING = "W/D/B/?"
_SORT_WORDS = {"code": "", "count": "most first", "score": "best score first"}


def browser_modes(either_colour: bool, sort: str, all_classes: bool) -> str:
    """What the browser's status adds about how the classes are listed: `` · either colour
    (stronger side as White) · most first · share of games``; empty for the default."""
    words = []
    if either_colour:
        words.append("either colour (stronger side as White)")
    if _SORT_WORDS[sort]:
        words.append(_SORT_WORDS[sort])
    if all_classes:
        words.append("share of games")
    return "".join(f" · {word}" for word in words)


def score_words(score: float | None) -> str:
    """``62.5%``, or ``-`` when no game has a known result."""
    return "-" if score is None else f"{score:.1f}%"


def not_a_collection(file: str, records: int, line: int, reason: str) -> str:
    """Why a file is read as no chess collection at all: its first records are all bad."""
    return (
        f"{file}: not a chess collection: none of its first {records} records is a position or a game "
        f"(line {line}: {reason})"
    )


def class_materials(materials: Sequence[tuple[Material, int]], shown: int = 3) -> str:
    """The materials of a class, most frequent first: ``KNNN v K, KNNN v KNN``, with ``2 more``
    after the first ``shown``."""
    names = [str(material) for material, _ in materials[:shown]]
    if len(materials) > shown:
        names.append(f"{len(materials) - shown} more")
    return ", ".join(names)


# --- the digits ---------------------------------------------------------------------------------


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
        if digit == "9" and white[piece_type] is not None and black[piece_type] is not None:
            meaning = known_nine_words(piece_type, white[piece_type], black[piece_type], rule)
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


# --- a board being set up -----------------------------------------------------------------------


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
        stipulation_words(stipulation),
        kings_code,
        every_man,
        note,
        board.fen(),
        warnings,
        explanations,
        stipulation_conflict(stipulation, board.turn),
    )
