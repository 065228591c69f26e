"""The app in any terminal: ASCII mode, NO_COLOR, themes, sizes, keys without Esc, keys typed
ahead, animations. What the screen shows is read from the app's own screenshot (``screen_text``).

The start position's code, used throughout: 4888.88 (one queen each: 1 + 3; two rooks, bishops
and knights each: 2 + 6; eight pawns each), 4888.88e1e8 with the kings' squares.
"""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from textual.binding import Binding
from textual.filter import NoColor
from textual.widgets import DataTable, Digits, Input

from gbr_tui.app import GbrApp, make_app
from gbr_tui.ascii import REPLACEMENTS, ascii_character, to_ascii
from gbr_tui.core import board_from_fen
from gbr_tui.dialogs.position_input import PositionInputDialog
from gbr_tui.palette import GbrCommandPalette
from gbr_tui.screens.decode import CodeInput, DecodeScreen
from gbr_tui.screens.editor import EditorScreen
from gbr_tui.screens.help import HelpScreen
from gbr_tui.screens.too_small import TooSmallScreen
from gbr_tui.widgets.board import BOARD_COLOURS
from gbr_tui.widgets.board_editor import BoardEditor
from gbr_tui.widgets.examples_pane import ExamplesPane
from tests.support.tui import KUBBEL_FEN, key_event, palette_hit, run_command, screen_text, shown_digits, until

START = "4888.88"


def one_line(text: str) -> str:
    """The screen's words with every run of blanks and line ends made one space."""
    return " ".join(text.split())


# ASCII mode -----------------------------------------------------------------------------------

#: (name, keys from the editor with the start position set up): every screen and pane.
ASCII_STATES = [
    ("board", ()),
    ("code pane", ("tab",)),
    ("examples filtered", ("tab", "tab", *"KR", "down")),
    ("a pending g", ("g", "e")),
    ("decode, valid", ("f2", *"=0323.12g3g1")),
    ("decode, scrolled", ("f2", *"=0323.12g3g1a3a2e1g8h6c3c6", "pagedown", "pagedown")),
    ("decode, error", ("f2", *"0323.19")),
    ("help", ("f1",)),
    ("help, scrolled", ("f1", "pagedown", "pagedown")),
    ("FEN/code input, error", ("i", *"8/8/x")),
    ("palette", ("ctrl+p", *"flip")),
    ("a notification", ("y",)),
]


#: The sizes each state is drawn at: the compact layout, the usual terminal and a roomy one.
ASCII_SIZES = [(80, 24), (60, 20), (120, 40)]


@pytest.mark.parametrize(("name", "keys"), ASCII_STATES, ids=[name for name, _ in ASCII_STATES])
async def test_ascii_mode_draws_only_ascii(name: str, keys: tuple[str, ...]) -> None:
    # One app per state, resized through the sizes: every size redraws the whole screen, and an
    # app started per state and size would cost three times as many start-ups.
    app = make_app(ascii_mode=True, animation_level="none")
    async with app.run_test(size=ASCII_SIZES[0], notifications=True) as pilot:
        await pilot.press("s", *keys)
        for width, height in ASCII_SIZES:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            assert app.size == (width, height)
            text = screen_text(app)
            assert text.strip(), f"nothing on screen at {width}x{height}"
            assert text.isascii(), (width, height, sorted({character for character in text if not character.isascii()}))


async def test_ascii_mode_says_too_small_in_ascii() -> None:
    app = make_app(ascii_mode=True)
    async with app.run_test(size=(40, 12)):
        text = screen_text(app)
        assert "too small" in text
        assert text.isascii()


