"""A printed caption against the position it is printed with: which parts disagree.

The parts (``PARTS``): the code (compared digit by digit), the men count (kings included, as
EG and ARVES print it: ``3/3`` for KRB v KNN), the king squares, and the other men's squares
when the caption gives them. A caption that does not decode raises GbrError: the record is bad.
The code is computed under the rule asked for; that the other rule gives the printed code is
said, not taken for agreement.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import chess

from gbr_tui.core.code import Rule, format_code, material_digits, men_squares
from gbr_tui.core.describe import caption_error_words, disagreement_words, other_rule_words, squares_difference_words
from gbr_tui.core.errors import GbrError
from gbr_tui.core.explanation import counts_by_type, digit_disagreement_words
from gbr_tui.core.material import Material, board_from_fen
from gbr_tui.core.notation import DecodedCode, decode

if TYPE_CHECKING:
    from gbr_tui.core.collection.records import Record

PARTS = ("code", "count", "kings", "squares")


@dataclass(frozen=True)
class Disagreement:
    """One part of a caption that the position contradicts."""

    part: str  # one of PARTS
    printed: str
    actual: str  # what the position gives
    detail: str = ""  # for the code: the digits that differ, in words


@dataclass(frozen=True)
class CaptionCheck:
    caption: str
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return not self.disagreements

    @property
    def parts(self) -> list[str]:
        return [found.part for found in self.disagreements]


@dataclass
class CheckTally:
    """What checking a collection counted: every record is exactly one of these."""

    agree: int = 0
    disagree: int = 0
    unchecked: int = 0  # no caption printed
    bad: int = 0  # unreadable, or a caption that does not decode

    @property
    def checked(self) -> int:
        return self.agree + self.disagree


def check_caption(
    caption: str, position: chess.BaseBoard | str, rule: Rule = Rule.COUNT, material: Material | None = None
) -> CaptionCheck:
    """Compare ``caption`` (any printed dialect) with ``position`` (a board or a FEN). With the
    position's ``material`` (a record's, as read), a FEN is read only when the caption prints
    more than a code (a count, the kings, squares): a code alone needs the material alone."""
    decoded = _decoded(caption, rule)
    board: chess.BaseBoard | None
    if isinstance(position, str):
        board = board_from_fen(position) if material is None or _needs_board(decoded) else None
    else:
        board = position
    if material is None:
        assert board is not None  # read above, for its material
        material = Material.from_board(board)
    try:
        digits = material_digits(material, rule)
    except GbrError as error:  # more than eight pawns a side: no code to compare with
        raise GbrError(f"the position has no code: {error.message}") from None
    found = []
    if decoded.digits != digits:
        found.append(_code_disagreement(decoded, material, digits, rule))
    if board is None:  # the caption prints a code alone (``_needs_board``)
        return CaptionCheck(caption, found)
    if decoded.men_count is not None:
        actual = tuple(chess.popcount(board.occupied_co[color]) for color in (chess.WHITE, chess.BLACK))
        if decoded.men_count != actual:
            found.append(Disagreement("count", _count(decoded.men_count), _count(actual)))
    if decoded.kings is not None:
        kings = _king_squares(board)
        if "".join(decoded.kings) != kings:
            found.append(Disagreement("kings", "".join(decoded.kings), kings))
    if decoded.men_squares:
        actual_squares = men_squares(board)
        if not _same_men(decoded, board, actual_squares, same_code=decoded.digits == digits):
            names = "".join(map(chess.square_name, actual_squares))
            printed = {chess.parse_square(name) for name in decoded.men_squares}
            detail = squares_difference_words(printed - set(actual_squares), set(actual_squares) - printed)
            found.append(Disagreement("squares", "".join(decoded.men_squares), names, detail))
    return CaptionCheck(caption, found)


@functools.lru_cache(maxsize=4096)
def _decoded(caption: str, rule: Rule) -> DecodedCode:
    """A caption decoded, once for each caption a collection repeats (read, never changed)."""
    return decode(caption, rule, count_must_fit=False)


def _needs_board(decoded: DecodedCode) -> bool:
    return decoded.men_count is not None or decoded.kings is not None or bool(decoded.men_squares)


def _code_disagreement(decoded: DecodedCode, material: Material, digits: str, rule: Rule) -> Disagreement:
    white, black = counts_by_type(material.white), counts_by_type(material.black)
    details = digit_disagreement_words(decoded.digits, digits, white, black, rule)
    other = Rule.PROMOTED if rule == Rule.COUNT else Rule.COUNT
    if material_digits(material, other) == decoded.digits:
        details.append(other_rule_words(other))
    return Disagreement("code", decoded.code, format_code(digits), "; ".join(details))


def _count(count: tuple[int, ...]) -> str:
    return "/".join(map(str, count))


def _king_squares(board: chess.BaseBoard) -> str:
    """White's king square then Black's; ``-`` for a side with none, every one when several."""
    sides = [board.pieces(chess.KING, color) for color in (chess.WHITE, chess.BLACK)]
    return "".join("".join(map(chess.square_name, kings)) or "-" for kings in sides)


def _same_men(decoded: DecodedCode, board: chess.BaseBoard, actual: list[chess.Square], same_code: bool) -> bool:
    """Whether the printed squares are the position's: man by man when the code agrees and
    fixes every man, else (a 9, or a wrong code) as the squares occupied."""
    if len(decoded.men_squares) != len(actual):
        return False
    if same_code and decoded.board is not None:
        return all(decoded.board.piece_at(square) == board.piece_at(square) for square in actual)
    return {chess.parse_square(name) for name in decoded.men_squares} == set(actual)


def caption_checked(
    caption: str | None, position: str | None, rule: Rule = Rule.COUNT, material: Material | None = None
) -> CaptionCheck | str | None:
    """A caption checked against its position (of ``material``, when known: see
    ``check_caption``); why, when the caption does not decode (its record is then bad); None
    when there is no caption."""
    if caption is None or position is None:
        return None
    try:
        return check_caption(caption, position, rule, material)
    except GbrError as error:
        return caption_error_words(caption, error)


def record_check(
    caption: str | None, position: str | None, rule: Rule = Rule.COUNT, material: Material | None = None
) -> list[tuple[str, str]] | None:
    """``caption_checked`` in words: (part, words) for each part that disagrees (part
    ``caption`` with why, when it does not decode); nothing when they agree, None when there is
    no caption."""
    found = caption_checked(caption, position, rule, material)
    if found is None:
        return None
    if isinstance(found, str):
        return [("caption", found)]
    return [(d.part, disagreement_words(d.part, d.printed, d.actual, d.detail)) for d in found.disagreements]


def code_alone(caption: str, rule: Rule) -> bool:
    """Whether checking ``caption`` needs the position's material alone: it prints a code and
    nothing only a board tells (a count, the kings, squares), or it does not decode at all."""
    try:
        return not _needs_board(_decoded(caption, rule))
    except GbrError:
        return True


# A record's caption checked, for ``ordered.records_with`` to run where the record is read.


def checked_record(record: Record, rule: Rule) -> CaptionCheck | str | None:
    return caption_checked(record.caption, record.fen, rule, record.material)


def record_check_words(record: Record, rule: Rule) -> list[tuple[str, str]] | None:
    return record_check(record.caption, record.fen, rule, record.material)
