"""The collection browser through its keys: classes, filters, positions, the editor, bad records.

The small files below are checked by hand; each expected code is worked out in a comment with
the spec's rule (a piece digit is White's count + 3 x Black's, 9 for three or more; then the
pawns of each side) or taken from the spec's published examples.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import multiprocessing
import sys
import types

import chess
import pytest
from textual import events
from textual.widgets import Input, OptionList, ProgressBar, Static

from gbr_tui import cli
from gbr_tui.app import make_app
from gbr_tui.core import Material
from gbr_tui.core.collection import ClassIndex, CollectionRequest, GamePositions, loading
from gbr_tui.dialogs.open_collection import OpenCollectionDialog
from gbr_tui.screens.collection import CollectionScreen
from gbr_tui.screens.help import HelpScreen
from gbr_tui.screens.too_small import TooSmallScreen
from gbr_tui.widgets.collection_lists import ClassTable, PositionList
from gbr_tui.widgets.record_list import RecordList
from tests.support.browser import (
    STUDIES_CLASSES,
    STUDIES_PGN,
    browser,
    kr_v_k_lines,
    loaded,
    shown_classes,
    shown_lines,
    status,
    write,
)
from tests.support.positions import placement
from tests.support.tui import (
    KUBBEL_CODE,
    KUBBEL_FEN,
    run_command,
    screen_text,
    settled,
    shown_code_pane,
    shown_digits,
    toasts,
    until,
)

# KNNN v K: N = 3 White, three or more: 9. KNNN v KNN is the spec's own 0009 (section 2). Both
# are 0009.00, with different materials behind the 9. Then KR v K, 0100.00, and a bad line 4.
POSITIONS_FEN = """\
8/8/8/4k3/8/8/8/NNN1K3 w - - 0 1
8/8/8/4k3/8/8/8/NNN1K1nn w - - 0 1
8/8/8/4k3/8/8/8/R3K3 w - - 0 1
not a fen
"""
POSITIONS_CLASSES = [
    ("0009.00", "2", "66.7%", "KNNN v K, KNNN v KNN"),
    ("0100.00", "1", "33.3%", "KR v K"),
]

# EPD: KR v K is 0100.00; a Black rook alone is R = 0 + 3x1: 0300.00; two White rooks 0200.00.
POSITIONS_EPD = """\
8/8/8/4k3/8/8/8/R3K3 w - - id "rook";
8/8/8/4k3/8/8/8/r3K3 w - - id "black rook";
4k3/8/8/8/8/8/8/R3K2R w K - id "two rooks";
"""
EPD_CLASSES = [
    ("0100.00", "1", "33.3%", "KR v K"),
    ("0200.00", "1", "33.3%", "KRR v K"),
    ("0300.00", "1", "33.3%", "K v KR"),
]

# CSV as Lichess exports puzzles: KR v K (0100.00), KQ v K (Q = 1: 1000.00), a bad FEN on line 4.
PUZZLES_CSV = """\
PuzzleId,FEN,Moves,Rating
a1,8/8/8/4k3/8/8/8/R3K3 w - - 0 1,a1a5,1500
a2,8/8/8/4k3/8/8/8/Q3K3 w - - 0 1,a1a5,1400
a3,not a fen,x,1
"""
CSV_CLASSES = [
    ("0100.00", "1", "50.0%", "KR v K"),
    ("1000.00", "1", "50.0%", "KQ v K"),
]


def position_details(screen: CollectionScreen) -> str:
    """What the details pane beside the position list says ("" before the list is made)."""
    panes = screen.query("#position-details")
    return str(panes.first(Static).content) if panes else ""


async def type_filter(pilot, text: str) -> None:
    await pilot.press("slash", *text)
    await pilot.press("enter")  # applies it at once, without waiting for the typing pause
    await settled(pilot)


# --- classes of each format ---------------------------------------------------------------------


async def test_a_pgn_of_studies_lists_its_start_classes_and_counts_the_bad_game(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        assert shown_classes(screen) == STUDIES_CLASSES
        assert "read 5 = classified 4 + bad 1" in status(screen)


@pytest.mark.parametrize(
    "name, text, expected",
    [
        ("positions.fen", POSITIONS_FEN, POSITIONS_CLASSES),
        ("positions.epd", POSITIONS_EPD, EPD_CLASSES),
        ("puzzles.csv", PUZZLES_CSV, CSV_CLASSES),
    ],
)
async def test_fen_lines_epd_and_csv_list_their_classes(tmp_path, name, text, expected):
    app = browser(write(tmp_path, name, text))
    async with app.run_test(size=(100, 30)) as pilot:
        assert shown_classes(await loaded(pilot)) == expected


@pytest.mark.parametrize("suffix, compress", [(".gz", gzip.compress), (".bz2", bz2.compress), (".xz", lzma.compress)])
async def test_compressed_files_list_the_same_classes(tmp_path, suffix, compress):
    path = tmp_path / f"studies.pgn{suffix}"
    path.write_bytes(compress(STUDIES_PGN.encode()))
    app = browser(path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        assert shown_classes(screen) == STUDIES_CLASSES
        assert screen.query_one(ProgressBar).percentage == 1  # every compressed byte was read


async def test_several_files_are_counted_together(tmp_path):
    app = browser(write(tmp_path, "a.fen", POSITIONS_FEN), write(tmp_path, "b.csv", PUZZLES_CSV))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        # 0100.00 once in each file; five positions classified, one bad line in each file.
        assert shown_classes(screen) == [
            ("0009.00", "2", "40.0%", "KNNN v K, KNNN v KNN"),
            ("0100.00", "2", "40.0%", "KR v K"),
            ("1000.00", "1", "20.0%", "KQ v K"),
        ]
        assert "read 7 = classified 5 + bad 2" in status(screen)


async def test_the_final_position_mode_classifies_after_the_moves(tmp_path):
    # 1. e4 e5 takes nothing: game 3 stays 4888.88; the rook game ends KR v K as it began.
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN), game_positions=GamePositions.FINAL)
    async with app.run_test(size=(100, 30)) as pilot:
        assert shown_classes(await loaded(pilot)) == STUDIES_CLASSES


# --- filters --------------------------------------------------------------------------------------


async def test_a_code_pattern_keeps_the_matching_classes(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        await type_filter(pilot, "0?0?")  # a short code: no pawns, so 0323.12 is out
        assert shown_classes(screen) == [STUDIES_CLASSES[0]]
        assert "match 0?0?" in status(screen)
        await pilot.press("slash", "backspace", "backspace", "backspace", "backspace", *"03*", "enter")
        await settled(pilot)
        assert shown_classes(screen) == [STUDIES_CLASSES[1]]


async def test_a_material_tells_apart_the_materials_behind_a_9(tmp_path):
    app = browser(write(tmp_path, "positions.fen", POSITIONS_FEN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        await type_filter(pilot, "KNNN v KNN")
        # The share stays a share of every classified position: 1 of 3.
        assert shown_classes(screen) == [("0009.00", "1", "33.3%", "KNNN v KNN")]


async def test_the_filter_applies_while_typing(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("slash", *"KR v K")
        await until(pilot, lambda: len(shown_classes(screen)) == 1)  # a state, not 5 s
        assert shown_classes(screen) == [STUDIES_CLASSES[0]]


async def test_a_bad_pattern_shows_its_error_and_keeps_the_table(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        await type_filter(pilot, "03x")
        error = screen.query_one("#filter-error", Static)
        assert error.display
        assert "a pattern is a code with wildcards" in str(error.content)
        assert "  ^" in str(error.content)  # the caret under the x, the third character
        # The table kept is the last pattern's that read: 03, the start of a code.
        assert shown_classes(screen) == [STUDIES_CLASSES[1]]
        assert screen.query_one("#class-filter").has_focus  # Enter stays to have it fixed
        await pilot.press("backspace", "asterisk", "enter")
        await settled(pilot)
        assert not error.display
        assert shown_classes(screen) == [STUDIES_CLASSES[1]]


# --- positions and the editor ---------------------------------------------------------------------


async def test_enter_on_a_class_lists_its_positions_with_their_headers(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("enter")  # 0100.00: games 2 and 5
        records = screen.query_one("#position-list", RecordList)
        assert records.has_focus
        heading, first, second, *rest = shown_lines(records)
        assert heading.split()[:7] == ["#", "line", "Event", "Site", "Date", "White", "Black"]
        assert first.split()[:2] == ["2", "12"] and "Rook ending" in first and "1930.01.01" in first
        assert second.split()[:2] == ["5", "43"] and "Rook ending again" in second
        assert rest == [""] * len(rest)


async def test_enter_on_a_position_loads_it_into_the_editor_with_its_class(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await loaded(pilot)
        await pilot.press("down", "enter")  # 0323.12, Kubbel's study
        board = app.screen.query_one("#position-board")
        assert board.board.board_fen() == KUBBEL_FEN  # shown on the browser's board first
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN
        assert shown_digits(app) == "0323.12"
        assert any("0323.12 from studies.pgn:1, record 1" in toast for toast in toasts(app))


async def test_opened_on_a_file_the_editor_is_made_when_first_shown_by_back(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        assert not app.editor.is_mounted  # not composed under the browser at start-up
        await pilot.press("backspace")  # classes -> editor, made now
        await pilot.pause()
        assert app.screen is app.editor and app.editor.is_mounted
        code_pane = app.editor.query_one("CodePane")
        assert code_pane.styles.border_top[0] == "round"  # styled by editor.tcss, read as it was pushed
        await pilot.press("K")  # it edits: a White king on its cursor's square (e4)
        assert app.editor.setup.board.piece_at(chess.E4) == chess.Piece.from_symbol("K")
        await pilot.press("l")  # and the browser is there as it was
        assert app.screen is screen
        await pilot.press("escape")
        assert app.screen is app.editor


async def test_opened_on_a_file_in_a_terminal_too_small_the_browser_comes_when_it_grows(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(30, 8)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(100, 30)
        screen = await loaded(pilot)
        assert app.screen is screen and not app.editor.is_mounted
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.editor


async def test_opened_on_a_file_enter_loads_into_the_editor_made_then(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        await pilot.press("down", "enter")  # 0323.12, Kubbel's study
        assert not app.editor.is_mounted
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN
        assert shown_digits(app) == "0323.12"  # drawn by the editor made for it


@pytest.mark.parametrize("shown_before", [False, True], ids=["editor-never-shown", "editor-shown-before"])
async def test_an_editor_command_from_the_palette_over_the_browser_shows_the_editor(tmp_path, shown_before):
    """One rule whether or not the editor was shown before (made then if not): the command
    acts where it is seen."""
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        if shown_before:
            await pilot.press("escape")  # back: the editor, made now
            await pilot.pause()
            assert app.screen is app.editor
            await pilot.press("f4")  # the browser again, the editor under it
            await pilot.pause()
            assert app.screen is not app.editor
        await run_command(pilot, "start position")
        await pilot.pause()
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == chess.STARTING_BOARD_FEN


async def test_an_example_from_the_palette_over_the_browser_loads_into_the_editor_made_then(tmp_path):
    """The editor was never shown: it is made, shown, and the example is loaded into it."""
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        await run_command(pilot, "Kubbel 1925")
        await pilot.pause()
        assert app.screen is app.editor
        # The published study (spec: =0323.12, the kings on g3 and g1).
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN
        assert KUBBEL_CODE in shown_code_pane(app).split()


async def test_a_class_behind_a_9_lists_only_the_filtered_material(tmp_path):
    app = browser(write(tmp_path, "positions.fen", POSITIONS_FEN))
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        await type_filter(pilot, "KNNN v KNN")
        await pilot.press("enter")
        records = app.screen.query_one("#position-list", RecordList)
        assert records.count == 1
        await pilot.press("enter")
        await pilot.pause()
        assert Material.from_board(app.editor.setup.board) == Material.from_string("KNNN v KNN")
        assert shown_digits(app) == "0009.00"


async def test_f4_goes_back_to_the_list_where_it_was(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("enter", "down", "enter")  # 0100.00, the second game: record 5
        assert app.screen is app.editor
        assert app.editor.setup.board.turn == chess.BLACK  # game 5 has Black to move
        await pilot.press("f4")
        assert app.screen is screen
        records = screen.query_one("#position-list", RecordList)
        assert records.has_focus and records.cursor == 1
        await pilot.press("backspace")  # positions -> classes
        assert screen.query_one(ClassTable).has_focus
        await pilot.press("backspace")  # classes -> editor
        assert app.screen is app.editor
        await pilot.press("l")  # l does what F4 does
        assert app.screen is screen


async def test_keys_that_come_in_one_burst_reach_what_the_first_opened(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        for key in ("slash", "0", "1"):  # queued together, as keys often come over SSH
            app.post_message(events.Key(key, None if key == "slash" else key))
        await pilot.pause()
        assert screen.query_one("#class-filter", Input).value == "01"
        await pilot.press("backspace", "backspace", "enter")
        await settled(pilot)
        for key in ("enter", "end"):
            app.post_message(events.Key(key, None))
        await pilot.pause()
        await until(pilot, lambda: bool(lists := screen.query("#position-list")) and lists.first().cursor == 1)
        records = screen.query_one("#position-list", RecordList)
        assert records.has_focus and records.cursor == 1


async def test_end_then_enter_in_one_burst_opens_the_last_class(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        for key in ("end", "enter"):  # queued together, as keys often come over SSH
            app.post_message(events.Key(key, None))
        await pilot.pause()
        await until(pilot, lambda: "\n4888.88 " in position_details(screen))
        details = position_details(screen)
        assert details.splitlines()[1].startswith("4888.88 ")  # the last class, not the first


async def test_a_click_on_a_class_lists_its_positions(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.click(ClassTable, offset=(2, 2))  # line 0 is the heading, line 2 the second class
        await pilot.pause()
        details = str(screen.query_one("#position-details", Static).content)
        assert details.splitlines()[1].startswith("0323.12 ")


async def test_a_code_decoded_over_the_browser_is_shown_in_the_editor(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("f2", *"=0323.12g3g1a3a2e1g8h6c3c6", "enter")
        await pilot.pause()
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == KUBBEL_FEN
        await pilot.press("f4")
        assert app.screen is screen


async def test_changing_the_rule_in_the_editor_reclassifies_the_open_collection(tmp_path):
    # Spec section 5.2: two White queens are 2 under the count rule, 9 under the promoted rule.
    app = browser(write(tmp_path, "queens.fen", "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1\n4k3/8/8/8/8/8/8/Q3K3 w - - 0 1\n"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        assert [row[0] for row in shown_classes(screen)] == ["1000.00", "2000.00"]
        await pilot.press("backspace")  # to the editor
        assert app.screen is app.editor
        await run_command(pilot, "promoted rule")
        await pilot.press("f4")  # back to the browser
        assert app.screen is screen
        await settled(pilot)
        assert [row[0] for row in shown_classes(screen)] == ["1000.00", "9000.00"]
        assert "read 2 = classified 2 + bad 0" in status(screen)


# --- bad records ----------------------------------------------------------------------------------


async def test_bad_records_are_listed_with_file_line_and_reason(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN), write(tmp_path, "positions.fen", POSITIONS_FEN))
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        screen = await loaded(pilot)
        assert any("2 bad records: b lists them" in toast for toast in toasts(app))
        await pilot.press("b")
        records = screen.query_one("#bad-records", RecordList)
        heading, game, line, *_ = shown_lines(records)
        assert heading.split() == ["file", "line", "record", "reason"]
        assert game.split()[:3] == ["studies.pgn", "38", "4"] and "bad start position" in game
        assert line.split()[:3] == ["positions.fen", "4", "4"] and "not a valid FEN" in line


async def test_a_file_with_no_fen_column_is_reported_not_raised(tmp_path):
    app = browser(write(tmp_path, "names.csv", "name,rating\nA,1\nB,2\n"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = await loaded(pilot)
        assert shown_classes(screen) == []
        assert "1 not read" in status(screen)
        assert any("no FEN column found" in toast for toast in toasts(app))


# --- big collections ------------------------------------------------------------------------------


def distinct_class_lines(count: int) -> str:
    """EPD lines of ``count`` classes, each of its own material, in ascending code order.

    A piece digit is w + 3b (spec), so with 0 to 2 men of a type a side each digit 0-8 is one
    material; pawns 0 to 7 a side. The last ``count`` of the 9**4 * 8**2 codes 0000.00-8888.77
    are written, the largest, 8888.77, last. White's king and pieces stand on rank 1, then h3;
    White's pawns on rank 2; Black's the same way on ranks 8, h6 and 7.
    """
    radices = (9, 9, 9, 9, 8, 8)
    total = 9**4 * 8**2
    lines = []
    for number in range(total - count, total):
        digits = []
        for radix in reversed(radices):
            number, digit = divmod(number, radix)
            digits.insert(0, digit)
        white = "K" + "".join(letter * (digit % 3) for letter, digit in zip("QRBN", digits))
        black = "k" + "".join(letter * (digit // 3) for letter, digit in zip("qrbn", digits))
        board = {}
        for men, (first, spill, pawn_rank), pawns, pawn in (
            (white, (0, 2, 1), digits[4], "P"),
            (black, (7, 5, 6), digits[5], "p"),
        ):
            for place, man in enumerate(men):
                board[chess.square(place, first) if place < 8 else chess.square(7, spill)] = man
            for file in range(pawns):
                board[chess.square(file, pawn_rank)] = pawn
        lines.append(f"{placement(board)} w - -\n")  # as chess.Board.epd writes it, faster
    return "".join(lines)


async def test_a_table_of_50000_classes_is_listed_and_navigable(tmp_path, monkeypatch):
    path = write(tmp_path, "classes.epd", distinct_class_lines(50_000))
    drawn = []  # the class rows the table asks for, through the row function the screen gives it
    set_records = ClassTable.set_records

    def counted(table, columns, count, row):
        set_records(table, columns, count, lambda index: drawn.append(index) or row(index))

    monkeypatch.setattr(ClassTable, "set_records", counted)
    app = browser(path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        table = screen.query_one(ClassTable)
        assert table.has_focus and table.count == 50_000
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor == 49_999
        last = [line for line in shown_lines(table) if line.strip()][-1]
        # 8888.77: two of each piece a side and seven pawns, one position of 50,000 (0.0%).
        assert last.split() == ["8888.77", "1", "0.0%", "KQQRRBBNNPPPPPPP", "v", "KQQRRBBNNPPPPPPP"]
        # A few screens' worth of rows (drawn by the app and read by this test), not 50,000.
        assert len(drawn) < 10 * table.size.height
        await pilot.press("enter")
        await pilot.pause()
        records = screen.query_one("#position-list", RecordList)
        assert records.has_focus and records.count == 1
        assert shown_lines(records)[1].split()[:2] == ["50000", "50000"]  # the file's last line
        await pilot.press("backspace", "home")
        await pilot.pause()
        assert table.has_focus and table.cursor == 0


async def test_a_class_of_100000_positions_draws_only_the_rows_on_screen(tmp_path, monkeypatch):
    path = tmp_path / "rooks.fen"
    path.write_text(kr_v_k_lines(100_000))
    app = browser(path)
    drawn = []  # the rows the list asks for, through the row function the screen gives it
    set_records = PositionList.set_records
    monkeypatch.setattr(
        PositionList,
        "set_records",
        lambda records, columns, count, row: set_records(
            records, columns, count, lambda index: drawn.append(index) or row(index)
        ),
    )
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        assert shown_classes(screen) == [("0100.00", "100,000", "100.0%", "KR v K")]
        assert not screen.query("#position-list")  # made when first shown
        for key in ("enter", "end"):  # in one burst: End comes before the list is laid out
            app.post_message(events.Key(key, None))
        await pilot.pause()
        records = screen.query_one("#position-list", RecordList)
        await until(pilot, lambda: records.size.height)  # laid out once its first rows are read back
        lines = shown_lines(records)
        last = [line for line in lines if line.strip()][-1]
        assert last.split()[:2] == ["100000", "100000"]  # record 100,000 is on line 100,000
        # The rook of position 100,000 stands on squares[99,999 % 32] = squares[31] = h4.
        assert last.split()[2] == "K6k/8/8/8/7R/8/8/8"
        assert records.cursor == 99_999
        await pilot.press("home")
        await pilot.pause()
        lines = shown_lines(records)
        assert lines[1].split()[:3] == ["1", "1", "K6k/8/8/8/8/8/8/R7"]
        # A few screens' worth of rows (drawn by the app and read by this test), not 100,000.
        assert len(drawn) < 10 * records.size.height
        await pilot.press("pagedown")
        page = len([line for line in lines if line]) - 1  # the rows under the heading
        assert records.cursor == page


async def test_keys_work_while_a_big_file_loads(tmp_path, monkeypatch):
    path = tmp_path / "rooks.fen"
    path.write_text(kr_v_k_lines(300_000))
    # The loader is held 100,000 records in (a small file would be read before the first key,
    # while the app starts), so that keys are pressed while it is surely half way.
    release = multiprocessing.get_context("fork").Event()  # the file is read by a forked process
    read = ClassIndex.read

    def held_read(index, collection, tick, *reading):
        def held(records: int, bytes_read: int | None) -> bool:
            if records >= 100_000:
                release.wait(10)
            return tick(records, bytes_read)

        return read(index, collection, held, *reading)

    monkeypatch.setattr(ClassIndex, "read", held_read)
    # Forked from here, as `gbr-tui FILE` forks it, not from the fork server: the reader runs the
    # patched read.
    monkeypatch.setattr(loading, "_context", lambda forked: multiprocessing.get_context("fork"))
    app = browser(path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        bar = screen.query_one(ProgressBar)
        await until(pilot, lambda: bar.progress > 0)
        assert 0 < bar.progress < bar.total  # the bar shows how far reading has got
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("f1", "slash", *"01*")
        assert app.screen is screen
        assert screen.query_one("#class-filter", Input).value == "01*"
        assert screen.index is None  # all that while, still loading
        release.set()
        screen = await loaded(pilot)
        assert shown_classes(screen) == [("0100.00", "300,000", "100.0%", "KR v K")]
        assert "match 01*" in status(screen)  # the filter typed while loading


# --- opening, served mode, help, command line -------------------------------------------------------


async def test_o_asks_for_a_path_and_says_why_one_cannot_be_opened(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "studies.pgn", STUDIES_PGN)
    (tmp_path / "games").mkdir()
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("o")
        assert isinstance(app.screen, OpenCollectionDialog)
        await pilot.press(*"missing.pgn", "enter")
        assert isinstance(app.screen, OpenCollectionDialog)
        assert app.screen.feedback == "missing.pgn: no such file"
        app.screen.query_one(Input).value = "games"
        await pilot.press("enter")
        assert isinstance(app.screen, OpenCollectionDialog)
        assert app.screen.feedback == "games is a directory, not a file"
        app.screen.query_one(Input).value = "studies.pgn"
        await pilot.press("enter")
        screen = await loaded(pilot)
        assert shown_classes(screen) == STUDIES_CLASSES


async def test_an_unknown_user_in_the_path_is_said_not_raised():
    # ~user names that user's home folder; a user that does not exist is a message.
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("o", *"~nosuchuser8271/games.pgn")
        await settled(pilot)  # the path's suggestion looked for
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, OpenCollectionDialog)
        assert app.screen.feedback.startswith("~nosuchuser8271: no such user")


async def test_the_path_is_completed_from_the_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "studies.pgn", STUDIES_PGN)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f3", *"stu")
        await settled(pilot)  # the suggestion made
        await pilot.press("right")  # accepts the suggestion
        assert app.screen.query_one(Input).value == "studies.pgn"


async def test_opening_another_collection_replaces_the_browser(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    write(tmp_path, "positions.fen", POSITIONS_FEN)
    async with app.run_test(size=(100, 30)) as pilot:
        first = await loaded(pilot)
        await pilot.press("o", *"positions.fen", "enter")
        second = await loaded(pilot, before=first)
        assert shown_classes(second) == POSITIONS_CLASSES
        await pilot.press("backspace", "f4")
        assert app.screen is second


async def test_the_palette_opens_a_collection(tmp_path):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await run_command(pilot, "open a collection")
        assert isinstance(app.screen, OpenCollectionDialog)


async def test_served_there_is_no_key_command_or_help_row_to_open_files():
    app = make_app(served=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("o", "f3", "l", "f4")
        assert app.screen is app.editor
        await pilot.press("ctrl+p", *"open a collection")
        await settled(pilot)  # the palette's search done
        titles = [str(option.prompt) for option in app.screen.query_one(OptionList).options]
        assert not any("Open a collection" in title for title in titles)
        await pilot.press("escape", "f1")
        rows = [text for _, section in app.screen.sections for _, text in section]
        assert not any("collection" in text.lower() for text in rows)


async def test_not_served_help_lists_the_browser_keys(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 60)) as pilot:
        await loaded(pilot)
        await pilot.press("enter", "f1")
        assert isinstance(app.screen, HelpScreen)
        rows = {text: keys for _, section in app.screen.sections for keys, text in section}
        assert rows["Load this position into the editor"] == "⏎"
        assert rows["Filter the classes: a code with wildcards or a material"] == "/"
        assert rows["List the bad records with their file and line"] == "b"
        assert rows["Last row"] == "end"
        assert rows["Open another collection file"] == "f3 o"


def test_the_command_line_opens_files_and_refuses_missing_ones(tmp_path, monkeypatch, capsys):
    studies = write(tmp_path, "studies.pgn", STUDIES_PGN)
    started = []
    monkeypatch.setitem(
        sys.modules, "gbr_tui.app", types.SimpleNamespace(run_app=lambda files, **terminal: started.append(files) or 0)
    )
    monkeypatch.setattr("gbr_tui.terminal.not_a_terminal", lambda *streams: None)  # pytest's are not
    assert cli.main([str(studies), "--position", "final"]) == 0
    assert started == [CollectionRequest((str(studies),), game_positions=GamePositions.FINAL)]
    assert cli.main([str(tmp_path / "missing.pgn")]) == 2
    assert cli.main([str(tmp_path)]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert errors == [
        f"gbr-tui: {tmp_path / 'missing.pgn'}: no such file",
        f"gbr-tui: {tmp_path}: is a directory, not a file",
    ]
    assert len(started) == 1


def test_the_sub_commands_still_come_first(tmp_path, capsys):
    studies = write(tmp_path, "studies.pgn", STUDIES_PGN)
    assert cli.main(["classify", str(studies)]) == 1  # one bad game
    assert "0323.12" in capsys.readouterr().out


# A title change (OSC 2) and a screen clear (CSI 2J) in headers and in the file name.
HOSTILE_PGN = """\
[Event "\x1b]2;pwned\x07Study"]
[Site "\x1b[2Jcleared"]
[White "Kubbel"]
[Black "\u202eright to left"]
[SetUp "1"]
[FEN "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1"]
[Result "*"]

