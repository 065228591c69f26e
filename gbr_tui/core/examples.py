"""The published example classes (spec section 2), named classes and named positions, as data.

A class is stored as its material; a named position as the facts printed with it: its FEN (side
to move included), its stipulation in words and its source. Every code shown is computed by the
core, never typed here.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import chess

from gbr_tui.core.captions import read_result
from gbr_tui.core.code import Rule, encode
from gbr_tui.core.material import PIECE_TYPES, Material


@dataclass(frozen=True)
class Example:
    white: str
    black: str
    name: str
    #: A named position: its FEN as published, side to move included. None: a class only.
    fen: str | None = None
    #: The stipulation as printed ("White to play and draw"); "" when none is printed.
    result: str = ""
    #: Who published it, where and when ("R. Réti, Kagans Neueste Schachnachrichten 1921").
    source: str = ""

    @property
    def material(self) -> Material:
        if self.fen is not None:
            return Material.from_board(self.board)
        return Material.from_string(f"{self.white} v {self.black}")

    @property
    def board(self) -> chess.Board:
        """The position as published; a class has none (ValueError)."""
        if self.fen is None:
            raise ValueError(f"{self.name} is a class, not a position")
        return chess.Board(self.fen)

    @property
    def stipulation(self) -> str | None:
        """``+`` or ``=`` as the printed words say, when White is to move (both signs mean
        White to play); None for a class, for no result, or with Black to move."""
        if self.fen is None or not self.result or self.board.turn == chess.BLACK:
            return None
        return read_result(self.result).stipulation

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


def position(name: str, fen: str, result: str, source: str) -> Example:
    """A named position; its two sides' material is read from the FEN."""
    material = Material.from_board(chess.Board(fen))
    return Example(material.side_string(chess.WHITE), material.side_string(chess.BLACK), name, fen, result, source)


NAMED: tuple[Example, ...] = (
    Example("KNN", "KP", "Troitzky: two knights against pawn (the Troitzky line)"),
    position("the full starting array", chess.STARTING_FEN, "", "the rules of chess"),
)

#: Classic studies and positions a composer knows by name, as published. Each FEN was checked
#: against its published solution (every move of the main line is legal from it).
CLASSICS: tuple[Example, ...] = (
    position(
        "Réti 1921",
        "7K/8/k1P5/7p/8/8/8/8 w - - 0 1",
        "White to play and draw",
        "R. Réti, Kagans Neueste Schachnachrichten 1921",
    ),
    position(
        "Saavedra 1895",
        "8/8/1KP5/3r4/8/8/8/k7 w - - 0 1",
        "White to play and win",
        "G. E. Barbier & F. Saavedra, Glasgow Weekly Citizen 1895",
    ),
    position(
        "Kubbel 1925",
        "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1",
        "White to play and draw",
        "L. Kubbel, Shakhmaty 1925, 1st prize",
    ),
    position(
        "Kubbel 1922",
        "1N6/8/K7/3k4/3p3B/p7/2PP4/8 w - - 0 1",
        "White to play and win",
        "L. Kubbel, Shakhmatny Listok 1922",
    ),
    position(
        "Lasker & Reichhelm 1901",
        "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
        "White to play and win",
        "Em. Lasker & G. C. Reichhelm, Chicago Tribune 1901",
    ),
    position(
        "Lucena position",
        "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
        "White to play and win",
        "A. Salvio, Il Puttino 1634, after S. Genovino",
    ),
    position(
        "Philidor position (rook)",
        "8/8/8/8/4pk2/R7/7r/4K3 b - - 0 1",
        "Black to move, White draws",
        "F.-A. D. Philidor 1777, the third-rank defence",
    ),
    position(
        "Philidor position (queen v rook)",
        "1k6/1r6/2K5/Q7/8/8/8/8 w - - 0 1",
        "White to play and win",
        "F.-A. D. Philidor 1777",
    ),
    position(
        "Philidor position (rook and bishop v rook)",
        "3k4/5R2/3K4/3B4/8/8/4r3/8 w - - 0 1",
        "White to play and win",
        "F.-A. D. Philidor 1749",
    ),
    position(
        "Centurini 1856",
        "2KB4/1P6/2k5/8/8/8/7b/8 w - - 0 1",
        "White to play and win",
        "L. Centurini 1856, bishop and pawn against bishop",
    ),
    position(
        "Centurini 1850",
        "3k4/8/2K5/5N2/6r1/4R3/8/8 w - - 0 1",
        "White to play and win",
        "L. Centurini 1850, rook and knight against rook",
    ),
    position(
        "Grigoriev 1928",
        "6K1/8/pp5p/8/7k/3PP3/8/8 w - - 0 1",
        "White to play and win",
        "N. Grigoriev, Shakhmaty 1928, 3rd prize",
    ),
    position(
        "Platov 1909",
        "8/4B2p/8/3p3P/8/3Pk1K1/p7/6N1 w - - 0 1",
        "White to play and win",
        "V. & M. Platov, Rigaer Tageblatt 1909, 1st prize",
    ),
    position(
        "Troitzky 1910",
        "8/1qp1k3/p4p2/3PN3/3RP3/8/PP3Pn1/6K1 w - - 0 1",
        "White to play and win",
        "A. Troitzky, Deutsche Schachzeitung 1910",
    ),
    position(
        "Kling & Horwitz 1851",
        "8/8/8/8/8/6K1/3N1p2/5N1k w - - 0 1",
        "White to play and win",
        "J. Kling & B. Horwitz, Chess Studies 1851, two knights against pawn",
    ),
    position(
        "Seletsky 1933",
        "5q2/n2P1k2/2b5/8/8/3N4/4BK2/6Q1 w - - 0 1",
        "White to play and win",
        "A. Seletsky, Shakhmaty v SSSR 1933, 1st prize",
    ),
    position(
        "Liburkin 1933",
        "4Nn2/8/3P4/kP2P3/5p2/5p2/8/2K5 w - - 0 1",
        "White to play and win",
        "M. Liburkin, 64 1933, 2nd prize",
    ),
    position(
        "Liburkin 1939",
        "2N5/p7/q1p2p2/kp6/3P4/PP2K3/5P2/2B5 w - - 0 1",
        "White to play and win",
        "M. Liburkin, Shakhmaty v SSSR 1939",
    ),
    position(
        "Vančura position",
        "R7/6k1/P4r2/8/2K5/8/8/8 w - - 0 1",
        "White to move, Black draws",
        "J. Vančura 1924, as given in Y. Seirawan, Winning Chess Endings",
    ),
    position(
        "Romanovsky 1950",
        "R7/6k1/P7/5K2/8/8/8/r7 b - - 0 1",
        "Black to play and draw",
        "P. Romanovsky 1950, reaching the Vančura position",
    ),
)

