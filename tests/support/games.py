"""A hand-made game whose captures are known, written as PGN, and its colour twin."""

from __future__ import annotations

import chess

# White Kc1 Ra1 Na7, Black Kh7 Rb7: KRN v KR. R digit 1 + 3*1 = 4, N digit 1: 0401.00.
START = "8/Nr5k/8/8/8/8/8/R1K5 w - - 0 1"
# Nine king moves, then 5...Rxa7 (ply 10) takes the knight: KR v KR, 0400.00, after 10 plies;
# 6. Rxa7 (ply 11) takes the rook: KR v K, 0100.00, after 1 ply; two more king moves end it.
MOVES = ["Kd1", "Kh8", "Kc1", "Kh7", "Kd1", "Kh8", "Kc1", "Kh7", "Kd1", "Rxa7", "Rxa7", "Kg8", "Kd2"]


def movetext(board: chess.Board, sans: list[str]) -> str:
    board = board.copy()
    words = []
    for san in sans:
        if board.turn == chess.WHITE:
            words.append(f"{board.fullmove_number}.")
        elif not words:
            words.append(f"{board.fullmove_number}...")
        words.append(board.san(board.parse_san(san)))
        board.push_san(san)
    return " ".join(words)


def mirrored(fen: str, sans: list[str]) -> tuple[str, list[str]]:
    """The colour twin of a game: the board mirrored, White's men Black's, every move mirrored."""
    board = chess.Board(fen)
    twin = board.mirror()
    twin_sans = []
    for san in sans:
        move = board.parse_san(san)
        twin_move = chess.Move(chess.square_mirror(move.from_square), chess.square_mirror(move.to_square))
        twin_sans.append(twin.san(twin_move))
        board.push(move)
        twin.push(twin_move)
    return chess.Board(fen).mirror().fen(), twin_sans


def game(fen: str, sans: list[str], result: str, event: str = "g") -> str:
    return f'[Event "{event}"]\n[FEN "{fen}"]\n[Result "{result}"]\n\n{movetext(chess.Board(fen), sans)} {result}\n\n'
