"""python-chess's ``Board.status()`` for a block of positions at once, with numpy.

The batch path (``fast``) hands over each man of its lines (which line, which square, which
letter) and each line's side to move, castling field and whether it gives an en passant square.
Each line's twelve bitboards (one a letter) are summed from the men's bits; the flags follow as
``Board.status()`` finds them: counts of men and pawns, pawns on a back rank, castling rights
against the kings and rooks on their squares, and the attacks on each king (knights, kings and
pawns from tables, rooks, bishops and queens by the nearest man along each of the eight rays).

Checks are judged as python-chess judges them: more than two checkers, two on one line with
the king, and after an en passant square's double step a check the pawn's step cannot have
given. What is not worked out here is left to python-chess, whose verdict is final
(``needs_chess``): a line without one king a side, or with castling rights named by files
(Shredder-FEN). Only ``fast`` imports this module (it imports numpy).
"""

from __future__ import annotations

import chess
import numpy as np

from gbr_tui.core.validity import ADJACENT_KINGS, BLACK_TO_MOVE

#: The men's letters in the order of their planes: White's pawns, knights, bishops, rooks, queens,
#: king, then Black's.
LETTERS = b"PNBRQKpnbrqk"
_PAWN, _KNIGHT, _BISHOP, _ROOK, _QUEEN, _KING = range(6)
#: The planes of the men a code counts, in its order: Q R B N P, then q r b n p.
_COUNTED_PLANES = [_QUEEN, _ROOK, _BISHOP, _KNIGHT, _PAWN, 6 + _QUEEN, 6 + _ROOK, 6 + _BISHOP, 6 + _KNIGHT, 6 + _PAWN]

_ONE = np.uint64(1)
_KNIGHTS = np.array(chess.BB_KNIGHT_ATTACKS, dtype=np.uint64)
_KINGS = np.array(chess.BB_KING_ATTACKS, dtype=np.uint64)
#: The squares a pawn of each side attacks from each square: a man on s is attacked by White's
#: pawns on ``_PAWNS[BLACK][s]``.
_PAWNS = np.array(chess.BB_PAWN_ATTACKS, dtype=np.uint64)


def _ray(square: int, step: tuple[int, int]) -> int:
    """The squares from ``square`` (not itself) to the board's edge in one direction."""
    bits, file, rank = 0, chess.square_file(square) + step[0], chess.square_rank(square) + step[1]
    while 0 <= file < 8 and 0 <= rank < 8:
        bits |= chess.BB_SQUARES[chess.square(file, rank)]
        file, rank = file + step[0], rank + step[1]
    return bits


#: Each direction's rays, whether the squares along it rise (the nearest man is the ray's
#: lowest bit, else its highest), and whether rooks (else bishops) move along it.
_DIRECTIONS = [
    (np.array([_ray(square, step) for square in chess.SQUARES], dtype=np.uint64), 8 * step[1] + step[0] > 0, 0 in step)
    for step in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)]
]
#: The line through two squares, edge to edge (0 if they share none), at ``64 * a + b``.
_RAYS = np.array(chess.BB_RAYS, dtype=np.uint64).ravel()
_BACK_RANKS = np.uint64(chess.BB_BACKRANKS)
#: A castling field's letters as bits (a file letter, python-chess's to read, is its own), and
#: for each side the bits of its king- and queen-side letters, the king's home, its rooks'
#: corners (a-file, h-file) and its back rank.
_FILE_LETTER = 16
_CASTLING_LETTERS = np.zeros(256, dtype=np.uint8)
for _bit, _letter in enumerate(b"KQkq"):
    _CASTLING_LETTERS[_letter] = 1 << _bit
