"""A study's solution: moves played from the position set up, on python-chess's ``GameNode``
(a main line and variations), with the node shown, and why a move is refused.

Playing a move at a node that already has it follows it; a new move becomes a variation (the
main line when the node had none). Taking back removes the node shown and its moves.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable

import chess
import chess.pgn

from gbr_tui.core.errors import GbrError

#: Of a typed move, at most this much is echoed in a message.
_SHOWN = 20


def move_label(board: chess.Board) -> str:
    """``1.`` before White's move, ``1...`` before Black's, as a solution is printed."""
    return f"{board.fullmove_number}." if board.turn == chess.WHITE else f"{board.fullmove_number}..."


def refusal(board: chess.Board, text: str) -> str:
    """Why ``text`` is not a move here, in words: not SAN, ambiguous, or illegal and why."""
    shown = text[:_SHOWN]
    try:
        board.parse_san(text)
    except chess.AmbiguousMoveError:
        return f"{move_label(board)} {shown} is ambiguous: name the file or rank of the man that moves"
    except chess.IllegalMoveError:
        if board.is_game_over():
            return f"{move_label(board)} {shown}: the game is over here ({board.result(claim_draw=False)})"
        return f"{move_label(board)} {shown} is illegal here{_illegal_reason(board, text)}"
    except chess.InvalidMoveError:
        return f"{shown!r} is not a move (write it as SAN: Bf2+, exd5, O-O, h8=Q)"
    return ""


def _illegal_reason(board: chess.Board, san: str) -> str:
    side = "White" if board.turn == chess.WHITE else "Black"
    if board.is_check():
        return f": {side} is in check"
    if san.startswith(("O-O", "0-0")):
        return f": {side} may not castle so"
    kind = chess.PIECE_NAMES[chess.PIECE_SYMBOLS.index(san[0].lower())] if san[:1] in "KQRBN" else "pawn"
    return f": no {side} {kind} can go there without leaving its king in check"


class Solution:
    """The solution being entered: a game from the position, and the node shown."""

    def __init__(self, board: chess.Board, game: chess.pgn.Game | None = None) -> None:
        self.game = game if game is not None else chess.pgn.Game.from_board(board)
        self.node: chess.pgn.GameNode = self.game

    @property
    def board(self) -> chess.Board:
        """The position shown: after the moves up to the node."""
        return self.node.board()

    def play(self, san: str) -> chess.pgn.GameNode:
        """Play a SAN move at the node shown and show it (GbrError saying why when refused)."""
        board = self.board
        try:
            move = board.parse_san(san.strip())
        except ValueError:
            raise GbrError(refusal(board, san.strip())) from None
        return self.play_move(move)

    def play_move(self, move: chess.Move) -> chess.pgn.GameNode:
        """Play ``move`` (legal here) at the node shown, following it where it is there."""
        board = self.board
        if not board.is_legal(move):
            side = "White" if board.turn == chess.WHITE else "Black"
            reason = f": {side} is in check" if board.is_check() else ""
            squares = f"{chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}"
            raise GbrError(f"{move_label(board)} {squares} is illegal here{reason}")
        existing = self.node.variation(move) if self.node.has_variation(move) else None
        self.node = existing if existing is not None else self.node.add_variation(move)
        return self.node

    def back(self) -> bool:
        """One move back along the line shown; False at the start."""
        if self.node.parent is None:
            return False
        self.node = self.node.parent
        return True

    def forward(self) -> bool:
        """One move on along the main line from the node shown; False at its end."""
        following = self.node.next()
        if following is None:
            return False
        self.node = following
        return True

    def take_back(self) -> bool:
        """Remove the node shown with every move after it, and show its parent; False at the start."""
        parent = self.node.parent
        if parent is None:
            return False
        parent.remove_variation(self.node)
        self.node = parent
        return True

    def go_to(self, node: chess.pgn.GameNode) -> None:
        self.node = node

    def movetext(self) -> str:
        """The moves as PGN prints them, variations in brackets, without the result."""
        exporter = chess.pgn.StringExporter(headers=False, comments=False, columns=None)
        return self.game.accept(exporter).removesuffix("*").strip()


def read_solution(text: str, name: str = "the PGN") -> chess.pgn.Game:
    """A study's first game in PGN ``text``, its solution checked move by move: GbrError naming
    the move (``move 3... Rxe4 is illegal here: ...``) and the place where one is refused."""
    game: chess.pgn.Game | None = chess.pgn.read_game(io.StringIO(text), Visitor=_QuietBuilder)
    if game is None:
        raise GbrError(f"{name}: no game in it")
    if game.errors:
        raise GbrError(f"{name}: {_first_error(game)}")
    return game


class _QuietBuilder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder, keeping its errors in the game without logging them."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def _first_error(game: chess.pgn.Game) -> str:
    """Where python-chess stopped reading the moves, said as the move's number and why: its
    reader keeps the moves before the first bad one, which the text then names."""
    board = game.end().board()
    error = game.errors[0]
    words = str(error)
    san = words.split("'")[1] if words.count("'") >= 2 else ""
    if san and not isinstance(error, chess.InvalidMoveError):
        return f"move {refusal(board, san)}"
    return f"the solution cannot be read after move {move_label(board)}: {words[:120]}"


#: What a move is marked with after its SAN in the move list, from the position before it, or ""
#: (the hook for tablebase marks, the tablebase issue: a move that keeps the win, one that
#: throws it away).
MoveMark = Callable[[chess.Board, chess.Move], str]


def solution_rows(game: chess.pgn.GameNode, mark: MoveMark | None = None) -> list[tuple[chess.pgn.ChildNode, int, str]]:
    """The moves of a solution one a row, as a move list shows them: each node, its depth (0 on
    the main line, one more in each variation) and its words (``3... Rxe3+``, then its
    ``mark`` if any). A node's variations follow its main move, each with its own continuation."""
    rows: list[tuple[chess.pgn.ChildNode, int, str]] = []

    def words(board: chess.Board, move: chess.Move) -> str:
        marked = mark(board, move) if mark is not None else ""
        return f"{move_label(board)} {board.san(move)}" + (f" {marked}" if marked else "")

    def line(node: chess.pgn.GameNode, depth: int) -> None:
        current = node
        while current.variations:
            main, *others = current.variations
            board = current.board()
            rows.append((main, depth, words(board, main.move)))
            for other in others:
                rows.append((other, depth + 1, words(board, other.move)))
                line(other, depth + 1)
            current = main

    line(game, 0)
    return rows


#: Of a study's game in a file, at most this much is read for its solution.
STUDY_CHARACTERS = 1 << 18


def study_at(path: str, line: int, board: chess.Board) -> chess.pgn.Game | None:
    """The solution of the study whose game starts at ``line`` of the PGN file ``path``, when
    it has moves and starts from ``board`` (the position loaded); None for any other file or
    game. GbrError naming the file, line and move where its solution is illegal."""
    if not path.lower().endswith(".pgn") or not os.path.isfile(path):
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            for _ in range(line - 1):
                file.readline()
            text = file.read(STUDY_CHARACTERS)
    except OSError as error:
        raise GbrError(f"{os.path.basename(path)}: cannot be read ({error.strerror or error})") from None
    game = read_solution(text, f"{os.path.basename(path)}:{line}")
    if game.next() is None or game.board().board_fen() != board.board_fen():
        return None
    return game
