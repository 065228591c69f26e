"""The position being set up: a board, a stipulation, undo and redo, kept consistent.

The editor screen turns keys into calls here and draws what ``description`` says; nothing else
changes the position. Also here: whether a decoded code can be set up, and how.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from gbr_tui.core.code import Rule
from gbr_tui.core.describe import example_loaded_words, unknown_types_words
from gbr_tui.core.errors import GbrError
from gbr_tui.core.examples import Example, arrange
from gbr_tui.core.explanation import BoardDescription, describe_board

if TYPE_CHECKING:
    from gbr_tui.core.notation import DecodedCode

#: What an undo step restores: the full FEN (en passant square kept as set), the stipulation and
#: the castling rights the user wants (see ``PositionSetup.castling``).
Snapshot = tuple[str, "str | None", int]

#: Castling rights as FEN writes them, and the rook square each stands for.
CASTLING_LETTERS = {"K": chess.H1, "Q": chess.A1, "k": chess.H8, "q": chess.A8}


def castling_rights_from_text(text: str) -> chess.Bitboard:
    """``KQkq``, ``Kq``, ``-`` or nothing: the rights as a bitboard of rook squares. GbrError
    naming the bad letter otherwise."""
    stripped = text.strip()
    rights = chess.BB_EMPTY
    if stripped == "-":
        return rights
    for index, letter in enumerate(text):
        if letter.isspace():
            continue
        if letter not in CASTLING_LETTERS:
            raise GbrError(f"castling rights are written K Q k q (as in FEN) or -, not {letter!r}", index)
        rights |= chess.BB_SQUARES[CASTLING_LETTERS[letter]]
    return rights


def castling_text(rights: chess.Bitboard) -> str:
    """The rights as FEN writes them: ``KQkq``, ``-`` for none."""
    text = "".join(letter for letter, square in CASTLING_LETTERS.items() if rights & chess.BB_SQUARES[square])
    return text or "-"


@dataclass(frozen=True)
class Arrangement:
    """A board to load, with what to say about where it came from."""

    board: chess.Board
    stipulation: str | None
    how: str


def arrangement_of(decoded: DecodedCode) -> Arrangement:
    """A decoded code on a board: its squares when it gives them, else its material in a legal
    arrangement (on its king squares when given). GbrError when it cannot be set up."""
    if decoded.board is not None:
        return Arrangement(decoded.board, decoded.stipulation, f"code {decoded.compact} with the squares it gives")
    material = decoded.material
    if material is None:
        types = unknown_types_words(decoded.unknown)
        raise GbrError(f"a 9 hides how many {types} there are, so it cannot be set up: give the squares")
    turn = chess.WHITE if decoded.side_to_move is None else decoded.side_to_move
    if decoded.kings is None:
        kings, how = (chess.E1, chess.E8), "in a legal arrangement (the code gives no squares)"
    else:
        kings = (chess.parse_square(decoded.kings[0]), chess.parse_square(decoded.kings[1]))
        how = "with its king squares, the other men in a legal arrangement (the code gives no other squares)"
    try:
        board = arrange(material, turn, kings)
    except ValueError as error:
        raise GbrError(f"{decoded.code} cannot be set up: {error}") from None
    return Arrangement(board, decoded.stipulation, f"code {decoded.compact} {how}")


def read_position(text: str, squares: bool = False) -> Arrangement:
    """What the ``i`` dialog and a paste on the board read: a FEN (seven ``/`` between its
    ranks; it carries no stipulation), a piece list as printed (``White: Kb6, Pc6. Black: Ka1,
    Rd5. +``: its stipulation and side to move when its result part gives them) or a code in
    any dialect (a stipulation when it gives one); GbrError when it cannot be set up, or with
    ``squares`` when a code does not give every man's square."""
    # Imported when first read: the editor's first frame needs no parser.
    from gbr_tui.core.material import board_from_fen
    from gbr_tui.core.notation import decode
    from gbr_tui.core.piece_list import looks_like_piece_list, read_piece_list

    if text.count("/") >= 7:
        board = board_from_fen(text)
        return Arrangement(board, None, f"FEN {board.fen()}")
    if looks_like_piece_list(text):
        printed = read_piece_list(text)
        board = printed.board
        return Arrangement(board, printed.stipulation, f"piece list, FEN {board.fen()}")
    decoded = decode(text)
    if squares and decoded.board is None:
        raise GbrError("the code does not give every man's square: give them, a FEN or a piece list")
    return arrangement_of(decoded)


def example_arrangement(example: Example, turn: chess.Color, rule: Rule) -> Arrangement:
    """A named position as published, with its side to move and stipulation; a class's
    material in a legal arrangement, with the side to move kept and no stipulation."""
    if example.fen is not None:
        return Arrangement(example.board, example.stipulation, example_loaded_words(example, rule))
    how = f"{example.code(rule, short=False)} {example.name}"
    return Arrangement(arrange(example.material, turn), None, how)


