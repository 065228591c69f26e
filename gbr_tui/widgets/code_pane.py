"""The code pane: what the core says about the board being edited, redrawn on every edit."""

from __future__ import annotations

import chess
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Digits, Static

from gbr_tui.core import GbrError, Rule, decode, encode, explain, extended_code, position_warnings
from gbr_tui.core.material import men_on_board

STIPULATION_WORDS = {"+": "+ White plays and wins", "=": "= White plays and draws", None: "no stipulation"}
TURN_WORDS = {chess.WHITE: "White to move", chess.BLACK: "Black to move"}


def _update(static: Static, content: str | Text) -> None:
    """Update a Static, with a new layout only when its height changes.

    A layout redraws every pane (the examples table too), and most edits keep the line count.
    """
    static.update(content, layout=False)
    size = static.size
    if static.get_content_height(size, static.app.size, size.width) != size.height:
        static.refresh(layout=True)


class CodePane(VerticalScroll, can_focus=True):
    """The code in large digits, each digit explained, material, extended code, FEN, warnings.

    It only shows what ``gbr_tui.core`` computes; call ``show`` after every edit. Three widgets
    in all (digits, summary, body): every edit redraws them, and start-up styles them.
    """

    COMPONENT_CLASSES = {"code-pane--label", "code-pane--code", "code-pane--warning"}

    DEFAULT_CSS = """
    CodePane { padding: 0 0 0 1; scrollbar-size-vertical: 1; }
    CodePane > Horizontal { height: auto; }
    CodePane Digits { width: auto; margin-right: 2; }
    CodePane Static { width: 1fr; height: auto; }
    CodePane > .code-pane--label { color: $text-muted; }
    CodePane > .code-pane--code { text-style: bold; }
    CodePane > .code-pane--warning { color: $text-warning; }
    """

    #: The code as last shown with its stipulation and king squares (``=0323.12g3g1``), or the
    #: basic code when the board has no single king a side, or None when no code can be written.
    shown_code: str | None = None

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Digits(id="code-digits")
            yield Static(id="code-summary", markup=False)
        yield Static(id="code-body", markup=False)

    def show(self, board: chess.Board, stipulation: str | None, rule: Rule = Rule.COUNT) -> None:
        warnings = position_warnings(board)
        try:
            code = encode(board, rule)
        except GbrError as error:
            # More than eight pawns a side: there is no digit to write them in.
            code = None
            warnings.insert(0, f"no code: {error.message}")
        self.query_one(Digits).update(code or "----.--")
        summary = (men_on_board(board), TURN_WORDS[board.turn], STIPULATION_WORDS[stipulation])
        _update(self.query_one("#code-summary", Static), "\n".join(summary))
        label = self.get_component_rich_style("code-pane--label")
        body = self._codes(board, code, stipulation, rule)
        body.append_text(Text.assemble(("FEN   ", label), board.fen(), "\n"))
        # The verdict in the border keeps a row for the explanations at 80x24.
        self.border_subtitle = "legal position" if not warnings else "not a legal position"
        if warnings:
            body.append(
                "\n".join(f"! {text}" for text in warnings) + "\n", self.get_component_rich_style("code-pane--warning")
            )
        if code is not None:
            body.append(
                "\n".join(f"{line.label} {line.digit} = {line.text}" for line in explain(decode(code, rule), rule))
            )
        _update(self.query_one("#code-body", Static), body)

    def _codes(self, board: chess.Board, code: str | None, stipulation: str | None, rule: Rule) -> Text:
        """The code with stipulation and kings, then with every man; sets ``shown_code``."""
        label = self.get_component_rich_style("code-pane--label")
        bold = self.get_component_rich_style("code-pane--code")
        if code is None:
            self.shown_code = None
            return Text()
        try:
            self.shown_code = extended_code(board, stipulation, rule, kings_only=True)
            every_man = extended_code(board, stipulation, rule)
        except GbrError as error:
            self.shown_code = f"{stipulation or ''}{code}"
            return Text.assemble(("code  ", label), (self.shown_code, bold), (f"  ({error.message})\n", label))
        return Text.assemble(("code  ", label), (self.shown_code, bold), "\n", ("full  ", label), every_man, "\n")
