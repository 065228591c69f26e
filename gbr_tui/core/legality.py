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

_LETTERS = b"PNBRQKpnbrqk"
#: A man's letter -> its plane (White's pawns, knights, bishops, rooks, queens, king, then
#: Black's); any other byte 12 (no plane).
PLANES = np.full(256, 12, dtype=np.intp)
for _plane, _letter in enumerate(_LETTERS):
    PLANES[_letter] = _plane
_PAWN, _KNIGHT, _BISHOP, _ROOK, _QUEEN, _KING = range(6)

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
#: Bytes a castling field may hold that are worked out here (a file letter is python-chess's).
_PLAIN_CASTLING = np.zeros(256, dtype=bool)
_PLAIN_CASTLING[[0, ord("-"), ord("K"), ord("Q"), ord("k"), ord("q")]] = True


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
    """The men of ``planes`` (one side's six, a row a line; ``white``: whether they are White's)
    that attack each line's ``square``, with the board's men ``occupied``."""
    pawns = np.where(white, _PAWNS[int(chess.BLACK)].take(square), _PAWNS[int(chess.WHITE)].take(square))
    found: np.ndarray = (pawns & planes[:, _PAWN]) | (_KNIGHTS.take(square) & planes[:, _KNIGHT])
    found |= _KINGS.take(square) & planes[:, _KING]
    straight = planes[:, _ROOK] | planes[:, _QUEEN]
    diagonal = planes[:, _BISHOP] | planes[:, _QUEEN]
    for rays, rising, rook in _DIRECTIONS:
        blockers = rays.take(square) & occupied
        nearest = _lowest(blockers) if rising else _highest(blockers)
        found |= nearest & (straight if rook else diagonal)
    return found


