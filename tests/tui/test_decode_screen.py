"""The decode screen, driven key by key through Pilot.

Expected values come from the spec (docs: ``GBR.md``): the digit formula white x 1 + black x 3,
the published positions of section 4 and the examples table of section 2. Assertions read what
the screen draws (the composed screen text) or the state a user acts on (the board shown, the
value handed back on dismiss).
"""

from __future__ import annotations

import chess
import pytest
from textual import events
from textual.app import App
from textual.widgets import DataTable, Input, Static

from gbr_tui.app import GbrApp
from gbr_tui.core import Material, Rule
from gbr_tui.screens.decode import DecodeScreen
from gbr_tui.widgets.board import BoardView
from gbr_tui.widgets.bounded_input import MAX_INPUT
from tests.support.tui import screen_text, toasts, until

#: Narrow layout, tall enough that the whole result is drawn without scrolling.
TALL = (100, 90)


class DecodeHost(GbrApp):
    """The app with the decode screen open from the start, as after ``d`` in the editor."""

    def __init__(self, rule: Rule = Rule.COUNT, initial_text: str = "", ascii_mode: bool = False) -> None:
        super().__init__(ascii_mode=ascii_mode)
        self.rule = rule
        self.initial_text = initial_text

    async def on_mount(self) -> None:
        await super().on_mount()
        self.push_screen(DecodeScreen(self.initial_text))


def screen_lines(app: App) -> list[str]:
    """The screen as the terminal would show it, one string per row."""
    return screen_text(app).splitlines()


def loaded_nothing(app: DecodeHost) -> bool:
    """The editor still has the empty board it started with, never edited."""
    return not app.editor.setup.undo_stack and app.editor.setup.board.board_fen() == "8/8/8/8/8/8/8/8"


def table_rows(app: App) -> list[tuple[str, str, str]]:
    table = app.screen.query_one("#examples", DataTable)
    if not table.display:
        return []
    return [tuple(table.get_row_at(index)) for index in range(table.row_count)]


def caret_under(app: App, typed: str) -> int:
    """The index in ``typed`` of the character drawn right above the ``^`` on screen.

    The input may have scrolled: the row above the caret shows the longest visible suffix of
    the typed text, which fixes where each character is drawn.
    """
    lines = screen_lines(app)
    (row,) = [index for index, line in enumerate(lines) if line.strip() == "^"]
    caret_column = lines[row].index("^")
    for line in reversed(lines[:row]):
        for start in range(len(typed) - 3):
            column = line.find(typed[start:])
            if column >= 0:
                return start + caret_column - column
    raise AssertionError("the typed text is not on screen above the caret")


async def type_code(pilot, text: str) -> None:
    await pilot.press(*text)
    await pilot.pause()


@pytest.mark.parametrize("size", [TALL, (80, 24)])
async def test_plain_code_explains_each_digit_and_material(size) -> None:
    app = DecodeHost()
    async with app.run_test(size=size) as pilot:
        await type_code(pilot, "0323.12")
        if size == TALL:
            text = screen_text(app)
        else:
            # At 80x24 everything must be reachable: the top of the result is on screen,
            # the rest after scrolling.
            text = screen_text(app)
            await pilot.press("pagedown")
            await pilot.pause()
            text += "\n" + screen_text(app)
        # 0323.12: Q 0 = 0 + 3*0; R 3 = 0 + 3*1; B 2 = 2 + 3*0; N 3 = 0 + 3*1; 1 and 2 pawns.
        assert "Q 0  0 White + 0 Black (queens)" in text
        assert "R 3  0 White + 1 Black (rooks)" in text
        assert "B 2  2 White + 0 Black (bishops)" in text
        assert "N 3  0 White + 1 Black (knights)" in text
        assert "P 1  1 White pawn" in text
        assert "p 2  2 Black pawns" in text
        assert "king, two bishops and a pawn" in text
        assert "king, a rook, a knight and two pawns" in text
        assert "♔♗♗♙" in text and "♚♜♞♟♟" in text
        assert "KBBP v KRNPP" in text
        # What a basic code cannot tell, said plainly.
        assert "where the men stand: many positions share one code" in text
        assert "who is to move: a GBR code never says" in text
        assert not app.screen.query_one("#board-column").display


