"""The codes of many FENs at once, with numpy over the whole block of text.

The block's lines are joined into one byte buffer and every check is a pass over that buffer or
over a few numbers per line: a translate table gives each byte's class, searches among the
slashes and kings found count what a line's placement holds between its boundaries, each of its
eight ranks is read as one word of its bytes' squares and summed by a multiplication, and one
sum per line counts its men, packed six bits a type. The trailing fields (side, castling, en
passant, clocks) are checked field by field, each gathered into a small matrix.

The checks are stricter than python-chess: a line they do not vouch for (tabs, two spaces, a
``~``, a 9th pawn, anything unusual) is *rejected*, and the caller asks python-chess, whose
verdict and message are final. So the answers are python-chess's on every line.

numpy is imported by this module and by the summary's (``collection.summary_lines``) alone, and
only batch work imports them (see ``FenEncoder``).
"""

from __future__ import annotations

import ctypes
import sys

import numpy as np
from numpy.typing import NDArray

from gbr_tui.core.code import Rule, piece_digit
from gbr_tui.core.material import Material
from gbr_tui.core.vetted import Vetted

#: Lines whose bytes are vetted at once: the temporaries of a piece (some 8 bytes a byte of text)
#: stay within ``_HEAP_KEPT``.
_PIECE_LINES = 4096
#: glibc's malloc: blocks up to this size come from its heap (larger ones are mapped apart), and
#: up to twice it freed at the heap's top is kept for the next piece.
_HEAP_KEPT = 8 << 20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3


def _keep_freed_pieces() -> None:
    """Fixed malloc thresholds (glibc, Linux). By default they follow the largest block freed so
    far, and the few MB of a piece's temporaries were handed back to the system at each piece's
    end and faulted in again for the next: a fifth of ``classify``'s CPU on a million lines, as
    system time."""
    if not sys.platform.startswith("linux"):
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return
    mallopt(_M_MMAP_THRESHOLD, _HEAP_KEPT)
    mallopt(_M_TRIM_THRESHOLD, 2 * _HEAP_KEPT)


_keep_freed_pieces()

_COUNTED = b"QRBNPqrbnp"
_NINE = ord("9")
_SPACE, _LINE_END = 32, 10


def _byte_table(values: dict[bytes, int], default: int = 0) -> bytes:
    """A ``bytes.translate`` table: each byte of each key to its value, any other to default."""
    table = bytearray([default]) * 256
    for keys, value in values.items():
        for key in keys:
            table[key] = value
    return bytes(table)


# Per byte of a placement: its squares (a digit its value, a man or king 1, a slash 0, any
# other byte more than a rank holds), and its men, packed six bits a type (Q R B N P q r b n p,
# bits 0-59) so that one sum per line counts all ten types. A rank's eight bytes at most are
# summed in one word: no byte's value (a digit after a digit adds 9) nor sum reaches 256.
_NOT_IN_A_RANK = 9
_BYTE_SUM = np.uint64(0x0101010101010101)  # a word times it: the sum of its bytes in its top byte
_RANK_BYTES = np.array([(1 << (8 * count)) - 1 for count in range(9)], dtype=np.uint64)  # first n bytes
_SQUARES = _byte_table(
    {b"12345678"[n : n + 1]: n + 1 for n in range(8)} | {_COUNTED + b"Kk": 1, b"/": 0}, _NOT_IN_A_RANK
)
#: The sum of a placement's two kings' letters when they are one of each side (two of a side sum
#: to another). Only one king a side is vouched for here; python-chess and the reader name any
#: other kings.
_ONE_KING_A_SIDE = ord("K") + ord("k")
_EVERY_RANK = int.from_bytes(bytes([True]) * 8, "little")  # eight ranks of eight squares, as bools
_FULL_PLACEMENT = 64 + 7  # eight ranks of eight men: no digit, and six bits may not hold a type
_MEN = np.zeros(256, dtype=np.int64)
for _index, _letter in enumerate(_COUNTED):
    _MEN[_letter] = 1 << (6 * _index)

