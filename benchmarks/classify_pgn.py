"""Benchmark 2: the final classes of 20,000 random games.

Against python-chess (``read_game``, then the board at the end of the mainline): goal at least
5x faster. Against pgn-extract (C, Debian package, ``pgn-extract -F`` writes each game's final
FEN): goal within 3x of its time. All are timed once, in this run, on the same cached file; the
classes found are checked against both.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import chess.pgn

sys.path.insert(0, str(Path(__file__).parent))

from inputs import CACHE, random_games_pgn
from usage import answer_help

from gbr_tui.core import encode
from gbr_tui.core.collection import Collection
from gbr_tui.core.pgn import san_tokens, split_games

PGN_EXTRACT = shutil.which("pgn-extract") or "/usr/games/pgn-extract"
_FINAL_FEN = re.compile(r'\{ "([^"]+)" \}')


def python_chess(path: Path) -> Counter:
    counts = Counter()
    with path.open() as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            counts[encode(game.end().board())] += 1
    return counts


def ours(path: Path) -> Counter:
    with Collection(path, game_positions="final") as collection:
        return collection.tally().codes


def command(path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "gbr_tui.cli", "classify", "--position", "final", str(path)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def pgn_extract(path: Path, output: Path) -> None:
    subprocess.run(
        [PGN_EXTRACT, "-F", "-s", "-o", str(output), str(path)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def pgn_extract_classes(output: Path) -> Counter:
    return Counter(encode(fen) for fen in _FINAL_FEN.findall(output.read_text()))


def timed(function, *args):
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def main() -> None:
    path = random_games_pgn()
    with path.open() as lines:
        games = plies = 0
        for game in split_games(line.rstrip("\n") for line in lines):
            games += 1
            plies += len(san_tokens(game.movetext))
    print(f"{games:,} random games, about {plies / games:.0f} plies each, {path.stat().st_size / 1e6:.0f} MB")

    ours_time, counts = timed(ours, path)
    command_time, _ = timed(command, path)
    print(f"  Collection.tally(), in process:           {ours_time:8.2f} s")
    print(f"  gbr-tui classify --position final:        {command_time:8.2f} s")

    if Path(PGN_EXTRACT).exists():
        output = CACHE / "pgn-extract-final.pgn"
        extract_time, _ = timed(pgn_extract, path, output)
        agree = pgn_extract_classes(output) == counts
        print(
            f"  pgn-extract -F:                            {extract_time:8.2f} s"
            f"  gbr-tui takes {command_time / extract_time:.2f}x as long (goal <= 3x)"
            f"; classes {'agree' if agree else 'DISAGREE'}"
        )
        output.unlink()
    else:
        print("  pgn-extract not installed (apt-get install pgn-extract): skipped")

    chess_time, expected = timed(python_chess, path)
    print(
        f"  python-chess read_game + replay:           {chess_time:8.2f} s"
        f"  ratio {chess_time / ours_time:.1f}x in process, {chess_time / command_time:.1f}x whole command"
        f" (goal >= 5x); classes {'agree' if expected == counts else 'DISAGREE'}"
    )


if __name__ == "__main__":
    answer_help(__doc__)
    main()
