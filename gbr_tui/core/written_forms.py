"""Every form a position is written in (the editor's copy menu, the palette): codes, captions,
FEN and piece list, or why the position has none in a form."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import chess

from gbr_tui.core.captions import write_caption
from gbr_tui.core.code import Rule, encode, extended_code, extended_squares
from gbr_tui.core.describe import SIDE_NAMES
from gbr_tui.core.errors import GbrError


class Form(Enum):
    """The forms, in the copy menu's order: the letter that chooses each there, and its name."""

    PLAIN_CODE = ("c", "plain code")
    SHORT_CODE = ("s", "short code")
    KINGS_CODE = ("k", "code with kings")
    EVERY_MAN_CODE = ("m", "code with every man")
    EG_CAPTION = ("e", "EG caption")
    ARVES_CAPTION = ("a", "ARVES caption")
    GERMAN = ("g", "German form")
    BOOK = ("b", "book form")
    FEN = ("f", "FEN")
    PIECE_LIST = ("l", "piece list")

    def __init__(self, key: str, label: str) -> None:
        self.key = key
        self.label = label  # "EG caption": "Copied the EG caption: ..."


#: The forms that are captions, each with its form of ``write_caption``.
CAPTION_FORMS = {Form.EG_CAPTION: "eg", Form.ARVES_CAPTION: "arves", Form.GERMAN: "german", Form.BOOK: "book"}
#: The captions that print the result, so are not written without a stipulation.
RESULT_CAPTIONS = (Form.EG_CAPTION, Form.ARVES_CAPTION)


@dataclass(frozen=True)
class WrittenForm:
    """A position in one form: its text, or why the position has none in it."""

    form: Form
    text: str | None
    problem: str | None = None

    @property
    def key(self) -> str:
        return self.form.key

    @property
    def name(self) -> str:
        return self.form.label


#: Why the forms that name squares (kings first) are not written.
ONE_KING_EACH = "needs exactly one king on each side"
#: Why a caption is not written without a stipulation: EG and ARVES print the result.
CAPTION_NEEDS_RESULT = "set + or = first: a caption prints the result"


def written_forms(board: chess.Board, stipulation: str | None, rule: Rule = Rule.COUNT) -> list[WrittenForm]:
    """The position in every ``Form``, or why it cannot be written in one."""
    try:
        code, no_code = encode(board, rule), ""
    except GbrError as error:
        code, no_code = None, f"no code: {error.message}"
    try:
        extended_squares(board)
        no_squares = None
    except GbrError:
        no_squares = ONE_KING_EACH
    forms = []
    for form in Form:
        text: str | None = None
        problem = None
        if form is Form.FEN:
            text = board.fen()
        elif form is Form.PIECE_LIST:
            text, problem = (write_piece_list(board), None) if no_squares is None else (None, no_squares)
        elif code is None:
            problem = no_code
        elif form is Form.PLAIN_CODE:
            text = code
        elif form is Form.SHORT_CODE:
            text = encode(board, rule, short=True)
        elif no_squares is not None:
            problem = no_squares
        elif form in (Form.KINGS_CODE, Form.EVERY_MAN_CODE):
            text = extended_code(board, stipulation, rule, kings_only=form is Form.KINGS_CODE)
        elif form in RESULT_CAPTIONS and not stipulation:
            problem = CAPTION_NEEDS_RESULT
        else:
            text = write_caption(board, CAPTION_FORMS[form], stipulation, rule=rule)
        forms.append(WrittenForm(form, text, problem))
    return forms


def copied_words(form: WrittenForm) -> str:
    """``Copied the EG caption: g3g1 0323.12 ...``."""
    return f"Copied the {form.name}: {form.text}"


def not_written_words(form: WrittenForm) -> str:
    """``No EG caption: a caption prints the result: ...``."""
    return f"No {form.name}: {form.problem}"


#: The types in the order a piece list names them, king first.
_LIST_ORDER = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)


def write_piece_list(board: chess.BaseBoard, separator: str = " – ") -> str:
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
