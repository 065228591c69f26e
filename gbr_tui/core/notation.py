"""Reading GBR codes in every printed dialect into one structured result.

Dialects (spec section 3): concatenated ``=0323.12g3g1``, ARVES ``a7d3 0116.00 b2b3c6d6 3/3+``,
EG ``f1h1 0001.04 2/5 Win`` and ``g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw``, German dotted
``0000.02.a1a8.a2b2``, book ``+ 1234.56 a7c8``; four-digit codes and ``,`` for ``.``.
Whitespace and dots between squares carry no meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import chess

from gbr_tui.core.captions import read_result
from gbr_tui.core.code import (
    MEN_ORDER,
    UNKNOWN,
    Rule,
    digit_sides,
    extended_code,
    extended_squares,
    format_code,
    material_digits,
)
from gbr_tui.core.describe import hidden_count_words
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import TYPES, Material
from gbr_tui.core.piece_list import looks_like_piece_list, read_piece_list

_PLAIN = re.compile(r"\s*([+=]?)\s*([0-9]{4})(?:[.,]([0-9]{2}))?\s*")
_SQUARE = re.compile(r"[a-hA-H][1-8]")
_MEN_COUNT = re.compile(r"([0-9]{1,2})/([0-9]{1,2})")
_SPACE = re.compile(r"\s*")

#: The printed forms the decoder reads, each with an example (shown to users as a reminder).
DIALECTS = (
    ("0323.12  0005  4000,10", "plain; four digits: no pawns"),
    ("=0323.12g3g1", "stipulation, code, kings, men"),
    ("a7d3 0116.00 b2b3c6d6 3/3+", "ARVES: kings first, count, result"),
    ("f1h1 0001.04 2/5 Win", "EG: Win, Draw, BTM"),
    ("g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw", "EG, full position"),
    ("0000.02.a1a8.a2b2", "German, dotted"),
    ("+ 1234.56 a7c8", "study books, spaced"),
)


def _known(side: dict[str, int | None]) -> dict[str, int]:
    """A side's counts that no 9 hides (all of them when the code has no 9)."""
    return {piece_type: count for piece_type, count in side.items() if count is not None}


def _is_digit(char: str) -> bool:
    """ASCII digits only: str.isdigit() also takes '²' and '٣', which no code is written with."""
    return "0" <= char <= "9" and len(char) == 1


@dataclass
class DecodedCode:
    """Everything a printed code says, and nothing it does not."""

    text: str
    digits: str
    white: dict[str, int | None]
    black: dict[str, int | None]
    unknown: list[str]
    stipulation: str | None = None
    side_to_move: chess.Color | None = None
    kings: tuple[str, str] | None = None
    men_squares: list[str] = field(default_factory=list)
    men_count: tuple[int, int] | None = None
    #: The result or stipulation as printed after the code and men count (``Draw?``, ``3/3+``'s
    #: ``+``), or None.
    result: str | None = None
    board: chess.Board | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def to_move(self) -> chess.Color | None:
        """Who moves, as the printed text says: its words (``BTM``, ``White to move``), else White
        when it gives a stipulation (spec section 3: ``+`` and ``=`` are White to play); None
        when nothing says it (the code alone never does). The one answer every front end gives."""
        if self.side_to_move is not None:
            return self.side_to_move
        return chess.WHITE if self.stipulation else None

    @property
    def code(self) -> str:
        return format_code(self.digits)

    @property
    def short(self) -> str:
        return format_code(self.digits, short=True)

    @property
    def material(self) -> Material | None:
        """Exact material, or None when a digit is 9."""
        if self.unknown:
            return None
        return Material.from_counts(_known(self.white), _known(self.black))

    @property
    def fen(self) -> str | None:
        """The FEN placement field when the code fixes every square."""
        return self.board.board_fen() if self.board is not None else None

    @property
    def full_fen(self) -> str | None:
        """A whole FEN, ready to paste: the side to move as given (White's when a stipulation or
        nothing says otherwise), no castling, no en passant."""
        return self.board.fen(en_passant="fen") if self.board is not None else None

    @property
    def compact(self) -> str:
        """The input rewritten in the one compact form this project writes.

        Without a board (a 9 hides how the squares split by type) the squares keep the order
        they were given in.
        """
        if self.board is not None:
            return extended_code(self.board, self.stipulation)
        squares = "".join(self.kings or ()) + "".join(self.men_squares)
        return f"{self.stipulation or ''}{self.code}{squares}"


