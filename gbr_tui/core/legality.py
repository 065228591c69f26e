"""python-chess's ``Board.status()`` for a block of plain FEN lines at once, man by man.

``fast`` hands over each letter of the block's lines as one number, its *man*: its plane
(``LETTERS``) times 65 plus its place in the FEN's order of squares (a8 = 0 ... h1 = 63; 64
for a letter of a later field, which stands on no square). Every question is then a lookup
in a small table indexed by the man, and a sum per line (``np.add.reduceat`` over the line's
men, which ``fast`` keeps together): the men of each type, the kings (how many a side, and
where), the pawns on a back rank, the men of each side, the rooks in the corners, the squares
taken. For checks, each man is looked up with the square of the other side's king: does it
attack that square on an empty board? The few that do are then checked for men between.

No board of bitboards is built and no ray is walked: the work is a few passes over the men,
cheaper than one over the text's bytes for the few men of an endgame, at most as dear for a
full board. What is rare and intricate stays python-chess's, whose verdict is final
(``needs_chess``): an en passant square, two or more checkers, castling rights named by file
(Shredder-FEN), a queen-side right whose king or rook is not at home.
"""

from __future__ import annotations

import chess
import numpy as np

from gbr_tui.core.validity import ADJACENT_KINGS, BLACK_TO_MOVE

#: The men's letters in the order of their planes: White's pawns, knights, bishops, rooks,
#: queens, king, then Black's.
LETTERS = b"PNBRQKpnbrqk"
#: A man's number is its plane times ``PLACES`` plus its place (``OFF_BOARD``: none).
PLACES = 65
OFF_BOARD = 64
_MEN = 12 * PLACES
_COUNTED = "QRBNPqrbnp"


def _square(place: int) -> int:
    """python-chess's square of a place in a FEN's order."""
    return place ^ 56


_SQUARES_OF_PLACES = np.arange(64) ^ 56


def _by_place(bitboards: np.ndarray) -> np.ndarray:
    """Bitboards of python-chess's squares as bools, the last axis one a place (a FEN's order:
    the squares' ranks turned over, which reverses a bitboard's bytes)."""
    flipped = bitboards.astype(np.uint64).byteswap()
    bools: np.ndarray = np.unpackbits(flipped.view(np.uint8), bitorder="little").astype(bool)
    return bools.reshape(*bitboards.shape, 64)


def _attacks(plane: int, square: int) -> int:
    """The squares a man of ``plane`` on ``square`` attacks on an empty board."""
    piece_type, color = plane % 6 + 1, plane < 6
    if piece_type == chess.PAWN:
        return chess.BB_PAWN_ATTACKS[color][square]
    if piece_type == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if piece_type == chess.KING:
        return chess.BB_KING_ATTACKS[square]
    attacks = 0
    if piece_type in (chess.BISHOP, chess.QUEEN):
        attacks |= chess.BB_DIAG_ATTACKS[square][0]
    if piece_type in (chess.ROOK, chess.QUEEN):
        attacks |= chess.BB_RANK_ATTACKS[square][0] | chess.BB_FILE_ATTACKS[square][0]
    return attacks


# What a line's sum of ``_SUMMED`` holds, field by field, each wide enough for what a
# placement holds (64 men at most; 16 squares on the back ranks), so that none carries into the
# next: its kings, its men a side, its pawns on a back rank, each side's rooks on its back rank,
# where its kings stand (the sum of their places, the place itself when there is one king a
# side: more kings may carry, but such a line is read no further), and its rooks in the
# corners (a bit each: a square holds one man).
_WHITE_KINGS, _BLACK_KINGS, _WHITE_MEN, _BLACK_MEN, _BACK_RANK_PAWNS = 0, 7, 14, 21, 28
_WHITE_BACK_ROOKS, _BLACK_BACK_ROOKS, _WHITE_KING_PLACE, _BLACK_KING_PLACE, _CORNER_ROOKS = 33, 37, 41, 47, 53
_CORNERS = {(chess.ROOK, chess.WHITE, _square(chess.A1)): 0, (chess.ROOK, chess.WHITE, _square(chess.H1)): 1}
_CORNERS |= {(chess.ROOK, chess.BLACK, _square(chess.A8)): 2, (chess.ROOK, chess.BLACK, _square(chess.H8)): 3}
_A1_ROOK, _H1_ROOK, _A8_ROOK, _H8_ROOK = (np.uint64(1 << (_CORNER_ROOKS + bit)) for bit in range(4))