async def test_material_and_first_result_lines_visible_at_80x24() -> None:
    app = DecodeHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_code(pilot, "0323.12")
        lines = screen_lines(app)
        assert any("0323.12" in line for line in lines[:3])  # the input, at the top
        top = "\n".join(lines[3:10])
        assert "KBBP v KRNPP" in top
        assert "king, two bishops and a pawn" in top


async def test_enter_loads_the_exact_material() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "0323.12")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.editor
        assert Material.from_board(app.editor.setup.board) == Material.from_string("KBBP v KRNPP")


async def test_kubbel_kings_only_shows_kings_and_says_the_rest_is_not_given() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "=0323.12g3g1")
        board = app.screen.query_one(BoardView)
        assert app.screen.query_one("#board-column").display
        # Only the two kings, White's on g3 and Black's on g1.
        assert board.board.board_fen() == "8/8/8/8/8/6K1/8/6k1"
        text = screen_text(app)
        assert "the other men's squares are not given" in text
        assert "White to play and draw" in text
        assert "Compact =0323.12g3g1" in text
        await pilot.press("enter")
        await pilot.pause()
        board = app.editor.setup.board
        assert (board.king(chess.WHITE), board.king(chess.BLACK)) == (chess.G3, chess.G1)
        assert Material.from_board(board) == Material.from_string("KBBP v KRNPP")


FULL_POSITIONS = [
    # Spec section 3 (EG, full position) and section 4 (the same study as Kubbel's).
    ("g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw", "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"),
    # Spec section 4, ARVES dialect.
    ("a7d3 0116.00 b2b3c6d6 3/3+", "8/K7/2nn4/8/8/1B1k4/1R6/8"),
    # Spec section 4, German dotted dialect.
    ("0000.02.a1a8.a2b2", "k7/8/8/8/8/8/pp6/K7"),
]


@pytest.mark.parametrize(("typed", "placement"), FULL_POSITIONS)
async def test_full_position_shows_the_board_and_loads_it(typed: str, placement: str) -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, typed)
        assert app.screen.query_one(BoardView).board.board_fen() == placement
        assert f"FEN {placement}" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == placement


async def test_full_position_compact_form_and_men_count_check() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw")
        text = screen_text(app)
        # Compact order (spec section 3): stipulation, code, kings g3 g1, then rooks (Black's a3),
        # bishops (White's a2 e1, file order), knights (Black's g8), White's pawn h6, Black's c3 c6.
        assert "Compact =0323.12g3g1a3a2e1g8h6c3c6" in text
        # KBBP is 4 men with the king, KRNPP 5.
        assert "Men count: 4/5 (kings included), agrees with the code" in text
        assert "Stipulation: =  White to play and draw" in text


async def test_unreachable_position_is_shown_with_a_warning() -> None:
    # Spec section 5.5: a White pawn on a8 can be written (0000.10, kings a1 h8) but not reached.
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "0000.10a1h8a8")
        white_pawn = chess.Piece(chess.PAWN, chess.WHITE)
        assert app.screen.query_one(BoardView).board.piece_at(chess.A8) == white_pawn
        assert "Warning: pawns on the first or last rank" in screen_text(app)


async def test_german_dialect_words_for_a_bare_king() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "0000.02.a1a8.a2b2")
        text = screen_text(app)
        assert "White: ♔" in text and "bare king" in text
        assert "king and two pawns" in text