def decode(text: str, rule: Rule = Rule.COUNT, *, count_must_fit: bool = True) -> DecodedCode:
    """Parse a code in any dialect; raise GbrError naming the bad spot.

    ``count_must_fit=False`` keeps a printed men count that disagrees with the code (``check``
    compares each with the position) instead of raising.
    """
    plain = _PLAIN.fullmatch(text)
    if plain is not None:
        stipulation, pieces, pawns = plain.groups()
        decoded = _from_digits(text, pieces, pawns or "00", plain.start(2), rule)
        decoded.stipulation = stipulation or None
        return decoded
    return _Parser(text, rule, count_must_fit).parse()


def decode_any(text: str, rule: Rule = Rule.COUNT) -> DecodedCode:
    """What the decode screen reads: a code in any dialect, a material (``KRP v KR``,
    ``KRPvKR``) or a piece list (``Kg3 Ba2 Be1 h6 / Kg1 Ra3 Ng8 c3 c6``); GbrError otherwise.

    A four-digit run makes it a code; no digit at all, a material; a man on a square, a piece list.
    """
    if re.search(r"[0-9]", text) is None and re.search(r"[A-Za-z]", text) is not None:
        return decoded_from_material(text, Material.from_string(text), rule)
    if looks_like_piece_list(text):
        printed = read_piece_list(text)
        decoded = decoded_from_board(text, printed.board, rule)
        decoded.stipulation, decoded.result = printed.stipulation, printed.result
        if printed.result is not None:
            decoded.side_to_move = read_result(printed.result).side_to_move
        return decoded
    return decode(text, rule)


def decoded_from_material(text: str, material: Material, rule: Rule = Rule.COUNT) -> DecodedCode:
    """A material read as the code it has: no squares, nobody to move."""
    white: dict[str, int | None] = dict(zip(TYPES, material.white))
    black: dict[str, int | None] = dict(zip(TYPES, material.black))
    return DecodedCode(text, material_digits(material, rule), white, black, [])


def decoded_from_board(text: str, board: chess.Board, rule: Rule = Rule.COUNT) -> DecodedCode:
    """A board (one king a side) read as its code with every square: the counts are known even
    where the code writes a 9."""
    decoded = decoded_from_material(text, Material.from_board(board), rule)
    squares = [chess.square_name(square) for square in extended_squares(board)]
    decoded.kings = (squares[0], squares[1])
    decoded.men_squares = squares[2:]
    decoded.board = board
    return decoded


def _from_digits(text: str, pieces: str, pawns: str, start: int, rule: Rule) -> DecodedCode:
    for offset, char in enumerate(pawns):
        if char == "9":
            raise GbrError("a pawn digit is 0-8: a side has at most eight pawns", start + 5 + offset)
    white: dict[str, int | None] = {}
    black: dict[str, int | None] = {}
    unknown = []
    notes = []
    for piece_type, char in zip(TYPES, pieces):
        digit = int(char)
        if digit == UNKNOWN:
            white[piece_type] = black[piece_type] = None
            unknown.append(piece_type)
        else:
            white[piece_type], black[piece_type] = digit_sides(digit)
    white["P"], black["P"] = int(pawns[0]), int(pawns[1])
    if rule == Rule.PROMOTED and pieces[0] in "25678":
        notes.append(f"queen digit {pieces[0]} means two queens on a side, which the promoted rule writes as 9")
    return DecodedCode(text, pieces + pawns, white, black, unknown, notes=notes)


