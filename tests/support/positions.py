"""Seeded random positions and games, for the equivalence tests and the benchmarks' inputs.

Every generator takes a ``random.Random`` and draws from it in a fixed order, so that a seed
always gives the same lines (the benchmarks cache their files by seed and count).
"""

from __future__ import annotations

import random

import chess

MEN = "QRBNPqrbnp"
#: Endgame studies' men, roughly as frequent as in studies.
STUDY_MEN = "PPPPPPPPppppppppNNNnnnBBBbbbRRRrrrQq"


def placement(men: dict[int, str]) -> str:
    """The FEN placement of ``men`` (by square, a1 = 0): what ``chess.Board.board_fen`` writes,
    many times faster where thousands of lines are made."""
    ranks = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for square in range(rank * 8, rank * 8 + 8):
            if square in men:
                row += (str(empty) if empty else "") + men[square]
                empty = 0
            else:
                empty += 1
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks)


def random_position(rng: random.Random) -> str:
    """Kings and up to 20 men anywhere (no pawn on a back rank, at most 8 a side): almost no
    rank repeats, and there are tens of thousands of classes."""
    board = chess.Board(None)
    squares = rng.sample(chess.SQUARES, 22)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for square in squares[2 : 2 + rng.randint(0, 20)]:
        letters = MEN.replace("P", "").replace("p", "") if chess.square_rank(square) in (0, 7) else MEN
        piece = chess.Piece.from_symbol(rng.choice(letters))
        if piece.piece_type != chess.PAWN or len(board.pieces(chess.PAWN, piece.color)) < 8:
            board.set_piece_at(square, piece)
    board.turn = rng.random() < 0.5
    return board.fen()


