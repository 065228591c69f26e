"""Seeded PGN in the shapes users have, shared by the tests and the benchmarks: Lichess's
export (its 17 tags, a ``{ [%clk ...] }`` comment after every move, ``[%eval ...]`` in some
games, ``1...`` after a comment, one line of movetext) and short capture-heavy games, beside
``positions.random_game``'s long random ones."""

from __future__ import annotations

import random

import chess

from tests.support.positions import game_text

TERMINATIONS = ("Normal", "Time forfeit")
OPENINGS = (("B01", "Scandinavian Defense"), ("C50", "Italian Game"), ("A00", "Van't Kruijs Opening"))


def played(rng: random.Random, plies: int, captures: float) -> tuple[chess.Board, list[str]]:
    """Up to ``plies`` random legal moves, a capture taken with chance ``captures`` when there
    is one; stops at mate or stalemate."""
    board = chess.Board()
    sans: list[str] = []
    while len(sans) < plies:
        moves = list(board.legal_moves)
        if not moves:
            break
        taking = [move for move in moves if board.is_capture(move)]
        move = rng.choice(taking if taking and rng.random() < captures else moves)
        sans.append(board.san(move))
        board.push(move)
    return board, sans


def _result(board: chess.Board, rng: random.Random) -> str:
    return board.result() if board.is_game_over() else rng.choice(("1-0", "0-1", "1/2-1/2"))


def lichess_game(rng: random.Random, number: int) -> str:
    """A game as Lichess's database writes it, 10 to 200 plies."""
    board, sans = played(rng, rng.randint(10, 200), captures=0.5)
    result = _result(board, rng)
    eco, opening = rng.choice(OPENINGS)
    white, black = rng.randint(800, 2800), rng.randint(800, 2800)
    tags = [
        ("Event", "Rated Blitz game"),
        ("Site", f"https://lichess.org/{number:08x}"),
        ("Date", "2024.01.01"),
        ("Round", "-"),
        ("White", f"player{rng.randint(1, 99999)}"),
        ("Black", f"player{rng.randint(1, 99999)}"),
        ("Result", result),
        ("UTCDate", "2024.01.01"),
        ("UTCTime", f"{rng.randint(0, 23):02}:{rng.randint(0, 59):02}:{rng.randint(0, 59):02}"),
        ("WhiteElo", str(white)),
        ("BlackElo", str(black)),
        ("WhiteRatingDiff", f"{rng.randint(-9, 9):+d}"),
        ("BlackRatingDiff", f"{rng.randint(-9, 9):+d}"),
        ("ECO", eco),
        ("Opening", opening),
        ("TimeControl", "300+0"),
        ("Termination", rng.choice(TERMINATIONS)),
    ]
    evals = rng.random() < 0.1  # some games were analysed
    seconds = [300, 300]
    tokens: list[str] = []
    for ply, san in enumerate(sans):
        seconds[ply % 2] = max(0, seconds[ply % 2] - rng.randint(0, 12))
        clock = seconds[ply % 2]
        if ply % 2 == 0:
            tokens.append(f"{ply // 2 + 1}. {san}")
        else:
            tokens.append(f"{ply // 2 + 1}... {san}")  # Lichess numbers Black's move after a comment
        value = f"[%eval {rng.uniform(-3, 3):.2f}] " if evals else ""
        tokens.append(f"{{ {value}[%clk 0:{clock // 60:02}:{clock % 60:02}] }}")
    tokens.append(result)
    return "".join(f'[{name} "{value}"]\n' for name, value in tags) + "\n" + " ".join(tokens) + "\n\n"


def capture_game(rng: random.Random, number: int) -> str:
    """A short game that takes what it can most of the time, 30 to 140 plies, written as the
    long random games are (seven tags, movetext wrapped at 79 columns)."""
    board, sans = played(rng, rng.randint(30, 140), captures=0.8)
    return game_text(number, sans, _result(board, rng))