*
"""


async def test_escape_sequences_from_a_file_are_shown_not_sent(tmp_path):
    app = browser(write(tmp_path, "evil\x1b[2J.pgn", HOSTILE_PGN))
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("enter")
        await pilot.pause()
        records = screen.query_one("#position-list", RecordList)
        drawn = "\n".join([*shown_lines(records), screen_text(app)])
        assert not any(char in drawn for char in "\x1b\x07\u202e")
        # Each escape is shown as what it is, so a reader sees the header holds one.
        assert "\\x1b]2;pwned\\x07Study" in drawn
        assert "\\x1b[2Jcleared" in drawn
        assert "\\u202eright to left" in drawn
        assert "evil\\x1b[2J.pgn" in drawn


async def test_backspace_then_enter_in_one_burst_opens_a_class_again(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("end", "enter")
        await pilot.pause()
        for key in ("backspace", "home", "enter"):  # back to the classes, the first one, open it
            app.post_message(events.Key(key, None))
        await pilot.pause()
        await until(pilot, lambda: f"\n{STUDIES_CLASSES[0][0]} " in position_details(screen))
        assert app.screen is screen  # nothing loaded into the editor
        details = position_details(screen)
        assert details.splitlines()[1].startswith(f"{STUDIES_CLASSES[0][0]} ")  # the first class


async def test_escape_leaves_the_filter_and_backspace_edits_it(tmp_path):
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("slash", *"033", "backspace", "escape")
        assert screen.query_one("#class-filter", Input).value == "03"  # backspace took the 3 back
        assert isinstance(screen.focused, ClassTable) and app.screen is screen
        await pilot.press("escape")  # from the classes: back to the editor
        assert app.screen is not screen


async def test_a_path_still_being_typed_is_not_called_missing(tmp_path, monkeypatch):
    """Fails before: "stu" said "stu: no such file" while studies.pgn was being typed."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "studies.pgn", STUDIES_PGN)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("o", *"stu")
        assert app.screen.feedback == ""  # studies.pgn begins so: still on its way
        await pilot.press(*"x")
        assert app.screen.feedback == "stux: no such file"  # nothing begins so
        app.screen.query_one(Input).value = "stu"
        await pilot.press("enter")
        assert app.screen.feedback == "stu: no such file"  # Enter: said, whatever begins so


