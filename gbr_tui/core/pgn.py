"""Reading PGN games fast enough to classify big collections.

A game's class depends on its material only, and material changes only through captures and
promotions. So a game is replayed on a plain board of squares: each SAN move's origin is found
with python-chess's attack tables (``BB_*``), and a move is taken only when exactly one piece can
make it without leaving its king attacked. A game with anything else (an illegal or ambiguous
move, castling through check, a missing promotion, spellings such as ``e2e4``, a start position
without one king a side, a variant) is replayed again by python-chess, whose verdict is final.
Tests check the two agree on random games, legal and spoiled.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import chess

from gbr_tui.core.errors import GbrError

#: Material as ten counts: White's Q R B N P, then Black's (the fields of ``Material``).
Counts = tuple[int, int, int, int, int, int, int, int, int, int]

RESULTS = frozenset(("1-0", "0-1", "1/2-1/2", "*"))
HEADERS_KEPT = ("Event", "Site", "Date", "White", "Black", "FEN")

_TAG = re.compile(r'\[\s*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TAG_LINE = re.compile(rf"\s*(?:{_TAG.pattern}\s*)+")
_UNESCAPE = re.compile(r"\\(.)")

# Movetext without comments, variations or NAGs is split on whitespace once move numbers are gone.
_MOVE_NUMBER = re.compile(r"\b\d+\.+")
_RICH_MOVETEXT = re.compile(r"[{}();$%\\]")
_TOKEN = re.compile(
    r"""
    (?P<comment>\{[^}]*\}?)
    |(?P<rest>;[^\n]*)
    |(?P<nag>\$\d+)
    |(?P<open>\()
    |(?P<close>\))
    |(?P<number>\d+\.+)
    |(?P<word>[^\s{}();$]+)
    |(?P<stray>[^\s])
    """,
    re.VERBOSE,
)
_GLYPHS = re.compile(r"[!?]+")


class PgnError(GbrError):
    """A broken game. ``offset`` is where in the movetext the fault is, when known."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass
class RawGame:
    """One game as read from the file, before its moves are replayed."""

    line: int  # where the game starts
    movetext_line: int  # where its movetext starts
    headers: dict[str, str] = field(default_factory=dict)
    movetext: str = ""
    error: PgnError | None = None  # a fault found while splitting (a malformed tag)
    error_line: int | None = None

    def line_of(self, offset: int | None) -> int:
        """The file line of an offset into the movetext."""
        if offset is None:
            return self.error_line or self.line
        return self.movetext_line + self.movetext.count("\n", 0, offset)


def split_games(lines: Iterable[str], first_line: int = 1) -> Iterator[RawGame]:
    """Games from PGN lines (without their line ends), as python-chess separates them.

    A game is its tag pairs, then movetext up to a blank line or the next tag line. Lines
    starting with ``%`` are escapes and skipped. Blank lines inside ``{...}`` do not end a game.
    """
    game: RawGame | None = None
    movetext: list[str] = []
    in_comment = False
    number = first_line - 1
    for line in lines:
        number += 1
        if in_comment:
            movetext.append(line)
            in_comment = _still_in_comment(line, True)
            continue
        if not line or line.isspace():
            if movetext:
                game.movetext = "\n".join(movetext)
                yield game
                game, movetext = None, []
            continue
        first = line[0]
        if first == "%":
            continue
        if first == "[" and not movetext:
            if game is None:
                game = RawGame(number, number)
            _read_tags(game, line, number)
            continue
        if first == "[":
            game.movetext = "\n".join(movetext)
            yield game
            game, movetext = RawGame(number, number), []
            _read_tags(game, line, number)
            continue
        if game is None:
            game = RawGame(number, number)
        if not movetext:
            game.movetext_line = number
        movetext.append(line)
        if "{" in line or "}" in line:
            in_comment = _still_in_comment(line, False)
    if game is not None:
        game.movetext = "\n".join(movetext)
        yield game


def _still_in_comment(line: str, in_comment: bool) -> bool:
    for char in re.findall(r"[{};]", line):
        if in_comment:
            in_comment = char != "}"
        elif char == "{":
            in_comment = True
        elif char == ";":
            break
    return in_comment