# The fields after the placement: which bytes are side letters; the first n of ``width`` bytes
# of a field are kept by a mask.
_SIDE_LETTERS = np.zeros(256, dtype=bool)
_SIDE_LETTERS[[ord("w"), ord("b")]] = True
_KEPT_BYTES = {
    width: np.array([((1 << (8 * count)) - 1) << (8 * (width - count)) for count in range(width + 1)], dtype=np.uint64)
    for width in (2, 4, 8)
}
# A digit's byte is 0x30-0x39: its high half 3, and its low half plus 6 below 16.
_HIGH_HALVES, _LOW_HALVES = np.uint64(0xF0F0F0F0F0F0F0F0), np.uint64(0x0F0F0F0F0F0F0F0F)
_DIGIT_HIGH_HALVES, _SIX_EACH = np.uint64(0x3030303030303030), np.uint64(0x0606060606060606)


def _encoded(text: str) -> bytes:
    """Text as bytes, undecodable bytes (surrogates) as themselves: lines with them are rejected."""
    return text.encode("ascii") if text.isascii() else text.encode("utf-8", "surrogatepass")


def _eight_bytes(data: bytes) -> np.ndarray:
    """At each offset of ``data``, its next eight bytes as one big-endian number (zeros past
    the end): a view, nothing is copied but the padding."""
    padded = data + bytes(8)
    view: np.ndarray = np.ndarray((len(data),), dtype=">u8", buffer=padded, strides=(1,))
    return view


#: Where a field's length goes in its packed spelling (``_packed``): a spelling padded with zero
#: bytes is then not a shorter one followed by NUL bytes.
_LENGTH_SHIFT = 40


def _packed(texts: list[bytes], width: int) -> np.ndarray:
    """Short byte strings as sorted integers, big-endian and zero-padded to ``width`` bytes,
    their length above them."""
    return np.sort(
        np.array(
            [int.from_bytes(text.ljust(width, b"\0"), "big") | len(text) << _LENGTH_SHIFT for text in texts],
            dtype=np.int64,
        )
    )


def _castling_fields() -> list[bytes]:
    """Every castling field python-chess accepts: ``-``, or up to two of KQA-H then up to two
    of kqa-h (its ``FEN_CASTLING_REGEX``), not empty."""
    upper = [b""] + [bytes([a]) for a in b"KQABCDEFGH"] + [bytes([a, b]) for a in b"KQABCDEFGH" for b in b"KQABCDEFGH"]
    lower = [side.lower() for side in upper]
    return [b"-"] + [white + black for white in upper for black in lower if white + black]


_CASTLING = _packed(_castling_fields(), 4).astype(np.uint64)
_EN_PASSANT = _packed([b"-"] + [bytes([f, r]) for f in b"abcdefgh" for r in b"12345678"], 2).astype(np.uint64)


def _digit_table(rule: Rule, queens: bool) -> np.ndarray:
    """The digit character for (white count, black count) at ``64 * white + black``: the six
    bits each count has in a packed key (counts of 3 or more are as 3)."""
    digits = [ord(str(piece_digit(white, black, rule, queens))) for white in range(4) for black in range(4)]
    capped = np.minimum(np.arange(64), 3)
    table: np.ndarray = np.array(digits, dtype=np.uint8)[(capped[:, None] * 4 + capped[None, :]).ravel()]
    return table


#: A full code's six digits read as one number, ``abcd.ef`` -> abcdef: an index into a count
#: of every possible code (the dot weighs nothing).
_CODE_INDICES = 10**6
_DIGIT_COLUMNS = [0, 1, 2, 3, 5, 6]


def code_indices(codes: np.ndarray) -> np.ndarray:
    """Full codes, as rows of 7 bytes (or more after them), each as the number of its six
    digits: a column at a time (an integer matrix product is numpy's slow loop)."""
    indices = codes[:, 0].astype(np.int32)
    for column in (1, 2, 3, 5, 6):  # the dot is column 4
        indices *= 10
        indices += codes[:, column]
    indices -= ord("0") * 111_111
    return indices


