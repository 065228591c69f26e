"""The GBR core: pure domain code. It uses python-chess, never textual or rich."""

from gbr_tui.core.batch import FenEncoder
from gbr_tui.core.code import Rule, encode, extended_code, format_code, piece_digit, short_form
from gbr_tui.core.describe import DigitExplanation, explain
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import Material, board_from_fen
from gbr_tui.core.notation import DecodedCode, decode, decode_any
from gbr_tui.core.piece_list import parse_piece_list
from gbr_tui.core.validity import position_warnings

__all__ = [
    "DecodedCode",
    "DigitExplanation",
    "FenEncoder",
    "GbrError",
    "Material",
    "Rule",
    "board_from_fen",
    "decode",
    "decode_any",
    "encode",
    "explain",
    "extended_code",
    "format_code",
    "parse_piece_list",
    "piece_digit",
    "position_warnings",
    "short_form",
]