_CASTLING_LETTERS[list(b"ABCDEFGHabcdefgh")] = _FILE_LETTER
_CASTLING_HOMES = [
    (1, 2, np.uint64(chess.BB_E1), (np.uint64(chess.BB_A1), np.uint64(chess.BB_H1)), np.uint64(chess.BB_RANK_1)),
    (4, 8, np.uint64(chess.BB_E8), (np.uint64(chess.BB_A8), np.uint64(chess.BB_H8)), np.uint64(chess.BB_RANK_8)),
]
_NO_CASTLING = np.uint64(ord("-") << 24)  # a castling field of ``-``, as ``status_flags`` takes it


def _lowest(bits: np.ndarray) -> np.ndarray:
    lowest: np.ndarray = bits & (~bits + _ONE)
    return lowest


def _highest(bits: np.ndarray) -> np.ndarray:
    for shift in (1, 2, 4, 8, 16, 32):
        bits = bits | (bits >> np.uint64(shift))
    highest: np.ndarray = bits ^ (bits >> _ONE)
    return highest


def _square_of(bits: np.ndarray) -> np.ndarray:
    """The square of a one-bit bitboard (0 for an empty one): a power of two is exact as a
    float, and its exponent is the square (garbage, but a square, for other bitboards)."""
    squares: np.ndarray = (np.frexp(np.maximum(bits, _ONE).astype(np.float64))[1] - 1).astype(np.intp) & 63
    return squares


def _attackers(planes: np.ndarray, white: np.ndarray, square: np.ndarray, occupied: np.ndarray) -> np.ndarray:
    """The men of ``planes`` (one side's six, a row a plane; ``white``: whether they are
    White's) that attack each line's ``square``, with the board's men ``occupied``."""
    pawns = np.where(white, _PAWNS[int(chess.BLACK)].take(square), _PAWNS[int(chess.WHITE)].take(square))
    found: np.ndarray = (pawns & planes[_PAWN]) | (_KNIGHTS.take(square) & planes[_KNIGHT])
    found |= _KINGS.take(square) & planes[_KING]
    straight = planes[_ROOK] | planes[_QUEEN]
    diagonal = planes[_BISHOP] | planes[_QUEEN]
    for rays, rising, rook in _DIRECTIONS:
        blockers = rays.take(square) & occupied
        nearest = _lowest(blockers) if rising else _highest(blockers)
        found |= nearest & (straight if rook else diagonal)
    return found


def _attack_count(planes: np.ndarray, white: np.ndarray, square: np.ndarray, occupied: np.ndarray) -> np.ndarray:
    """How many men of ``planes`` attack each line's ``square`` (``_attackers``, counted): a
    slider's ray is scanned without finding its nearest man. Along a ray whose squares fall, the
    nearest man is the highest bit of the men on it, and it is a slider of ``planes`` when the
    sliders' bits there, as a number, exceed the other men's (their bits are apart)."""
    pawns = np.where(white, _PAWNS[int(chess.BLACK)].take(square), _PAWNS[int(chess.WHITE)].take(square))
    leapers = (
        (pawns & planes[_PAWN]) | (_KNIGHTS.take(square) & planes[_KNIGHT]) | (_KINGS.take(square) & planes[_KING])
    )
    count: np.ndarray = np.bitwise_count(leapers).astype(np.int64)
    straight = planes[_ROOK] | planes[_QUEEN]
    diagonal = planes[_BISHOP] | planes[_QUEEN]
    for rays, rising, rook in _DIRECTIONS:
        sliders = straight if rook else diagonal
        blockers = rays.take(square) & occupied
        if rising:
            count += (_lowest(blockers) & sliders) != 0
        else:
            count += (blockers & sliders) > (blockers & ~sliders)
    return count