def status_flags(
    lines: int,
    men_lines: np.ndarray,
    squares: np.ndarray,
    letters: np.ndarray,
    black_to_move: np.ndarray,
    castling: np.ndarray,
    en_passant: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Each line's ``Board.status()`` (with ``validity``'s own two bits where it is not 0), and
    whether the line is python-chess's to judge (its flags are then not to be read).

    ``men_lines``, ``squares`` (a1 = 0) and ``letters``: each man of the lines; ``castling``:
    each line's castling field, its first four bytes big-endian (0 or ``-``: none);
    ``en_passant``: the en passant square given (a1 = 0), -1 if none."""
    boards = np.zeros(lines * 12 + 1, dtype=np.uint64)  # and a plane for what is no man
    plane = PLANES.take(letters)
    at = np.where(plane < 12, men_lines * 12 + plane, lines * 12)
    np.add.at(boards, at, _ONE << (squares & 63).astype(np.uint64))
    planes = boards[:-1].reshape(lines, 12)
    white_men = np.bitwise_or.reduce(planes[:, :6], axis=1)
    black_men = np.bitwise_or.reduce(planes[:, 6:], axis=1)
    occupied = white_men | black_men
    kings = planes[:, _KING] | planes[:, 6 + _KING]
    one_king_a_side = (np.bitwise_count(planes[:, _KING]) == 1) & (np.bitwise_count(planes[:, 6 + _KING]) == 1)

    status = np.zeros(lines, dtype=np.int64)

    def flag(condition: np.ndarray, value: int) -> None:
        status[condition] |= int(value)

    flag(occupied == 0, chess.STATUS_EMPTY)
    flag(planes[:, _KING] == 0, chess.STATUS_NO_WHITE_KING)
    flag(planes[:, 6 + _KING] == 0, chess.STATUS_NO_BLACK_KING)
    flag(np.bitwise_count(kings) > 2, chess.STATUS_TOO_MANY_KINGS)
    flag(np.bitwise_count(white_men) > 16, chess.STATUS_TOO_MANY_WHITE_PIECES)
    flag(np.bitwise_count(black_men) > 16, chess.STATUS_TOO_MANY_BLACK_PIECES)
    flag(np.bitwise_count(planes[:, _PAWN]) > 8, chess.STATUS_TOO_MANY_WHITE_PAWNS)
    flag(np.bitwise_count(planes[:, 6 + _PAWN]) > 8, chess.STATUS_TOO_MANY_BLACK_PAWNS)
    flag(((planes[:, _PAWN] | planes[:, 6 + _PAWN]) & _BACK_RANKS) != 0, chess.STATUS_PAWNS_ON_BACKRANK)

    # Castling: the rook each letter names as python-chess reads it (``_set_castling_fen``), and
    # each right kept only with its rook in a corner and the king at home (``clean_castling_rights``).
    field_bytes = [((castling >> np.uint64(shift)) & np.uint64(0xFF)).astype(np.intp) for shift in (24, 16, 8, 0)]
    plain_castling = np.logical_and.reduce([_PLAIN_CASTLING.take(byte) for byte in field_bytes])
    bad_castling = np.zeros(lines, dtype=bool)
    white_king, black_king = _square_of(planes[:, _KING]), _square_of(planes[:, 6 + _KING])
    for side, king, names, rank, home in (
        (0, white_king, b"KQ", chess.BB_RANK_1, chess.E1),
        (6, black_king, b"kq", chess.BB_RANK_8, chess.E8),
    ):
        rooks = planes[:, side + _ROOK] & np.uint64(rank)
        lowest, highest = _lowest(rooks), _highest(rooks)
        queen_side = np.where(_square_of(lowest) < king, lowest, np.uint64(chess.BB_FILE_A & rank))
        queen_side = np.where(rooks == 0, np.uint64(0), queen_side)  # no rook: no right at all
        king_side = np.where((rooks != 0) & (king < _square_of(highest)), highest, np.uint64(chess.BB_FILE_H & rank))
        rights = np.zeros(lines, dtype=np.uint64)
        for letter, bits in zip(names, (king_side, queen_side)):
            named = np.logical_or.reduce([byte == letter for byte in field_bytes])
            rights |= np.where(named, bits, np.uint64(0))
        clean = rights & rooks & np.uint64(chess.BB_CORNERS)
        clean = np.where(king == home, clean, np.uint64(0))
        bad_castling |= rights != clean
    flag(bad_castling, chess.STATUS_BAD_CASTLING_RIGHTS)

    # Checks: the side not to move's king attacked (opposite check), and the checkers of the
    # side to move's king.
    white_to_move = ~black_to_move
    mover = np.where(black_to_move[:, None], planes[:, 6:], planes[:, :6])
    other = np.where(black_to_move[:, None], planes[:, :6], planes[:, 6:])
    mover_king = np.where(black_to_move, black_king, white_king)
    other_king = np.where(black_to_move, white_king, black_king)
    flag(_attackers(mover, white_to_move, other_king, occupied) != 0, chess.STATUS_OPPOSITE_CHECK)
    checking = _attackers(other, black_to_move, mover_king, occupied)
    checkers = np.bitwise_count(checking)
    flag(checkers > 2, chess.STATUS_TOO_MANY_CHECKERS)

    # En passant: the square behind a pawn of the side not to move that has just moved two
    # squares (python-chess's ``_valid_ep_square``); any other is invalid.
    given = en_passant >= 0
    square = np.maximum(en_passant, 0)
    behind = np.where(white_to_move, square - 8, square + 8) & 63  # the pushed pawn
    before = np.where(white_to_move, square + 8, square - 8) & 63  # where it stood
    valid = given & ((square >> 3) == np.where(white_to_move, 5, 2))
    valid &= ((other[:, _PAWN] >> behind.astype(np.uint64)) & _ONE) != 0
    valid &= ((occupied >> square.astype(np.uint64)) & _ONE) == 0
    valid &= ((occupied >> before.astype(np.uint64)) & _ONE) == 0
    flag(given & ~valid, chess.STATUS_INVALID_EP_SQUARE)

    # Impossible checks: after a pawn's double step, a check by that pawn alone or one it
    # uncovered; else at most two checkers, not both on one line with the king.
    pushed_to, pushed_from = _ONE << behind.astype(np.uint64), _ONE << before.astype(np.uint64)
    occupied_before = (occupied & ~pushed_to) | pushed_from
    uncovered = _square_of(_highest(checking)) != behind
    uncovered &= _attackers(other, black_to_move, mover_king, occupied_before) != 0
    after_push = valid & ((checkers > 1) | ((checkers == 1) & uncovered))
    lowest, highest = _square_of(_lowest(checking)), _square_of(_highest(checking))
    mover_king_bit = _ONE << mover_king.astype(np.uint64)
    aligned = (checkers == 2) & ((_RAYS.take(lowest * 64 + highest) & mover_king_bit) != 0)
    flag(after_push | (~valid & ((checkers > 2) | aligned)), chess.STATUS_IMPOSSIBLE_CHECK)

    flag((_KINGS.take(white_king) & planes[:, 6 + _KING]) != 0, ADJACENT_KINGS)
    flag(black_to_move & (status != 0), BLACK_TO_MOVE)
    return status, ~one_king_a_side | ~plain_castling
