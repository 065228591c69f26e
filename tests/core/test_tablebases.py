"""Tablebase verdicts (core.tablebases) against python-chess's own probing, and in words."""

from __future__ import annotations

import random

import chess
import chess.gaviota
import chess.syzygy
import pytest

from gbr_tui.core.tablebases import Tablebases, Verdict, stipulation_words
from tests.support.tablebases import GAVIOTA, SAAVEDRA, SYZYGY, larger_syzygy, needs_gaviota, random_positions

#: Materials kept in tests/data/syzygy, as (White's men, Black's men) besides the kings.
KEPT = [("R", "P"), ("R", "R"), ("Q", "R"), ("R", "N"), ("R", "B"), ("N", "P"), ("NN", ""), ("P", ""), ("Q", "")]


@pytest.fixture(scope="module")
def tables():
    with Tablebases([SYZYGY]) as opened:
        yield opened


def test_saavedra_is_a_white_win_and_c7_its_only_winning_move(tables):
    board = chess.Board(SAAVEDRA)
    verdict = tables.probe(board)
    assert verdict is not None and verdict.white_result == 1 and verdict.wdl == 2
    assert verdict.words().startswith("White wins")
    winning = []
    for move in board.legal_moves:
        board.push(move)
        after = tables.probe(board)
        board.pop()
        assert after is not None
        if after.white_result == 1:
            winning.append(board.san(move))
    assert winning == ["c7"]


@pytest.mark.parametrize(("white", "black"), KEPT)
def test_verdicts_agree_with_python_chess_on_a_seeded_set(tables, white, black):
    rng = random.Random(f"{white}v{black}")
    with chess.syzygy.open_tablebase(str(SYZYGY)) as reference:
        for board in random_positions(rng, white, black, 40):
            verdict = tables.probe(board)
            assert verdict is not None, board.fen()
            assert (verdict.wdl, verdict.dtz, verdict.dtm) == (
                reference.probe_wdl(board),
                reference.probe_dtz(board),
                None,
            ), board.fen()
            for color_flipped in (board.mirror(),):  # the same table answers for the other colours
                assert tables.probe(color_flipped) == Verdict(color_flipped.turn, verdict.wdl, verdict.dtz, None), (
                    board.fen()
                )


@needs_gaviota
@pytest.mark.parametrize(("white", "black"), [("Q", ""), ("R", ""), ("P", ""), ("", "R"), ("B", ""), ("N", "")])
def test_gaviota_dtm_agrees_with_python_chess(white, black):
    rng = random.Random(f"gtb {white}v{black}")
    with Tablebases([GAVIOTA]) as tables, chess.gaviota.open_tablebase(str(GAVIOTA)) as reference:
        for board in random_positions(rng, white, black, 30):
            verdict = tables.probe(board)
            assert verdict is not None and verdict.dtz is None, board.fen()
            assert verdict.dtm == reference.probe_dtm(board), board.fen()
            assert verdict.wdl == 2 * reference.probe_wdl(board), board.fen()


@needs_gaviota
def test_both_formats_give_wdl_and_dtz_from_syzygy_and_dtm_from_gaviota():
    # python-chess's documented example: White to move is mated in 10 plies (5 of Black's moves).
    board = chess.Board("8/8/8/8/8/8/8/K2kr3 w - - 0 1")
    with Tablebases([SYZYGY, GAVIOTA]) as tables:
        verdict = tables.probe(board)
    assert verdict is not None and verdict.wdl == -2 and verdict.dtm == -10 and verdict.dtz is not None
    assert verdict.words() == "Black wins: mate in 5"


def test_troitzky_class_0002_01_is_probed_from_the_5_man_table():
    directory = larger_syzygy("KNNvKP")
    rng = random.Random("Troitzky")
    with Tablebases([directory]) as tables, chess.syzygy.open_tablebase(str(directory)) as reference:
        for board in random_positions(rng, "NN", "P", 60):
            verdict = tables.probe(board)
            assert verdict is not None
            assert (verdict.wdl, verdict.dtz) == (reference.probe_wdl(board), reference.probe_dtz(board))


def test_outside_the_tables_there_is_no_verdict(tables):
    assert tables.probe(chess.Board()) is None  # 32 men, castling rights
    assert tables.probe(chess.Board("8/8/8/8/8/8/8/Kk6 w - - 0 1")) is None  # kings side by side
    assert tables.probe(chess.Board("8/8/8/8/8/8/q7/K1k1b3 w - - 0 1")) is None  # KvKQB: no table kept


@pytest.mark.parametrize(
    ("verdict", "words"),
    [
        (Verdict(chess.WHITE, 0), "draw"),
        (Verdict(chess.WHITE, 2, dtz=5), "White wins: DTZ 5"),
        (Verdict(chess.BLACK, -2, dtz=-6), "White wins: DTZ 6"),
        # 31 plies with White to move are White's 16 moves, the last one mate.
        (Verdict(chess.WHITE, 2, dtz=1, dtm=31), "White wins: mate in 16"),
        (Verdict(chess.BLACK, 1, dtz=120), "Black wins, but the 50-move rule draws it"),
        (Verdict(chess.WHITE, -1, dtz=-120), "Black wins, but the 50-move rule draws it"),
    ],
)
def test_verdicts_in_words_from_the_side_to_move(verdict, words):
    assert verdict.words() == words