def sorted_order(*keys: np.ndarray) -> np.ndarray:
    """The order that sorts by the last key, equal ones by the key before... (as
    ``np.lexsort``), for keys of integers not negative: a stable sort of each 16-bit digit, the
    least significant first (numpy sorts 16-bit integers by radix: some 10 times faster than a
    sort of 64-bit ones)."""
    if not keys:
        return np.arange(0)
    order: np.ndarray | None = None  # the first digit is sorted as it is, not gathered in the order so far
    for key in keys:
        for shift in range(0, max(int(key.max(initial=0)).bit_length(), 1), 16):
            digits = ((key >> shift) & 0xFFFF).astype(np.uint16)
            if order is None:
                order = np.argsort(digits, kind="stable")
            else:
                order = order.take(np.argsort(digits.take(order), kind="stable"))
    assert order is not None  # each key has a digit at least
    return order


def counted_codes(indices: list[np.ndarray]) -> dict[str, int]:
    """Each full code among blocks of ``code_indices``, with how often it comes, in the order
    the codes first come (as counting them one by one would have them): counted by index, and
    no sort: each index's least place is found (``np.minimum.at``), and the places that are the
    least of their index, in turn, give the codes in the order they came."""
    every = np.concatenate(indices)
    counts = np.bincount(every, minlength=_CODE_INDICES)
    place_type = np.int32 if len(every) < 1 << 31 else np.int64  # half the memory, where it holds them
    places = np.arange(len(every), dtype=place_type)
    first = np.full(_CODE_INDICES, len(every), dtype=place_type)
    np.minimum.at(first, every, places)
    present = every[first.take(every) == places]
    codes = written_codes(present, 8)
    codes[:, 7] = ord("\n")
    return dict(zip(codes.tobytes().decode("ascii").split("\n")[:-1], counts.take(present).tolist()))


def written_codes(indices: np.ndarray, width: int = 7) -> np.ndarray:
    """Full codes from their ``code_indices``: rows of ``width`` bytes, ``abcd.ef`` first."""
    codes = np.empty((len(indices), width), dtype=np.uint8)
    codes[:, 4] = ord(".")
    rest = indices
    for column in (6, 5, 3, 2, 1, 0):  # the last digit first
        rest, digit = np.divmod(rest, 10)
        codes[:, column] = digit + ord("0")
    return codes


def code_counts(indices: list[np.ndarray], counted: dict[str, int]) -> tuple[np.ndarray, np.ndarray] | None:
    """The full codes among blocks of ``code_indices`` and the codes ``counted`` as indices
    (ascending), with their counts; None if a code of ``counted`` is not a full one."""
    counts = np.bincount(np.concatenate([*indices, np.zeros(0, np.int32)]), minlength=_CODE_INDICES)
    if counted:
        joined = "".join(counted)
        if len(joined) != 7 * len(counted) or not joined.isascii():
            return None
        rows = np.frombuffer(joined.encode("ascii"), dtype=np.uint8).reshape(len(counted), 7)
        if not ((rows[:, _DIGIT_COLUMNS] - np.uint8(ord("0")) < 10).all() and (rows[:, 4] == ord(".")).all()):
            return None
        np.add.at(counts, code_indices(rows), np.fromiter(counted.values(), dtype=np.int64, count=len(counted)))
    present = np.flatnonzero(counts != 0)  # five times as fast as on the counts themselves
    return present, counts.take(present)