class _Parser:
    """A left-to-right reader that remembers where each token started."""

    def __init__(self, text: str, rule: Rule, count_must_fit: bool = True) -> None:
        self.text = text
        self.rule = rule
        self.count_must_fit = count_must_fit
        self.pos = 0
        self.stipulation: str | None = None
        self.side_to_move: chess.Color | None = None
        self.before: list[tuple[str, int]] = []
        self.after: list[tuple[str, int]] = []
        self.men_count: tuple[int, int] | None = None
        self.men_count_at = 0
        self.result: str | None = None

    def parse(self) -> DecodedCode:
        if not self.text.strip():
            raise GbrError("empty: expected a code such as 0323.12", 0)
        decoded = self._read_code()
        self._read_tail()
        decoded.stipulation = self.stipulation
        decoded.side_to_move = self.side_to_move
        decoded.men_count = self.men_count
        decoded.result = self.result
        self._place(decoded)
        if self.count_must_fit:
            self._check_men_count(decoded)
        return decoded

    def _skip_space(self) -> None:
        space = _SPACE.match(self.text, self.pos)
        assert space is not None  # \s* matches anywhere
        self.pos = space.end()

    def _set_stipulation(self, value: str, at: int) -> None:
        if self.stipulation not in (None, value):
            raise GbrError(f"the stipulation is given twice and disagrees ({self.stipulation} and {value})", at)
        self.stipulation = value

    def _read_code(self) -> DecodedCode:
        """Stipulation and king squares may come first; then the code itself."""
        text = self.text
        while True:
            self._skip_space()
            if self.pos >= len(text):
                raise GbrError("expected a code such as 0323.12", self.pos)
            char = text[self.pos]
            if char in "+=":
                self._set_stipulation(char, self.pos)
                self.pos += 1
            elif _SQUARE.match(text, self.pos):
                self.before.append((text[self.pos : self.pos + 2].lower(), self.pos))
                self.pos += 2
            elif _is_digit(char):
                return self._read_digits()
            else:
                raise GbrError(
                    f"unexpected {char!r}: expected a code such as 0323.12 (or king squares, + or =)",
                    self.pos,
                )

    def _read_digits(self) -> DecodedCode:
        text, start = self.text, self.pos
        end = start
        while end < len(text) and end - start < 4 and _is_digit(text[end]):
            end += 1
        if end - start < 4:
            raise GbrError("expected four piece digits (queens, rooks, bishops, knights)", end)
        pawns = "00"
        if end < len(text) and _is_digit(text[end]):
            raise GbrError("expected '.' between the four piece digits and the two pawn digits", end)
        if end < len(text) and text[end] in ".," and end + 1 < len(text) and _is_digit(text[end + 1]):
            pawn_start = end + 1
            pawn_end = pawn_start
            while pawn_end < len(text) and _is_digit(text[pawn_end]):
                pawn_end += 1
            if pawn_end - pawn_start < 2:
                raise GbrError("expected two pawn digits (White's, then Black's)", pawn_end)
            if pawn_end - pawn_start > 2:
                raise GbrError("too many digits: the pawn part is exactly two digits", pawn_start + 2)
            pawns = text[pawn_start:pawn_end]
            end = pawn_end
        self.pos = end
        return _from_digits(text, text[start : start + 4], pawns, start, self.rule)

    def _read_tail(self) -> None:
        """Squares (dots and spaces between them mean nothing), men count, then the result: from
        the first word, sign or other mark on, the rest is the result text as printed."""
        text = self.text
        while True:
            self._skip_space()
            if self.pos >= len(text):
                return
            char = text[self.pos]
            counted = self.men_count is not None
            if char in ".," and not counted:
                self.pos += 1
            elif _SQUARE.match(text, self.pos):
                if counted:
                    raise GbrError("squares must come before the men count and the result", self.pos)
                self.after.append((text[self.pos : self.pos + 2].lower(), self.pos))
                self.pos += 2
            elif (count := _MEN_COUNT.match(text, self.pos)) is not None:
                if counted:
                    raise GbrError("the men count is given twice", self.pos)
                self.men_count = (int(count.group(1)), int(count.group(2)))
                self.men_count_at = self.pos
                self.pos = count.end()
            elif _is_digit(char) and not counted:
                raise GbrError(
                    "unexpected digit after the code: expected squares, a men count such as 3/3, or a result",
                    self.pos,
                )
            else:
                self._read_result()
                return

    def _read_result(self) -> None:
        """The rest of the text, kept as printed; only what its words say is derived."""
        at = self.pos
        self.result = self.text[at:].rstrip()
        reading = read_result(self.result)
        if reading.stipulation is not None:
            self._set_stipulation(reading.stipulation, at)
        if reading.side_to_move is not None:
            self.side_to_move = reading.side_to_move
        self.pos = len(self.text)

    def _place(self, decoded: DecodedCode) -> None:
        squares = self.after
        if self.before:
            if len(self.before) != 2:
                raise GbrError(
                    "expected the two king squares before the code (White's, then Black's)",
                    self.before[min(2, len(self.before) - 1)][1] if len(self.before) > 2 else self.before[0][1],
                )
            squares = self.before + self.after
        if not squares:
            return
        seen: dict[str, int] = {}
        for name, at in squares:
            if name in seen:
                if len(seen) == 1:
                    raise GbrError(f"both kings on {name}", at)
                raise GbrError(f"{name} is given twice", at)
            seen[name] = at
        if len(squares) < 2:
            raise GbrError("expected both king squares (White's, then Black's)", squares[-1][1] + 2)
        decoded.kings = (squares[0][0], squares[1][0])
        men = squares[2:]
        decoded.men_squares = [name for name, _ in men]
        if decoded.unknown:
            if men:
                # Each 9 stands for at least three men of its type.
                known = sum(n for n in (*decoded.white.values(), *decoded.black.values()) if n)
                at_least = known + 3 * len(decoded.unknown)
                if len(men) < at_least:
                    raise GbrError(
                        f"too few squares: the code has at least {at_least} men besides the kings, {len(men)} given",
                        men[-1][1] + 2,
                    )
                decoded.notes.append(f"the squares cannot be split by type: {hidden_count_words(decoded.unknown)}")
            return
        needed = sum(_known(decoded.white).values()) + sum(_known(decoded.black).values())
        if men and len(men) != needed:
            if len(men) > needed:
                raise GbrError(f"too many squares: the code has {needed} men besides the kings", men[needed][1])
            raise GbrError(
                f"too few squares: the code has {needed} men besides the kings, {len(men)} given",
                men[-1][1] + 2,
            )
        if men or needed == 0:
            decoded.board = _board(decoded)

    def _check_men_count(self, decoded: DecodedCode) -> None:
        if self.men_count is None:
            return
        printed_white, printed_black = self.men_count
        known_white = 1 + sum(n for n in decoded.white.values() if n is not None)
        known_black = 1 + sum(n for n in decoded.black.values() if n is not None)
        if decoded.unknown:
            hidden = 3 * len(decoded.unknown)
            fits = (
                printed_white >= known_white
                and printed_black >= known_black
                and printed_white - known_white + printed_black - known_black >= hidden
            )
        else:
            fits = (printed_white, printed_black) == (known_white, known_black)
        if not fits:
            expected = f"{known_white}/{known_black}" if not decoded.unknown else "more men"
            raise GbrError(
                f"men count {printed_white}/{printed_black} disagrees with the code, "
                f"which gives {expected} (kings included)",
                self.men_count_at,
            )


def _board(decoded: DecodedCode) -> chess.Board:
    board = chess.Board(None)
    board.turn = chess.WHITE if decoded.side_to_move is None else decoded.side_to_move
    assert decoded.kings is not None
    board.set_piece_at(chess.parse_square(decoded.kings[0]), chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(chess.parse_square(decoded.kings[1]), chess.Piece(chess.KING, chess.BLACK))
    squares = iter(decoded.men_squares)
    for piece_type, color in MEN_ORDER:
        side = decoded.white if color == chess.WHITE else decoded.black
        for _ in range(side[chess.piece_symbol(piece_type).upper()] or 0):
            board.set_piece_at(chess.parse_square(next(squares)), chess.Piece(piece_type, color))
    return board
