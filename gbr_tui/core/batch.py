"""Encoding many FENs fast, with exactly the answers python-chess parsing would give.

Collections repeat the same rank strings ("8", "pppppppp", "4k3") over and over, so the encoder
checks and counts each distinct rank once and remembers it as one packed integer: six bits per
counted type (Q R B N P q r b n p, bits 0-59) plus ``1 << 60`` for the rank itself. A FEN's
material is then the sum of its eight rank values, started at ``-(8 << 60)``: the bits from 60 up
are zero exactly when there were eight ranks, and every partial sum stays inside a machine
integer, so ``sum`` never leaves its fast C path. A rank python-chess would reject is worth
``1 << 64``, which throws the sum out of range. So a FEN costs one partition, one split, eight
dictionary look-ups and one sum, all in C. A distinct rank costs two byte translations: into its
shape (men become ``P``: ``b"1PP3PP"``), looked up among the 256 valid shapes, and into its men
alone (``b"pppp"``), whose counts are looked up too (far fewer distinct ones).

Six bits hold 0 to 63. The only board that overflows one is 64 men of a single type, whose sum
then looks like a lone man of the next type; sums that show exactly one man besides the kings are
therefore handed to python-chess, like everything else unusual (a bad rank, a trailing field the
pattern below does not know, more than 8 pawns). python-chess's verdict, and error, are final.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gbr_tui.core.code import Rule, format_code, material_digits, piece_digit
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import Material, board_from_fen

_COUNTED = "QRBNPqrbnp"
_FIELD_BITS = 6
_FIELD_MASK = (1 << _FIELD_BITS) - 1
_ONE_RANK = 1 << 60
_START = -8 * _ONE_RANK  # == -2**63, the smallest machine integer
_BAD_RANK = 1 << 64
_CACHE_LIMIT = 1 << 14  # entries per cache (ranks, trailing fields, sums): a few MB at most, memory stays flat

_CHAR_VALUES = {char: 1 << (_FIELD_BITS * index) for index, char in enumerate(_COUNTED)}
_BYTE_VALUES = [_CHAR_VALUES.get(chr(byte), 0) for byte in range(256)]
_NOT_COUNTED = b"12345678Kk"
_SHAPE = bytes.maketrans(b"KQRBNPkqrbnp", b"P" * 12)

# A lone man of type i+1 and 64 men of type i give the same sum: python-chess tells them apart.
_AMBIGUOUS = frozenset(1 << (_FIELD_BITS * index) for index in range(1, len(_COUNTED)))

# The fields after the placement, as python-chess accepts them, single spaces only (stricter is
# fine: whatever this does not match goes to python-chess itself).
# The castling field is never empty: python-chess splits at runs of spaces, so "w  - 0 1" is
# "w", "-", "0", "1" to it (and "0" no en passant square).
_TRAILING = re.compile(
    r"[wb](?: (?:-|[KQA-H]{1,2}[kqa-h]{0,2}|[kqa-h]{1,2})(?: (?:-|[a-h][1-8])(?: [0-9]+(?: [0-9]+)?)?)?)?"
)


def _valid_shapes(filled: int = 0, after_digit: bool = False) -> list[bytes]:
    """Every rank shape python-chess accepts: men (``P``) and digits adding up to 8 squares,
    never two digits in a row."""
    if filled == 8:
        return [b""]
    shapes = [b"P" + rest for rest in _valid_shapes(filled + 1)]
    if not after_digit:
        for run in range(1, 9 - filled):
            shapes += [b"%d" % run + rest for rest in _valid_shapes(filled + run, True)]
    return shapes


_VALID_SHAPES = frozenset(_valid_shapes())


class _LetterValues(dict):
    """The men of a rank, digits and kings removed (b"rnbqbnr") -> packed counts + one rank."""

    def __missing__(self, letters: bytes) -> int:
        value = _ONE_RANK + sum(map(_BYTE_VALUES.__getitem__, letters))
        self[letters] = value
        return value


class _RankValues(dict):
    """rank string -> packed counts; an unseen rank is checked and counted on first look-up.

    Different ranks often hold the same men ("1p2p3", "pp6"), so the count is looked up by
    the men alone.
    """

    def __init__(self) -> None:
        super().__init__()
        self._letter_value = _LetterValues().__getitem__

    def __missing__(self, rank: str) -> int:
        spelled = rank.encode("utf-8", "surrogatepass")
        if spelled.translate(_SHAPE) in _VALID_SHAPES:
            value = self._letter_value(spelled.translate(None, _NOT_COUNTED))
        else:
            value = _BAD_RANK
        self[rank] = value
        return value


def _unpack(total: int) -> Material:
    counts = [(total >> (_FIELD_BITS * i)) & _FIELD_MASK for i in range(len(_COUNTED))]
    return Material(tuple(counts[:5]), tuple(counts[5:]))


_WHITE_PAWNS_SHIFT = _FIELD_BITS * _COUNTED.index("P")
_BLACK_PAWNS_SHIFT = _FIELD_BITS * _COUNTED.index("p")
_PIECES_MASK = (_ONE_RANK - 1) & ~(_FIELD_MASK << _WHITE_PAWNS_SHIFT | _FIELD_MASK << _BLACK_PAWNS_SHIFT)
_FULL_BOARDS = {char: "/".join([char * 8] * 8) for char in _COUNTED}


class FenEncoder:
    """Codes of FENs (full, or the placement field alone), one rule and form per encoder."""

    def __init__(self, rule: Rule = Rule.COUNT, short: bool = False) -> None:
        self.rule = rule
        self.short = short
        self._ranks = _RankValues()
        self._trailing: set[str] = {""}
        self._codes: dict[int, str] = {}
        self._piece_digits: dict[int, str] = {}
        # (white pawns << 6 | black pawns) -> ".ef"; more than 8 pawns is missing on purpose.
        self._pawn_digits = {
            white << _FIELD_BITS | black: f".{white}{black}" for white in range(9) for black in range(9)
        }
        if short:
            self._pawn_digits[0] = ""

    def code(self, fen: str) -> str:
        """The code of one FEN; raises GbrError for a FEN python-chess would reject."""
        return self.material_and_code(fen)[1]

    def material_and_code(self, fen: str) -> tuple[Material, str]:
        """The material and the code of one FEN."""
        placement, _, trailing = fen.partition(" ")
        if trailing in self._trailing or self._learn_trailing(trailing):
            total = sum(map(self._rank_values().__getitem__, placement.split("/")), _START)
            code = self._codes.get(total) or self._new_code(total, placement)
            if code is not None:
                return _unpack(total), code
        return self._slow(fen)

    def codes(self, fens: Iterable[str]) -> list[str | GbrError]:
        """The code of each FEN, in order, with a GbrError in place of each bad FEN.

        This is the batch path of ``gbr-tui encode``: per FEN, one partition, one split and
        one sum in C; the python-chess fallback only for what the fast path cannot vouch for.
        """
        rank_value = self._rank_values().__getitem__
        known_trailing = self._trailing
        known_code = self._codes.get
        results: list[str | GbrError] = []
        append = results.append
        for fen in fens:
            placement, _, trailing = fen.partition(" ")
            if trailing in known_trailing or self._learn_trailing(trailing):
                total = sum(map(rank_value, placement.split("/")), _START)
                code = known_code(total) or self._new_code(total, placement)
                if code is not None:
                    append(code)
                    continue
            try:
                append(self._slow(fen)[1])
            except GbrError as error:
                append(error)
        return results

    def _rank_values(self) -> _RankValues:
        """The rank cache, emptied when it has grown too big (checked once per call)."""
        if len(self._ranks) > _CACHE_LIMIT:
            self._ranks = _RankValues()
        return self._ranks

    def _learn_trailing(self, trailing: str) -> bool:
        if _TRAILING.fullmatch(trailing) is None:
            return False
        if len(self._trailing) < _CACHE_LIMIT:
            self._trailing.add(trailing)
        return True

    def _new_code(self, total: int, placement: str) -> str | None:
        """The code for a sum of rank values not seen before, or None when python-chess must
        decide (a bad rank, not eight ranks, more than 8 pawns, 64 men of one type)."""
        if not 0 <= total < _ONE_RANK:
            return None
        if total in _AMBIGUOUS:
            return None if placement == _FULL_BOARDS.get(placement[:1]) else self._digits(total)
        code = self._digits(total)
        if code is not None and len(self._codes) < _CACHE_LIMIT:
            self._codes[total] = code
        return code

    def _digits(self, total: int) -> str | None:
        """The code from a sum of rank values (None for more than 8 pawns on a side)."""
        pawns = self._pawn_digits.get(
            (total >> _WHITE_PAWNS_SHIFT & _FIELD_MASK) << _FIELD_BITS | total >> _BLACK_PAWNS_SHIFT
        )
        if pawns is None:
            return None  # python-chess reads the board, and the code's error says why
        pieces_key = total & _PIECES_MASK
        pieces = self._piece_digits.get(pieces_key)
        if pieces is None:
            material = _unpack(pieces_key)
            pieces = "".join(
                str(piece_digit(white, black, self.rule, queens=piece_type == "Q"))
                for piece_type, white, black in zip("QRBN", material.white, material.black)
            )
            self._piece_digits[pieces_key] = pieces
        return pieces + pawns

    def _slow(self, fen: str) -> tuple[Material, str]:
        """python-chess decides: either a good FEN in an unusual spelling, or the error."""
        material = Material.from_board(board_from_fen(fen))
        return material, format_code(material_digits(material, self.rule), self.short)