#: The published positions of the spec (section 4), with the captions they were printed with.
SPEC_POSITIONS: tuple[Example, ...] = (
    position(
        "ARVES caption example",
        "8/K7/2nn4/8/8/1B1k4/1R6/8 w - - 0 1",
        "White wins",
        "ARVES, printed as a7d3 0116.00 b2b3c6d6 3/3+",
    ),
    position(
        "Probleemblad example",
        "2B4N/4kP2/2P2p2/4p3/8/r2p1K2/1b6/8 w - - 0 1",
        "White to play and draw",
        "Probleemblad, printed as =0341.23f3e7a3c8b2h8c6f7d3e5f6",
    ),
    position(
        "German Wikipedia example",
        "k7/8/8/8/8/8/pp6/K7 w - - 0 1",
        "",
        "German Wikipedia, printed as 0000.02.a1a8.a2b2",
    ),
)

ALL: tuple[Example, ...] = PUBLISHED + NAMED + CLASSICS + SPEC_POSITIONS


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


#: Letters a class pattern uses (material: K Q R B N P, either case, and ``v``).
PATTERN_LETTERS = frozenset("KQRBNPVkqrbnpv")


def find(text: str, rule: Rule = Rule.COUNT) -> list[Example]:
    """Examples whose class matches the pattern ``text``, in the collection filter's language
    (``core.patterns``: ``03``, ``04*``, ``0?0?.1*``, ``KRP``, ``KR v KR``); all of them for an
    empty one. GbrError for a pattern that does not read.

    Text with a letter no pattern uses (``Saavedra``, ``reti 1921``) is words instead: the
    examples whose name and source hold every word, case and accents aside.
    """
    if not text.strip():
        return list(ALL)
    if any(char.isalpha() and char not in PATTERN_LETTERS for char in text):
        words = _folded(text).split()
        return [
            example for example in ALL if all(word in _folded(f"{example.name} {example.source}") for word in words)
        ]
    from gbr_tui.core.patterns import parse_pattern  # not before a pattern is typed

    pattern = parse_pattern(text)
    return [example for example in ALL if pattern.matches(example.code(rule, short=False), example.material)]


def _folded(text: str) -> str:
    """Lower case without accents: ``Réti`` and ``reti`` read alike."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


__all__ = ["ALL", "CLASSICS", "NAMED", "PUBLISHED", "SPEC_POSITIONS", "Example", "arrange", "find", "position"]


def first_start_example() -> Example:
    """The study the app opens with the first time (the spec's own example, =0323.12g3g1)."""
    return next(example for example in ALL if example.name == "Kubbel 1925")
