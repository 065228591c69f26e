"""Positions the same under CQL's similarposition transforms, and those a man away."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from gbr_tui.core.examples import CLASSICS
from gbr_tui.core.similar import (
    Boards,
    board_of,
    boards_of,
    canonical_keys,
    duplicate_marks,
    groups,
    near,
    placement_rows,
    relative_transform,
    row_of,
)
from gbr_tui.core.symmetry import WITH_PAWNS, WITHOUT_PAWNS, transforms_for
from tests.support.positions import endgame, study_endgame

#: The spec's published positions (section 4), and the named classics as published.
SPEC_PLACEMENTS = ["6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1", "8/K7/2nn4/8/8/1B1k4/1R6/8", "k7/8/8/8/8/8/pp6/K7"]
PUBLISHED = [chess.Board(f"{placement} w - - 0 1") for placement in SPEC_PLACEMENTS] + [
    example.board for example in CLASSICS
]

#: Where a1 (file, rank) goes under each rotation and reflection, from the geometry of the board.
DIHEDRAL_A1_B1 = {
    "identity": ("a1", "b1"),
    "rotated 90°": ("a8", "a7"),  # clockwise: the first rank becomes the a-file, read downwards
    "rotated 180°": ("h8", "g8"),
    "rotated 270°": ("h1", "h2"),
    "mirrored": ("h1", "g1"),
    "flipped top to bottom": ("a8", "b8"),
    "reflected in the a1-h8 diagonal": ("a1", "a2"),
    "reflected in the a8-h1 diagonal": ("h8", "h7"),
}


def test_there_are_8_transforms_without_pawns_and_30_with() -> None:
    assert len(WITHOUT_PAWNS) == 8
    assert len(WITH_PAWNS) == 30
    assert len({transform.name for transform in (*WITHOUT_PAWNS, *WITH_PAWNS)}) == 8 + 30 - 2  # identity, mirrored


@pytest.mark.parametrize("transform", WITHOUT_PAWNS, ids=lambda transform: transform.name)
def test_each_rotation_and_reflection_moves_the_squares_as_its_name_says(transform) -> None:
    a1, b1 = DIHEDRAL_A1_B1[transform.name]
    assert transform(chess.BB_A1) == chess.BB_SQUARES[chess.parse_square(a1)]
    assert transform(chess.BB_B1) == chess.BB_SQUARES[chess.parse_square(b1)]


def test_shifts_move_whole_files_and_only_fit_when_every_man_stays_on() -> None:
    board = chess.BaseBoard("8/8/8/3k4/3p4/3K4/8/8")  # all on the d-file: 3 files left, 4 right
    names = [transform.name for transform in transforms_for(board)]
    assert len(names) == 2 * (1 + 7)
    assert "shifted 4 files right" in names and "shifted 5 files right" not in names
    assert "mirrored, shifted 3 files left" in names  # mirrored, the men are on the e-file
    shifted = next(t for t in transforms_for(board) if t.name == "shifted 2 files right").board(board)
    assert shifted == chess.BaseBoard("8/8/8/5k2/5p2/5K2/8/8")
    one_file = chess.BaseBoard("8/8/8/k7/p7/K7/8/8")
    # Whatever files the men stand on, 7 shifts fit in all: on the a-file, the 7 to the right.
    assert [t.files for t in transforms_for(one_file)] == [0, *range(1, 8), 0, *range(-1, -8, -1)]


@pytest.mark.parametrize("board", PUBLISHED, ids=lambda board: board.board_fen())
def test_published_positions_transformed_every_way_are_found_at_distance_0_named(board: chess.Board) -> None:
    transforms = transforms_for(board)
    moved = [transform.board(board) for transform in transforms]
    if len({found.board_fen() for found in moved}) < len(moved):
        pytest.skip("a symmetric position: two transforms give one board")
    records = boards_of(moved, [0] * len(moved))
    found = near(board, 0, records, max_distance=0)
    assert sorted(found.rows.tolist()) == list(range(len(moved)))
    for row, distance, transform in zip(found.rows.tolist(), found.distances.tolist(), found.transforms):
        assert distance == 0
        assert transform.name == transforms[row].name
    assert len(set(map(bytes, canonical_keys(records).keys))) == 1


def test_pawn_positions_are_never_matched_through_a_vertical_flip_or_a_rotation() -> None:
    board = chess.Board(f"{SPEC_PLACEMENTS[0]} w - - 0 1")
    vertical = [transform.board(board) for transform in WITHOUT_PAWNS if transform.name not in ("identity", "mirrored")]
    records = boards_of(vertical, [0] * len(vertical))
    assert len(near(board, 0, records, max_distance=0).rows) == 0
    keys = canonical_keys(boards_of([board, *vertical], [0] * 7)).keys
    # (the six fall in three pairs, each a mirror of the other: but none is the searched position)
    assert bytes(keys[0]) not in {bytes(key) for key in keys[1:]}


def test_the_side_to_move_is_kept_unless_told() -> None:
    board = PUBLISHED[1]
    mirrored = transforms_for(board)[4].board(board)
    records = boards_of([mirrored], [1])  # Black to move
    assert len(near(board, 0, records, max_distance=0).rows) == 0
    assert near(board, 0, records, max_distance=0, same_side=False).rows.tolist() == [0]
    keys = canonical_keys(boards_of([board, mirrored], [0, 1])).keys
    assert bytes(keys[0]) != bytes(keys[1])
    keys = canonical_keys(boards_of([board, mirrored], [0, 1]), same_side=False).keys
    assert bytes(keys[0]) == bytes(keys[1])


def test_exact_finds_only_the_position_itself() -> None:
    board = PUBLISHED[1]
    moved = [transform.board(board) for transform in transforms_for(board)]
    found = near(board, 0, boards_of(moved, [0] * 8), max_distance=0, exact=True)
    assert found.rows.tolist() == [0]
    assert found.transforms[0].name == "identity"


def _one_man_away(board: chess.BaseBoard) -> list[chess.BaseBoard]:
    """Every board a man more, fewer (not a king), or a man on another square."""
    near_boards = []
    empty = [square for square in chess.SQUARES if board.piece_at(square) is None]
    for square, piece in board.piece_map().items():
        if piece.piece_type != chess.KING:
            fewer = board.copy()
            fewer.remove_piece_at(square)
            near_boards.append(fewer)
        for target in empty:
            moved = board.copy()
            moved.remove_piece_at(square)
            moved.set_piece_at(target, piece)
            near_boards.append(moved)
    for target in empty:
        for symbol in "QRBNPqrbnp":
            more = board.copy()
            more.set_piece_at(target, chess.Piece.from_symbol(symbol))
            near_boards.append(more)
    return near_boards


def test_distance_1_is_exactly_the_set_one_man_away() -> None:
    board = chess.BaseBoard("8/8/2k5/8/3N4/8/1K6/8")  # no symmetry, no pawns
    rng = random.Random(27)
    away = _one_man_away(board)
    twice = [rng.choice(_one_man_away(rng.choice(away))) for _ in range(300)]
    transforms = transforms_for(board)
    boards = [*away, *twice]
    planted = [rng.choice(transforms).board(found) for found in boards]  # each as it might be published
    found = near(board, 0, boards_of(planted, [0] * len(planted)), max_distance=1)
    one_away = {found.board_fen() for found in away} - {t.board(board).board_fen() for t in transforms}
    rows_one_away = {row for row, found in enumerate(boards) if found.board_fen() in one_away}
    at_distance = dict(zip(found.rows.tolist(), found.distances.tolist()))
    assert {row for row, distance in at_distance.items() if distance == 1} == rows_one_away
    assert all(boards[row].board_fen() not in one_away for row, d in at_distance.items() if d == 0)
    for row, transform in zip(found.rows.tolist(), found.transforms):
        searched = transform.board(board)
        assert len(searched.piece_map().items() ^ planted[row].piece_map().items()) <= 2  # one man apart


def test_placements_are_read_as_python_chess_reads_them() -> None:
    rng = random.Random(5)
    fens = [fen for fen in (study_endgame(rng) or endgame(rng) for _ in range(400))]
    rows = placement_rows(fens)
    for row, fen in enumerate(fens):
        assert rows.bits[row].tolist() == row_of(chess.BaseBoard(fen.split()[0]))
        assert rows.turns[row] == (len(fen.split()) > 1 and fen.split()[1] == "b")
        assert board_of(rows.bits[row].tolist()) == chess.BaseBoard(fen.split()[0])


def test_planted_copies_give_exactly_those_groups() -> None:
    rng = random.Random(3)
    originals: list[chess.Board] = []
    seen: set[bytes] = set()
    while len(originals) < 300:
        fen = study_endgame(rng)
        if fen is None:
            continue
        board = chess.Board(fen)
        key = bytes(canonical_keys(boards_of([board], [int(not board.turn)])).keys[0])
        if key not in seen:
            seen.add(key)
            originals.append(board)
    positions = [(board, int(not board.turn)) for board in originals]
    planted = {}
    for original in rng.sample(range(300), 40):
        board = originals[original]
        transforms = transforms_for(board)
        copies = rng.sample(transforms, min(len(transforms), rng.randint(1, 3)))
        planted[original] = [len(positions) + at for at in range(len(copies))]
        positions += [(transform.board(board), int(not board.turn)) for transform in copies]
    rows = boards_of([board for board, _ in positions], [turn for _, turn in positions])
    expected = sorted([original, *copies] for original, copies in planted.items())
    assert sorted(group.tolist() for group in groups(canonical_keys(rows).keys)) == expected
    canonical = canonical_keys(rows)
    for group in groups(canonical.keys):
        first = positions[group[0]][0]
        made = [(int(canonical.flips[row]), int(canonical.shifts[row])) for row in group]
        for row, how in zip(group.tolist(), made):
            transform = relative_transform(made[0], how, bool(first.pawns))
            assert transform.board(first) == positions[row][0]


def test_no_boards_no_groups() -> None:
    assert groups(canonical_keys(Boards.empty()).keys) == []
    assert len(near(chess.BaseBoard(), 0, Boards.empty()).rows) == 0
    assert np.array_equal(placement_rows([]).bits, Boards.empty().bits)


def test_duplicate_marks_number_the_groups_in_row_order() -> None:
    study = chess.Board(f"{SPEC_PLACEMENTS[0]} w - - 0 1")
    mirrored = study.transform(chess.flip_horizontal)
    knights = chess.Board(f"{SPEC_PLACEMENTS[1]} w - - 0 1")
    rotated = knights.transform(chess.flip_diagonal)
    fens = [knights.fen(), study.fen(), None, rotated.fen(), mirrored.fen(), study.fen().replace(" w ", " b ")]
    assert duplicate_marks(fens) == {0: 1, 3: 1, 1: 2, 4: 2}