def _read_tags(game: RawGame, line: str, number: int) -> None:
    if _TAG_LINE.fullmatch(line) is None:
        if game.error is None:
            game.error = PgnError(f"malformed tag line {line.strip()[:40]!r}")
            game.error_line = number
        return
    for name, value in _TAG.findall(line):
        game.headers[name] = _UNESCAPE.sub(r"\1", value) if "\\" in value else value


def san_tokens(movetext: str) -> list[str]:
    """The mainline's moves: no move numbers, comments, variations, NAGs, glyphs, ``e.p.`` or
    result.

    Raises PgnError for unbalanced braces or parentheses and for moves after the result.
    """
    if _RICH_MOVETEXT.search(movetext) is not None:
        return _rich_tokens(movetext)
    tokens = _MOVE_NUMBER.sub(" ", movetext).split()
    if tokens and tokens[-1] in RESULTS:
        tokens.pop()
    if not RESULTS.isdisjoint(tokens):
        result = next(token for token in tokens if token in RESULTS)
        raise PgnError(f"moves after the result {result}", _offset_of(movetext, result))
    if "!" in movetext or "?" in movetext or "e.p." in movetext:
        tokens = [move for move in map(_move_only, tokens) if move]
    return tokens


def _move_only(token: str) -> str:
    """A move token without its glyphs (``!?``); empty for glyphs alone and ``e.p.``."""
    return "" if token == "e.p." else _GLYPHS.sub("", token)


def _offset_of(movetext: str, token: str) -> int | None:
    match = re.search(rf"(?<!\S){re.escape(token)}(?!\S)", movetext)
    return match.start() if match else None


def _rich_tokens(movetext: str) -> list[str]:
    tokens: list[str] = []
    depth = 0
    result_at: int | None = None
    for match in _TOKEN.finditer(movetext):
        kind = match.lastgroup
        text = match.group()
        if kind == "comment":
            if not text.endswith("}"):
                raise PgnError("a comment '{' is never closed", match.start())
        elif kind == "open":
            depth += 1
        elif kind == "close":
            if depth == 0:
                raise PgnError("')' closes no variation", match.start())
            depth -= 1
        elif kind == "stray":
            raise PgnError(f"unexpected {text!r}", match.start())
        elif kind == "word" and depth == 0:
            if text in RESULTS:
                result_at = match.start()
                continue
            move = _move_only(text)
            if not move:
                continue
            if result_at is not None:
                raise PgnError("moves after the result", match.start())
            tokens.append(move)
    if depth:
        raise PgnError("a variation '(' is never closed", len(movetext))
    return tokens


def move_offset(movetext: str, index: int) -> int | None:
    """Where the ``index``-th mainline move (0-based) starts in the movetext (for reports)."""
    depth = 0
    seen = 0
    for match in _TOKEN.finditer(movetext):
        kind = match.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
        elif kind == "word" and depth == 0 and match.group() not in RESULTS and _move_only(match.group()):
            if seen == index:
                return match.start()
            seen += 1
    return None


# --- replay -----------------------------------------------------------------------------------

EMPTY, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(7)
BLACK_OFFSET = 8  # a piece is its type, plus 8 when Black's

_CASTLE, _PIECE, _PUSH, _PAWN_CAPTURE = range(4)
_PIECE_LETTERS = {"N": KNIGHT, "B": BISHOP, "R": ROOK, "Q": QUEEN, "K": KING}
_SAN_PIECE = re.compile(r"([NBRQK])([a-h])?([1-8])?x?([a-h][1-8])")
_SAN_PUSH = re.compile(r"([a-h][1-8])(?:=?([NBRQ]))?")
_SAN_PAWN_CAPTURE = re.compile(r"([a-h])x?([a-h][1-8])(?:=?([NBRQ]))?")
_CASTLINGS = {"O-O": chess.H1, "0-0": chess.H1, "O-O-O": chess.A1, "0-0-0": chess.A1}

_KNIGHT = chess.BB_KNIGHT_ATTACKS
_KING = chess.BB_KING_ATTACKS
_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS
_DIAG_MASKS, _DIAG = chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS
_FILE_MASKS, _FILE = chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS
_RANK_MASKS, _RANK = chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS
_RAYS = chess.BB_RAYS
_ALL = chess.BB_ALL
_STANDARD_CASTLING = chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8