def _man_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per man: its packed count (six bits a counted type, as ``fast`` packs them), what it
    adds to its line's ``_SUMMED``, its place as a bit, whether it is Black's, and at ``man *
    64 + place`` whether it attacks the place on an empty board. A man off the board is nothing."""
    packed = np.zeros(_MEN, dtype=np.int64)
    summed = np.zeros(_MEN, dtype=np.uint64)
    taken = np.zeros(_MEN, dtype=np.uint64)
    black = np.zeros(_MEN, dtype=np.intp)
    attacks = np.zeros(_MEN, dtype=np.uint64)
    for plane, letter in enumerate(LETTERS.decode()):
        piece_type, color = plane % 6 + 1, plane < 6
        black[plane * PLACES : (plane + 1) * PLACES] = not color
        for place in range(64):
            man = plane * PLACES + place
            taken[man] = 1 << place
            adds = 1 << (_WHITE_MEN if color else _BLACK_MEN)
            if piece_type == chess.KING:
                adds |= 1 << (_WHITE_KINGS if color else _BLACK_KINGS)
                adds |= place << (_WHITE_KING_PLACE if color else _BLACK_KING_PLACE)
            else:
                packed[man] = 1 << (6 * _COUNTED.index(letter))
            if piece_type == chess.PAWN and place // 8 in (0, 7):
                adds |= 1 << _BACK_RANK_PAWNS
            if piece_type == chess.ROOK and place // 8 == (7 if color else 0):
                adds |= 1 << (_WHITE_BACK_ROOKS if color else _BLACK_BACK_ROOKS)
            if (corner := _CORNERS.get((piece_type, color, place))) is not None:
                adds |= 1 << (_CORNER_ROOKS + corner)
            summed[man] = adds
            attacks[man] = _attacks(plane, _square(place))
    return packed, summed, taken, black, _by_place(attacks).ravel()


_PACKED_MEN, _SUMMED, _TAKEN, _BLACK, _ATTACKS = _man_tables()


def _between() -> np.ndarray:
    """At ``64 * a + b``: the places strictly between places a and b on a line, as bits of
    places, 0 if they share none or are next to each other (python-chess's ``between``)."""
    a, b = np.meshgrid(_SQUARES_OF_PLACES.astype(np.uint64), _SQUARES_OF_PLACES.astype(np.uint64), indexing="ij")
    every = np.uint64(chess.BB_ALL)
    rays = np.array(chess.BB_RAYS, dtype=np.uint64)[_SQUARES_OF_PLACES][:, _SQUARES_OF_PLACES]
    squares = rays & ((every << a) ^ (every << b))
    squares &= squares - np.uint64(1)
    between: np.ndarray = squares.byteswap().ravel()
    return between


_BETWEEN = _between()
_ADJACENT = _by_place(np.array(chess.BB_KING_ATTACKS, dtype=np.uint64)[_SQUARES_OF_PLACES]).ravel()

# A castling field's letters as bits (a file letter, python-chess's to read, is its own).
_FILE_LETTER = 16
_CASTLING_LETTERS = np.zeros(256, dtype=np.uint8)
for _bit, _letter_byte in enumerate(b"KQkq"):
    _CASTLING_LETTERS[_letter_byte] = 1 << _bit
_CASTLING_LETTERS[list(b"ABCDEFGHabcdefgh")] = _FILE_LETTER
_NO_CASTLING = np.uint64(ord("-") << 24)  # a castling field of ``-``, as ``fast`` reads it
_E1, _E8 = _square(chess.E1), _square(chess.E8)


def line_verdicts(
    men: np.ndarray,
    men_lines: np.ndarray,
    first_men: np.ndarray,
    black_to_move: np.ndarray,
    castling: np.ndarray,
    en_passant: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each line: whether it has one king a side, its men packed six bits a type (Q R B N
    P q r b n p, ``fast``'s keys), its status (``Board.status()``, with ``validity``'s own two
    bits where it is not 0) and whether the status is python-chess's to find.

    ``men``: each letter of the lines, in their order (see the module); ``men_lines``: its
    line; ``first_men``: where each line's letters begin; ``black_to_move``, ``castling`` (a
    field's first four bytes big-endian, 0 or ``-``: none) and ``en_passant`` (-1: none): each
    line's fields. A line that does not hold one king a side is to be read no further."""
    lines = len(first_men)
    if not len(men):
        nothing = np.zeros(lines, dtype=np.int64)
        return np.zeros(lines, dtype=bool), nothing, nothing, np.zeros(lines, dtype=bool)
    at = np.minimum(first_men, len(men) - 1)
    empty = np.diff(np.append(first_men, len(men))) == 0
    keys = np.where(empty, 0, np.add.reduceat(_PACKED_MEN.take(men), at))
    summed = np.where(empty, np.uint64(0), np.add.reduceat(_SUMMED.take(men), at))
    taken = np.bitwise_or.reduceat(_TAKEN.take(men), at)

    def field(shift: int, width: int = 7) -> np.ndarray:
        values: np.ndarray = ((summed >> np.uint64(shift)) & np.uint64((1 << width) - 1)).astype(np.intp)
        return values

    one_king_a_side = (field(_WHITE_KINGS) == 1) & (field(_BLACK_KINGS) == 1)
    white_king, black_king = field(_WHITE_KING_PLACE, 6), field(_BLACK_KING_PLACE, 6)

    # Each man against the other side's king: attacks on an empty board, then men between.
    kings = np.empty(2 * lines, dtype=np.intp)
    kings[0::2], kings[1::2] = black_king, white_king
    black_men = _BLACK.take(men)
    targets = kings.take(2 * men_lines + black_men)
    attacking = np.flatnonzero(_ATTACKS.take(men * 64 + targets))
    near = _Near(
        men.take(attacking) % PLACES, targets.take(attacking), men_lines.take(attacking), black_men.take(attacking)
    )
    free = near.free(taken.take(near.lines))
    attackers = np.bincount(2 * near.lines[free] + near.black[free], minlength=2 * lines)
    on_black_king, on_white_king = attackers[0::2], attackers[1::2]
    checkers = np.where(black_to_move, on_black_king, on_white_king)
    opposite_check = np.where(black_to_move, on_white_king, on_black_king) != 0

    status = np.zeros(lines, dtype=np.int64)

    def flag(condition: np.ndarray, value: int) -> None:
        np.bitwise_or(status, int(value), out=status, where=condition)

    flag(field(_WHITE_MEN) > 16, chess.STATUS_TOO_MANY_WHITE_PIECES)
    flag(field(_BLACK_MEN) > 16, chess.STATUS_TOO_MANY_BLACK_PIECES)
    flag(field(_BACK_RANK_PAWNS, 5) != 0, chess.STATUS_PAWNS_ON_BACKRANK)
    flag(opposite_check, chess.STATUS_OPPOSITE_CHECK)
    flag(_ADJACENT.take(white_king * 64 + black_king), ADJACENT_KINGS)
    needs_chess = np.zeros(lines, dtype=bool)
    if len(rare := np.flatnonzero((checkers > 1) | (en_passant >= 0))):
        in_rare = np.zeros(lines, dtype=bool)
        in_rare[rare] = True
        chosen = in_rare.take(near.lines)
        chosen &= near.black != black_to_move.take(near.lines)  # the men of the side not to move
        status[rare] |= _rare_checks(
            rare,
            (checkers, en_passant, black_to_move, np.where(black_to_move, black_king, white_king), taken),
            near.where(chosen),
            near.where(chosen & free),
            _Men(men, first_men),
        )
    named = np.flatnonzero((castling != 0) & (castling != _NO_CASTLING))
    if len(named):
        by_file, bad = _castling(castling[named], summed[named], white_king[named], black_king[named])
        needs_chess[named] |= by_file
        status[named[bad]] |= int(chess.STATUS_BAD_CASTLING_RIGHTS)
    flag(black_to_move & (status != 0), BLACK_TO_MOVE)
    return one_king_a_side, keys, status, needs_chess


class _Near:
    """Men that attack the other side's king on an empty board: their places, the king's, their
    lines and whether they are Black's (each an array, one a man, in the order of the lines)."""

    def __init__(self, places: np.ndarray, kings: np.ndarray, lines: np.ndarray, black: np.ndarray) -> None:
        self.places, self.kings, self.lines, self.black = places, kings, lines, black

    def free(self, taken: np.ndarray) -> np.ndarray:
        """Whether each attacks its king with the squares ``taken`` (each man's line's)."""
        between: np.ndarray = (_BETWEEN.take(self.places * 64 + self.kings) & taken) == 0
        return between

    def where(self, chosen: np.ndarray) -> _Near:
        return _Near(self.places[chosen], self.kings[chosen], self.lines[chosen], self.black[chosen])


class _Men:
    """A block's men (see the module), to find the man on a place of a line."""

    def __init__(self, men: np.ndarray, first_men: np.ndarray) -> None:
        self.men, self.first_men = men, first_men
        self.line_men = np.diff(np.append(first_men, len(men)))

    def on(self, lines: np.ndarray, places: np.ndarray) -> np.ndarray:
        """The man on each place of each line (a line's men are in the order of their places),
        -1 where there is none."""
        counts = self.line_men.take(lines)
        group_starts = np.cumsum(counts) - counts
        chosen = np.repeat(self.first_men.take(lines) - group_starts, counts) + np.arange(counts.sum())
        chosen_men = self.men.take(chosen)
        keys = np.repeat(np.arange(len(lines)) * PLACES, counts) + chosen_men % PLACES
        wanted = np.arange(len(lines)) * PLACES + places
        found = np.minimum(np.searchsorted(keys, wanted), max(len(keys) - 1, 0))
        if not len(keys):
            return np.full(len(lines), -1, dtype=np.intp)
        on: np.ndarray = np.where(keys.take(found) == wanted, chosen_men.take(found), -1)
        return on


_RAYS = np.array(chess.BB_RAYS, dtype=np.uint64)[_SQUARES_OF_PLACES][:, _SQUARES_OF_PLACES].byteswap().ravel()
_PAWN_MEN = (chess.PAWN - 1) * PLACES, (6 + chess.PAWN - 1) * PLACES  # White's pawn at place 0, Black's


def _rare_checks(
    rare: np.ndarray,
    lines: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    near: _Near,
    checking: _Near,
    men: _Men,
) -> np.ndarray:
    """The flags of the ``rare`` lines, those with two checkers or more or an en passant square,
    as python-chess's ``status`` finds them: the square must be behind a pawn of the side not to
    move that has just stepped two squares, and the checks must be ones a move can give: not
    more than two, two not on one line with the king, and after that double step a check by
    the pawn or uncovered by it.

    ``lines``: every line's checkers, en passant square (a square, -1: none), side to move, the
    king of the side to move (a place) and the squares taken (bits of places); ``near``: the
    men that attack the king of the side to move on an empty board; ``checking``: those that
    check it."""
    counts, en_passant, black_to_move, kings, taken = (values.take(rare) for values in lines)
    white = ~black_to_move
    given = en_passant >= 0
    square = np.where(given, en_passant ^ 56, 0)  # as a place
    stepped_to = np.clip(np.where(white, square + 8, square - 8), 0, 63)
    stepped_from = np.clip(np.where(white, square - 8, square + 8), 0, 63)
    bit = np.uint64(1) << np.arange(64, dtype=np.uint64)
    valid = given & ((en_passant >> 3) == np.where(white, 5, 2))
    valid &= (taken & (bit.take(square) | bit.take(stepped_from))) == 0
    if len(asked := np.flatnonzero(valid)):
        pawns = np.where(white, _PAWN_MEN[1], _PAWN_MEN[0]).take(asked) + stepped_to.take(asked)
        valid[asked] = men.on(rare.take(asked), stepped_to.take(asked)) == pawns
    flags = np.where(given & ~valid, int(chess.STATUS_INVALID_EP_SQUARE), 0)
    flags |= np.where(counts > 2, int(chess.STATUS_TOO_MANY_CHECKERS), 0)
    # The first two checkers of each line (a line's men are in the order of their places).
    if len(checking.lines):
        first = np.minimum(np.searchsorted(checking.lines, rare), len(checking.lines) - 1)
        one = checking.places.take(first)
        other = checking.places.take(np.minimum(first + 1, len(checking.lines) - 1))
    else:
        one = other = np.zeros(len(rare), dtype=np.intp)
    on_one_line = (_RAYS.take(one * 64 + other) & bit.take(kings)) != 0
    impossible = (counts > 2) | ((counts == 2) & on_one_line)
    # After a double step: one checker, the pawn or a man it uncovered (the king not attacked
    # with the pawn still where it stood, python-chess's ``_attacked_for_king``).
    after_step = np.flatnonzero(valid & (counts == 1) & (one != stepped_to))
    if len(after_step):
        before = np.zeros(int(near.lines.max(initial=0)) + 1, dtype=np.uint64)
        asked = rare.take(after_step)
        before[asked] = (taken.take(after_step) & ~bit.take(stepped_to.take(after_step))) | bit.take(
            stepped_from.take(after_step)
        )
        judged = np.zeros(len(before), dtype=bool)
        judged[asked] = True
        candidates = near.where(judged.take(near.lines))
        attacked = np.zeros(len(before), dtype=bool)
        attacked[candidates.lines[candidates.free(before.take(candidates.lines))]] = True
        uncovered = np.zeros(len(rare), dtype=bool)
        uncovered[after_step] = attacked.take(asked)
    else:
        uncovered = np.zeros(len(rare), dtype=bool)
    impossible = np.where(valid, (counts > 1) | uncovered, impossible)
    flags |= np.where(impossible, int(chess.STATUS_IMPOSSIBLE_CHECK), 0)
    return flags


def _castling(
    castling: np.ndarray, summed: np.ndarray, white_king: np.ndarray, black_king: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Of lines with castling rights: whether they name files (python-chess's to read), and
    whether they are bad.

    As python-chess reads them (``_set_castling_fen``, ``clean_castling_rights``), K (k) is
    good with the king on e1 (e8) and a rook on h1 (h8), bad otherwise; Q (q) good with the
    king at home and a rook on a1 (a8), and otherwise bad unless the side has no rook on its
    back rank (it then names no square)."""
    letters = np.zeros(len(castling), dtype=np.uint8)
    for shift in (24, 16, 8, 0):
        letters |= _CASTLING_LETTERS.take(((castling >> np.uint64(shift)) & np.uint64(0xFF)).astype(np.intp))
    white_home, black_home = white_king == _E1, black_king == _E8
    white_rooks = ((summed >> np.uint64(_WHITE_BACK_ROOKS)) & np.uint64(15)) != 0
    black_rooks = ((summed >> np.uint64(_BLACK_BACK_ROOKS)) & np.uint64(15)) != 0
    bad = ((letters & 1) != 0) & ~(white_home & ((summed & _H1_ROOK) != 0))
    bad |= ((letters & 4) != 0) & ~(black_home & ((summed & _H8_ROOK) != 0))
    bad |= ((letters & 2) != 0) & white_rooks & ~(white_home & ((summed & _A1_ROOK) != 0))
    bad |= ((letters & 8) != 0) & black_rooks & ~(black_home & ((summed & _A8_ROOK) != 0))
    return (letters & _FILE_LETTER) != 0, bad
