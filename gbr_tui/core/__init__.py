"""The GBR core: pure domain code. It uses python-chess, never textual or rich.

What the app's first frame does not use (decoding every dialect, piece lists, the batch
encoder) is imported when first asked for: ``from gbr_tui.core import decode`` loads it then.
"""

from importlib import import_module
from typing import TYPE_CHECKING

from gbr_tui.core.code import Rule, encode, extended_code, format_code, piece_digit, short_form
from gbr_tui.core.errors import GbrError
from gbr_tui.core.explanation import DigitExplanation, explain
from gbr_tui.core.material import Material, board_from_fen
from gbr_tui.core.validity import position_warnings

if TYPE_CHECKING:  # what ``__getattr__`` loads when first asked for, as the type checker sees it
    from gbr_tui.core.batch import FenEncoder
    from gbr_tui.core.notation import DecodedCode, decode, decode_any
    from gbr_tui.core.piece_list import parse_piece_list

#: The names imported when first asked for, and their modules.
LAZY = {
    "DecodedCode": "notation",
    "decode": "notation",
    "decode_any": "notation",
    "parse_piece_list": "piece_list",
    "FenEncoder": "batch",
}


def __getattr__(name: str) -> object:
    if name not in LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{LAZY[name]}"), name)


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