def _parse_san(san: str) -> tuple | None:
    """The parts of a SAN move in the spellings the fast replay takes, else None."""
    rook = _CASTLINGS.get(san)
    if rook is not None:
        return (_CASTLE, rook)
    match = _SAN_PIECE.fullmatch(san)
    if match is not None:
        letter, file, rank, target = match.groups()
        mask = _ALL
        if file:
            mask &= chess.BB_FILES[ord(file) - 97]
        if rank:
            mask &= chess.BB_RANKS[int(rank) - 1]
        return (_PIECE, _PIECE_LETTERS[letter], mask, chess.parse_square(target))
    match = _SAN_PUSH.fullmatch(san)
    if match is not None:
        target, promotion = match.groups()
        return (_PUSH, chess.parse_square(target), _PIECE_LETTERS[promotion] if promotion else 0)
    match = _SAN_PAWN_CAPTURE.fullmatch(san)
    if match is not None:
        file, target, promotion = match.groups()
        to = chess.parse_square(target)
        if file == target[0]:  # python-chess reads "exe5" as the push e5
            return (_PUSH, to, _PIECE_LETTERS[promotion] if promotion else 0)
        return (_PAWN_CAPTURE, ord(file) - 97, to, _PIECE_LETTERS[promotion] if promotion else 0)
    return None


_SAN_CACHE: dict[str, tuple | None] = {}
_UNPARSED = object()


def _san_parts(san: str) -> tuple | None:
    try:
        return _SAN_CACHE[san]
    except KeyError:
        parts = _parse_san(san.rstrip("+#"))
        if len(_SAN_CACHE) < 100_000:
            _SAN_CACHE[san] = parts
        return parts


class _Unusual(Exception):
    """The fast replay cannot vouch for this move: python-chess decides."""


@dataclass
class Replayed:
    """What a replay learned: the material at the requested plies."""

    changes: list[tuple[int, Counts, str | None]]  # (ply, counts, placement FEN or None)
    final: tuple[int, Counts, str | None]


class Start:
    """A start position in the form the fast replay uses; ``fast`` says whether it may."""

    __slots__ = ("board", "castling", "ep", "fast", "masks", "squares", "white")

    def __init__(self, board: chess.Board) -> None:
        self.board = board
        self.squares = [EMPTY] * 64
        self.masks = [0] * 16
        for square, piece in board.piece_map().items():
            code = piece.piece_type + (0 if piece.color else BLACK_OFFSET)
            self.squares[square] = code
            self.masks[code] |= 1 << square
        self.white = board.turn
        self.castling = board.castling_rights
        self.ep = board.ep_square
        # One king a side, standard castling, standard chess: the fast replay applies.
        self.fast = (
            type(board) is chess.Board
            and not board.chess960
            and self.masks[KING].bit_count() == 1
            and self.masks[KING + BLACK_OFFSET].bit_count() == 1
            and self.castling & ~_STANDARD_CASTLING == 0
        )


STANDARD_START = Start(chess.Board())


def counts_of(masks: list[int]) -> Counts:
    """Material counts from piece masks: White's Q R B N P, then Black's."""
    return (
        masks[QUEEN].bit_count(),
        masks[ROOK].bit_count(),
        masks[BISHOP].bit_count(),
        masks[KNIGHT].bit_count(),
        masks[PAWN].bit_count(),
        masks[QUEEN + 8].bit_count(),
        masks[ROOK + 8].bit_count(),
        masks[BISHOP + 8].bit_count(),
        masks[KNIGHT + 8].bit_count(),
        masks[PAWN + 8].bit_count(),
    )


def placement(squares: Sequence[int]) -> str:
    """The FEN placement field of a board of square codes."""
    board = chess.BaseBoard.empty()
    board.set_piece_map(
        {square: chess.Piece(code & 7, code < BLACK_OFFSET) for square, code in enumerate(squares) if code}
    )
    return board.board_fen()


