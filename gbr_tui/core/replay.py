"""Replaying PGN games fast enough to classify big collections.

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
from collections.abc import Sequence
from dataclasses import dataclass

import chess

from gbr_tui.core.errors import GbrError

#: Material as ten counts: White's Q R B N P, then Black's (the fields of ``Material``).
BothSidesCounts = tuple[int, int, int, int, int, int, int, int, int, int]
#: The material at one ply: (ply, counts, the placement FEN when asked for, else None).
Snapshot = tuple[int, BothSidesCounts, str | None]

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


class _NeedsPythonChess(Exception):
    """The fast replay cannot vouch for this move: python-chess decides."""


@dataclass
class Replayed:
    """What a replay learned: the material at the requested plies."""

    changes: list[Snapshot]  # the start, then (with ``every_change``) each capture or promotion
    final: Snapshot
    by_python_chess: bool = False  # the fast replay could not vouch for a move: python-chess replayed
    kings: tuple[int, int] = (1, 1)  # White's and Black's, all game long (a king is never taken)


class StartPosition:
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


STANDARD_START = StartPosition(chess.Board())


def counts_of(masks: list[int]) -> BothSidesCounts:
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


def replay(start: StartPosition, sans: Sequence[str], every_change: bool, fens: bool) -> Replayed:
    """Play the moves; report the material at the end and, with ``every_change``, after each
    capture or promotion. ``fens`` adds the placement at those plies."""
    if start.fast:
        try:
            return _fast_replay(start, sans, every_change, fens)
        except _NeedsPythonChess:
            pass
    return _chess_replay(start.board, sans, every_change, fens)


def _chess_replay(board: chess.Board, sans: Sequence[str], every_change: bool, fens: bool) -> Replayed:
    """The reference replay: python-chess decides every move."""
    board = board.copy(stack=False)

    def state(ply: int) -> Snapshot:
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
    kings = (len(board.pieces(chess.KING, chess.WHITE)), len(board.pieces(chess.KING, chess.BLACK)))
    return Replayed(changes, state(len(sans)), by_python_chess=True, kings=kings)


def _move_reason(error: ValueError, san: str) -> str:
    text = str(error)
    for kind in ("illegal", "ambiguous", "invalid"):
        if text.startswith(kind):
            return f"{kind} move {san!r}"
    return f"bad move {san!r}: {text.split(' in ', 1)[0]}"


def _fast_replay(start: StartPosition, sans: Sequence[str], every_change: bool, fens: bool) -> Replayed:
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
            raise _NeedsPythonChess
        us = side * BLACK_OFFSET
        them = BLACK_OFFSET - us
        kind = parts[0]
        promotion = 0
        en_passant = False

        if kind == _PIECE:
            piece, from_mask, to = parts[1], parts[2], parts[3]
            to_bit = 1 << to
            if occupied_by[side] & to_bit:
                raise _NeedsPythonChess
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
                raise _NeedsPythonChess
            moved = us + PAWN
            back = -8 if side == 0 else 8
            origin = to + back
            if not 0 <= origin < 64:
                raise _NeedsPythonChess
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
                raise _NeedsPythonChess
            if (to >> 3 in (0, 7)) != bool(promotion):
                raise _NeedsPythonChess
            if occupied_by[1 - side] & to_bit:
                candidates = 1 << origin
            elif to == ep:
                candidates = 1 << origin
                en_passant = True
            else:
                raise _NeedsPythonChess
        else:
            if in_check:
                raise _NeedsPythonChess
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
                raise _NeedsPythonChess
            origin = candidates.bit_length() - 1
            if in_check or en_passant or moved == us + KING:
                if not _safe(masks, squares, occupied, us, them, kings[side], origin, to, en_passant):
                    raise _NeedsPythonChess
            else:
                # Out of check only an enemy slider on a line through the king and the piece
                # can pin it.
                line = _RAYS[kings[side]][origin] & ~to_bit
                if line & (masks[them + BISHOP] | masks[them + ROOK] | masks[them + QUEEN]) and _sees(
                    kings[side], line, masks, them, (occupied ^ (1 << origin)) | to_bit
                ):
                    raise _NeedsPythonChess
        else:
            origin = -1
            while candidates:
                bit = candidates & -candidates
                candidates ^= bit
                square = bit.bit_length() - 1
                if _safe(masks, squares, occupied, us, them, kings[side], square, to, en_passant):
                    if origin >= 0:
                        raise _NeedsPythonChess  # ambiguous: python-chess says so in its words
                    origin = square
            if origin < 0:
                raise _NeedsPythonChess

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
    """Castle on the fast board, or raise _NeedsPythonChess when it is not plainly legal."""
    us = side * BLACK_OFFSET
    them = BLACK_OFFSET - us
    base = 0 if side == 0 else 56
    rook_from = rook_file_square + base
    king_from = chess.E1 + base
    if not castling & (1 << rook_from):
        raise _NeedsPythonChess
    if squares[king_from] != us + KING or squares[rook_from] != us + ROOK:
        raise _NeedsPythonChess
    kingside = rook_from > king_from
    king_to = king_from + (2 if kingside else -2)
    rook_to = king_from + (1 if kingside else -1)
    occupied = occupied_by[0] | occupied_by[1]
    if chess.between(king_from, rook_from) & occupied:
        raise _NeedsPythonChess
    step = 1 if kingside else -1
    for square in (king_from, king_from + step, king_to):
        if _attackers(masks, square, occupied, them):
            raise _NeedsPythonChess
    for origin, target, code in ((king_from, king_to, us + KING), (rook_from, rook_to, us + ROOK)):
        squares[origin] = EMPTY
        squares[target] = code
        masks[code] ^= (1 << origin) | (1 << target)
        occupied_by[side] ^= (1 << origin) | (1 << target)