DIALECTS = [
    # Four digits mean no pawns: 0005 = KNN v KN (spec section 2).
    ("0005", ["KNN v KN", "two knights against knight"]),
    # ',' for '.': 4000,10 = KQP v KQ (spec section 2, 4 = 1 + 3).
    ("4000,10", ["KQP v KQ", "queen and pawn against queen"]),
    # Book spacing, kings only: 1234.56 = Q 1+0, R 0+1 (2 = 2+0), ... checked digit by digit.
    ("+ 1234.56 a7c8", ["Q 1  1 White + 0 Black", "R 2  2 White + 0 Black", "B 3  0 White + 1 Black",
                         "N 4  1 White + 1 Black", "White to play and win", "Kings: White a7, Black c8"]),
    # EG: men count includes kings (KN = 2, K + 4 pawns = 5), result as a word.
    ("f1h1 0001.04 2/5 Win", ["Men count: 2/5 (kings included), agrees with the code",
                              "White to play and win"]),
    ("f1h1 0001.04 2/5 BTM", ["Side to move: Black, as the result says"]),
    # The same words as the command line's "To move" (tests/cli/test_decode.py).
    ("=0323.12g3g1", ["Side to move: White, as the stipulation says"]),
]  # fmt: skip


@pytest.mark.parametrize(("typed", "expected"), DIALECTS)
async def test_dialects(typed: str, expected: list[str]) -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, typed)
        text = screen_text(app)
        assert not app.screen.query_one("#error", Static).display
        for fragment in expected:
            assert fragment in text


async def test_nine_is_flagged_and_enter_refuses_with_the_reason() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "1689")
        text = screen_text(app)
        # Spec section 1: white Q, two black rooks, two bishops each, three black knights.
        assert "Q 1  1 White + 0 Black (queens)" in text
        assert "R 6  0 White + 2 Black (rooks)" in text
        assert "B 8  2 White + 2 Black (bishops)" in text
        assert "N 9  three or more knights on at least one side: exact count unknown" in text
        assert "an unknown number of knights" in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DecodeScreen) and loaded_nothing(app)
        assert isinstance(app.screen, DecodeScreen)
        assert "Not loaded: a 9 hides how many knights there are" in screen_text(app)


async def test_invalid_letter_caret_under_it() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "03x3.12")
        assert caret_under(app, "03x3.12") == 2  # the x
        assert "expected four piece digits" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DecodeScreen) and loaded_nothing(app)
        assert "Not loaded: the code is not valid" in screen_text(app)


async def test_pawn_digit_nine_caret_under_it() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "0323.19")
        assert caret_under(app, "0323.19") == 6
        assert "a pawn digit is 0-8" in screen_text(app)


async def test_men_count_mismatch_is_reported_at_the_count() -> None:
    typed = "a7d3 0116.00 b2b3c6d6 3/4+"
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, typed)
        # KRB v KNN is 3/3 with kings; the printed 3/4 starts at index 22.
        assert caret_under(app, typed) == typed.index("3/4")
        assert "men count 3/4 disagrees with the code, which gives 3/3" in screen_text(app)


async def test_caret_follows_the_input_when_it_scrolls() -> None:
    # 59 characters in a 60-column terminal (the smallest the app lays out): the input shows
    # only the end of the text. Dots between squares mean nothing; the b2 at the end is given
    # twice (text after a men count would be a result text, issue 12, so the error is a square).
    typed = "a7d3 0116.00 b2b3c6d6" + " ." * 17 + " b2"
    app = DecodeHost()
    async with app.run_test(size=(60, 30)) as pilot:
        await type_code(pilot, typed)
        assert caret_under(app, typed) == typed.rindex("b2")
        assert "b2 is given twice" in screen_text(app)


async def test_result_follows_typing_and_editing() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "03x")
        assert app.screen.query_one("#caret").display
        await pilot.press("backspace", *"23.12")
        await pilot.pause()
        assert not app.screen.query_one("#caret").display
        assert not app.screen.query_one("#error").display
        assert "KBBP v KRNPP" in screen_text(app)