async def test_b_says_so_when_no_record_is_bad(tmp_path):
    """Fails before: b did nothing at all when every record was read."""
    app = browser(write(tmp_path, "kr.fen", kr_v_k_lines(3)))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await loaded(pilot)
        await pilot.press("b")
        await until(pilot, lambda: toasts(app))
        assert "No bad records" in toasts(app)[-1]


async def test_enter_on_a_bad_record_shows_its_reason_whole(tmp_path):
    """Fails before: a reason wider than the screen was cut, with no way to read it whole."""
    app = browser(write(tmp_path, "positions.fen", POSITIONS_FEN + "8/8/8/8/8/8/8/9 w - - 0 1\n"))
    async with app.run_test(size=(60, 20), notifications=True) as pilot:
        screen = await loaded(pilot)
        reason = screen.index.bad[1][1].reason
        await pilot.press("b", "down")
        assert reason[:20] in screen_text(app) and reason not in screen_text(app)  # cut at the edge
        await pilot.press("enter")
        await until(pilot, lambda: any("line 5" in toast for toast in toasts(app)))
        shown = next(toast for toast in toasts(app) if "line 5" in toast)
        assert reason in shown.replace("\n", " ")  # whole in the notice


async def test_the_status_line_counts_the_positions_without_one_king_a_side(tmp_path):
    """Fails before: a position without a Black king was counted as classified and not said.
    Here: the issue's KP v R without a Black king, Kubbel's study, and KK v K."""
    fens = ["8/8/1KP5/3r4/8/8/8/8 w - - 0 1", KUBBEL_FEN + " w - - 0 1", "8/8/8/8/8/8/8/KK5k w - - 0 1"]
    app = browser(write(tmp_path, "kings.fen", "\n".join(fens) + "\n"))
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await loaded(pilot)
        assert "classified 3" in status(screen)  # their codes are defined: still classified
        assert "2 not legal (no king, or more than one, on a side)" in status(screen)