async def test_ascii_mode_letters_on_the_board_and_the_code_as_text() -> None:
    app = make_app(ascii_mode=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        text = screen_text(app)
        # Each man on a dark square (a1 c1 e1 g1, b8 d8 f8 h8) keeps the square's dot beside it.
        assert "|1 .R. N .B. Q .K. B .N. R |" in text
        assert "|8  r .n. b .q. k .b. n .r.|" in text
        # Dark empty squares are marked: a3 is dark (file a + rank 3 is even, counting from 0).
        assert re.search(r"\|3  \.  ", text)
        assert not app.screen.query_one(Digits).display  # box lines: the code line stands in
        assert "code  4888.88e1e8" in text


async def test_ascii_mode_names_keys_instead_of_arrows() -> None:
    up = Binding("up", "noop")
    assert make_app(ascii_mode=True).get_key_display(up) == "up"
    assert make_app().get_key_display(up) == "↑"
    app = make_app(ascii_mode=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f1")
        text = screen_text(app)
        assert re.search(r"\bup +Cursor up", text)
        assert re.search(r"\bdown +Cursor down", text)


@pytest.mark.parametrize("character", ["╭", "─", "┃", "━", "┏", "▁", "▄", "█", "…", "·", "↑", "♔", "♟", "⭘", "🔎", "é"])
def test_ascii_characters_keep_the_width(character: str) -> None:
    replacement = ascii_character(character)
    assert replacement.isascii()
    assert cell_len(replacement) == cell_len(character)


def test_ascii_lines_of_boxes() -> None:
    assert to_ascii("╭─ Board ─╮") == "+- Board -+"
    assert to_ascii("┏━━┓┃┗━━┛") == "+==+|+==+"
    assert to_ascii("├┼┤") == "+++"
    assert REPLACEMENTS["♚"] == "k" and REPLACEMENTS["♙"] == "P"


# NO_COLOR -------------------------------------------------------------------------------------


async def test_no_color_strips_every_colour_and_keeps_cursor_and_squares(monkeypatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    # Textual's NoColor filter (the terminal's default colours), not shades of grey.
    assert any(isinstance(line_filter, NoColor) for line_filter in app.get_line_filters())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        board = app.screen.query_one(BoardEditor)
        assert board.get_component_rich_style("board--cursor").reverse
        text = screen_text(app)
        assert "[ ]" in text  # the cursor, e4 empty
        assert re.search(r"┃3  ·     ·", text)  # dark empty squares marked: a3, c3
        table = app.screen.query_one(ExamplesPane).query_one(DataTable)
        assert table.get_component_rich_style("datatable--cursor").reverse
        await pilot.press("f2")
        assert app.screen.query_one(CodeInput).get_component_rich_style("input--cursor").reverse


@pytest.mark.parametrize(("ascii_mode", "dot"), [(False, "·"), (True, ".")])
async def test_a_man_on_a_dark_square_keeps_the_squares_dot(monkeypatch, ascii_mode: bool, dot: str) -> None:
    # Without colours the dot is all that tells a dark square (a1, c1, e1, g1 on rank 1; b8, d8,
    # f8, h8 on rank 8): a man standing there must not hide it.
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(ascii_mode=ascii_mode)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        glyphs = "RNBQKBNR" if ascii_mode else "♖♘♗♕♔♗♘♖"
        black = glyphs.lower() if ascii_mode else "♜♞♝♛♚♝♞♜"
        text = screen_text(app)
        d = re.escape(dot)
        rank_1 = r"1 +{0}{1}{0} +{2} +{0}{3}{0} +{4} +{0}{5}{0} +{6} +{0}{7}{0} +{8}".format(d, *glyphs)
        rank_8 = r"8 +{1} +{0}{2}{0} +{3} +{0}{4}{0} +{5} +{0}{6}{0} +{7} +{0}{8}{0}".format(d, *black)
        assert re.search(rank_1, text), text
        assert re.search(rank_8, text), text


# Themes ---------------------------------------------------------------------------------------


async def test_the_board_follows_the_theme_and_high_contrast_is_in_the_palette() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        assert "gbr-high-contrast" in app.available_themes
        board = app.screen.query_one(BoardEditor)
        assert board.get_component_rich_style("board--dark").bgcolor.triplet.hex == BOARD_COLOURS["board-dark"]
        await run_command(pilot, "theme")  # Textual's own command: the themes in our palette
        assert isinstance(app.screen, GbrCommandPalette)
        await pilot.press(*"gbr-high")
        await wait_for_a_hit(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == "gbr-high-contrast"
        dark = app.screen.query_one(BoardEditor).get_component_rich_style("board--dark")
        assert dark.bgcolor.triplet.hex == "#ffd700"
        # The board keeps its drawn lines between edits: the new theme must reach them too.
        drawn = {
            segment.style.bgcolor.triplet.hex
            for y in range(board.size.height)
            for segment in board.render_line(y)
            if segment.style and segment.style.bgcolor
        }
        assert "#ffd700" in drawn and BOARD_COLOURS["board-dark"] not in drawn


async def wait_for_a_hit(pilot) -> None:
    """The palette searches in the background: wait until it highlights a hit."""
    await until(pilot, lambda: palette_hit(pilot.app))
    assert palette_hit(pilot.app), "the palette found nothing"


# Sizes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(40, 12), (59, 20), (60, 19), (1, 1)])
async def test_below_60x20_the_app_says_the_terminal_is_too_small(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        if size[0] >= 40:
            width, height = size
            assert f"terminal too small: need at least 60x20, have {width}x{height}" in one_line(screen_text(app))


async def test_ctrl_q_quits_while_too_small() -> None:
    app = make_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_too_small_then_enlarged_goes_back_and_keys_wait_meanwhile() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("tab")  # the code pane has the focus
        await pilot.resize_terminal(40, 12)
        assert isinstance(app.screen, TooSmallScreen)
        assert "have 40x12" in one_line(screen_text(app))
        await pilot.resize_terminal(50, 15)
        assert "have 50x15" in one_line(screen_text(app))
        await pilot.press("d", "f1", "i", "ctrl+p", "s")  # none of them acts while covered
        assert isinstance(app.screen, TooSmallScreen)
        assert len(app.screen_stack) == 2
        await pilot.resize_terminal(80, 24)
        assert isinstance(app.screen, EditorScreen)
        assert app.focused is app.screen.code_pane
        assert shown_digits(app) == "0000.00"
        await pilot.press("shift+tab", "s")
        assert shown_digits(app) == START


async def test_screens_a_key_on_its_way_opens_or_closes_stay_under_the_cover() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        decode_screen = app.screen
        await pilot.resize_terminal(40, 12)
        decode_screen.action_back()  # as when F2 reached the decode screen just before
        await pilot.pause()
        assert [type(screen) for screen in app.screen_stack] == [EditorScreen, TooSmallScreen]
        app.action_help()  # as when the palette's Help command runs just after
        await pilot.pause()
        assert [type(screen) for screen in app.screen_stack] == [EditorScreen, HelpScreen, TooSmallScreen]
        await pilot.resize_terminal(80, 24)
        assert isinstance(app.screen, HelpScreen)


async def test_compact_layout_at_60x20() -> None:
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("s")
        text = screen_text(app)
        assert app.screen.has_class("-slim") and app.screen.has_class("-low")
        assert not app.screen.query_one(Digits).display
        assert "code  4888.88e1e8" in text
        assert "a  b  c  d  e  f  g  h" in text  # the whole board
        assert "8  ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜" in text
        footer = text.splitlines()[-1]
        assert "f1 help" in footer and "^p" in footer
        assert "Examples" in text


async def test_80x24_shows_the_big_digits() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        assert app.screen.query_one(Digits).display
        assert shown_digits(app) == START
        assert "f1 help" in screen_text(app).splitlines()[-1]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
async def test_every_screen_usable(size: tuple[int, int]) -> None:
    app = make_app(board_from_fen(KUBBEL_FEN), "=")
    async with app.run_test(size=size) as pilot:
        await pilot.press("f2", *"=0323.12g3g1")
        text = one_line(screen_text(app))
        assert "Code 0323.12" in text and "f2 Back" in text
        await pilot.press("f2", "f1")
        text = one_line(screen_text(app))
        assert "Board (when it has the focus)" in text and "f1 Back" in text
        await pilot.press("f1", "i", *"4888.88")
        text = one_line(screen_text(app))
        assert "Load a FEN, a GBR code or a piece list" in text and "code 4888.88" in text
        await pilot.press("f10", "ctrl+p", *"flip")
        await wait_for_a_hit(pilot)
        assert "Flip the board" in screen_text(app)


# No Esc, no mouse -----------------------------------------------------------------------------

SCREENS_AND_WIDGETS = [
    EditorScreen, BoardEditor, ExamplesPane, DecodeScreen, CodeInput, HelpScreen,
    PositionInputDialog, GbrCommandPalette, TooSmallScreen, GbrApp,
]  # fmt: skip


@pytest.mark.parametrize("node_class", SCREENS_AND_WIDGETS, ids=lambda cls: cls.__name__)
def test_no_action_is_bound_to_escape_alone(node_class: type) -> None:
    keys_of: dict[str, set[str]] = {}
    for cls in reversed(node_class.__mro__):
        for binding in Binding.make_bindings(cls.__dict__.get("BINDINGS", [])):
            keys_of.setdefault(binding.action, set()).add(binding.key)
    for action, keys in keys_of.items():
        if "escape" in keys:
            assert keys - {"escape"}, f"{node_class.__name__}: {action} needs Esc"


async def test_every_screen_leaves_by_a_key_that_is_not_escape() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        for opening, leaving, screen in (
            ("f2", "f2", DecodeScreen),
            ("f1", "f1", HelpScreen),
            ("i", "f10", PositionInputDialog),
            ("ctrl+p", "ctrl+p", GbrCommandPalette),
        ):
            await pilot.press(opening)
            assert isinstance(app.screen, screen)
            await pilot.press(leaving)
            assert isinstance(app.screen, EditorScreen), screen.__name__
        await pilot.press("g", "e")
        assert app.editor.jump == "e"
        await pilot.press("f10")
        assert app.editor.jump is None


# Keys typed ahead (over ssh they arrive together) ----------------------------------------------


async def post_keys(pilot, *keys: str) -> None:
    """Keys as one read from the terminal brings them: all posted before the app handles one."""
    for key in keys:
        pilot.app.post_message(key_event(key))
    await pilot.pause()
    await pilot.pause()


async def test_a_code_typed_ahead_of_enter_is_loaded() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f2")
        await post_keys(pilot, *"0323.12", "enter", "enter")  # the second Enter reaches the editor
        await until(pilot, lambda: isinstance(app.screen, EditorScreen) and shown_digits(app) == "0323.12")
        assert isinstance(app.screen, EditorScreen)
        assert shown_digits(app) == "0323.12"


async def test_palette_keys_typed_ahead() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await post_keys(pilot, "ctrl+p", "pagedown", "pagedown")
        await until(pilot, lambda: isinstance(app.screen, GbrCommandPalette))
        assert isinstance(app.screen, GbrCommandPalette)
        await post_keys(pilot, "ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, EditorScreen))
        assert isinstance(app.screen, EditorScreen)
        await pilot.press("ctrl+p", *"flip the")
        await wait_for_a_hit(pilot)
        await post_keys(pilot, "enter", "enter")  # one flip; the second Enter reaches the board
        await until(pilot, lambda: isinstance(app.screen, EditorScreen) and app.editor.board_view.flipped)
        assert isinstance(app.screen, EditorScreen)
        assert app.editor.board_view.flipped
        await pilot.press("f1")
        await post_keys(pilot, "escape", "ctrl+p", "K")  # help closes, then the palette opens
        stack = [EditorScreen, GbrCommandPalette]
        await until(pilot, lambda: [type(screen) for screen in app.screen_stack] == stack)
        assert [type(screen) for screen in app.screen_stack] == stack


# Animations -----------------------------------------------------------------------------------


async def test_no_animation_means_no_blinking_cursor() -> None:
    app = make_app(animation_level="none")
    assert app.animation_level == "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        assert not app.screen.query_one(Input).cursor_blink
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        assert app.screen.query_one(Input).cursor_blink


# Snapshots ------------------------------------------------------------------------------------


def test_snapshot_ascii_at_80x24(snap_compare) -> None:
    assert snap_compare(make_app(board_from_fen(KUBBEL_FEN), "=", ascii_mode=True), terminal_size=(80, 24))


def test_snapshot_compact_at_60x20(snap_compare) -> None:
    assert snap_compare(make_app(board_from_fen(KUBBEL_FEN), "="), terminal_size=(60, 20))


def test_snapshot_too_small(snap_compare) -> None:
    async def shown(pilot) -> None:
        await pilot.pause()  # the message is pushed when the app has mounted

    assert snap_compare(make_app(), terminal_size=(40, 12), run_before=shown)
