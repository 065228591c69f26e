"""Replaying PGN games fast enough to classify big collections.

A game's class depends on its material only, and material changes only through captures and
promotions. So a game is replayed on plain bitboards (a mask per side and piece type): each SAN
move's origin is found with python-chess's attack tables (``BB_*``), and a move is taken only
when exactly one piece can make it without leaving its king attacked. A game with anything else (an illegal or ambiguous
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

#: Material as ten counts: White's Q R B N P, then Black's (the fields of ``Material``; of any
#: length to the type checker, as ``material.Counts``).
BothSidesCounts = tuple[int, ...]
#: The material at one ply: (ply, counts, the placement FEN when asked for, else None).
Snapshot = tuple[int, BothSidesCounts, str | None]

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
#: One side's men: a bitboard per piece type (index 0 unused), as ``StartPosition.men`` holds them.
Men = list[int]

_CASTLE, _PIECE, _PUSH, _PAWN_CAPTURE = range(4)
_PIECE_LETTERS = {"N": KNIGHT, "B": BISHOP, "R": ROOK, "Q": QUEEN, "K": KING}
_SAN_PIECE = re.compile(r"([NBRQK])([a-h])?([1-8])?x?([a-h][1-8])")
_SAN_PUSH = re.compile(r"([a-h][1-8])(?:=?([NBRQ]))?")
_SAN_PAWN_CAPTURE = re.compile(r"([a-h])x?([a-h][1-8])(?:=?([NBRQ]))?")
_CASTLINGS = {"O-O": chess.H1, "0-0": chess.H1, "O-O-O": chess.A1, "0-0-0": chess.A1}

_KNIGHT = chess.BB_KNIGHT_ATTACKS
_KING = chess.BB_KING_ATTACKS
_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS  # by colour (False: Black), then square
_DIAG_MASKS, _DIAG = chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS
_FILE_MASKS, _FILE = chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS
_RANK_MASKS, _RANK = chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS
_RAYS = chess.BB_RAYS
_ALL = chess.BB_ALL
_STANDARD_CASTLING = chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8
_BACK_RANKS = (chess.BB_RANK_8, chess.BB_RANK_1)  # by colour: where castling rights are
_DOUBLE_PUSH_RANKS = (chess.BB_RANK_5, chess.BB_RANK_4)  # by colour: where a pawn lands in two steps
_EN_PASSANT_RANKS = (chess.BB_RANK_3, chess.BB_RANK_6)  # by colour: where a pawn takes en passant
_DIAGONAL_LINES = [_DIAG[square][0] for square in range(64)]
_STRAIGHT_LINES = [_RANK[square][0] | _FILE[square][0] for square in range(64)]
_BETWEEN = [[chess.between(a, b) for b in range(64)] for a in range(64)]
#: By colour, then piece type, then square: the squares a man there attacks on an empty board.
_REACH = [
    [
        [0] * 64,
        _PAWN_ATTACKS[colour],
        _KNIGHT,
        _DIAGONAL_LINES,
        _STRAIGHT_LINES,
        [diagonal | straight for diagonal, straight in zip(_DIAGONAL_LINES, _STRAIGHT_LINES)],
        _KING,
    ]
    for colour in (chess.BLACK, chess.WHITE)
]


#: A SAN move's parts, as the fast replay takes them (``_parse_san``).
SanParts = tuple[int, int, int, int, int]


def _parse_san(san: str) -> SanParts | None:
    """The parts of a SAN move in the spellings the fast replay takes, else None: (kind, the
    piece moved or the pawn's piece after it, the origin's mask or a pawn capture's file step,
    the target square, its bit); a castling is (kind, the rook's square on the first rank, ...).
    A pawn move to the last rank without a promotion, or a promotion elsewhere, is None."""
    rook = _CASTLINGS.get(san)
    if rook is not None:
        return (_CASTLE, rook, 0, 0, 0)
    match = _SAN_PIECE.fullmatch(san)
    if match is not None:
        letter, file, rank, target = match.groups()
        mask = _ALL
        if file:
            mask &= chess.BB_FILES[ord(file) - 97]
        if rank:
            mask &= chess.BB_RANKS[int(rank) - 1]
        to = chess.parse_square(target)
        return (_PIECE, _PIECE_LETTERS[letter], mask, to, 1 << to)
    match = _SAN_PUSH.fullmatch(san)
    if match is not None:
        return _pawn_parts(_PUSH, 0, *match.groups())
    match = _SAN_PAWN_CAPTURE.fullmatch(san)
    if match is not None:
        file, target, promotion = match.groups()
        step = ord(file) - ord(target[0])
        if step == 0:  # python-chess reads "exe5" as the push e5
            return _pawn_parts(_PUSH, 0, target, promotion)
        return _pawn_parts(_PAWN_CAPTURE, step, target, promotion) if step in (-1, 1) else None
    return None


def _pawn_parts(kind: int, step: int, target: str, promotion: str | None) -> SanParts | None:
    to = chess.parse_square(target)
    if (to >> 3 in (0, 7)) != bool(promotion):
        return None
    return (kind, _PIECE_LETTERS[promotion] if promotion else PAWN, step, to, 1 << to)


_SAN_CACHE: dict[str, SanParts] = {}


def _san_parts(san: str) -> SanParts:
    """The parts of a SAN move (``_parse_san``), kept for the next time; _NeedsPythonChess for
    a spelling the fast replay does not take."""
    parts = _parse_san(san.rstrip("+#"))
    if parts is None:
        raise _NeedsPythonChess
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

    __slots__ = ("board", "castling", "ep", "fast", "men", "white")

    def __init__(self, board: chess.Board) -> None:
        self.board = board
        self.men: tuple[Men, Men] = ([0] * 7, [0] * 7)  # White's, Black's
        for colour, men in zip(chess.COLORS, self.men):
            for piece_type in chess.PIECE_TYPES:
                men[piece_type] = board.pieces_mask(piece_type, colour)
        self.white = board.turn
        self.castling = board.castling_rights
        self.ep = board.ep_square
        # One king a side, standard castling, standard chess: the fast replay applies.
        self.fast = (
            type(board) is chess.Board
            and not board.chess960
            and self.men[0][KING].bit_count() == 1
            and self.men[1][KING].bit_count() == 1
            and self.castling & ~_STANDARD_CASTLING == 0
        )


STANDARD_START = StartPosition(chess.Board())


def counts_of(men: tuple[Men, Men]) -> BothSidesCounts:
    """Material counts from both sides' men: White's Q R B N P, then Black's."""
    white, black = men
    return (
        white[QUEEN].bit_count(),
        white[ROOK].bit_count(),
        white[BISHOP].bit_count(),
        white[KNIGHT].bit_count(),
        white[PAWN].bit_count(),
        black[QUEEN].bit_count(),
        black[ROOK].bit_count(),
        black[BISHOP].bit_count(),
        black[KNIGHT].bit_count(),
        black[PAWN].bit_count(),
    )


def placement(men: tuple[Men, Men]) -> str:
    """The FEN placement field of both sides' men."""
    board = chess.BaseBoard.empty()
    board.set_piece_map(
        {
            square: chess.Piece(piece_type, colour)
            for colour, side in zip(chess.COLORS, men)
            for piece_type in chess.PIECE_TYPES
            for square in chess.scan_forward(side[piece_type])
        }
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
    men = (start.men[0][:], start.men[1][:])  # White's, Black's
    # ``own`` is the side to move; at the top of the loop the sides change, so they start the
    # other way round: ``white`` says whether the side to move is White.
    white = not start.white
    foe, own = men if start.white else men[::-1]
    own_all, foe_all = _all_of(own), _all_of(foe)
    occupied = own_all | foe_all
    king, foe_king = own[KING].bit_length() - 1, foe[KING].bit_length() - 1
    castling, ep = start.castling, start.ep
    # Whether the side to move is in check: truthy, a bool or a bit of a mask.
    in_check: int = _attacked(own, foe_king, occupied, not white)
    changes = [(0, counts_of(men), placement(men) if fens else None)]
    cache = _SAN_CACHE

    for ply, san in enumerate(sans, 1):
        own, foe, own_all, foe_all, king, foe_king, white = foe, own, foe_all, own_all, foe_king, king, not white
        try:
            kind, placed, detail, to, to_bit = cache[san]
        except KeyError:
            kind, placed, detail, to, to_bit = _san_parts(san)
        if kind == _PIECE:
            if own_all & to_bit:
                raise _NeedsPythonChess
            if placed == KING:
                candidates = _KING[to]
            elif placed == ROOK:
                candidates = _RANK[to][_RANK_MASKS[to] & occupied] | _FILE[to][_FILE_MASKS[to] & occupied]
            elif placed == BISHOP:
                candidates = _DIAG[to][_DIAG_MASKS[to] & occupied]
            elif placed == KNIGHT:
                candidates = _KNIGHT[to]
            else:
                candidates = (
                    _DIAG[to][_DIAG_MASKS[to] & occupied]
                    | _RANK[to][_RANK_MASKS[to] & occupied]
                    | _FILE[to][_FILE_MASKS[to] & occupied]
                )
            candidates &= own[placed] & detail
            if candidates & (candidates - 1):  # one of them at most may move: the others are pinned
                candidates = _the_one_legal(candidates, foe, occupied, king, to_bit, white)
            elif not candidates:
                raise _NeedsPythonChess
            own[placed] ^= candidates | to_bit
            ep = None
        elif kind == _PUSH:
            if occupied & to_bit:
                raise _NeedsPythonChess
            candidates = to_bit >> 8 if white else to_bit << 8
            if own[PAWN] & candidates:
                ep = None
            else:  # two steps, from the pawn's first square, over an empty one
                if occupied & candidates or not to_bit & _DOUBLE_PUSH_RANKS[white]:
                    raise _NeedsPythonChess
                ep = candidates.bit_length() - 1
                candidates = candidates >> 8 if white else candidates << 8
                if not own[PAWN] & candidates:
                    raise _NeedsPythonChess
            own[PAWN] ^= candidates
            own[placed] ^= to_bit
        elif kind == _PAWN_CAPTURE:
            origin = to - 8 + detail if white else to + 8 + detail
            if not 0 <= origin < 64 or not own[PAWN] >> origin & 1:
                raise _NeedsPythonChess
            candidates = 1 << origin
            if not foe_all & to_bit:
                own_all, foe_all, in_check = _en_passant(
                    own, foe, own_all, foe_all, king, foe_king, white, to, ep, candidates
                )
                occupied = own_all | foe_all
                ep = None
                if every_change:
                    changes.append((ply, counts_of(men), placement(men) if fens else None))
                continue
            own[PAWN] ^= candidates
            own[placed] ^= to_bit
            ep = None
        else:
            if in_check:
                raise _NeedsPythonChess
            own_all ^= _castle(own, foe, occupied, white, placed, castling)
            occupied = own_all | foe_all
            king = own[KING].bit_length() - 1
            castling &= ~_BACK_RANKS[white]
            ep = None
            in_check = _attacked(own, foe_king, occupied, not white)
            continue

        # The move made; then, unless it is plainly legal, whether it left its king attacked.
        origin = candidates.bit_length() - 1
        own_all ^= candidates | to_bit
        captured = foe_all & to_bit
        if captured:
            _take(foe, to_bit)
            foe_all ^= to_bit
        occupied = own_all | foe_all
        if placed == KING:
            king = to
            castling &= ~_BACK_RANKS[white]
            if _attacked(foe, to, occupied, white):
                raise _NeedsPythonChess
        elif in_check:
            if _attacked(foe, king, occupied, white):
                raise _NeedsPythonChess
        elif (
            (line := _RAYS[king][origin])
            and line & (foe[BISHOP] | foe[ROOK] | foe[QUEEN])
            and _sees(king, line, foe, occupied)
        ):
            raise _NeedsPythonChess  # out of check, only a slider on a line through the king pins
        if castling:
            castling &= ~(candidates | to_bit)

        # Does the move check the other king? Directly, or by uncovering a slider on a line
        # through that king and the square left.
        in_check = (_REACH[white][placed][to] >> foe_king & 1 and not _BETWEEN[to][foe_king] & occupied) or (
            (line := _RAYS[foe_king][origin])
            and line & (own[BISHOP] | own[ROOK] | own[QUEEN])
            and _sees(foe_king, line, own, occupied)
        )
        if every_change and (captured or (kind != _PIECE and placed != PAWN)):
            changes.append((ply, counts_of(men), placement(men) if fens else None))

    final = (len(sans), counts_of(men), placement(men) if fens else None)
    return Replayed(changes, final)


def _all_of(men: Men) -> int:
    """The squares of one side's men."""
    return men[PAWN] | men[KNIGHT] | men[BISHOP] | men[ROOK] | men[QUEEN] | men[KING]


def _sees(target: int, line: int, men: Men, occupied: int) -> bool:
    """Whether a slider of ``men`` standing on ``line`` attacks ``target`` along it, nothing in
    between."""
    diagonal = line & _DIAGONAL_LINES[target] & (men[BISHOP] | men[QUEEN])
    straight = line & _STRAIGHT_LINES[target] & (men[ROOK] | men[QUEEN])
    sliders = diagonal | straight
    while sliders:
        bit = sliders & -sliders
        sliders ^= bit
        if not _BETWEEN[target][bit.bit_length() - 1] & occupied:
            return True
    return False


def _attacked(foe: Men, square: int, occupied: int, white: bool) -> bool:
    """Whether the men of ``foe`` attack ``square``, a square of White's side when ``white``, on
    the given occupancy (the cheap tests first: most squares asked about are not attacked)."""
    if _KNIGHT[square] & foe[KNIGHT] or _KING[square] & foe[KING] or _PAWN_ATTACKS[white][square] & foe[PAWN]:
        return True
    diagonal = foe[BISHOP] | foe[QUEEN]
    if diagonal & _DIAGONAL_LINES[square] and _DIAG[square][_DIAG_MASKS[square] & occupied] & diagonal:
        return True
    straight = foe[ROOK] | foe[QUEEN]
    return bool(
        straight & _STRAIGHT_LINES[square]
        and (_RANK[square][_RANK_MASKS[square] & occupied] | _FILE[square][_FILE_MASKS[square] & occupied]) & straight
    )


def _the_one_legal(candidates: int, foe: Men, occupied: int, king: int, to_bit: int, white: bool) -> int:
    """The one of several candidates (bits) that may move to ``to_bit`` without leaving its king
    (not the one moving) attacked; _NeedsPythonChess when none or more than one may."""
    foe_after = [men & ~to_bit for men in foe]  # a man on the target is taken
    found = 0
    while candidates:
        bit = candidates & -candidates
        candidates ^= bit
        if not _attacked(foe_after, king, (occupied ^ bit) | to_bit, white):
            if found:
                raise _NeedsPythonChess  # ambiguous: python-chess says so in its words
            found = bit
    if not found:
        raise _NeedsPythonChess
    return found


def _en_passant(
    own: Men,
    foe: Men,
    own_all: int,
    foe_all: int,
    king: int,
    foe_king: int,
    white: bool,
    to: int,
    ep: int | None,
    from_bit: int,
) -> tuple[int, int, bool]:
    """A pawn of ``own`` on ``from_bit`` takes en passant on ``to``: both sides' squares after
    it, and whether it checks; _NeedsPythonChess unless it is plainly legal."""
    to_bit = 1 << to
    taken = to_bit >> 8 if white else to_bit << 8  # the pawn that has just passed
    occupied = own_all | foe_all
    if to != ep or occupied & to_bit or not to_bit & _EN_PASSANT_RANKS[white] or not foe[PAWN] & taken:
        raise _NeedsPythonChess
    own[PAWN] ^= from_bit | to_bit
    foe[PAWN] ^= taken
    own_all ^= from_bit | to_bit
    foe_all ^= taken
    occupied = own_all | foe_all
    if _attacked(foe, king, occupied, white):  # two men left a line through the king
        raise _NeedsPythonChess
    return own_all, foe_all, _attacked(own, foe_king, occupied, not white)


def _take(men: Men, bit: int) -> None:
    """Take the man on ``bit`` off; the king is not taken on the fast board: python-chess decides."""
    for piece_type in (PAWN, KNIGHT, BISHOP, ROOK, QUEEN):
        if men[piece_type] & bit:
            men[piece_type] ^= bit
            return
    raise _NeedsPythonChess


def _castle(own: Men, foe: Men, occupied: int, white: bool, rook_square: int, castling: int) -> int:
    """Castle on the fast board: the squares whose man changed; _NeedsPythonChess when it is not
    plainly legal (the side to move is not in check: the caller has seen to it)."""
    base = 0 if white else 56
    rook_from = rook_square + base
    king_from = chess.E1 + base
    if not (castling >> rook_from & 1 and own[KING] >> king_from & 1 and own[ROOK] >> rook_from & 1):
        raise _NeedsPythonChess
    step = 1 if rook_from > king_from else -1
    if _BETWEEN[king_from][rook_from] & occupied:
        raise _NeedsPythonChess
    if _attacked(foe, king_from + step, occupied, white) or _attacked(foe, king_from + 2 * step, occupied, white):
        raise _NeedsPythonChess
    king_moved = (1 << king_from) | (1 << (king_from + 2 * step))
    rook_moved = (1 << rook_from) | (1 << (king_from + step))
    own[KING] ^= king_moved
    own[ROOK] ^= rook_moved
    return king_moved | rook_moved