class VettedBlock(Vetted):
    """The verdicts of a block vetted here: the men of each line are packed in ``keys`` (six
    bits a type, ``_MEN``), its full code is a row of ``text`` (``abcd.ef`` and a line end), and
    ``codes`` are written from those rows when first read (counting needs only the rows)."""

    def __init__(
        self,
        text: NDArray[np.uint8],
        vouched: NDArray[np.bool_],
        keys: NDArray[np.int64],
        short: bool = False,
    ) -> None:
        self.rejected = np.flatnonzero(~vouched).tolist()
        self.keys = keys
        self._text, self._vouched, self._short = text, vouched, short
        self._codes: list[str] | None = None
        self._rows: list[list[int]] | None = None

    def _all_written(self) -> str:
        """Every line's code, a line end after each (a rejected line's is garbage)."""
        written = self._text.tobytes().decode("ascii")
        return written.replace(".00\n", "\n") if self._short else written

    @property
    def written(self) -> str | None:
        return None if self.rejected else self._all_written()

    @property
    def codes(self) -> list[str]:
        if self._codes is None:
            self._codes = self._all_written().split("\n")[:-1]
            for index in self.rejected:
                self._codes[index] = ""
        return self._codes

    def material(self, index: int) -> Material:
        if self._rows is None:  # all rows at once: numpy's per-row access costs some 10 us
            self._rows = ((self.keys[:, None] >> (6 * np.arange(10))) & 63).tolist()
        counts = self._rows[index]
        return Material(tuple(counts[:5]), tuple(counts[5:]))

    def code_indices(self) -> NDArray[np.int32]:
        return code_indices(self._text)[self._vouched]

    def nine_keys(self) -> tuple[NDArray[np.bytes_], NDArray[np.int64]]:
        """The full codes (``S7``) with a 9 among the vouched-for lines, and the packed men
        behind each."""
        digits = self._text  # a column at a time: numpy's any() along rows is its slow loop
        nine = (digits[:, 0] == _NINE) | (digits[:, 1] == _NINE) | (digits[:, 2] == _NINE) | (digits[:, 3] == _NINE)
        lines = np.flatnonzero(nine & self._vouched)
        return np.ascontiguousarray(self._text[lines, :7]).view("S7").ravel(), self.keys[lines]


