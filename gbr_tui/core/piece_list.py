"""Reading a position printed as a piece list (spec section 3), White's men first.

Forms read: ``White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6``, ``Kg3 Ba2 Be1 h6 /
Kg1 Ra3 Ng8 c3 c6`` (pawns without ``P``), unspaced as typed in a hurry
(``Kg3Ba2Be1h6/Kg1Ra3Ng8c3c6``), figurines ``♔g3 ♗a2`` (white glyphs for both sides, as books
print them, or black glyphs for Black's men), an optional men count ``(4+5)`` at the end.

Between the sides: ``–``, ``—``, ``-``, ``/``, ``;``, a newline, or a ``Black:`` (``b:``) label;
``White:`` (``w:``) may open the list. Commas and spaces separate men. A black figurine in White's
part starts Black's part. ``parse_piece_list`` reads a whole list; ``ManTyping`` reads men typed
on the board one key at a time (the editor's ``m``).

As magazines print them, with their punctuation and what follows the men: full stops between
men (``White: Kb6, Pc6. Black: Ka1, Rd5.``), then a men count (``(2+2)``, ``2/2``) and a
stipulation or result (``+``, ``=``, ``Win``, ``BTM, draw``, ``3/3+``): ``read_piece_list``
keeps them (read as the captions' result texts are, ``captions.read_result``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from gbr_tui.core.captions import read_result
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
#: A man: its letter or figurine (none for a pawn), its square, and no digit after (``a10``).
#: Men may follow one another unspaced, as typed (``Kg3Ba2h6``).
_MAN = re.compile(r"([KQRBNP♔♕♖♗♘♙♚♛♜♝♞♟]?)([a-hA-H][1-8])(?![0-9])")
_MEN_COUNT = re.compile(r"\(\s*([0-9]{1,2})\s*\+\s*([0-9]{1,2})\s*\)")
_SIDE_TO_MOVE = re.compile(r"(white|black)\s+to\b", re.IGNORECASE)
#: The men count as ARVES and EG print it, ``3/3`` (``3/3+``): only after Black's men.
_SLASHED_COUNT = re.compile(r"([0-9]{1,2})\s*/\s*([0-9]{1,2})(?![0-9])")


#: A man named by its letter or figurine on a square: never the start of a code.
_NAMED_MAN = re.compile(r"[KQRBNP♔♕♖♗♘♙♚♛♜♝♞♟][a-hA-H][1-8]")


def looks_like_piece_list(text: str) -> bool:
    """True when ``text`` names a man on a square (``Kg3``, ``Ba2``, ``♔g3``) and has no
    four-digit run: squares alone (``a7d3``, an ARVES code being typed) are read as a code, and
    a list that forgot a king is still told as a list (``White has no king``)."""
    return re.search(r"[0-9]{4}", text) is None and _NAMED_MAN.search(text) is not None


@dataclass(frozen=True)
class PrintedList:
    """A piece list as printed: its board, and what its result part says (None where it says
    nothing): the stipulation (``+``, ``=``) and the side to move (``BTM``)."""

    board: chess.Board
    stipulation: str | None = None
    result: str | None = None


def parse_piece_list(text: str) -> chess.Board:
    """The board a piece list describes (``read_piece_list``), its result part left out."""
    return read_piece_list(text).board


def read_piece_list(text: str) -> PrintedList:
    """The board a piece list describes, White to move unless its result part says Black
    (``BTM``), no castling, and the stipulation that part gives; GbrError naming the bad spot
    (``offset``) otherwise. Each side needs exactly one king; squares must not repeat."""
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
    result: str | None = None
    pos = 0
    while pos < len(text):
        char = text[pos]
        if men[chess.BLACK] and (count is not None or _starts_result(text, pos)):
            count, result = _result_part(text, pos, count)
            break
        # A newline parts the sides only after White's men; elsewhere it is a space.
        newline_space = char == "\n" and (switched or men[chess.WHITE] == 0)
        if char in SIDE_SEPARATORS and not newline_space:
            if switched or men[chess.WHITE] == 0:
                raise GbrError(_misplaced_separator(char, switched), pos)
            side, switched = chess.BLACK, True
            pos += 1
            continue
        if char in ".," or char.isspace():  # full stops too, as printed: "Kb6, Pc6. Black: ..."
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
    if result is None:
        return PrintedList(board)
    reading = read_result(result)
    if reading.side_to_move is not None:
        board.turn = reading.side_to_move
    return PrintedList(board, reading.stipulation, result)


def _starts_result(text: str, pos: int) -> bool:
    """Whether the result part starts at ``pos``, after Black's men: a men count ``3/3``, or
    what no man, label or separator starts (``+``, ``=``, ``Win``, ``BTM``)."""
    if _SLASHED_COUNT.match(text, pos) is not None:
        return True
    if _SIDE_TO_MOVE.match(text, pos) is not None:  # "White to play and win", "Black to move"
        return True
    char = text[pos]
    if char.isspace() or char in ".,(" or char in SIDE_SEPARATORS:
        return False
    return _MAN.match(text, pos) is None and _LABEL.match(text, pos) is None


def _result_part(
    text: str, pos: int, count: tuple[int, int, int] | None
) -> tuple[tuple[int, int, int] | None, str | None]:
    """The men count (when not read yet) and the result text after Black's men; GbrError when
    that text says neither a stipulation nor who moves (it is no result, but a mistake)."""
    if count is None and (slashed := _SLASHED_COUNT.match(text, pos)) is not None:
        count = (int(slashed.group(1)), int(slashed.group(2)), pos)
        pos = slashed.end()
    rest = text[pos:].strip()
    if not rest:
        return count, None
    reading = read_result(rest)
    if reading.stipulation is None and reading.side_to_move is None:
        start = pos + len(text[pos:]) - len(text[pos:].lstrip())
        expected = "a stipulation such as +, =, Win or Draw"
        if count is None:
            raise GbrError(f"unexpected {rest[0]!r}: after Black's men, a men count (2+2) and {expected}", start)
        raise GbrError(f"unexpected {rest[0]!r} after the men count: {expected} may follow", start)
    return count, rest


def _name(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def _misplaced_separator(char: str, switched: bool) -> str:
    if switched:
        return f"unexpected {char!r}: the list has only two parts, White's and Black's"
    return f"unexpected {char!r}: White's men must come first"


class ManTyping:
    """Men typed on the board one key at a time, as a piece list prints them: ``Kg3``, ``Ba2``,
    ``h6`` (a pawn), then ``/`` for the other side's men; ``xg3`` empties g3.

    Capitals (and white figurines) are men of the side being typed, White until ``/`` (which
    switches back and forth); small letters are Black's men as in FEN (``kg1``, ``pc3``), so
    ``b`` is a Black bishop before a file (``bc3``) and a pawn's file before a rank (``b3``).
    Spaces and commas are skipped.
    """

    def __init__(self) -> None:
        self.side = chess.WHITE
        #: The keys of the man being typed, so far (``Kg``).
        self.pending = ""

    def feed(self, char: str) -> tuple[chess.Square, chess.Piece | None] | None:
        """A complete man (or ``x`` and its square: None) once its rank is typed; None while
        it is not complete yet. GbrError for a key that cannot come next (nothing is kept)."""
        pending = self.pending
        if not pending:
            if char in " ,":
                return None
            if char in SIDE_SEPARATORS:
                self.side = not self.side
                return None
            if char in LETTERS or char in "kqrnpx" or char in WHITE_FIGURINES or char in BLACK_FIGURINES:
                self.pending = char
                return None
            if char in chess.FILE_NAMES:  # a pawn's file, or b a Black bishop
                self.pending = char
                return None
            raise GbrError(f"{char!r} starts no man: type e.g. Kg3, Ba2 or h6", 0)
        if char in chess.FILE_NAMES and (len(pending) == 1 and (pending == "b" or pending not in chess.FILE_NAMES)):
            self.pending += char
            return None
        if char in chess.RANK_NAMES and pending[-1] in chess.FILE_NAMES:
            self.pending = ""
            square = chess.parse_square(pending[-1] + char)
            symbol = pending[:-1] or "P"  # a file alone is a pawn's
            return square, None if symbol == "x" else self._piece(symbol)
        wanted = "a rank (1-8)" if pending[-1] in chess.FILE_NAMES else "a file (a-h)"
        raise GbrError(f"{char!r} after {pending}: expected {wanted}", len(pending))

    def back(self) -> bool:
        """Take back the last key of the man being typed; False when none is being typed."""
        if not self.pending:
            return False
        self.pending = self.pending[:-1]
        return True

    def _piece(self, symbol: str) -> chess.Piece:
        if symbol in BLACK_FIGURINES:
            return chess.Piece(BLACK_FIGURINES[symbol], chess.BLACK)
        if symbol in WHITE_FIGURINES:
            return chess.Piece(WHITE_FIGURINES[symbol], self.side)
        if symbol.islower():
            return chess.Piece(LETTERS[symbol.upper()], chess.BLACK)
        return chess.Piece(LETTERS[symbol], self.side)
