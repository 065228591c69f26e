"""The code pane: what the core says about the board being edited, redrawn on every edit."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.reactive import reactive
from textual.widgets import Digits, Static

from gbr_tui.core.explanation import BoardDescription
from gbr_tui.tablebase_support import ShownVerdict


def _update(static: Static, content: str | Text) -> None:
    """Update a Static when its content changes, with a new layout only when its height changes.

    A layout redraws every pane (the examples table too), and most edits keep the line count.
    When no line is wider than the Static, its height is its line count: no wrapping to learn it.
    Before its first layout, the layout to come takes the content as it is.
    """
    if static.content == content:
        return
    if not static.size:
        static.update(content)
        return
    static.update(content, layout=False)
    width, height = static.size
    lines = (content.plain if isinstance(content, Text) else content).split("\n")
    if any(cell_len(line) > width for line in lines):
        rows = static.get_content_height(static.size, static.app.size, width)
    else:
        rows = len(lines)
    if rows != height:
        static.refresh(layout=True)


class CodePane(VerticalScroll, can_focus=True):
    """The code in large digits, each digit explained, material, extended code, FEN, warnings;
    where there is room, the EG and ARVES captions.

    It only shows what ``core.explanation`` says (``description``). Three widgets in all (digits,
    summary, body): every edit redraws them, and start-up styles them.
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

    #: What the core says about the board being edited; set after every edit.
    description: reactive[BoardDescription | None] = reactive(None, always_update=True, layout=False, repaint=False)
    #: The tablebase's verdict on the board (set by a worker once probed), None without one.
    verdict: reactive[ShownVerdict | None] = reactive(None, layout=False, repaint=False)

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Digits(id="code-digits")
            yield Static(id="code-summary", markup=False)
        yield Static(id="code-body", markup=False)

    def watch_description(self, description: BoardDescription | None) -> None:
        # Drawn before the first layout too, so that the first frame shows it; what depends on
        # the pane's size (the captions) comes with the first Resize (see on_resize).
        if description is None:
            return
        digits = self.query_one(Digits)
        if digits.value != (code := description.code or "----.--"):
            digits.update(code)
        summary = (description.men, description.to_move, description.stipulation)
        _update(self.query_one("#code-summary", Static), "\n".join(summary))
        label = self.get_component_rich_style("code-pane--label")
        codes = self._codes(description)
        rest = Text.assemble(("FEN   ", label), description.fen, "\n")
        if (probed := self.verdict) is not None and probed.fen == description.fen:
            rest.append_text(self._verdict_text(probed))
        # The verdict in the border keeps a row for the explanations at 80x24.
        verdict = "legal position" if description.legal else "not a legal position"
        if self.border_subtitle != verdict:  # setting it repaints the whole pane, even unchanged
            self.border_subtitle = verdict
        shown_warnings = [*description.warnings, *filter(None, [description.stipulation_warning])]
        if shown_warnings:
            warnings = "\n".join(f"! {text}" for text in shown_warnings)
            rest.append(warnings + "\n", self.get_component_rich_style("code-pane--warning"))
        rest.append("\n".join(f"{line.label} {line.digit} = {line.text}" for line in description.digits))
        body = Text.assemble(codes, rest)
        if description.captions:
            captions = Text.assemble(
                *(Text.assemble((f"{name:<6}", label), text, "\n") for name, text in description.captions)
            )
            with_captions = Text.assemble(codes, captions, rest)
            if self._fits(with_captions):
                body = with_captions
        _update(self.query_one("#code-body", Static), body)

    def watch_verdict(self) -> None:
        self.description = self.description

    def _verdict_text(self, verdict: ShownVerdict) -> Text:
        """``table White wins: DTZ 1``, and how it stands to the stipulation (in the warning
        colour when the table contradicts it)."""
        text = Text.assemble(("table ", self.get_component_rich_style("code-pane--label")), verdict.words, "\n")
        if verdict.agreement is not None:
            style = "" if verdict.agrees else self.get_component_rich_style("code-pane--warning")
            text.append(("" if verdict.agrees else "! ") + verdict.agreement + "\n", style)
        return text

    def _fits(self, body: Text) -> bool:
        """Whether ``body`` fits under the summary without scrolling (no before the first layout)."""
        if not self.size:
            return False
        width = max(self.query_one("#code-body", Static).size.width or self.size.width, 1)
        room = self.size.height - max(3, self.query_one(Horizontal).outer_size.height)  # the digits' rows
        # Cut at the width, the lines take at least this many rows (words wrap into no fewer): a
        # cheap no where it is no, as at 80x24; the wrapping itself only where it may fit.
        fewest = sum(-(-cell_len(line) // width) or 1 for line in body.plain.split("\n"))
        return fewest <= room and len(body.wrap(self.app.console, width)) <= room

    def on_resize(self) -> None:
        """More room or less: the captions may come or go."""
        self.description = self.description

    def _codes(self, description: BoardDescription) -> Text:
        """The code with stipulation and kings, then with every man."""
        label = self.get_component_rich_style("code-pane--label")
        bold = self.get_component_rich_style("code-pane--code")
        if description.kings_code is None:
            return Text()
        kings_code = ("code  ", label), (description.kings_code, bold)
        if description.every_man is None:
            return Text.assemble(*kings_code, (f"  ({description.code_note})\n", label))
        return Text.assemble(*kings_code, "\n", ("full  ", label), description.every_man, "\n")