class VectorEncoder:
    """Codes for blocks of FEN lines (full FENs or placements), one rule and form."""

    def __init__(self, rule: Rule = Rule.COUNT, short: bool = False) -> None:
        self.short = short
        # The four piece digits' tables: queens (the promoted rule may make them 9), R, B, N.
        self._tables = [_digit_table(rule, piece == "Q") for piece in "QRBN"]

    def vet(self, texts: list[str]) -> VettedBlock:
        return self._block(*self._vetted_texts(texts))

    def vet_text(self, text: str) -> VettedBlock:
        """As ``vet``, for the lines of one text, a line end after each (its lines are never made
        strings of their own). ``line_ends`` of the result are where they end, if it is ASCII."""
        data = _encoded(text)
        buffer = np.frombuffer(data, dtype=np.uint8)
        ends = np.flatnonzero(buffer == _LINE_END)
        vetted = self._block(*self._vetted_lines(data, buffer, ends))
        vetted.line_ends = ends if len(data) == len(text) else None
        return vetted

    def _block(self, ok: np.ndarray, keys: np.ndarray) -> VettedBlock:
        white_pawns, black_pawns = (keys >> 24) & 63, (keys >> 54) & 63
        ok &= (white_pawns <= 8) & (black_pawns <= 8)
        return VettedBlock(self.code_rows(keys, white_pawns, black_pawns), ok, keys, self.short)

    def _vetted_texts(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """``_vetted_lines`` of the texts."""
        data = _encoded("\n".join(texts) + "\n")
        buffer = np.frombuffer(data, dtype=np.uint8)
        ends = np.flatnonzero(buffer == _LINE_END)
        if len(ends) != len(texts):  # a text with a line end inside: the buffer's lines are not the texts
            broken = [index for index, text in enumerate(texts) if "\n" in text]
            ok, keys = self._vetted_texts([text if "\n" not in text else "" for text in texts])
            ok[broken] = False
            return ok, keys
        return self._vetted_lines(data, buffer, ends)

    def _vetted_lines(self, data: bytes, buffer: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Whether each line of ``data`` (``buffer`` its bytes, ``ends`` where its lines end) is
        vouched for here (its placement and its fields), and its men packed (``_MEN``); the
        pawns are counted by the caller.

        The fields after the placements are checked for all the lines at once (their arrays
        hold a number or two a line), the placements ``_PIECE_LINES`` lines at a time (theirs
        some 8 bytes a byte of text)."""
        if not len(ends):
            return np.zeros(0, dtype=bool), np.zeros(0, dtype=np.int64)
        starts = np.empty(len(ends), dtype=np.int64)
        starts[0] = 0
        starts[1:] = ends[:-1] + 1
        spaces = np.append(np.flatnonzero(buffer == _SPACE), len(buffer))  # and one past the end
        first_spaces = np.searchsorted(spaces, starts)
        placement_ends = np.minimum(spaces[first_spaces], ends)
        ok = self._trailing_fields(data, buffer, ends, spaces, first_spaces)
        keys = np.empty(len(ends), dtype=np.int64)
        for first in range(0, len(ends), _PIECE_LINES):
            lines = slice(first, first + _PIECE_LINES)
            begin, end = int(starts[first]), int(ends[lines][-1]) + 1
            piece_ok, keys[lines] = self._placements(
                data[begin:end], buffer[begin:end], starts[lines] - begin, placement_ends[lines] - begin
            )
            ok[lines] &= piece_ok
        return ok, keys

    @staticmethod
    def _placements(
        data: bytes, buffer: np.ndarray, starts: np.ndarray, placement_ends: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Whether each line's placement (up to its first space) is one python-chess reads the
        plain way, and the men it counts."""
        lines = len(starts)
        bounds = np.empty(2 * lines, dtype=np.int64)  # each placement's start and end, in turn
        bounds[0::2] = starts
        bounds[1::2] = placement_ends
        # Seven slashes, and eight squares in each of the eight ranks they bound: a rank's bytes
        # (eight at most) read as one word of their squares and summed by a multiplication; a
        # byte that is not in a rank, or a digit after a digit, is worth more than a rank's
        # squares. A full board of 64 men goes to python-chess.
        slashes = np.flatnonzero(buffer == ord("/"))
        first_slash = np.searchsorted(slashes, starts)
        ok = (np.searchsorted(slashes, placement_ends) - first_slash == 7) & (
            placement_ends - starts != _FULL_PLACEMENT
        )
        candidates = np.flatnonzero(ok)
        if len(candidates):
            size = len(buffer)
            padded = np.zeros(size + 8, dtype=np.uint8)  # a word's read may run past the end
            padded[:size] = np.frombuffer(data.translate(_SQUARES), dtype=np.uint8)
            digits = (buffer - np.uint8(ord("1"))) < 8  # 1 to 8 (the others wrap round above)
            padded[: size - 1] += (digits[:-1] & digits[1:]).view(np.uint8) * np.uint8(_NOT_IN_A_RANK)
            bounds_of_ranks = np.empty((len(candidates), 9), dtype=np.int64)
            bounds_of_ranks[:, 0] = starts[candidates] - 1  # as if a slash were before the first
            bounds_of_ranks[:, 1:8] = slashes.take(first_slash.take(candidates)[:, None] + np.arange(7))
            bounds_of_ranks[:, 8] = placement_ends[candidates]
            rank_starts = bounds_of_ranks[:, :8] + 1
            lengths = np.minimum(bounds_of_ranks[:, 1:] - rank_starts, 8)  # more than 8: 9 at least, below
            rank_words = np.ndarray((size,), dtype="<u8", buffer=padded, strides=(1,))  # little-endian
            words = rank_words.take(rank_starts) & _RANK_BYTES.take(lengths)
            eight = ((words * _BYTE_SUM) >> np.uint64(56)) == 8  # a line's 8 answers: one word of bytes
            eight &= bounds_of_ranks[:, 1:] - rank_starts <= 8
            ok[candidates] = eight.view(np.uint64).ravel() == _EVERY_RANK
        # Two kings in each placement, one K and one k (their letters' sum): the kings are few,
        # so where they are is found at once, then how many each placement holds.
        kings = np.flatnonzero((buffer | np.uint8(0x20)) == ord("k"))  # K and k (castling's too)
        edges = np.searchsorted(kings, bounds)
        firsts = edges[0::2]
        letters = np.append(buffer.take(kings), np.zeros(2, dtype=np.uint8))
        ok &= (edges[1::2] - firsts == 2) & (letters.take(firsts) + letters.take(firsts + 1) == _ONE_KING_A_SIDE)
        return ok, np.add.reduceat(_MEN.take(buffer), bounds)[0::2]

    @staticmethod
    def _trailing_fields(
        data: bytes, buffer: np.ndarray, ends: np.ndarray, spaces: np.ndarray, first_spaces: np.ndarray
    ) -> np.ndarray:
        """Whether the fields after each placement are up to five plain ones python-chess takes,
        a space before each: side, castling, en passant, two clocks of at most eight digits.
        ``spaces`` are the buffer's (and its end), ``first_spaces`` where each line's first is.

        Each field is read as one big-endian number of the eight bytes at its start (a strided
        view of the buffer), cut to its length: the spelling of castling and en passant fields,
        looked up among the valid ones, and for the clocks whether each byte is a digit (its high
        half 3, and its low half with 6 added still below 16)."""
        size = len(buffer)
        last = len(spaces) - 1
        # A space before each field: a line's spaces are those up to the next line's first (the
        # line end is not one), the last line's those up to the end.
        fields = np.diff(first_spaces, append=last)
        spelled = _eight_bytes(data)
        ok: np.ndarray = fields <= 5
        for number in range(1, 6):  # a line with fewer fields reads garbage here, not looked at
            before = np.minimum(first_spaces + number - 1, last)
            at = np.minimum(spaces[before] + 1, size - 1)
            length = np.minimum(spaces[np.minimum(before + 1, last)], ends) - at
            kept = np.minimum(np.maximum(length, 1), 8)
            if number == 1:
                good = (length == 1) & _SIDE_LETTERS[buffer[at]]
            elif number > 3:
                clock = spelled[at] & _KEPT_BYTES[8][kept]
                good = (length == kept) & ((clock & _HIGH_HALVES) == (_DIGIT_HIGH_HALVES & _KEPT_BYTES[8][kept]))
                good &= (((clock & _LOW_HALVES) + _SIX_EACH) & _HIGH_HALVES) == 0
            else:
                allowed, width = (_CASTLING, 4) if number == 2 else (_EN_PASSANT, 2)
                values = (spelled[at] >> np.uint64(64 - 8 * width)) & _KEPT_BYTES[width][np.minimum(kept, width)]
                values |= kept.astype(np.uint64) << np.uint64(_LENGTH_SHIFT)
                found = allowed[np.minimum(np.searchsorted(allowed, values), len(allowed) - 1)]
                good = (length >= 1) & (length <= width) & (found == values)
            ok &= (fields < number) | good
        return ok

    def count_rows(self, men: np.ndarray) -> np.ndarray:
        """``code_rows`` of materials given as rows of counts (Q R B N P q r b n p), at most 8
        pawns a side (a count above 63 reads as 63, which writes the same digit)."""
        capped = np.minimum(men, 63).astype(np.int64)
        keys = (capped << (6 * np.arange(10))).sum(axis=1)
        return self.code_rows(keys, capped[:, 4], capped[:, 9])

    def code_rows(self, keys: np.ndarray, white_pawns: np.ndarray, black_pawns: np.ndarray) -> np.ndarray:
        """Every line's full code from its packed men and its pawns (rows with more than 8
        pawns are garbage), a row of bytes each: ``abcd.ef`` and a line end. A piece's digit is
        looked up by both sides' six bits of it, as they stand in the key."""
        text = np.empty((len(keys), 8), dtype=np.uint8)
        for column, table in enumerate(self._tables):
            pair = ((keys >> (6 * column)) & 63) << 6 | (keys >> (6 * column + 30)) & 63
            text[:, column] = table.take(pair)
        text[:, 4] = ord(".")
        text[:, 5] = np.minimum(white_pawns, 9) + ord("0")
        text[:, 6] = np.minimum(black_pawns, 9) + ord("0")
        text[:, 7] = ord("\n")
        return text
