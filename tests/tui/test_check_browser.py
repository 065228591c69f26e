"""The browser's marks for printed codes that disagree with their positions, and ``w``.

The captions are spec section 4's published pairs, two of them changed by hand (the comments
say what the positions give).
"""

from __future__ import annotations

import chess

from gbr_tui.core.collection import CollectionRequest, store
from gbr_tui.widgets.record_list import RecordList
from tests.support.browser import browser, loaded, shown_classes, shown_lines, write
from tests.support.tui import toasts

KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1"  # spec 4: =0323.12g3g1
ARVES = "8/K7/2nn4/8/8/1B1k4/1R6/8 w - - 0 1"  # spec 4: a7d3 0116.00 b2b3c6d6 3/3+
GERMAN = "k7/8/8/8/8/8/pp6/K7 w - - 0 1"  # spec 4: 0000.02.a1a8.a2b2


def game(fen: str, caption: str | None, white: str) -> str:
    tag = f'[GBR "{caption}"]\n' if caption is not None else ""
    return f'[White "{white}"]\n[SetUp "1"]\n[FEN "{fen}"]\n{tag}\n*\n\n'


STUDIES = (
    game(KUBBEL, "=0323.12g3g1", "Kubbel")  # lines 1-7 (4 tags, a blank, "*", a blank), agrees
    + game(ARVES, "a7d3 0116.00 b2b3c6d6 3/3+", "Arves")  # from line 8, agrees
    # From line 15: the kings swapped (White's stands on a7, Black's on d3).
    + game(ARVES, "d3a7 0116.00 b2b3c6d6 3/3+", "Swapped")
    # From line 22: Black's pawns are on a2 and b2, b3 is printed.
    + game(GERMAN, "0000.02.a1a8.a2b3", "Square")
    + game(GERMAN, None, "No caption")  # from line 29: nothing to check
)


async def test_disagreeing_records_are_marked_and_w_lists_them(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await loaded(pilot)
        assert any("2 printed codes disagree with their positions: w lists them" in toast for toast in toasts(app))
        await pilot.press("w")
        records = screen.query_one("#position-list", RecordList)
        heading, first, second, *rest = shown_lines(records)
        assert heading.split()[:3] == ["#", "line", "check"]
        assert first.split()[:4] == ["3", "15", "!", "kings"]
        assert second.split()[:4] == ["4", "22", "!", "squares"]
        assert not any(line.strip() for line in rest)
        details = str(screen.query_one("#position-details").content)
        assert "printed 'd3a7 0116.00 b2b3c6d6 3/3+'" in details
        assert "kings: printed d3a7, the position gives a7d3" in details
        await pilot.press("down")
        assert "squares: printed a2b3, the position gives a2b2" in str(screen.query_one("#position-details").content)
        await pilot.press("enter")  # into the editor: the position, not the caption
        await pilot.pause()
        assert app.editor.setup.board.board_fen() == chess.Board(GERMAN).board_fen()


async def test_a_class_marks_only_its_disagreeing_records(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await loaded(pilot)
        # 0000.02 (K v KPP), 0116.00 (KRB v KNN), 0323.12: the Arves positions are the second.
        assert [row[0] for row in shown_classes(screen)] == ["0000.02", "0116.00", "0323.12"]
        await pilot.press("down", "enter")
        records = screen.query_one("#position-list", RecordList)
        _, agreeing, swapped, *_ = shown_lines(records)
        assert agreeing.split()[:3] == ["2", "8", "Arves"]  # no mark
        assert swapped.split()[:5] == ["3", "15", "!", "kings", "Swapped"]


async def test_without_captions_there_is_no_mark_and_no_list(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", game(ARVES, None, "A")))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await loaded(pilot)
        assert screen.check_action("disagreements", ()) is False
        await pilot.press("w")  # nothing to list: the classes stay
        assert screen.query_one("#views").current == "classes"
        await pilot.press("enter")
        heading = shown_lines(screen.query_one("#position-list", RecordList))[0]
        assert "check" not in heading.split()


async def test_w_on_an_index_lists_what_it_lists_on_the_file(tmp_path):
    studies = write(tmp_path, "studies.pgn", STUDIES)
    index = str(tmp_path / "studies.idx")
    store.build(CollectionRequest((str(studies),)), index)
    shown = []
    for opened in (studies, index):
        app = browser(opened)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            screen = await loaded(pilot)
            assert any("2 printed codes disagree with their positions: w lists them" in toast for toast in toasts(app))
            await pilot.press("w")
            # The lines written (the index's status line is longer: the list may be a line shorter).
            listed = [line for line in shown_lines(screen.query_one("#position-list", RecordList)) if line.strip()]
            await pilot.press("down")
            shown.append((listed, str(screen.query_one("#position-details").content)))
            await pilot.press("enter")
            await pilot.pause()
            assert app.editor.setup.board.board_fen() == chess.Board(GERMAN).board_fen()
    assert shown[1] == shown[0]
    (_, first, second), details = shown[1]
    assert first.split()[:4] == ["3", "15", "!", "kings"]  # the swapped kings, from line 15
    assert second.split()[:4] == ["4", "22", "!", "squares"]
    assert "squares: printed a2b3, the position gives a2b2" in details
