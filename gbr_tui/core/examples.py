"""The published example classes (spec section 2) and named classes, as data.

Only the material is stored; every code shown is computed by the core.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from gbr_tui.core.code import Rule, encode
from gbr_tui.core.material import PIECE_TYPES, Material
from gbr_tui.core.patterns import parse_pattern


@dataclass(frozen=True)
class Example:
    white: str
    black: str
    name: str

    @property
    def material(self) -> Material:
        return Material.from_string(f"{self.white} v {self.black}")

    def code(self, rule: Rule = Rule.COUNT, short: bool = True) -> str:
        return encode(self.material, rule, short)

    @property
    def men(self) -> int:
        return len(self.white) + len(self.black)


PUBLISHED: tuple[Example, ...] = (
    Example("KQ", "K", "queen against bare king"),
    Example("KR", "K", "rook against bare king"),
    Example("KB", "K", "bishop against bare king"),
    Example("KN", "K", "knight against bare king"),
    Example("KNN", "K", "two knights against bare king"),
    Example("K", "KN", "Black knight against bare king"),
    Example("KN", "KN", "knight against knight"),
    Example("KNN", "KN", "two knights against knight"),
    Example("K", "KNN", "Black two knights against bare king"),
    Example("KN", "KNN", "knight against two knights"),
    Example("KNN", "KNN", "two knights against two knights"),
    Example("KNNN", "KNN", "three knights against two (promoted)"),
    Example("KPPP", "KPP", "three pawns against two"),
    Example("KNN", "KP", "two knights against pawn"),
    Example("KBB", "KN", "two bishops against knight"),
    Example("KQ", "KR", "queen against rook"),
    Example("KQP", "KQ", "queen and pawn against queen"),
    Example("KRP", "KR", "rook and pawn against rook"),
    Example("KRRP", "KRR", "two rooks and pawn against two rooks"),
    Example("KBBP", "KNN", "two bishops and pawn against two knights"),
    Example("KBBP", "KRNPP", "two bishops and pawn against rook, knight and two pawns"),
)

NAMED: tuple[Example, ...] = (
    Example("KNN", "KP", "Troitzky: two knights against pawn (the Troitzky line)"),
    Example("KQRRBBNNPPPPPPPP", "KQRRBBNNPPPPPPPP", "the full starting array"),
)

ALL: tuple[Example, ...] = PUBLISHED + NAMED


def arrange(
    material: Material,
    turn: chess.Color = chess.WHITE,
    kings: tuple[chess.Square, chess.Square] = (chess.E1, chess.E8),
) -> chess.Board:
    """A legal board with this material: no check, no pawn on a back rank.

    The kings stand on ``kings``, White's first (a code's king squares when it gives them; the
    default squares are apart).
    Pieces are placed greedily from each side's home ranks outward; a square that would give
    check is skipped. Raises ValueError when the material does not fit (more than 8 pawns or
    more than 16 men a side).
    """
    for color in (chess.WHITE, chess.BLACK):
        counts = material.side(color)
        if counts[4] > 8 or 1 + sum(counts) > 16:
            raise ValueError(f"{material} cannot stand on a legal board")
    board = chess.Board(None)
    board.turn = turn
    board.set_piece_at(kings[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(kings[1], chess.Piece(chess.KING, chess.BLACK))
    for color in (chess.WHITE, chess.BLACK):
        home = [0, 1, 2, 3] if color == chess.WHITE else [7, 6, 5, 4]
        pawn_ranks = [1, 2, 3] if color == chess.WHITE else [6, 5, 4]
        for piece_type, count in zip(PIECE_TYPES, material.side(color)):
            ranks = pawn_ranks if piece_type == chess.PAWN else home
            for _ in range(count):
                _place_safely(board, chess.Piece(piece_type, color), ranks)
    return board


def _place_safely(board: chess.Board, piece: chess.Piece, ranks: list[int]) -> None:
    for rank in ranks:
        for file in (3, 5, 2, 6, 1, 7, 0, 4):
            square = chess.square(file, rank)
            if board.piece_at(square) is not None:
                continue
            board.set_piece_at(square, piece)
            if not board.is_check() and not board.was_into_check():
                return
            board.remove_piece_at(square)
    raise ValueError(f"no square left for {piece.symbol()}")


def find(text: str, rule: Rule = Rule.COUNT) -> list[Example]:
    """Examples whose class matches the pattern ``text``, in the collection filter's language
    (``core.patterns``: ``03``, ``04*``, ``0?0?.1*``, ``KRP``, ``KR v KR``); all of them for an
    empty one. GbrError for a pattern that does not read."""
    if not text.strip():
        return list(ALL)
    pattern = parse_pattern(text)
    return [example for example in ALL if pattern.matches(example.code(rule, short=False), example.material)]


__all__ = ["ALL", "NAMED", "PUBLISHED", "Example", "arrange", "find"]
