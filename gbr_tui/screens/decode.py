"""The decode screen: type a GBR code as printed anywhere and read what it says, live.

Every dialect of the spec is read by ``core.notation.decode``; this screen only lays out the
result: material in glyphs and words, each digit explained, what was given besides the code,
what a code cannot tell, the board when squares are given, and the published examples of the
same class. Enter asks for the result in the editor (``LoadPosition``); F2 or Escape goes
back loading nothing. Every sentence comes from ``core.describe`` and ``core.explanation``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import chess
from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from gbr_tui.core import DecodedCode, GbrError, Rule, decode_any, explain, position_warnings
from gbr_tui.core.describe import (
    RULE_MEANINGS,
    SIDE_NAMES,
    STIPULATION_WORDS,
    hidden_count_words,
    side_to_move_words,
)
from gbr_tui.core.examples import ALL, Example
from gbr_tui.core.explanation import result_words, side_words
from gbr_tui.core.material import TYPES
from gbr_tui.core.notation import DIALECTS
from gbr_tui.core.setup import arrangement_of
from gbr_tui.core.written_forms import write_piece_list
from gbr_tui.interfaces import GbrAppInterface
from gbr_tui.messages import LoadPosition
from gbr_tui.tablebase_support import ShownVerdict, probe_verdict
from gbr_tui.widgets.board import UNICODE_GLYPHS, BoardView
from gbr_tui.widgets.bounded_input import BoundedInput
from gbr_tui.widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    pass

#: Besides a code, the screen reads these (shown under the dialects).
OTHER_INPUTS = (
    ("KRP v KR  KRPvKR", "material, White first"),
    ("Kg3 Ba2 Be1 h6 / Kg1 Ra3 Ng8 c3 c6", "piece list, White first"),
)


def side_glyphs(counts: dict[str, int | None], color: chess.Color, ascii_mode: bool) -> str:
    """``♔♗♗♙`` (or ``KBBP``); a type hidden by a 9 shows as its glyph and ``?``."""

    def glyph(piece_type: str) -> str:
        symbol = piece_type if color == chess.WHITE else piece_type.lower()
        return symbol if ascii_mode else UNICODE_GLYPHS[symbol]

    text = glyph("K")
    for piece_type in TYPES:
        count = counts[piece_type]
        text += glyph(piece_type) + "?" if count is None else glyph(piece_type) * count
    return text


def matching_examples(decoded: DecodedCode, rule: Rule) -> list[Example]:
    """Examples of the same class.

    A 9 is itself a fact (three or more of that type on a side), and an example's code under
    the same rule has a 9 exactly when that holds for it; so equal codes are precisely the
    examples consistent with the known digits and the 9s.
    """
    return [example for example in ALL if example.code(rule, short=False) == decoded.code]


class CodeInput(BoundedInput):
    """The code field. Enter submits it, after the keys typed before it; PgDn and PgUp scroll
    the result (an Input would move its cursor). The Footer shows them as what they do."""

    BINDINGS = [
        Binding("pagedown", "screen.scroll_result(1)", "More", key_display="PgDn"),
        Binding("pageup", "screen.scroll_result(-1)", "Scroll up", show=False, key_display="PgUp"),
        Binding("enter", "submit", "Load in editor"),
    ]


class DecodeScreen(Screen):
    """An input and, below it, everything the code typed so far says (or why it is wrong)."""

    HELP_TITLE = "Decode"
    AUTO_FOCUS = "#code"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall"), (44, "-taller")]

    # No priority bindings: a priority key acts before the keys typed ahead of it are handled
    # (over ssh they arrive together), so "0323.12" and Enter would load before the code was in.
    # The input has its own Enter, PgDn and PgUp (``CodeInput``); these act elsewhere.
    BINDINGS = [
        Binding(
            "enter",
            "load",
            "Load in editor",
            tooltip="Set up the decoded material or position in the editor",
            id="decode.load",
        ),
        Binding("f2", "back", "Back", tooltip="Back to the editor, loading nothing", id="decode.back"),
        Binding(
            "escape",
            "back",
            "Back",
            show=False,
            tooltip="Back to the editor, loading nothing",
            id="decode.escape",
        ),
        Binding(
            "pagedown",
            "scroll_result(1)",
            "More",
            key_display="PgDn",
            tooltip="Scroll the result down",
            id="decode.page-down",
        ),
        Binding(
            "pageup",
            "scroll_result(-1)",
            "Scroll up",
            show=False,
            key_display="PgUp",
            tooltip="Scroll the result up",
            id="decode.page-up",
        ),
    ]

    CSS_PATH = "../styles/decode.tcss"

    def __init__(self, initial_text: str = "") -> None:
        super().__init__()
        self.initial_text = initial_text
        self.decoded: DecodedCode | None = None
        self.error: GbrError | None = None

    @property
    def rule(self) -> Rule:
        return cast(GbrAppInterface, self.app).rule

    @property
    def ascii_mode(self) -> bool:
        return cast(GbrAppInterface, self.app).ascii_mode

    def compose(self) -> ComposeResult:
        code_input = CodeInput(
            self.initial_text,
            placeholder="a GBR code as printed, e.g. =0323.12g3g1 or a7d3 0116.00 b2b3c6d6 3/3+",
            id="code",
        )
        code_input.border_title = "Decode a GBR code"
        yield code_input
        yield Static(id="caret")
        yield Static(id="error")
        yield Static(id="refusal")
        with VerticalScroll(id="result"):
            yield Static(self._dialects(), id="dialects")
            with Container(id="columns"):
                with Vertical(id="facts"):
                    yield Static(id="material")
                    yield Static(id="digits")
                    yield Static(id="given")
                    yield Static(id="untold")
                with Vertical(id="board-column"):
                    yield BoardView(id="board")
                    yield Static(id="board-note")
                    yield Static(id="verdict", markup=False)
            yield Static(id="examples-title")
            yield DataTable(id="examples", show_cursor=False, zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        board = self.query_one(BoardView)
        board.show_cursor = False
        board.can_focus = False
        table = self.query_one("#examples", DataTable)
        table.can_focus = False
        table.add_columns("White", "Black", "Name")
        # Typed so far, read again when the rule or the ASCII mode changes.
        self.watch(self.app, "rule", lambda: self.decode_text(self.query_one(Input).value), init=False)
        self.watch(self.app, "ascii_mode", lambda: self.decode_text(self.query_one(Input).value), init=False)
        self.decode_text(self.initial_text)

    def on_resize(self) -> None:
        # The input's width decides how far it scrolls, hence where the caret goes.
        self.call_after_refresh(self._draw_caret)

    @on(Input.Changed, "#code")
    def _typed(self, event: Input.Changed) -> None:
        self.decode_text(event.value)

    @on(Input.Submitted, "#code")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_load()

    def decode_text(self, text: str) -> None:
        """Decode ``text`` and lay out the result (or the error)."""
        self.query_one("#refusal", Static).display = False
        self.decoded, self.error = None, None
        if text.strip():
            try:
                self.decoded = decode_any(text, self.rule)
            except GbrError as error:
                self.error = error
        self._show_error()
        self.call_after_refresh(self._draw_caret)
        decoded = self.decoded
        for result_part in self.query("#columns, #examples-title, #examples"):
            result_part.display = decoded is not None
        self.query_one("#dialects").display = decoded is None
        if decoded is None:
            self._show_verdict(None)
            return
        self._show_material(decoded)
        self._show_digits(decoded)
        self._show_given(decoded)
        self._show_untold(decoded)
        self._show_board(decoded)
        self._show_examples(decoded)
        self._probe_verdict(decoded)

    def _probe_verdict(self, decoded: DecodedCode) -> None:
        """The tablebase's verdict on a code with every square (``probe_verdict``; the code
        last typed wins); White to move when the code does not say."""
        tables = cast(GbrAppInterface, self.app).tablebases.tables()
        self._show_verdict(None)
        if tables is not None and decoded.board is not None:
            probe_verdict(self, tables, decoded.board, decoded.stipulation, self._show_probed)

    def _show_probed(self, fen: str, stipulation: str | None, shown: ShownVerdict | None) -> None:
        """The verdict probed on ``fen`` against ``stipulation``, unless the code has changed
        since."""
        decoded = self.decoded
        current = (decoded.board.fen(), decoded.stipulation) if decoded is not None and decoded.board else None
        if current == (fen, stipulation):
            self._show_verdict(shown)

    def _show_verdict(self, shown: ShownVerdict | None) -> None:
        verdict = self.query_one("#verdict", Static)
        board = self.decoded.board if self.decoded is not None else None
        if shown is None or board is None or shown.fen != board.fen():
            verdict.display = False
            return
        lines = [f"Tablebase: {shown.words}", *filter(None, [shown.agreement])]
        verdict.update("\n".join(lines))
        verdict.set_class(not shown.agrees, "-disagrees")
        verdict.display = True
        cast(GbrAppInterface, self.app).tablebases.say_problems()

    def action_load(self) -> None:
        """The result into the editor when it can be set up; otherwise say why not."""
        if not self.is_active:
            return  # a second Enter, typed before the screen closed
        if self.error is not None:
            reason = "the code is not valid: " + self.error.message
        elif self.decoded is None:
            reason = "type a code first"
        else:
            try:
                self.post_message(LoadPosition(arrangement_of(self.decoded)))
                return
            except GbrError as error:
                reason = error.message
        refusal = self.query_one("#refusal", Static)
        refusal.update(Content(f"Not loaded: {reason}."))
        refusal.display = True

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_scroll_result(self, pages: int) -> None:
        result = self.query_one("#result", VerticalScroll)
        if pages > 0:
            result.scroll_page_down()
        else:
            result.scroll_page_up()

    def _show_error(self) -> None:
        error_line = self.query_one("#error", Static)
        caret = self.query_one("#caret", Static)
        if self.error is None:
            error_line.display = caret.display = False
            return
        where = "" if self.error.offset is None else f" (character {self.error.offset + 1})"
        error_line.update(Content(f"{self.error.message}{where}"))
        error_line.display = True
        caret.display = self.error.offset is not None

    def _draw_caret(self) -> None:
        """Put ``^`` under the bad character as the Input shows it (after its own scrolling)."""
        if self.error is None or self.error.offset is None:
            return
        try:
            caret = self.query_one("#caret", Static)
            code_input = self.query_one("#code", Input)
        except NoMatches:  # a key typed ahead closed the screen before this refresh came
            return
        text_start = code_input.content_region.x - code_input.region.x
        column = text_start + cell_len(code_input.value[: self.error.offset]) - code_input.scroll_offset.x
        caret.update(Content(" " * max(column, 0) + "^"))

    def _dialects(self) -> Content:
        lines = [Content.styled("Type a code in any printed form, a material or a piece list:", "bold")]
        width = max(len(example) for example, _ in DIALECTS)
        for example, meaning in DIALECTS:
            lines.append(Content(f"  {example.ljust(width)}  {meaning}"))
        for example, meaning in OTHER_INPUTS:
            lines.append(Content(f"  {example.ljust(width)}  {meaning}"))
        return Content("\n").join(lines)

    def _show_material(self, decoded: DecodedCode) -> None:
        header: list[str | tuple[str, str]] = [
            ("Code ", "bold"),
            decoded.code,
            "   ",
            ("Compact ", "bold"),
            decoded.compact,
        ]
        if decoded.material is not None:
            header += ["   ", ("Material ", "bold"), str(decoded.material)]
        lines = [Content.assemble(*header)]
        sides = (
            (SIDE_NAMES[chess.WHITE], chess.WHITE, decoded.white),
            (SIDE_NAMES[chess.BLACK], chess.BLACK, decoded.black),
        )
        glyphs = [side_glyphs(counts, color, self.ascii_mode) for _, color, counts in sides]
        width = max(cell_len(text) for text in glyphs)
        for (name, _, counts), side in zip(sides, glyphs):
            padding = " " * (width - cell_len(side))
            lines.append(Content.assemble((f"{name}: ", "bold"), side, padding, "  ", side_words(counts)))
        self.query_one("#material", Static).update(Content("\n").join(lines))

    def _show_digits(self, decoded: DecodedCode) -> None:
        lines = [Content.assemble(("Digits", "bold"), "  ", RULE_MEANINGS[self.rule])]
        for line in explain(decoded, self.rule):
            row = f"  {line.label} {line.digit}  {line.text}"
            lines.append(Content.styled(row, "bold") if line.digit == "9" else Content(row))
        self.query_one("#digits", Static).update(Content("\n").join(lines))

    def _show_given(self, decoded: DecodedCode) -> None:
        lines = []
        if decoded.stipulation:
            lines.append(f"Stipulation: {decoded.stipulation}  {STIPULATION_WORDS[decoded.stipulation]}")
        if decoded.result is not None:
            lines.append(f"Result: {result_words(decoded.result)}")
        if decoded.to_move is not None:
            lines.append(f"Side to move: {side_to_move_words(decoded)}")
        if decoded.men_count is not None:
            white, black = decoded.men_count
            agreement = "possible with the known digits" if decoded.unknown else "agrees with the code"
            lines.append(f"Men count: {white}/{black} (kings included), {agreement}")
        if decoded.kings is not None:
            white_king, black_king = decoded.kings
            lines.append(f"Kings: White {white_king}, Black {black_king}")
        if decoded.board is not None:
            lines.append(f"Men: {write_piece_list(decoded.board, ' - ' if self.ascii_mode else ' – ')}")
        elif decoded.men_squares:
            lines.append(f"Other men: {' '.join(decoded.men_squares)}")
        given = self.query_one("#given", Static)
        given.update(Content("\n").join(Content(line) for line in lines))
        given.display = bool(lines)

    def _show_untold(self, decoded: DecodedCode) -> None:
        """What the code leaves open, in plain words."""
        untold = []
        if decoded.kings is None:
            untold.append("where the men stand: many positions share one code")
        elif decoded.board is None and not decoded.men_squares:
            untold.append("where the other men stand: only the kings' squares are given")
        if decoded.to_move is None:
            untold.append("who is to move: a GBR code never says")
        if decoded.unknown:
            untold.append(hidden_count_words(decoded.unknown))
        untold += decoded.notes
        # A grid, so that a long point wraps under its own text rather than under the dash.
        points = Table.grid(padding=(0, 1))
        points.add_column(no_wrap=True)
        points.add_column()
        for line in untold:
            points.add_row(" -", Text(line))
        widget = self.query_one("#untold", Static)
        widget.update(Group(Text("Not in this code:", style="bold"), points))
        widget.display = bool(untold)

    def _show_board(self, decoded: DecodedCode) -> None:
        board_view = self.query_one(BoardView)
        note = self.query_one("#board-note", Static)
        self.query_one("#board-column").display = decoded.kings is not None
        if decoded.kings is None:
            return
        board_view.ascii_mode = self.ascii_mode
        if decoded.board is not None:
            board_view.set_board(decoded.board)
            warnings = [f"Warning: {warning}" for warning in position_warnings(decoded.board)]
            lines = [f"FEN {decoded.full_fen}", *warnings]
        else:
            kings_only = chess.Board(None)
            for color, name in zip((chess.WHITE, chess.BLACK), decoded.kings):
                kings_only.set_piece_at(chess.parse_square(name), chess.Piece(chess.KING, color))
            board_view.set_board(kings_only)
            if decoded.men_squares:
                lines = ["Only the kings are shown: with a 9 the other squares cannot be matched to pieces."]
            else:
                lines = ["Only the kings are shown: the other men's squares are not given."]
        note.update(Content("\n").join(Content(line) for line in lines))

    def _show_examples(self, decoded: DecodedCode) -> None:
        title = self.query_one("#examples-title", Static)
        table = self.query_one("#examples", DataTable)
        table.clear()
        examples = matching_examples(decoded, self.rule)
        table.display = bool(examples)
        if not examples:
            title.update(Content(f"No published example has class {decoded.code}."))
            return
        title.update(Content(f"Published examples of class {decoded.code}"))
        for example in examples:
            table.add_row(example.white, example.black, example.name)
