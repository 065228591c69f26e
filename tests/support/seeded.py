"""Seeded collection files with good records, bad ones and captions, in each format: the
inputs of the tests that compare one process with workers, a file with its index, and the like.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

GOOD_GAME = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 *"
BAD_GAME = "1. e4 e5 2. Ke3 Nc6 *"  # 2. Ke3 is no legal move
BAD_START = '[SetUp "1"]\n[FEN "8/8/8/4k3/8/8/8/KR7 w - - 0 1"]\n'  # nine squares on the first rank
RESULTS = ("1-0", "1/2-1/2", "0-1", "*")
#: KR v K is 0100 (spec), so these captions of it are right, wrong, or do not decode.
CAPTIONS = ("0100.00", "0000.00", "01x6")


def pgn_text(rng: random.Random, games: int) -> str:
    """Games of one good movetext and one bad, some with a bad start position, some with a
    comment over a blank line."""
    parts = []
    for number in range(1, games + 1):
        movetext = BAD_GAME if rng.random() < 0.05 else GOOD_GAME
        # A bad start position is a bad record in every --position; a bad move only past the start.
        start = BAD_START if rng.random() < 0.03 else ""
        result = rng.choice(RESULTS)
        comment = " {a comment\n\nover a blank line}" if rng.random() < 0.05 else ""
        parts.append(f'[Event "Game {number}"]\n[Site "Here"]\n[Result "{result}"]\n{start}\n{movetext}{comment}\n\n')
    return "".join(parts)


def position_lines(rng: random.Random, lines: int, epd: bool) -> str:
    """FEN or EPD lines of three positions, some with a bad rank, some blank lines between."""
    fens = ["8/8/8/4k3/8/8/8/KR6 w - -", "8/8/8/4k3/8/1r6/P7/KR6 b - -", "k7/8/8/8/8/8/8/KQQ5 w - -"]
    out = []
    for number in range(lines):
        fen = rng.choice(fens)
        if rng.random() < 0.03:
            fen = fen.replace("/", "9/", 1)  # a bad rank
        elif rng.random() < 0.02:
            out.append("")  # a blank line: no record
        out.append(f'{fen} id "p{number}";' if epd else f"{fen} 0 1")
    return "\n".join(out) + "\n"


def mixed_file(directory: Path, kind: str) -> Path:
    """400 games or 3,000 lines of ``kind`` ("pgn", "epd" or "fen"), bad records among them."""
    rng = random.Random(kind)
    text = pgn_text(rng, 400) if kind == "pgn" else position_lines(rng, 3000, kind == "epd")
    path = directory / f"mixed.{kind}"
    path.write_text(text)
    return path


def bad_middle_file(directory: Path) -> Path:
    """Good games around a run of bad ones, so that a range cut at the middle starts with more
    bad records than a file may start with and still be a chess collection (readers.py:
    NOT_A_COLLECTION)."""
    path = directory / "bad-middle.pgn"
    games = [(BAD_START if 40 <= number < 80 else "", GOOD_GAME) for number in range(120)]
    path.write_text(
        "".join(f'[Event "Game {number}"]\n{start}\n{moves}\n\n' for number, (start, moves) in enumerate(games))
    )
    return path


def with_captions(text: str, rng: random.Random, epd: bool) -> str:
    """EPD lines and JSON Lines with a GBR caption: right, wrong, or not decoding."""
    lines = []
    for line in text.splitlines():
        caption = rng.choice(CAPTIONS)
        if not line:
            lines.append(line)
        elif epd:
            lines.append(f'{line} GBR "{caption}";')
        else:
            lines.append(f'{{"fen": "{line}", "GBR": "{caption}"}}')
    return "\n".join(lines) + "\n"


def seeded_file(directory: Path, kind: str, seed: int) -> Path:
    """150 games or 300 lines of ``kind`` ("pgn", "epd", "jsonl" or "fen"), bad records among
    them, and captions (right, wrong, undecodable) in all but FEN."""
    rng = random.Random(f"{kind}-{seed}")
    if kind == "pgn":

        def tagged(found: re.Match) -> str:
            return f'{found[0]}[GBR "{rng.choice(CAPTIONS)}"]\n'

        text = re.sub(r'\[Site "Here"\]\n', tagged, pgn_text(rng, 150))
    elif kind == "epd":
        text = with_captions(position_lines(rng, 300, epd=True), rng, epd=True)
    elif kind == "jsonl":
        text = with_captions(position_lines(rng, 300, epd=False), rng, epd=False)
    else:
        text = position_lines(rng, 300, epd=False)
    path = directory / f"seeded-{seed}.{kind}"
    path.write_text(text)
    return path