@pytest.mark.parametrize(
    ("typed", "rows"),
    [
        # The spec's row and Kubbel's study (Kg3 Ba2 Be1 h6 v Kg1 Ra3 Ng8 c3 c6).
        ("0323.12", [("KBBP", "KRNPP"), ("KBBP", "KRNPP")]),
        # KNN v KP: the published row, the named Troitzky class and Kling & Horwitz's study.
        ("0002.01", [("KNN", "KP"), ("KNN", "KP"), ("KNN", "KP")]),
        ("0009", [("KNNN", "KNN")]),
        # The spec's ARVES position: Ka7 Rb2 Bb3 v Kd3 Nc6 Nd6.
        ("0116.00", [("KRB", "KNN")]),
        ("0111.00", []),
    ],
)
async def test_matching_examples_listed(typed: str, rows: list[tuple[str, str]]) -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, typed)
        assert [(white, black) for white, black, _ in table_rows(app)] == rows
        if not rows:
            assert "No published example has class" in screen_text(app)


async def test_troitzky_named_class_listed() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "0002.01")
        assert any("Troitzky" in name for _, _, name in table_rows(app))


async def test_promoted_rule_reads_queen_nine_as_more_than_one_queen() -> None:
    app = DecodeHost(rule=Rule.PROMOTED)
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "9000")
        text = screen_text(app)
        assert "more than one queen on at least one side" in text
        assert "promoted rule" in text


async def test_ascii_mode_uses_letters() -> None:
    app = DecodeHost(ascii_mode=True)
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "0000.02.a1a8.a2b2")
        text = screen_text(app)
        assert "Black: kpp" in text
        assert not any(glyph in text for glyph in "♔♚♟")
        assert app.screen.query_one(BoardView).ascii_mode


async def test_initial_text_is_decoded_at_once() -> None:
    app = DecodeHost(initial_text="=0323.12g3g1")
    async with app.run_test(size=TALL) as pilot:
        await pilot.pause()
        assert app.screen.query_one(Input).value == "=0323.12g3g1"
        assert "Compact =0323.12g3g1" in screen_text(app)


async def test_enter_on_empty_input_stays() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DecodeScreen) and loaded_nothing(app)
        assert "Not loaded: type a code first" in screen_text(app)


@pytest.mark.parametrize("key", ["escape", "f2"])
async def test_escape_and_f2_go_back_loading_nothing(key: str) -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "0323.12")
        await pilot.press(key)
        await pilot.pause()
        assert app.screen is app.editor and loaded_nothing(app)


async def test_footer_shows_a_way_back_that_is_not_escape() -> None:
    app = DecodeHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "Load in editor" in screen_lines(app)[-1])  # drawn after the screen
        footer = screen_lines(app)[-1]
        assert "f2 Back" in footer
        assert "Load in editor" in footer
        for binding in DecodeScreen.BINDINGS:
            assert binding.description and binding.id


SNAPSHOT_SIZE = (100, 30)


def _snapshot_app(typed: str) -> tuple[DecodeHost, object]:
    app = DecodeHost()

    async def type_without_blink(pilot) -> None:
        pilot.app.screen.query_one(Input).cursor_blink = False
        await pilot.press(*typed)
        await pilot.pause()

    return app, type_without_blink


def test_snapshot_valid_code(snap_compare) -> None:
    app, run_before = _snapshot_app("0323.12")
    assert snap_compare(app, terminal_size=SNAPSHOT_SIZE, run_before=run_before)


def test_snapshot_error(snap_compare) -> None:
    app, run_before = _snapshot_app("03x3.12")
    assert snap_compare(app, terminal_size=SNAPSHOT_SIZE, run_before=run_before)


# Kubbel's study (spec sections 3 and 4) as a piece list in each printed form.
KUBBEL_PLACEMENT = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"


