"""The ``abcd.ef`` code: digits from material, written forms, the extended form."""

from __future__ import annotations

from enum import Enum

import chess

from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import PIECE_TYPES, Material, board_from_fen

UNKNOWN = 9


class Rule(str, Enum):
    """How a piece digit becomes 9.

    COUNT (the default): 9 when either side has three or more of that type.
    PROMOTED: also 9 when a side has more than one queen (older English, Italian reading).
    """

    COUNT = "count"
    PROMOTED = "promoted"


Source = chess.BaseBoard | Material | str

#: The order of the men after the kings in an extended code (spec section 3): queens, rooks,
#: bishops, knights, White's before Black's within a type; then White's pawns, then Black's.
MEN_ORDER = (
    *((piece_type, color) for piece_type in PIECE_TYPES[:4] for color in (chess.WHITE, chess.BLACK)),
    (chess.PAWN, chess.WHITE),
    (chess.PAWN, chess.BLACK),
)


def piece_digit(white: int, black: int, rule: Rule = Rule.COUNT, queens: bool = False) -> int:
    """One piece digit: white x 1 + black x 3, or 9 when the exact count cannot be written."""
    if white >= 3 or black >= 3:
        return UNKNOWN
    if queens and rule == Rule.PROMOTED and (white > 1 or black > 1):
        return UNKNOWN
    return white + 3 * black


def digit_sides(digit: int) -> tuple[int, int]:
    """White's and Black's count behind a piece digit 0-8 (each White one counts 1, Black 3)."""
    return digit % 3, digit // 3


def material_digits(material: Material, rule: Rule = Rule.COUNT) -> str:
    """The six digits ``abcdef`` of the code."""
    white, black = material.white, material.black
    if white[4] > 8 or black[4] > 8:
        raise GbrError("more than 8 pawns on one side cannot be written in a pawn digit")
    # Written out, not a loop: every class of a collection or an index is coded here.
    return (
        f"{piece_digit(white[0], black[0], rule, queens=True)}{piece_digit(white[1], black[1], rule)}"
        f"{piece_digit(white[2], black[2], rule)}{piece_digit(white[3], black[3], rule)}{white[4]}{black[4]}"
    )


def format_code(digits: str, short: bool = False) -> str:
    """``abcd.ef`` from six digits; the short form drops ``.00``."""
    if short and digits[4:] == "00":
        return digits[:4]
    return f"{digits[:4]}.{digits[4:]}"


def short_form(code: str) -> str:
    """The short form of a full ``abcd.ef`` code."""
    return code[:4] if code.endswith(".00") else code


def to_material(source: Source) -> Material:
    if isinstance(source, Material):
        return source
    if isinstance(source, chess.BaseBoard):
        return Material.from_board(source)
    if isinstance(source, str):
        return Material.from_fen(source)
    raise TypeError(f"cannot take material from {type(source).__name__}")


def encode(source: Source, rule: Rule = Rule.COUNT, short: bool = False) -> str:
    """The code of a Board, a FEN (full or placement) or a Material."""
    return format_code(material_digits(to_material(source), rule), short)


def extended_squares(board: chess.BaseBoard) -> list[chess.Square]:
    """King squares (White's first), then the other men in the published order.

    Queens, rooks, bishops, knights (White's before Black's within a type), then White's pawns,
    then Black's; within a group by file a to h, then rank 1 to 8.
    """
    kings = [board.pieces_mask(chess.KING, color) for color in (chess.WHITE, chess.BLACK)]
    if any(chess.popcount(mask) != 1 for mask in kings):
        raise GbrError("the extended form needs exactly one king on each side")
    return [chess.lsb(mask) for mask in kings] + men_squares(board)


def men_squares(board: chess.BaseBoard) -> list[chess.Square]:
    """The men other than the kings in the published order (see ``extended_squares``)."""
    squares = []
    for piece_type, color in MEN_ORDER:
        squares += sorted(board.pieces(piece_type, color), key=_file_then_rank)
    return squares


def _file_then_rank(square: chess.Square) -> tuple[int, int]:
    return chess.square_file(square), chess.square_rank(square)


def extended_code(
    source: chess.BaseBoard | str,
    stipulation: str | None = None,
    rule: Rule = Rule.COUNT,
    kings_only: bool = False,
) -> str:
    """The compact extended form ``[+|=]abcd.ef`` + kings + the other men.

    ``kings_only`` writes the king squares alone (as Kubbel's ``=0323.12g3g1``).
    """
    board = board_from_fen(source) if isinstance(source, str) else source
    if stipulation not in (None, "", "+", "="):
        raise GbrError(f"stipulation must be '+' (win) or '=' (draw), not {stipulation!r}")
    squares = extended_squares(board)
    if kings_only:
        squares = squares[:2]
    names = "".join(chess.square_name(square) for square in squares)
    return f"{stipulation or ''}{encode(board, rule)}{names}"