class MoveError(GbrError):
    """An illegal, ambiguous or unreadable move; ``index`` is its 0-based place in the mainline."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


def replay(start: Start, sans: Sequence[str], every_change: bool, fens: bool) -> Replayed:
    """Play the moves; report the material at the end and, with ``every_change``, after each
    capture or promotion. ``fens`` adds the placement at those plies."""
    if start.fast:
        try:
            return _fast_replay(start, sans, every_change, fens)
        except _Unusual:
            pass
    return _chess_replay(start.board, sans, every_change, fens)


def _chess_replay(board: chess.Board, sans: Sequence[str], every_change: bool, fens: bool):
    """The reference replay: python-chess decides every move."""
    board = board.copy(stack=False)

    def state(ply: int) -> tuple[int, Counts, str | None]:
        white = [len(board.pieces(t, chess.WHITE)) for t in (5, 4, 3, 2, 1)]
        black = [len(board.pieces(t, chess.BLACK)) for t in (5, 4, 3, 2, 1)]
        return ply, tuple(white + black), board.board_fen() if fens else None

    changes = [state(0)]
    for index, san in enumerate(sans):
        try:
            move = board.parse_san(san.rstrip("+#"))
        except ValueError as error:
            raise MoveError(_move_reason(error, san), index) from None
        changed = move and (move.promotion or board.is_capture(move))
        board.push(move)
        if changed and every_change:
            changes.append(state(index + 1))
    return Replayed(changes, state(len(sans)))


def _move_reason(error: ValueError, san: str) -> str:
    text = str(error)
    for kind in ("illegal", "ambiguous", "invalid"):
        if text.startswith(kind):
            return f"{kind} move {san!r}"
    return f"bad move {san!r}: {text.split(' in ', 1)[0]}"


def _fast_replay(start: Start, sans: Sequence[str], every_change: bool, fens: bool) -> Replayed:
    squares = start.squares[:]
    masks = start.masks[:]
    occupied_by = [0, 0]  # White's men, Black's men
    for code in range(1, 7):
        occupied_by[0] |= masks[code]
        occupied_by[1] |= masks[code + BLACK_OFFSET]
    occupied = occupied_by[0] | occupied_by[1]
    kings = [masks[KING].bit_length() - 1, masks[KING + BLACK_OFFSET].bit_length() - 1]
    castling = start.castling
    ep = start.ep
    side = 0 if start.white else 1  # 0 White, 1 Black
    in_check = bool(_attackers(masks, kings[side], occupied, BLACK_OFFSET - side * BLACK_OFFSET))
    changes = [(0, counts_of(masks), placement(squares) if fens else None)]
    known = _SAN_CACHE.get

    for index, san in enumerate(sans):
        parts = known(san, _UNPARSED)
        if parts is _UNPARSED:
            parts = _san_parts(san)
        if parts is None:
            raise _Unusual
        us = side * BLACK_OFFSET
        them = BLACK_OFFSET - us
        kind = parts[0]
        promotion = 0
        en_passant = False

        if kind == _PIECE:
            piece, from_mask, to = parts[1], parts[2], parts[3]
            to_bit = 1 << to
            if occupied_by[side] & to_bit:
                raise _Unusual
            if piece == KNIGHT:
                candidates = _KNIGHT[to]
            elif piece == BISHOP:
                candidates = _DIAG[to][_DIAG_MASKS[to] & occupied]
            elif piece == ROOK:
                candidates = _RANK[to][_RANK_MASKS[to] & occupied] | _FILE[to][_FILE_MASKS[to] & occupied]
            elif piece == QUEEN:
                candidates = (
                    _DIAG[to][_DIAG_MASKS[to] & occupied]
                    | _RANK[to][_RANK_MASKS[to] & occupied]
                    | _FILE[to][_FILE_MASKS[to] & occupied]
                )
            else:
                candidates = _KING[to]
            moved = us + piece
            candidates &= masks[moved] & from_mask
        elif kind == _PUSH:
            to, promotion = parts[1], parts[2]
            to_bit = 1 << to
            if occupied & to_bit or (to >> 3 in (0, 7)) != bool(promotion):
                raise _Unusual
            moved = us + PAWN
            back = -8 if side == 0 else 8
            origin = to + back
            if not 0 <= origin < 64:
                raise _Unusual
            if squares[origin] == moved:
                candidates = 1 << origin
            elif squares[origin] == EMPTY and to >> 3 == (3 if side == 0 else 4):
                origin += back
                candidates = (1 << origin) if squares[origin] == moved else 0
            else:
                candidates = 0
        elif kind == _PAWN_CAPTURE:
            file, to, promotion = parts[1], parts[2], parts[3]
            to_bit = 1 << to
            moved = us + PAWN
            origin = to + (-8 if side == 0 else 8) + file - (to & 7)
            if abs(file - (to & 7)) != 1 or not 0 <= origin < 64 or squares[origin] != moved:
                raise _Unusual
            if (to >> 3 in (0, 7)) != bool(promotion):
                raise _Unusual
            if occupied_by[1 - side] & to_bit:
                candidates = 1 << origin
            elif to == ep:
                candidates = 1 << origin
                en_passant = True
            else:
                raise _Unusual
        else:
            if in_check:
                raise _Unusual
            _castle(squares, masks, occupied_by, side, parts[1], castling)
            occupied = occupied_by[0] | occupied_by[1]
            kings[side] = masks[us + KING].bit_length() - 1
            castling &= ~(chess.BB_RANK_1 if side == 0 else chess.BB_RANK_8)
            ep = None
            side = 1 - side
            in_check = bool(_attackers(masks, kings[side], occupied, us))
            continue

        # Exactly one candidate may make the move without leaving its own king attacked.
        if candidates & (candidates - 1) == 0:
            if not candidates:
                raise _Unusual
            origin = candidates.bit_length() - 1
            if in_check or en_passant or moved == us + KING:
                if not _safe(masks, squares, occupied, us, them, kings[side], origin, to, en_passant):
                    raise _Unusual
            else:
                # Out of check only an enemy slider on a line through the king and the piece
                # can pin it.
                line = _RAYS[kings[side]][origin] & ~to_bit
                if line & (masks[them + BISHOP] | masks[them + ROOK] | masks[them + QUEEN]) and _sees(
                    kings[side], line, masks, them, (occupied ^ (1 << origin)) | to_bit
                ):
                    raise _Unusual
        else:
            origin = -1
            while candidates:
                bit = candidates & -candidates
                candidates ^= bit
                square = bit.bit_length() - 1
                if _safe(masks, squares, occupied, us, them, kings[side], square, to, en_passant):
                    if origin >= 0:
                        raise _Unusual  # ambiguous: python-chess says so in its words
                    origin = square
            if origin < 0:
                raise _Unusual

        captured = squares[to]
        from_bit = 1 << origin
        if captured:
            masks[captured] ^= to_bit
            occupied_by[1 - side] ^= to_bit
            castling &= ~to_bit
        elif en_passant:
            taken = to + (-8 if side == 0 else 8)
            squares[taken] = EMPTY
            masks[them + PAWN] ^= 1 << taken
            occupied_by[1 - side] ^= 1 << taken
        placed = us + promotion if promotion else moved
        squares[origin] = EMPTY
        squares[to] = placed
        masks[moved] ^= from_bit
        masks[placed] ^= to_bit
        occupied_by[side] ^= from_bit | to_bit
        occupied = occupied_by[0] | occupied_by[1]
        if moved == us + KING:
            kings[side] = to
            castling &= ~(chess.BB_RANK_1 if side == 0 else chess.BB_RANK_8)
        else:
            castling &= ~from_bit
        ep = (origin + to) >> 1 if moved == us + PAWN and abs(to - origin) == 16 else None

        # Does this move check the other king? Directly, or by uncovering a slider on a line
        # through the king and the square left.
        their_king = kings[1 - side]
        kind_placed = placed - us
        if en_passant:
            in_check = bool(_attackers(masks, their_king, occupied, us))
        elif kind_placed == KNIGHT:
            in_check = bool(_KNIGHT[to] & (1 << their_king))
        elif kind_placed == PAWN:
            in_check = bool(_PAWN_ATTACKS[side == 0][to] & (1 << their_king))
        elif kind_placed == KING:
            in_check = False
        else:
            in_check = (
                (kind_placed != ROOK and _DIAGONAL_LINES[to] >> their_king & 1)
                or (kind_placed != BISHOP and _STRAIGHT_LINES[to] >> their_king & 1)
            ) and not _BETWEEN[to][their_king] & occupied
        if not in_check:
            line = _RAYS[their_king][origin]
            if line & (masks[us + BISHOP] | masks[us + ROOK] | masks[us + QUEEN]):
                in_check = _sees(their_king, line, masks, us, occupied)
        side = 1 - side
        if every_change and (captured or en_passant or promotion):
            changes.append((index + 1, counts_of(masks), placement(squares) if fens else None))

    final = (len(sans), counts_of(masks), placement(squares) if fens else None)
    return Replayed(changes, final)


_DIAGONAL_LINES = [_DIAG[square][0] for square in range(64)]
_STRAIGHT_LINES = [_RANK[square][0] | _FILE[square][0] for square in range(64)]
_BETWEEN = [[chess.between(a, b) for b in range(64)] for a in range(64)]


def _sees(target: int, line: int, masks, side: int, occupied: int) -> bool:
    """Whether a slider of the side at offset ``side`` standing on ``line`` attacks ``target``
    along it, nothing in between."""
    diagonal = line & _DIAGONAL_LINES[target] & (masks[side + BISHOP] | masks[side + QUEEN])
    straight = line & _STRAIGHT_LINES[target] & (masks[side + ROOK] | masks[side + QUEEN])
    sliders = diagonal | straight
    while sliders:
        bit = sliders & -sliders
        sliders ^= bit
        if not _BETWEEN[target][bit.bit_length() - 1] & occupied:
            return True
    return False


def _attackers(masks, square: int, occupied: int, them: int) -> int:
    """Pieces of the side at offset ``them`` attacking ``square`` on the given occupancy."""
    queens = masks[them + QUEEN]
    diagonal = _DIAG[square][_DIAG_MASKS[square] & occupied] & (masks[them + BISHOP] | queens)
    straight = (_RANK[square][_RANK_MASKS[square] & occupied] | _FILE[square][_FILE_MASKS[square] & occupied]) & (
        masks[them + ROOK] | queens
    )
    pawns = _PAWN_ATTACKS[chess.WHITE if them else chess.BLACK][square] & masks[them + PAWN]
    return diagonal | straight | pawns | (_KNIGHT[square] & masks[them + KNIGHT]) | (_KING[square] & masks[them + KING])


def _safe(masks, squares, occupied, us, them, king_square, origin, to, en_passant) -> bool:
    """Whether moving the piece on ``origin`` to ``to`` leaves its own king unattacked."""
    to_bit = 1 << to
    after = (occupied & ~(1 << origin)) | to_bit
    if en_passant:
        after &= ~(1 << (to + (-8 if us == 0 else 8)))
    if squares[origin] == us + KING:
        return not (_attackers(masks, to, after, them) & ~to_bit)
    attackers = _attackers(masks, king_square, after, them) & ~to_bit
    if en_passant:
        attackers &= ~(1 << (to + (-8 if us == 0 else 8)))
    return not attackers


def _castle(squares, masks, occupied_by, side, rook_file_square, castling) -> None:
    """Castle on the fast board, or raise _Unusual when it is not plainly legal."""
    us = side * BLACK_OFFSET
    them = BLACK_OFFSET - us
    base = 0 if side == 0 else 56
    rook_from = rook_file_square + base
    king_from = chess.E1 + base
    if not castling & (1 << rook_from):
        raise _Unusual
    if squares[king_from] != us + KING or squares[rook_from] != us + ROOK:
        raise _Unusual
    kingside = rook_from > king_from
    king_to = king_from + (2 if kingside else -2)
    rook_to = king_from + (1 if kingside else -1)
    occupied = occupied_by[0] | occupied_by[1]
    if chess.between(king_from, rook_from) & occupied:
        raise _Unusual
    step = 1 if kingside else -1
    for square in (king_from, king_from + step, king_to):
        if _attackers(masks, square, occupied, them):
            raise _Unusual
    for origin, target, code in ((king_from, king_to, us + KING), (rook_from, rook_to, us + ROOK)):
        squares[origin] = EMPTY
        squares[target] = code
        masks[code] ^= (1 << origin) | (1 << target)
        occupied_by[side] ^= (1 << origin) | (1 << target)
