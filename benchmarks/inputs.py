"""Benchmark inputs: random games and positions, made with a fixed seed and cached.

The files go to ``benchmarks/.cache/`` (git-ignored). Making the 20,000 games takes minutes with
python-chess, so they are made once; delete the cache to remake them.
"""

from __future__ import annotations

import random
from pathlib import Path

import chess

CACHE = Path(__file__).parent / ".cache"
SEED = 20240601
MAX_PLIES = 500


def random_game(rng: random.Random) -> tuple[list[str], str]:
    """Uniformly random legal moves until mate, stalemate, dead material, the 75-move rule or
    ``MAX_PLIES``; returns the SAN moves and the result."""
    board = chess.Board()
    sans = []
    while len(sans) < MAX_PLIES:
        moves = list(board.legal_moves)
        if not moves or board.is_insufficient_material() or board.halfmove_clock >= 150:
            break
        move = rng.choice(moves)
        sans.append(board.san(move))
        board.push(move)
    result = board.result(claim_draw=False) if board.is_checkmate() else "1/2-1/2"
    if not board.is_game_over() and len(sans) >= MAX_PLIES:
        result = "*"
    return sans, result


def game_text(number: int, sans: list[str], result: str) -> str:
    headers = [
        ("Event", "Random games"),
        ("Site", "Benchmark"),
        ("Date", "2024.06.01"),
        ("Round", str(number)),
        ("White", f"Random {number}a"),
        ("Black", f"Random {number}b"),
        ("Result", result),
    ]
    lines = [f'[{name} "{value}"]' for name, value in headers]
    moves = []
    for ply, san in enumerate(sans):
        moves.append(f"{ply // 2 + 1}. {san}" if ply % 2 == 0 else san)
    moves.append(result)
    text, line = [], ""
    for token in moves:  # wrap movetext at 79 columns, as PGN export does
        if line and len(line) + 1 + len(token) > 79:
            text.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    text.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(text) + "\n\n"


def random_games_pgn(count: int = 20_000) -> Path:
    """A PGN of ``count`` random games (cached)."""
    path = CACHE / f"random-{count}.pgn"
    if path.exists():
        return path
    CACHE.mkdir(exist_ok=True)
    rng = random.Random(SEED)
    partial = path.with_suffix(".part")
    with partial.open("w") as out:
        for number in range(1, count + 1):
            out.write(game_text(number, *random_game(rng)))
    partial.rename(path)
    return path


def repeated_pgn(source: Path, times: int) -> Path:
    """``source`` written ``times`` times over: a big PGN without making new games."""
    path = CACHE / f"{source.stem}-x{times}.pgn"
    if not path.exists():
        data = source.read_bytes()
        with path.open("wb") as out:
            for _ in range(times):
                out.write(data)
    return path


def random_positions(count: int = 200_000, epd: bool = False) -> Path:
    """``count`` FENs (or EPD lines) of positions met in random games (cached)."""
    path = CACHE / f"positions-{count}.{'epd' if epd else 'fen'}"
    if path.exists():
        return path
    CACHE.mkdir(exist_ok=True)
    rng = random.Random(SEED + count)
    lines = []
    while len(lines) < count:
        board = chess.Board()
        for _ in range(rng.randrange(1, 300)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.05:
                fen = board.epd(id=f"p{len(lines) + 1}") if epd else board.fen()
                lines.append(fen + "\n")
    partial = path.with_suffix(".part")
    partial.write_text("".join(lines[:count]))
    partial.rename(path)
    return path


def random_endgames(count: int = 200_000) -> Path:
    """``count`` FENs of legal positions with kings and 1 to 7 other men, placed at random: what
    endgame-study collections hold (cached)."""
    path = CACHE / f"endgames-{count}.fen"
    if path.exists():
        return path
    CACHE.mkdir(exist_ok=True)
    rng = random.Random(SEED - count)
    lines = []
    while len(lines) < count:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 9)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2 : 2 + rng.randrange(1, 8)]:
            piece_type = rng.choice([chess.PAWN] * 4 + [chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
            board.set_piece_at(square, chess.Piece(piece_type, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        if board.is_valid():
            lines.append(board.fen() + "\n")
    partial = path.with_suffix(".part")
    partial.write_text("".join(lines))
    partial.rename(path)
    return path


if __name__ == "__main__":
    for made in (random_positions(), random_positions(epd=True), random_endgames(), random_games_pgn()):
        print(made, made.stat().st_size)