class PositionSetup:
    """The board being edited and its stipulation, with undo and redo.

    After every edit, castling rights and the en passant square are made consistent with the
    board (python-chess decides which are possible). The castling rights the user wants are
    kept apart (``castling``): an edit that takes a right away (the h1 rook lifted) does not
    lose it, and the board has it again once its king and rook stand at home again.
    """

    def __init__(self, board: chess.Board | None = None, stipulation: str | None = None) -> None:
        self.board = board.copy() if board is not None else chess.Board(None)
        self.stipulation = stipulation
        #: The castling rights wanted: those loaded, of the start position, or set by the user.
        #: The board has those of them its men allow.
        self.castling: chess.Bitboard = self.board.castling_rights
        self.undo_stack: list[Snapshot] = []
        self.redo_stack: list[Snapshot] = []

    def snapshot(self) -> Snapshot:
        return self.board.fen(en_passant="fen"), self.stipulation, self.castling

    @contextmanager
    def _edit(self) -> Iterator[chess.Board]:
        """Around every edit: afterwards, make it consistent and record it for undo."""
        before = self.snapshot()
        yield self.board
        self.board.castling_rights = self.castling
        self.board.castling_rights = self.board.clean_castling_rights()
        if self.board.ep_square is not None and self.board.status() & chess.STATUS_INVALID_EP_SQUARE:
            self.board.ep_square = None
        if self.snapshot() != before:
            self.undo_stack.append(before)
            self.redo_stack.clear()

    def place(self, square: chess.Square, symbol: str) -> None:
        """Put the man with this FEN letter on ``square``."""
        with self._edit() as board:
            board.set_piece_at(square, chess.Piece.from_symbol(symbol))

    def empty(self, square: chess.Square) -> None:
        with self._edit() as board:
            board.remove_piece_at(square)

    def clear(self) -> None:
        """An empty board: a new position, so no stipulation either."""
        with self._edit() as board:
            board.clear()
            self.stipulation = None
            self.castling = chess.BB_EMPTY

    def start_position(self) -> None:
        """The start position: a new position, so no stipulation either."""
        with self._edit() as board:
            board.reset()
            self.stipulation = None
            self.castling = chess.BB_CORNERS

    def toggle_turn(self) -> None:
        with self._edit() as board:
            board.turn = not board.turn

    def toggle_stipulation(self, sign: str) -> None:
        """Set ``+`` or ``=``; the same sign again unsets it."""
        if sign not in ("+", "="):
            raise GbrError(f"stipulation must be '+' (win) or '=' (draw), not {sign!r}")
        with self._edit():
            self.stipulation = None if self.stipulation == sign else sign

    def set_stipulation(self, sign: str, turn: chess.Color) -> None:
        """Set a stipulation and the side to move at once (one undo step): the forms of the study
        columns, ``+`` or ``=`` with White to play, or with Black to move (EG's ``BTM, Win``)."""
        if sign not in ("+", "="):
            raise GbrError(f"stipulation must be '+' (win) or '=' (draw), not {sign!r}")
        with self._edit() as board:
            self.stipulation = sign
            board.turn = turn

    def toggle_en_passant(self, square: chess.Square) -> bool:
        """Make ``square`` the en passant square, or none when it is already; False when the
        board cannot have it there (no pawn of the side not to move has just passed it)."""
        wanted = None if self.board.ep_square == square else square
        with self._edit() as board:
            board.ep_square = wanted
        return self.board.ep_square == wanted

    def load(self, board: chess.Board, stipulation: str | None) -> None:
        """Replace the position (one undo step), with the stipulation what was loaded carries:
        None when it carries none, never the one of the position before."""
        with self._edit():
            self.board.set_fen(board.fen(en_passant="fen"))
            self.stipulation = stipulation
            self.castling = self.board.castling_rights

    def set_castling(self, text: str) -> str:
        """Set the castling rights wanted (``KQkq``, ``Kq``, ``-``); the board has those its men
        allow. Returns the rights wanted that the board cannot have now (``-`` for none), so
        they can be said. GbrError for a bad letter."""
        rights = castling_rights_from_text(text)
        with self._edit():
            self.castling = rights
        return castling_text(rights & ~self.board.castling_rights)

    def undo(self) -> bool:
        """Go one edit back; False when there is none."""
        return self._step(self.undo_stack, self.redo_stack)

    def redo(self) -> bool:
        return self._step(self.redo_stack, self.undo_stack)

    def _step(self, source: list[Snapshot], target: list[Snapshot]) -> bool:
        if not source:
            return False
        target.append(self.snapshot())
        fen, self.stipulation, self.castling = source.pop()
        self.board.set_fen(fen)
        return True

    def description(self, rule: Rule = Rule.COUNT) -> BoardDescription:
        """Everything the code pane shows, worked out and worded by ``core.explanation``."""
        return describe_board(self.board, self.stipulation, rule)
