"""Final codes on every PGN shape users have (Lichess's export with its clock and eval comments,
short capture-heavy games, long random games) against python-chess's own reading and replay,
game by game: the fast path's tokens and moves agree with the referee."""

from __future__ import annotations

import io
import random

import chess.pgn
import pytest

from gbr_tui.core.code import encode
from gbr_tui.core.collection import Collection, Record
from tests.support.pgn_shapes import capture_game, lichess_game
from tests.support.positions import game_text, random_game


def random_long_game(rng: random.Random, number: int) -> str:
    return game_text(number, *random_game(rng, max_plies=300))


SHAPES = {"lichess": lichess_game, "captures": capture_game, "random": random_long_game}


def python_chess_final_codes(text: str) -> list[str]:
    handle = io.StringIO(text)
    codes = []
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors, game.errors
        codes.append(encode(game.end().board()))
    return codes


def final_codes(text: str) -> list[str]:
    with Collection(io.BytesIO(text.encode()), game_positions="final") as collection:
        items = list(collection.records())
    assert all(isinstance(item, Record) for item in items)
    return [item.code for item in items]


@pytest.mark.parametrize(
    ("shape", "games"),
    [
        *((shape, 20) for shape in SHAPES),
        *(pytest.param(shape, 200, marks=pytest.mark.slow, id=f"{shape}-many") for shape in SHAPES),
    ],
)
def test_final_codes_agree_with_python_chess_game_by_game(shape, games):
    rng = random.Random(f"shape-{shape}-{games}")
    text = "".join(SHAPES[shape](rng, number) for number in range(1, games + 1))
    expected = python_chess_final_codes(text)
    assert len(expected) == games
    assert final_codes(text) == expected


def test_the_lichess_shape_is_what_lichess_writes():
    text = lichess_game(random.Random(1), 1)
    tags, movetext = text.split("\n\n")[:2]
    assert len(tags.splitlines()) == 17
    assert movetext.startswith("1. ") and " 1... " in movetext and "{ [%clk 0:0" in movetext