def test_a_stipulation_the_table_contradicts_is_said():
    draw = Verdict(chess.WHITE, 0)
    assert stipulation_words("+", draw) == (
        "the stipulation + asks for a White win; the tablebase says a draw",
        False,
    )
    assert stipulation_words("=", draw) == ("agrees with the stipulation =", True)
    # A win the 50-move rule would draw is still a win for a study (the codex sets the rule aside).
    assert stipulation_words("+", Verdict(chess.BLACK, -1))[1] is True
    assert stipulation_words(None, draw) is None


def test_directories_without_usable_tables_are_said_once_each(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    old = tmp_path / "gtb1"
    old.mkdir()
    (old / "kqk.gtb.cp1").write_bytes(b"x")
    with Tablebases([empty, old, tmp_path / "missing", SYZYGY]) as tables:
        assert tables.problems == [
            f"tablebases {empty}: holds no tablebase files (Syzygy .rtbw/.rtbz, Gaviota .gtb.cp4)",
            f"tablebases {old}: holds Gaviota tables in a compression python-chess cannot read (only .gtb.cp4)",
            f"tablebases {tmp_path / 'missing'}: no such directory",
        ]
        assert tables.probe(chess.Board(SAAVEDRA)) is not None  # the rest works


@pytest.mark.parametrize("content", [b"", b"\x00" * 100, b"not a table at all, just text" * 50])
def test_a_damaged_table_gives_a_problem_not_a_traceback(tmp_path, content):
    (tmp_path / "KRvK.rtbw").write_bytes(content)
    with Tablebases([tmp_path]) as tables:
        assert tables.probe(chess.Board("8/8/8/4k3/8/8/8/KR6 w - - 0 1")) is None
        assert len(tables.problems) == 1 and "KRvK" in tables.problems[0]
        assert tables.probe(chess.Board("8/8/8/4k3/8/8/8/KR6 b - - 0 1")) is None
        assert len(tables.problems) == 1  # said once


def test_the_core_starts_without_the_probing_modules():
    import subprocess
    import sys

    code = "import sys, gbr_tui.core; print(sorted({'chess.syzygy', 'chess.gaviota', 'gbr_tui.core.tablebases'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.slow
def test_verdicts_agree_with_python_chess_on_every_material_of_a_larger_directory():
    """Every table of GBR_TUI_TEST_SYZYGY (the shared 3-, 4- and 5-man set has 45 materials),
    a seeded set of positions each, in both colourings."""
    directory = larger_syzygy("KRPvKR")
    materials = sorted(path.stem for path in directory.glob("*.rtbw"))
    with Tablebases([directory]) as tables, chess.syzygy.open_tablebase(str(directory)) as reference:
        for material in materials:
            white, black = (side[1:] for side in material.split("v"))
            for board in random_positions(random.Random(material), white, black, 12):
                for position in (board, board.mirror()):
                    verdict = tables.probe(position)
                    assert verdict is not None, position.fen()
                    expected = (reference.probe_wdl(position), reference.probe_dtz(position))
                    assert (verdict.wdl, verdict.dtz) == expected, position.fen()


def test_a_gaviota_file_whose_header_announces_a_huge_index_is_left_out(tmp_path):
    """python-chess builds a struct as long as the header's block index says: a damaged header
    would make it allocate without bound. Such a file is said and not probed."""
    import struct

    header = struct.pack("<10I", 0, 0, 0, 0, 0, 0, 0, 0, 0xFFFFFFF0, 0)  # blocks from byte 4 GB on
    (tmp_path / "krk.gtb.cp4").write_bytes(header + b"\x00" * 100)
    with Tablebases([tmp_path]) as tables:
        assert tables.problems == [
            f"tablebases {tmp_path}: krk.gtb.cp4: damaged (its block index does not fit in the file)"
        ]
        assert tables.probe(chess.Board("8/8/8/4k3/8/8/8/KR6 w - - 0 1")) is None


def test_a_probe_is_quick_only_once_its_materials_tables_are_open():
    """The app probes in its own thread when the tables are open (a fraction of a millisecond)
    and in a worker when a table must be opened first or another probe runs."""
    board = chess.Board(SAAVEDRA)
    with Tablebases([SYZYGY]) as fresh:
        assert fresh.probe_if_quick(board) == (False, None)  # KPvKR not opened yet
        expected = fresh.probe(board)
        assert expected is not None
        assert fresh.probe_if_quick(board) == (True, expected)
        other = chess.Board("8/8/8/8/8/3k4/8/K5Q1 w - - 0 1")  # KQvK: a table not opened
        assert fresh.probe_if_quick(other) == (False, None)
        with fresh._lock:  # a worker's probe running
            assert fresh.probe_if_quick(board) == (False, None)
        # Nothing to open for a position that cannot occur (kings side by side): at once.
        assert fresh.probe_if_quick(chess.Board("8/8/8/8/8/8/8/Kk6 w - - 0 1")) == (True, None)