@pytest.mark.parametrize(
    "typed",
    [
        "White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6",
        "Kg3 Ba2 Be1 h6 / Kg1 Ra3 Ng8 c3 c6 (4+5)",
        # Figurines cannot be typed as keys: the screen opens with them, as when pasted.
        "♔g3 ♗a2 ♗e1 ♙h6 ♚g1 ♜a3 ♞g8 ♟c3 ♟c6",
    ],
)
async def test_a_piece_list_shows_its_code_and_board_and_loads(typed: str) -> None:
    pasted = not typed.isascii()
    app = DecodeHost(initial_text=typed if pasted else "")
    async with app.run_test(size=TALL) as pilot:
        if not pasted:
            await type_code(pilot, typed)
        await pilot.pause()
        text = screen_text(app)
        text = screen_text(app)
        # KBBP v KRNPP is 0323.12 (spec section 2); the compact form lists every square.
        assert "Code 0323.12" in text
        assert "Compact 0323.12g3g1a3a2e1g8h6c3c6" in text
        assert "Material KBBP v KRNPP" in text
        assert app.screen.query_one(BoardView).board.board_fen() == KUBBEL_PLACEMENT
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.editor
        assert app.editor.setup.board.board_fen() == KUBBEL_PLACEMENT


@pytest.mark.parametrize("typed", ["KRP v KR", "KRPvKR"])
async def test_a_material_shows_its_code_and_loads(typed: str) -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, typed)
        # KRP v KR is 0400.10 (spec section 2).
        assert "Code 0400.10" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.editor
        assert Material.from_board(app.editor.setup.board) == Material.from_string("KRP v KR")


async def test_a_bad_piece_list_puts_the_caret_under_the_bad_man() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "Kg3 Xa2 / Kg1")
        assert caret_under(app, "Kg3 Xa2 / Kg1") == 4
        assert "unexpected 'X'" in screen_text(app)


async def test_other_men_are_named_with_their_squares() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        await type_code(pilot, "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw")
        # The printed piece list of the study (spec section 3).
        assert "Men: White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6" in screen_text(app)


async def test_the_fen_is_a_full_fen_with_the_side_to_move() -> None:
    app = DecodeHost()
    async with app.run_test(size=TALL) as pilot:
        # A draw stipulation: White to play; no castling, no en passant.
        await type_code(pilot, "=0323.12g3g1a3a2e1g8h6c3c6")
        assert f"FEN {KUBBEL_PLACEMENT} w - - 0 1" in screen_text(app)
        await pilot.press(*["backspace"] * 30)
        await type_code(pilot, "g3g1 0323.12 a3a2e1g8.h6c3c6 BTM")
        assert f"FEN {KUBBEL_PLACEMENT} b - - 0 1" in screen_text(app)


async def test_a_huge_paste_is_cut_to_fit_and_said() -> None:
    # Issue 15: a 10 MB paste made every key take seconds. A code with a million spaces after it
    # is cut to the input's 2,000 characters; what is left still decodes.
    app = DecodeHost()
    async with app.run_test(size=TALL, notifications=True) as pilot:
        code_input = app.screen.query_one(Input)
        code_input.post_message(events.Paste("0323.12" + " " * 1_000_000))
        await until(pilot, lambda: "KBBP v KRNPP" in screen_text(app))  # may take more than one pause to draw
        assert len(code_input.value) == MAX_INPUT
        assert any("cut to 2,000 characters" in toast for toast in toasts(app))
        assert "KBBP v KRNPP" in screen_text(app)


async def test_help_over_the_decode_screen_leaves_out_the_keys_its_input_types():
    app = GbrApp()
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.press("d", "f1")
        rows = {keys: text for _, section in app.screen.sections for keys, text in section}
        assert "f2" in rows and "f1" in rows and "^q" in rows  # the keys that still act
        assert not any(key in keys.split() for keys in rows for key in ("d", "q", "?")), rows
