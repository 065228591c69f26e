"""Reading a position printed as a piece list (spec section 3), White's men first.

Forms read: ``White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6``, ``Kg3 Ba2 Be1 h6 /
Kg1 Ra3 Ng8 c3 c6`` (pawns without ``P``), figurines ``♔g3 ♗a2`` (white glyphs for both sides, as
books print them, or black glyphs for Black's men), an optional men count ``(4+5)`` at the end.

Between the sides: ``–``, ``—``, ``-``, ``/``, ``;``, a newline, or a ``Black:`` (``b:``) label;
``White:`` (``w:``) may open the list. Commas and spaces separate men. A black figurine in White's
part starts Black's part. ``parse_piece_list`` is the one public entry point.
"""

from __future__ import annotations

import re

import chess

from gbr_tui.core.errors import GbrError

#: Longer input is refused before it is read: a full board's list is under 200 characters.
MAX_LENGTH = 1000

WHITE_FIGURINES = {
    "♔": chess.KING,
    "♕": chess.QUEEN,
    "♖": chess.ROOK,
    "♗": chess.BISHOP,
    "♘": chess.KNIGHT,
    "♙": chess.PAWN,
}
BLACK_FIGURINES = {
    "♚": chess.KING,
    "♛": chess.QUEEN,
    "♜": chess.ROOK,
    "♝": chess.BISHOP,
    "♞": chess.KNIGHT,
    "♟": chess.PAWN,
}
LETTERS = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}
SIDE_SEPARATORS = "–—-/;\n"

_LABEL = re.compile(r"(white|black|w|b)\s*:|(white|black)\b", re.IGNORECASE)
_MAN = re.compile(r"([KQRBNP♔♕♖♗♘♙♚♛♜♝♞♟]?)([a-hA-H][1-8])(?![0-9A-Za-z])")
_MEN_COUNT = re.compile(r"\(\s*([0-9]{1,2})\s*\+\s*([0-9]{1,2})\s*\)")


_KING = re.compile(r"[K♔♚][a-hA-H][1-8]")


def looks_like_piece_list(text: str) -> bool:
    """True when ``text`` names a king on a square (``Kg3``, ``♔g3``) and has no four-digit run:
    squares alone (``a7d3``, an ARVES code being typed) are read as a code."""
    return re.search(r"[0-9]{4}", text) is None and _KING.search(text) is not None


def parse_piece_list(text: str) -> chess.Board:
    """The board a piece list describes, White to move and no castling; GbrError naming the bad
    spot (``offset``) otherwise. Each side needs exactly one king; squares must not repeat."""
    if len(text) > MAX_LENGTH:
        raise GbrError(f"too long for a piece list: at most {MAX_LENGTH} characters", MAX_LENGTH)
    if not text.strip():
        raise GbrError("empty: expected a piece list such as 'Kg3 Ba2 / Kg1 Ra3'", 0)
    board = chess.Board(None)
    side = chess.WHITE
    switched = False  # Black's part has started
    kings = {chess.WHITE: 0, chess.BLACK: 0}
    men = {chess.WHITE: 0, chess.BLACK: 0}
    count: tuple[int, int, int] | None = None
    pos = 0
    while pos < len(text):
        char = text[pos]
        if count is not None and not char.isspace():
            raise GbrError(f"unexpected {char!r} after the men count", pos)
        # A newline parts the sides only after White's men; elsewhere it is a space.
        newline_space = char == "\n" and (switched or men[chess.WHITE] == 0)
        if char in SIDE_SEPARATORS or char.isspace() or char == ",":
            if char in SIDE_SEPARATORS and not newline_space:
                if switched or men[chess.WHITE] == 0:
                    raise GbrError(_misplaced_separator(char, switched), pos)
                side, switched = chess.BLACK, True
            pos += 1
            continue
        if (label := _LABEL.match(text, pos)) is not None:
            is_white = label.group(0)[0] in "wW"
            if is_white and (switched or men[chess.WHITE]):
                raise GbrError("'White' must open the list: White's men come first", pos)
            if not is_white:
                if men[chess.WHITE] == 0:
                    raise GbrError("White's men must come before Black's", pos)
                if switched and men[chess.BLACK]:
                    raise GbrError("Black's men are given twice", pos)
                side, switched = chess.BLACK, True
            pos = label.end()
            continue
        if (found := _MEN_COUNT.match(text, pos)) is not None:
            count = (int(found.group(1)), int(found.group(2)), pos)
            pos = found.end()
            continue
        if (man := _MAN.match(text, pos)) is not None:
            symbol, square_name = man.groups()
            if symbol in BLACK_FIGURINES:
                piece_type = BLACK_FIGURINES[symbol]
                if not switched:
                    if men[chess.WHITE] == 0:
                        raise GbrError("White's men must come before Black's (a black figurine first)", pos)
                    side, switched = chess.BLACK, True
            else:
                piece_type = WHITE_FIGURINES.get(symbol) or LETTERS.get(symbol) or chess.PAWN
            square = chess.parse_square(square_name.lower())
            if board.piece_at(square) is not None:
                raise GbrError(f"{square_name.lower()} is given twice", man.start(2))
            if piece_type == chess.KING:
                kings[side] += 1
                if kings[side] > 1:
                    raise GbrError(f"{_name(side)} has two kings", pos)
            board.set_piece_at(square, chess.Piece(piece_type, side))
            men[side] += 1
            pos = man.end()
            continue
        raise GbrError(f"unexpected {char!r}: expected a man such as Kg3, Ba2 or h6", pos)
    if men[chess.BLACK] == 0:
        raise GbrError("Black's men are missing: separate the sides with '-', '/' or 'Black:'", len(text))
    for color in (chess.WHITE, chess.BLACK):
        if kings[color] == 0:
            raise GbrError(f"{_name(color)} has no king", len(text))
    if count is not None and (count[0], count[1]) != (men[chess.WHITE], men[chess.BLACK]):
        raise GbrError(
            f"men count {count[0]}+{count[1]} disagrees with the list, which gives "
            f"{men[chess.WHITE]}+{men[chess.BLACK]} (kings included)",
            count[2],
        )
    return board


def _name(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def _misplaced_separator(char: str, switched: bool) -> str:
    if switched:
        return f"unexpected {char!r}: the list has only two parts, White's and Black's"
    return f"unexpected {char!r}: White's men must come first"