def status_flags(
    lines: int,
    men_lines: np.ndarray,
    squares: np.ndarray,
    planes: np.ndarray,
    black_to_move: np.ndarray,
    castling: np.ndarray,
    en_passant: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each line's ``Board.status()`` (with ``validity``'s own two bits where it is not 0),
    whether the line is python-chess's to judge (its flags are then not to be read), and its
    men packed six bits a type, Q R B N P q r b n p (``fast``'s keys; each a popcount).

    ``men_lines``, ``squares`` and ``planes``: each man of the lines, its line, the squares
    before it in its placement (a8 = 0, h1 = 63: where a FEN has it; 64 and more: no man) and
    its plane (White's P N B R Q K 0-5, Black's 6-11; 12: no man); ``castling``:
    each line's castling field, its first four bytes big-endian (0 or ``-``: none);
    ``en_passant``: the en passant square given (a1 = 0), -1 if none. The rarer fields (castling
    rights, en passant squares, two checkers) are worked out for the lines that have them."""
    boards = np.zeros(12 * lines + 1, dtype=np.uint64)  # a row of lines a plane, and a place for no man
    placed = (squares < 64) & (planes < 12)
    np.add.at(
        boards,
        np.where(placed, planes.astype(np.intp) * lines + men_lines, 12 * lines),
        _ONE << ((squares ^ 56) & 63).astype(np.uint64),
    )
    planes = boards[:-1].reshape(12, lines)
    white_men = planes[0] | planes[1] | planes[2] | planes[3] | planes[4] | planes[5]
    black_men = planes[6] | planes[7] | planes[8] | planes[9] | planes[10] | planes[11]
    occupied = white_men | black_men
    white_kings, black_kings = np.bitwise_count(planes[_KING]), np.bitwise_count(planes[6 + _KING])
    status = np.zeros(lines, dtype=np.int64)

    def flag(condition: np.ndarray, value: int) -> None:
        np.bitwise_or(status, int(value), out=status, where=condition)

    flag(occupied == 0, chess.STATUS_EMPTY)
    flag(white_kings == 0, chess.STATUS_NO_WHITE_KING)
    flag(black_kings == 0, chess.STATUS_NO_BLACK_KING)
    flag(white_kings + black_kings > 2, chess.STATUS_TOO_MANY_KINGS)
    flag(np.bitwise_count(white_men) > 16, chess.STATUS_TOO_MANY_WHITE_PIECES)
    flag(np.bitwise_count(black_men) > 16, chess.STATUS_TOO_MANY_BLACK_PIECES)
    flag(np.bitwise_count(planes[_PAWN]) > 8, chess.STATUS_TOO_MANY_WHITE_PAWNS)
    flag(np.bitwise_count(planes[6 + _PAWN]) > 8, chess.STATUS_TOO_MANY_BLACK_PAWNS)
    flag(((planes[_PAWN] | planes[6 + _PAWN]) & _BACK_RANKS) != 0, chess.STATUS_PAWNS_ON_BACKRANK)
    white_king, black_king = _square_of(planes[_KING]), _square_of(planes[6 + _KING])
    needs_chess = (white_kings != 1) | (black_kings != 1)
    named = np.flatnonzero((castling != 0) & (castling != _NO_CASTLING))
    if len(named):
        plain, bad = _castling(
            planes[[_ROOK, 6 + _ROOK]][:, named], planes[[_KING, 6 + _KING]][:, named], castling[named]
        )
        needs_chess[named] |= ~plain
        status[named[bad]] |= int(chess.STATUS_BAD_CASTLING_RIGHTS)

    # Checks: the side not to move's king attacked (opposite check), and the checkers of the
    # side to move's king.
    white_to_move = ~black_to_move
    mover = np.where(black_to_move, planes[6:], planes[:6])
    other = np.where(black_to_move, planes[:6], planes[6:])
    mover_king = np.where(black_to_move, black_king, white_king)
    other_king = np.where(black_to_move, white_king, black_king)
    flag(_attack_count(mover, white_to_move, other_king, occupied) != 0, chess.STATUS_OPPOSITE_CHECK)
    checkers = _attack_count(other, black_to_move, mover_king, occupied)
    flag(checkers > 2, chess.STATUS_TOO_MANY_CHECKERS)
    # Impossible checks: more than two checkers, or two on one line with the king...
    impossible = checkers > 2
    two = np.flatnonzero(checkers == 2)
    if len(two):
        checking = _attackers(other[:, two], black_to_move[two], mover_king[two], occupied[two])
        pair = _square_of(_lowest(checking)) * 64 + _square_of(_highest(checking))
        impossible[two] = (_RAYS.take(pair) & (_ONE << mover_king[two].astype(np.uint64))) != 0
    # ... unless a pawn has just stepped two squares (an en passant square is given and valid).
    passing = np.flatnonzero(en_passant >= 0)
    if len(passing):
        valid, after_step = _en_passant(
            en_passant[passing], black_to_move[passing], other[:, passing], occupied[passing], mover_king[passing]
        )
        status[passing[~valid]] |= int(chess.STATUS_INVALID_EP_SQUARE)
        impossible[passing[valid]] = after_step[valid]
    flag(impossible, chess.STATUS_IMPOSSIBLE_CHECK)

    flag((_KINGS.take(white_king) & planes[6 + _KING]) != 0, ADJACENT_KINGS)
    flag(black_to_move & (status != 0), BLACK_TO_MOVE)
    men = np.zeros(lines, dtype=np.int64)
    for shift, plane in zip(range(0, 60, 6), _COUNTED_PLANES):
        men |= np.bitwise_count(planes[plane]).astype(np.int64) << shift
    return status, needs_chess, men


def _castling(rooks: np.ndarray, kings: np.ndarray, castling: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Of lines with castling rights (``rooks`` and ``kings``: White's, then Black's): whether
    their field is worked out here (no file letters), and whether the rights are bad.

    As python-chess reads them (``_set_castling_fen``, ``clean_castling_rights``), K (k) names
    the rook on h1 (h8) with the king on e1 (e8), else a square without both; Q (q) the rook on
    a1 (a8) with the king at home, else another, but no square at all when the back rank has
    no rook of the side."""
    letters = np.zeros(len(castling), dtype=np.uint8)
    for shift in (24, 16, 8, 0):
        letters |= _CASTLING_LETTERS.take(((castling >> np.uint64(shift)) & np.uint64(0xFF)).astype(np.intp))
    bad = np.zeros(len(castling), dtype=bool)
    for side, (king_side, queen_side, home, corners, rank) in enumerate(_CASTLING_HOMES):
        at_home = (kings[side] & home) != 0
        back_rooks = rooks[side] & rank
        bad |= ((letters & king_side) != 0) & ~(at_home & ((back_rooks & corners[1]) != 0))
        bad |= ((letters & queen_side) != 0) & (back_rooks != 0) & ~(at_home & ((back_rooks & corners[0]) != 0))
    return (letters & _FILE_LETTER) == 0, bad


def _en_passant(
    square: np.ndarray,
    black_to_move: np.ndarray,
    other: np.ndarray,
    occupied: np.ndarray,
    mover_king: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Of lines with an en passant square: whether it is valid, the square behind a pawn of
    the side not to move that has just stepped two squares (python-chess's
    ``_valid_ep_square``), and whether the check on the side to move is impossible after that
    step: more than one checker, or a check that was there before the step (``status``)."""
    white_to_move = ~black_to_move
    behind = np.where(white_to_move, square - 8, square + 8) & 63  # the pawn that stepped
    before = np.where(white_to_move, square + 8, square - 8) & 63  # where it stood
    valid = (square >> 3) == np.where(white_to_move, 5, 2)
    valid &= ((other[_PAWN] >> behind.astype(np.uint64)) & _ONE) != 0
    valid &= ((occupied >> square.astype(np.uint64)) & _ONE) == 0
    valid &= ((occupied >> before.astype(np.uint64)) & _ONE) == 0
    checking = _attackers(other, black_to_move, mover_king, occupied)
    checkers = np.bitwise_count(checking)
    occupied_before = (occupied & ~(_ONE << behind.astype(np.uint64))) | (_ONE << before.astype(np.uint64))
    uncovered = _square_of(_highest(checking)) != behind
    uncovered &= _attackers(other, black_to_move, mover_king, occupied_before) != 0
    return valid, (checkers > 1) | ((checkers == 1) & uncovered)