def game_positions(rng: random.Random, count: int, plies: tuple[int, int] = (10, 120)) -> list[str]:
    """Every position of games of uniformly random legal moves, each game ``plies`` long at
    most (a number drawn between the two), until there are ``count``."""
    fens: list[str] = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randint(*plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            fens.append(board.fen())
    return fens[:count]


def endgame(rng: random.Random) -> str:
    """Kings and 0 to 8 men: 2 to 10 men in all, as in studies; not always legal, and only a
    placement at times."""
    board = chess.Board(None)
    squares = rng.sample(chess.SQUARES, 10)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for square in squares[2 : 2 + rng.randint(0, 8)]:
        board.set_piece_at(
            square, chess.Piece.from_symbol(rng.choice("NBRQnbrq" if square < 8 or square > 55 else MEN))
        )
    return board.board_fen() if rng.random() < 0.3 else board.fen()


def study_endgame(rng: random.Random) -> str | None:
    """Kings and 0 to 8 men drawn as studies have them, or None where that is no legal position."""
    board = chess.Board(None)
    squares = rng.sample(chess.SQUARES, 10)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for square in squares[2 : 2 + rng.randint(0, 8)]:
        piece = chess.Piece.from_symbol(rng.choice(STUDY_MEN))
        if piece.piece_type != chess.PAWN or chess.square_rank(square) not in (0, 7):
            board.set_piece_at(square, piece)
    board.turn = rng.random() < 0.5
    return board.fen() if board.is_valid() else None


def few_men_endgame(rng: random.Random) -> str | None:
    """Kings and 1 to 7 other men, half of them pawns, anywhere; None where that is no legal
    position."""
    board = chess.Board(None)
    squares = rng.sample(chess.SQUARES, 9)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for square in squares[2 : 2 + rng.randrange(1, 8)]:
        piece_type = rng.choice([chess.PAWN] * 4 + [chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
        board.set_piece_at(square, chess.Piece(piece_type, rng.random() < 0.5))
    board.turn = rng.random() < 0.5
    return board.fen() if board.is_valid() else None


def positions_met_in_games(rng: random.Random, count: int, epd: bool = False) -> list[str]:
    """One position in twenty of games of random legal moves (up to 300 plies), as FENs or EPD
    lines with an id."""
    lines: list[str] = []
    while len(lines) < count:
        board = chess.Board()
        for _ in range(rng.randrange(1, 300)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.05:
                lines.append(board.epd(id=f"p{len(lines) + 1}") if epd else board.fen())
    return lines[:count]


def clean_lines(kind: str, rng: random.Random, count: int) -> list[str]:
    """``count`` lines of one kind: "random", "games" or "endgames"."""
    if kind == "random":
        return [random_position(rng) for _ in range(count)]
    if kind == "games":
        return game_positions(rng, count)
    return [endgame(rng) for _ in range(count)]


def _at(rng: random.Random, text: str, within: str) -> int:
    return rng.randrange(len(within) + 1) if within else 0


def spoiled(rng: random.Random, fen: str) -> str:
    """``fen`` spoiled one way, picked at random (some spoilings leave a FEN python-chess takes:
    they must then get the same code)."""
    placement, _, rest = fen.partition(" ")
    ranks = placement.split("/")
    rank = rng.randrange(8)
    at = _at(rng, fen, placement)
    ways = [
        lambda: fen[:at] + rng.choice("123456789x0~/KkPp") + fen[at:],  # a character more
        lambda: fen[:at] + fen[at + 1 :],  # a character less
        lambda: fen[:at] + rng.choice("XxjJ0 9~-\t.") + fen[at + 1 :],  # a character replaced
        lambda: "/".join([*ranks[:rank], ranks[rank] + "P", *ranks[rank + 1 :]]) + " " + rest,  # 9 files
        lambda: "/".join(ranks[:rank] + ranks[rank + 1 :]) + " " + rest,  # 7 ranks
        lambda: "/".join([*ranks, "8"]) + " " + rest,  # 9 ranks
        lambda: "/".join([*ranks[:rank], "44", *ranks[rank + 1 :]]),  # two digits in a row
        lambda: placement + " " + " ".join(rest.split()[: rng.randrange(5)]),  # missing fields
        lambda: placement + " " + rng.choice(["W", "x", "wb", "-", ""]) + " - - 0 1",  # bad side
        lambda: placement + " w " + rng.choice(["KX", "KQKQ", "kqKQ", "KQkqK", "x", "--", "AHah"]) + " - 0 1",
        lambda: placement + " b - " + rng.choice(["e9", "E3", "i3", "e", "e33", "--", "a1"]) + " 0 1",
        lambda: (
            placement + " w - - " + rng.choice(["-1", "x", "+3", "\u0663", "00", "1e3", "9" * 12, "9" * 5000]) + " 1"
        ),
        lambda: placement + " w - - 0 " + rng.choice(["-1", "0", "1.5", "99999", "٣"]),
        lambda: fen + rng.choice([" extra", " 1", "  ", " ", "\t"]),  # more fields, trailing spaces
        lambda: rng.choice(["  ", " ", "\t"]) + fen,  # leading spaces
        lambda: fen.replace(" ", "  ", 1),  # two spaces
        lambda: fen.replace(" ", "\t"),  # tabs
        lambda: fen + "\r",  # a CR kept from a CR LF file
        lambda: fen[:at] + "\r" + fen[at:],
        lambda: rng.choice(["", " ", "\t", "\r"]),  # empty lines
        lambda: fen[:at] + rng.choice(["\udcff", "\udc80", "é", "\u0668", "\x00"]) + fen[at:],  # not UTF-8
        lambda: fen + " " + "x" * rng.choice([100, 5000]),  # very long lines
        lambda: "/".join(["P" * 8] * 2 + ["8"] * 5 + ["k6K"]),  # 16 white pawns
        lambda: "/".join([rng.choice("QqNn") * 8] * 8),  # 64 men of one type
        lambda: "/".join(["K" * 8] * 2 + ["K7"] + ["8"] * 5) + " w - - 0 1",  # 17 White kings, no Black one
        lambda: placement.replace(rng.choice("Kk"), rng.choice(["", "K", "k", "Kk", "kK"]), 1) + " " + rest,  # kings
        lambda: fen[:at] + "\n" + fen[at:],  # a line end inside (given to the encoder directly)
    ]
    return rng.choice(ways)()


def random_game(rng: random.Random, max_plies: int = 500) -> tuple[list[str], str]:
    """Uniformly random legal moves until mate, stalemate, dead material, the 75-move rule or
    ``max_plies``; returns the SAN moves and the result."""
    board = chess.Board()
    sans = []
    while len(sans) < max_plies:
        moves = list(board.legal_moves)
        if not moves or board.is_insufficient_material() or board.halfmove_clock >= 150:
            break
        move = rng.choice(moves)
        sans.append(board.san(move))
        board.push(move)
    result = board.result(claim_draw=False) if board.is_checkmate() else "1/2-1/2"
    if not board.is_game_over() and len(sans) >= max_plies:
        result = "*"
    return sans, result


def game_text(number: int, sans: list[str], result: str) -> str:
    """A game as PGN export writes it: the seven tags, movetext wrapped at 79 columns."""
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
    for token in moves:
        if line and len(line) + 1 + len(token) > 79:
            text.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    text.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(text) + "\n\n"
