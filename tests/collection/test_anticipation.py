"""The record consumers of `similar` and `duplicates`: groups found across parts and sources,
each member's transform named from the group's first record."""

from __future__ import annotations

import chess
import numpy as np

from gbr_tui.core.collection.anticipation import KeyedRecords
from gbr_tui.core.examples import CLASSICS
from gbr_tui.core.similar import boards_of
from gbr_tui.core.symmetry import transforms_for


def test_every_transform_of_every_classic_is_grouped_and_named() -> None:
    keyed = KeyedRecords(exact=False, same_side=True)
    expected = []
    for number, example in enumerate(CLASSICS):
        board = example.board
        transforms = transforms_for(board)
        moved = [transform.board(board) for transform in transforms]
        if len({found.board_fen() for found in moved}) < len(moved):
            continue  # a symmetric position: two transforms give one board
        turns = [int(not board.turn)] * len(moved)
        rows = np.arange(len(moved))
        keyed.add_rows(
            [f"classic {number}"], boards_of(moved, turns), np.zeros(len(moved), dtype=np.int64), rows + 1, rows + 1
        )
        expected.append([(f"classic {number}", row + 1, transform.name) for row, transform in enumerate(transforms)])
    found = keyed.duplicate_groups()
    assert len(expected) >= 8
    assert [[(m.source, m.record, m.transform) for m in group] for group in found] == expected


def test_exact_groups_only_the_same_board() -> None:
    board = CLASSICS[0].board
    mirrored = board.transform(chess.flip_horizontal)
    keyed = KeyedRecords(exact=True, same_side=True)
    rows = np.arange(3)
    keyed.add_rows(
        ["file"], boards_of([board, mirrored, board], [0, 0, 0]), np.zeros(3, dtype=np.int64), rows + 1, rows + 1
    )
    assert [[m.record for m in group] for group in keyed.duplicate_groups()] == [[1, 3]]


def test_records_read_one_by_one_between_vouched_lines_keep_their_order(tmp_path) -> None:
    import importlib
    import random

    from gbr_tui.core.code import Rule
    from gbr_tui.core.collection import CollectionRequest
    from gbr_tui.core.collection.anticipation import collection_items
    from gbr_tui.core.collection.positions import VouchedLines
    from tests.support.positions import study_endgame

    importlib.import_module("gbr_tui.core.fast")  # numpy vets every block once it is loaded
    rng = random.Random(8)
    lines = sorted({fen for fen in (study_endgame(rng) for _ in range(3000)) if fen is not None})
    first = lines[0]
    # Copies of the first: one the batch path leaves to python-chess (two spaces), one it vouches for.
    lines = [*lines, first.replace(" ", "  ", 1), *lines[1:], first]
    path = tmp_path / "positions.fen"
    path.write_text("\n".join(lines) + "\n")
    request = CollectionRequest((str(path),))
    with request.open(str(path), Rule.COUNT) as collection:
        assert any(isinstance(item, VouchedLines) for item in collection_items(collection))
    keyed = KeyedRecords(exact=True, same_side=True)
    with request.open(str(path), Rule.COUNT) as collection:
        keyed.scan(collection)
    copies = [group for group in keyed.duplicate_groups() if group[0].line == 1]
    assert [member.line for member in copies[0]] == [1, len(lines) // 2 + 1, len(lines)]


def test_two_positions_whose_first_hashes_met_are_not_grouped() -> None:
    """A queen and knight against a knight alone: an earlier hash (multiply and shift) gave them
    both hashes alike, and duplicates grouped them on a million positions."""
    boards = [chess.Board("8/q7/8/8/n7/7K/3k4/8 w - - 0 1"), chess.Board("8/8/7K/n7/8/8/k7/8 w - - 0 1")]
    keyed = KeyedRecords(exact=False, same_side=True)
    rows = np.arange(2)
    keyed.add_rows(["file"], boards_of(boards, [0, 0]), np.zeros(2, dtype=np.int64), rows + 1, rows + 1)
    assert keyed.duplicate_groups() == []
