"""A collection with a caption of each kind, in PGN, EPD, CSV and JSON Lines: agreeing ones
(spec section 4's published pairs), wrong ones (one part of a published caption changed by hand;
the comment beside it says what the position gives instead), none, and bad records.
"""

from __future__ import annotations

import json

KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1"  # spec 4: =0323.12g3g1
ARVES = "8/K7/2nn4/8/8/1B1k4/1R6/8 w - - 0 1"  # spec 4: a7d3 0116.00 b2b3c6d6 3/3+
GERMAN = "k7/8/8/8/8/8/pp6/K7 w - - 0 1"  # spec 4: 0000.02.a1a8.a2b2

#: (position, printed caption, the parts that disagree, what the position gives for each)
CASES = [
    (KUBBEL, "=0323.12g3g1", [], []),
    (ARVES, "a7d3 0116.00 b2b3c6d6 3/3+", [], []),
    (GERMAN, "0000.02.a1a8.a2b2", [], []),
    # A wrong digit: one Black knight (g8) and no White one is N = 3, not 4.
    (KUBBEL, "=0324.12g3g1", ["code"], ["0323.12"]),
    # A wrong count: K, R, B for White and K, N, N for Black are 3/3, kings included.
    (ARVES, "a7d3 0116.00 b2b3c6d6 3/4+", ["count"], ["3/3"]),
    # Swapped kings: the White king stands on a7, the Black one on d3.
    (ARVES, "d3a7 0116.00 b2b3c6d6 3/3+", ["kings"], ["a7d3"]),
    # A wrong square: Black's pawns are on a2 and b2, not a2 and b3.
    (GERMAN, "0000.02.a1a8.a2b3", ["squares"], ["a2b2"]),
]
NO_CAPTION = ARVES  # a record without one: unchecked
UNDECODABLE = "0116.0x"  # a bad record: its caption does not decode
BROKEN_FEN = "8/8/8/9/8/8/8/8 w - - 0 1"  # a bad record: its position does not read


def pgn_game(fen: str, caption: str | None, event: str) -> str:
    tags = [f'[Event "{event}"]', '[White "Composer"]', '[SetUp "1"]', f'[FEN "{fen}"]']
    if caption is not None:
        tags.append(f'[GBR "{caption}"]')
    return "\n".join(tags) + "\n\n*\n\n"


def write_pgn(path) -> list[int]:
    """The collection as PGN; the line where each record starts."""
    games = [pgn_game(fen, caption, f"case {n}") for n, (fen, caption, _, _) in enumerate(CASES)]
    games += [pgn_game(NO_CAPTION, None, "none"), pgn_game(ARVES, UNDECODABLE, "x"), pgn_game(BROKEN_FEN, "0000", "y")]
    lines, line = [], 1
    for game in games:
        lines.append(line)
        line += game.count("\n")
    path.write_text("".join(games))
    return lines


def write_epd(path) -> list[int]:
    def epd(fen: str, caption: str | None) -> str:
        operations = f' GBR "{caption}";' if caption is not None else ""
        return " ".join(fen.split()[:4]) + operations + f' id "r{len(rows)}";'

    rows: list[str] = []
    for fen, caption, _, _ in CASES:
        rows.append(epd(fen, caption))
    rows += [epd(NO_CAPTION, None), epd(ARVES, UNDECODABLE), epd(BROKEN_FEN, "0000")]
    path.write_text("\n".join(rows) + "\n")
    return list(range(1, len(rows) + 1))


def write_csv(path) -> list[int]:
    rows = ["fen,GBR"] + [f"{fen},{caption}" for fen, caption, _, _ in CASES]
    rows += [f"{NO_CAPTION},", f"{ARVES},{UNDECODABLE}", f"{BROKEN_FEN},0000"]
    path.write_text("\n".join(rows) + "\n")
    return list(range(2, len(rows) + 1))


def write_jsonl(path) -> list[int]:
    rows = [json.dumps({"fen": fen, "GBR": caption, "White": "Composer"}) for fen, caption, _, _ in CASES]
    rows += [json.dumps({"fen": NO_CAPTION}), json.dumps({"fen": ARVES, "GBR": UNDECODABLE}), '{"fen": "8/8"']
    path.write_text("\n".join(rows) + "\n")
    return list(range(1, len(rows) + 1))


WRITERS = {"pgn": write_pgn, "epd": write_epd, "csv": write_csv, "jsonl": write_jsonl}
