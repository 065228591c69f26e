"""The one record walk: games grouped in one place (``walk.Games``), records handed to a
consumer once each, and worker processes started by an explicit method."""

from __future__ import annotations

import threading

from gbr_tui.core.collection import BadRecord, Collection, Record
from gbr_tui.core.collection.formats import format_module
from gbr_tui.core.collection.parallel import pool_context
from gbr_tui.core.collection.records import Format
from gbr_tui.core.collection.walk import Consumer, Games, walk
from gbr_tui.core.material import Material

ROOK = Material.from_string("KR v K")
PAWN = Material.from_string("KP v K")
BARE = Material.from_string("K v K")


def test_games_are_handed_out_once_each_with_their_classes_in_order():
    found = []
    games = Games(lambda classes, result: found.append((list(classes), result)))
    for number, code, material, result in (
        (1, "0100.00", ROOK, 0),
        (1, "0000.00", BARE, 0),
        (3, "0000.10", PAWN, 2),  # game 2 had no class kept: it is none
    ):
        games.add(number, code, material, result)
    assert found == [([("0100.00", ROOK), ("0000.00", BARE)], 0)]
    games.close()
    games.close()  # once only
    assert found[1:] == [([("0000.10", PAWN)], 2)]


class Seen(Consumer):
    def __init__(self) -> None:
        self.seen: list[tuple] = []

    def record(self, record: Record, first: bool) -> None:
        self.seen.append(("record", record.number, record.code, first))

    def bad(self, bad: BadRecord) -> None:
        self.seen.append(("bad", bad.number))

    def game(self, classes, result: int) -> None:
        self.seen.append(("game", [code for code, _ in classes], result))


def test_the_walk_hands_each_item_once_and_each_game_once_its_records_are_read(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(
        '[Event "a"]\n[Result "1-0"]\n\n1. e4 d5 2. exd5 *\n\n'
        '[Event "b"]\n[Result "0-1"]\n\n1. e4 Qxe4 *\n\n'
        '[Event "c"]\n\n1. e4 e5 2. Kxe5 *\n'
    )
    seen = Seen()
    with Collection(path, game_positions="all") as collection:
        walk(collection.records(), seen, format_module(collection.format).HOLDS_GAMES)
    assert seen.seen == [
        ("record", 1, "4888.88", True),
        ("record", 1, "4888.87", False),
        ("bad", 2),
        ("bad", 3),
        ("game", ["4888.88", "4888.87"], 0),  # at the next game's first record, or at the end
    ]


def test_worker_processes_are_not_forked_from_a_thread():
    reader = format_module(Format.FEN)
    found = []
    thread = threading.Thread(target=lambda: found.append(pool_context(reader).get_start_method()))
    thread.start()
    thread.join()
    assert found and found[0] != "fork"
    if threading.active_count() == 1:  # this process runs no other thread: forked, numpy first
        assert pool_context(reader).get_start_method() == "fork"
