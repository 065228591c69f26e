"""The editor screen: set up a position from the keyboard and read its code live.

Data flows one way: a key is an edit of the ``core.setup`` position, then the panes redraw
from what the core says about it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import chess
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical
from textual.screen import Screen
from textual.widgets import Header

from gbr_tui.core import GbrError, Rule
from gbr_tui.core.describe import TYPING_HINT, pasted_words, typing_words
from gbr_tui.core.examples import Example
from gbr_tui.core.setup import Arrangement, PositionSetup, example_arrangement, read_position
from gbr_tui.core.written_forms import WrittenForm, copied_words, not_written_words, written_forms
from gbr_tui.interfaces import GbrAppInterface
from gbr_tui.messages import FindSimilar
from gbr_tui.screens.editor_publishing import PUBLISHING_BINDINGS, PublishingEditor
from gbr_tui.tablebase_support import ShownVerdict, probe_verdict
from gbr_tui.widgets.board_editor import TYPING_KEYS, BoardEditor
from gbr_tui.widgets.code_pane import CodePane
from gbr_tui.widgets.examples_pane import ExamplesPane
from gbr_tui.widgets.key_footer import KeyFooter
from gbr_tui.widgets.piece_palette import PiecePalette

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from gbr_tui.core.piece_list import ManTyping


#: The longest paste read as a position or as men typed (a piece list's bound).
PASTE_LIMIT = 1000


class EditorScreen(PublishingEditor, Screen):
    """Board, code and examples panes around one ``chess.Board``."""

    # Its stylesheet is styles/editor.tcss, read by the app (see GbrApp.CSS_PATH).

    HELP_TITLE = "Editor"
    # -slim and -low: the compact layout, from 60x20 (smaller, the app says it is too small).
    HORIZONTAL_BREAKPOINTS = [(0, "-slim"), (80, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-low"), (24, "-short"), (30, "-tall")]
    AUTO_FOCUS = "BoardEditor"

    BINDINGS = [
        Binding("tab", "app.focus_next", "Next pane", show=False, id="editor.next_pane"),
        Binding("shift+tab", "app.focus_previous", "Previous pane", show=False, id="editor.previous_pane"),
        Binding("ctrl+z", "undo", "Undo", show=False, id="editor.undo"),
        Binding("ctrl+y", "redo", "Redo", show=False, id="editor.redo"),
        # Not in the Footer: at 80 columns they would push out quit, decode and help. The app
        # starts without the collection layer, so no list of formats here: the open dialog has it.
        Binding(
            "f3,o",
            "app.open_collection",
            "Open a collection to browse by class",
            show=False,
            id="editor.open_collection",
        ),
        Binding(
            "f4,l", "app.show_collection", "Back to the collection opened last", show=False, id="editor.show_collection"
        ),
        Binding(
            "f5,w",
            "app.save_position",
            "Save the position: append it to a file, its code in a GBR tag or opcode",
            show=False,
            id="editor.save_position",
        ),
        *PUBLISHING_BINDINGS,
    ]

    #: The file letter typed after ``g``; "" right after ``g``; None when no jump is pending.
    jump: str | None = None
    #: The men being typed after ``m``; None when men are not typed.
    typing: ManTyping | None = None
    #: How many edits typing has made since ``m``: backspace takes them back one by one.
    typed_men: int = 0
    #: Whether the screen has been shown (resumed) before.
    _resumed: bool = False

    def __init__(self, board: chess.Board | None = None, stipulation: str | None = None) -> None:
        super().__init__()
        #: The position being set up: every edit goes through it.
        self.setup = PositionSetup(board, stipulation)

    def compose(self) -> ComposeResult:
        # Textual sets the breakpoint classes on the first Resize, which comes after the first
        # layout: set now, the panes are styled and laid out once, not twice, at start-up.
        width, height = self.app.size
        horizontal = self._get_breakpoint_classes(width, self.HORIZONTAL_BREAKPOINTS)
        self.add_class(*horizontal, *self._get_breakpoint_classes(height, self.VERTICAL_BREAKPOINTS))
        if self._header_shown(height):
            yield Header()
        with Container(id="panes"):
            with Container(id="board-and-code"):
                with Vertical(id="board-column"):
                    yield BoardEditor(self.setup.board)
                    yield PiecePalette()
                yield CodePane()
            yield ExamplesPane()
        yield KeyFooter()

    def _header_shown(self, height: int) -> bool:
        """Whether the Header shows at this height (editor.tcss hides it below -tall)."""
        return "-tall" in self._get_breakpoint_classes(height, self.VERTICAL_BREAKPOINTS)

    def on_resize(self, event: events.Resize) -> None:
        """The Header is made the first time it shows: not at all in a terminal of 24 rows."""
        if self._header_shown(event.size.height) and not self.query(Header):
            self.mount(Header(), before=0)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """The first time, the widgets keep the styles they were mounted with.

        Textual styles every widget of a screen again when it resumes, for what changed while it
        was suspended; before its first resume it never was, and its widgets have just been
        styled as they were mounted (about a sixteenth of start-up for nothing). Asked before
        Textual's own handler, which reads the event after us.
        """
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_mount(self) -> None:
        # The panes one over another (editor.tcss), the examples span the screen: their width
        # is known before the first layout, and the first frame shows them filled.
        layout = self.query_one("#panes").styles.layout
        if layout is not None and layout.name == "vertical":
            self.query_one(ExamplesPane).fill_for(self.app.size.width)
        self._show_keys_waiting()
        self.code_pane.border_title = "Code"
        self.query_one(ExamplesPane).border_title = "Examples"
        self.watch(self.app, "ascii_mode", self._ascii_mode_changed)
        self.watch(self.app, "rule", self._rule_changed)
        # The code pane's text is styled when written: a new theme needs it written again.
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._redraw())

    @property
    def board_view(self) -> BoardEditor:
        return self.query_one(BoardEditor)

    @property
    def code_pane(self) -> CodePane:
        return self.query_one(CodePane)

    @property
    def rule(self) -> Rule:
        return cast(GbrAppInterface, self.app).rule

    def _ascii_mode_changed(self, ascii_mode: bool) -> None:
        self.board_view.ascii_mode = ascii_mode
        self.query_one(PiecePalette).ascii_mode = ascii_mode
        self.query_one(ExamplesPane).ascii_mode = ascii_mode

    def _rule_changed(self, rule: Rule) -> None:
        self.query_one(ExamplesPane).rule = rule
        self.code_pane.border_title = "Code" if rule == Rule.COUNT else "Code · promoted rule"
        self._redraw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool:
        """While ``g`` waits for its square, the square's keys act and every other key waits;
        while men are typed (``m``), only the board's keys of typing act (``on_key`` reads the rest)."""
        if action in ("jump_file", "cancel_jump"):
            return self.jump is not None
        if action == "jump_rank":
            return bool(self.jump)
        return self.jump is None and self.typing is None

    def action_find_similar(self) -> None:
        """The app lists the records of the open collection like the board (``FindSimilar``)."""
        self.post_message(FindSimilar(self.setup.board.copy(), 1, "Like the board"))

    def action_start_jump(self) -> None:
        self._set_jump("")

    def action_jump_file(self, file: str) -> None:
        self._set_jump(file)

    def action_jump_rank(self, rank: str) -> None:
        self.board_view.cursor = chess.parse_square(f"{self.jump}{rank}")
        self._set_jump(None)

    def action_cancel_jump(self) -> None:
        self._set_jump(None)

    def _set_jump(self, jump: str | None) -> None:
        self.jump = jump
        self._show_keys_waiting()

    def _show_keys_waiting(self) -> None:
        """The board pane's foot: the square ``g`` waits for, the man being typed, or a hint."""
        if self.jump is not None:
            self.board_view.border_subtitle = f"go to: {self.jump}_"
        elif self.typing is not None:
            self.board_view.border_subtitle = typing_words(self.typing.side, self.typing.pending)
        else:
            self.board_view.border_subtitle = TYPING_HINT
        self.refresh_bindings()

    # Typing men with their squares (m): Kg3 Ba2 h6 / Kg1 ... ---------------------------------

    def action_start_typing(self) -> None:
        from gbr_tui.core.piece_list import ManTyping

        self.typing = ManTyping()
        self.typed_men = 0
        self._show_keys_waiting()

    def action_stop_typing(self) -> None:
        self.typing = None
        self._show_keys_waiting()

    def action_typing_side(self) -> None:
        """The other side's men from now on (also the ``/`` key itself)."""
        self._type("/")

    def type_unbound_key(self, event: events.Key) -> bool:
        """While men are typed, a printable key no binding takes (a figurine, ``-``, or one no
        man has) is fed too: it types its man, or rings with why it cannot come. True when fed.

        The app calls this where the bindings act, after the key has passed the board and this
        screen: there every key of a burst (``m`` and the men after it, or a paste) is read in
        the order it came, whatever the timing. Read here as it passes, it would overtake the
        keys before it, whose bindings have not acted yet."""
        if self.typing is None or self.focused is not self.board_view:
            return False
        if not event.is_printable or event.character is None or event.key in TYPING_KEYS or event.key == "slash":
            return False
        self.type_key(event.character)
        return True

    def paste(self, text: str) -> None:
        """A paste on the board (a terminal's bracketed paste): a whole position (a FEN, a code,
        a printed piece list) is loaded, one undo step; else, while men are typed, it is typed
        key by key up to a key that cannot come. Called where the bindings act (see above)."""
        if self.focused is not self.board_view:
            return
        if len(text) > PASTE_LIMIT:  # a paste may be anything: a position is far shorter
            self._paste_refused(text, f"too long for a position: at most {PASTE_LIMIT} characters")
            return
        try:
            arrangement = read_position(text)
        except GbrError as error:
            if self.typing is None:
                self._paste_refused(text, error.message)
                return
            for char in text:
                if not self._type(char):
                    return
            return
        if self.typing is not None:
            self.action_stop_typing()
        self.load(arrangement.board, arrangement.stipulation, f"pasted: {arrangement.how}")

    def _paste_refused(self, text: str, problem: str) -> None:
        self.app.bell()
        self.notify(pasted_words(text, problem), title="Paste", severity="warning", markup=False)

    def type_key(self, char: str) -> None:
        """One key of the men typed (``m``; the board's bindings act only while men are typed)."""
        self._type(char)

    def typing_back(self) -> None:
        """Backspace while men are typed: the last key of the man being typed, else the last man."""
        assert self.typing is not None
        if not self.typing.back() and self.typed_men and self.setup.undo():
            self.typed_men -= 1
            self._redraw()
        self._show_keys_waiting()

    def _type(self, char: str) -> bool:
        """Feed one key to the men typed; False (said, with a bell) when it cannot come."""
        assert self.typing is not None
        try:
            typed = self.typing.feed(char)
        except GbrError as error:
            self.app.bell()
            self.notify(error.message, title="Typing men", severity="warning", markup=False)
            return False
        if typed is None:
            self._show_keys_waiting()
            return True
        square, piece = typed
        self.board_view.cursor = square
        if piece is None:
            self.setup.empty(square)
        else:
            self.setup.place(square, piece.symbol())
        self.typed_men += 1
        self._redraw()
        self._show_keys_waiting()
        return True

    def on_board_editor_square_clicked(self, message: BoardEditor.SquareClicked) -> None:
        """With a man chosen in the piece palette, a click puts it (or empties, for x)."""
        brush = self.query_one(PiecePalette).selected
        if brush == "x":
            self.action_empty()
        elif brush is not None:
            self.action_place(brush)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if self.typing is not None and event.widget is self.board_view:
            self.action_stop_typing()

    def _redraw(self) -> None:
        self.board_view.redraw()
        self.code_pane.description = self.setup.description(self.rule)
        self.probe_verdict()

    def probe_verdict(self) -> None:
        """The tablebase's verdict on the board (``tablebase_support.probe_verdict``)."""
        tables = cast(GbrAppInterface, self.app).tablebases.tables()
        if tables is None:
            self.code_pane.verdict = None
            return
        probe_verdict(self, tables, self.setup.board, self.setup.stipulation, self._show_verdict)

    def _show_verdict(self, fen: str, stipulation: str | None, shown: ShownVerdict | None) -> None:
        """The verdict probed on ``fen`` against ``stipulation``, unless the board or the
        stipulation has changed since (a worker's probe can end after a quicker, newer one)."""
        if fen == self.setup.board.fen() and stipulation == self.setup.stipulation:
            self.code_pane.verdict = shown
        cast(GbrAppInterface, self.app).tablebases.say_problems()  # a damaged table met

    def code_to_edit(self) -> str:
        """The code the decode screen opens with: with every man's square when it reads back
        as this board, else with the kings' squares; empty for an empty board."""
        if not self.setup.board.occupied:
            return ""
        from gbr_tui.core import decode

        description = self.setup.description(self.rule)
        if description.every_man is not None:
            try:
                if decode(description.every_man, self.rule).board is not None:
                    return description.every_man
            except GbrError:
                pass
        return description.kings_code or ""

    def load(self, board: chess.Board, stipulation: str | None, message: str) -> None:
        """Replace the position (one undo step) and say what was loaded."""
        self.setup.load(board, stipulation)
        self._redraw()
        self.notify(message, title="Loaded", markup=False)

    # Edits: each a call of the position setup, then a redraw --------------------------------

    def action_place(self, symbol: str) -> None:
        self.setup.place(self.board_view.cursor, symbol)
        self._redraw()

    def action_empty(self) -> None:
        self.setup.empty(self.board_view.cursor)
        self._redraw()

    def action_clear(self) -> None:
        self.setup.clear()
        self._redraw()

    def action_start_position(self) -> None:
        self.setup.start_position()
        self._redraw()

    def action_toggle_turn(self) -> None:
        self.setup.toggle_turn()
        self._redraw()

    def action_castling(self) -> None:
        """The castling dialog, filled with the rights wanted now."""
        from gbr_tui.core.setup import castling_text
        from gbr_tui.dialogs.castling import CastlingDialog

        self.app.push_screen(CastlingDialog(castling_text(self.setup.castling)), callback=self._castling_done)

    def _castling_done(self, rights: str | None) -> None:
        if rights is None:
            return
        from gbr_tui.core.describe import castling_words

        refused = self.setup.set_castling(rights)
        self._redraw()
        severity: SeverityLevel = "information" if refused == "-" else "warning"
        self.notify(castling_words(rights, refused), title="Castling", severity=severity, markup=False)

    def action_stipulation(self, sign: str) -> None:
        """Set ``+`` or ``=``; the same key again unsets it."""
        self.setup.toggle_stipulation(sign)
        self._redraw()

    def action_study_stipulation(self, sign: str, turn: str) -> None:
        """Set a stipulation with its side to move (``w`` or ``b``): the study columns' forms."""
        self.setup.set_stipulation(sign, chess.WHITE if turn == "w" else chess.BLACK)
        self._redraw()

    def action_en_passant(self) -> None:
        """The cursor's square as the en passant square, or none when it is already."""
        from gbr_tui.core.describe import en_passant_words

        square = self.board_view.cursor
        held = self.setup.toggle_en_passant(square)
        self._redraw()
        words = en_passant_words(square, self.setup.board.ep_square, held)
        self.notify(words, title="En passant", severity="information" if held else "warning", markup=False)

    def action_undo(self) -> None:
        if self.setup.undo():
            self._redraw()
        else:
            self.notify("Nothing to undo", severity="warning")

    def action_redo(self) -> None:
        if self.setup.redo():
            self._redraw()
        else:
            self.notify("Nothing to redo", severity="warning")

    def on_examples_pane_chosen(self, message: ExamplesPane.Chosen) -> None:
        """The example loaded, the keys go to the board: left in the filter, ``y`` and ``e``
        typed "saavedraye" there (Tab goes back to the examples)."""
        self.load_example(message.example)
        self.board_view.focus()

    def load_example(self, example: Example) -> None:
        """A named position as published (its side to move and stipulation); a class's
        material in a legal arrangement, the side to move kept, no stipulation."""
        self._load(example_arrangement(example, self.setup.board.turn, self.rule))

    def _load(self, arrangement: Arrangement) -> None:
        self.load(arrangement.board, arrangement.stipulation, arrangement.how)

    # View and clipboard ---------------------------------------------------------------------

    def action_flip(self) -> None:
        self.board_view.flipped = not self.board_view.flipped

    def action_toggle_letters(self) -> None:
        self.board_view.ascii_mode = not self.board_view.ascii_mode

    def action_copy_menu(self) -> None:
        """The copy menu: the position in every form; the one chosen is copied."""
        from gbr_tui.dialogs.copy_menu import CopyMenu

        self.app.push_screen(CopyMenu(self._written_forms()), callback=self._copy)

    def action_copy_form(self, key: str) -> None:
        """Copy one form (``Y``: the FEN) without the menu; say why when there is none."""
        form = next(form for form in self._written_forms() if form.key == key)
        if form.text is None:
            self.notify(not_written_words(form), title="Clipboard", severity="error", markup=False)
        else:
            self._copy(form)

    def _written_forms(self) -> list[WrittenForm]:
        return written_forms(self.setup.board, self.setup.stipulation, self.rule)

    def _copy(self, form: WrittenForm | None) -> None:
        if form is not None and form.text is not None:
            self.app.copy_to_clipboard(form.text)
            self.notify(copied_words(form), title="Clipboard", markup=False)

    def action_input_position(self) -> None:
        from gbr_tui.dialogs.position_input import PositionInputDialog

        self.app.push_screen(PositionInputDialog(self.setup.board.fen()), callback=self._input_done)

    def _input_done(self, arrangement: Arrangement | None) -> None:
        if arrangement is not None:
            self._load(arrangement)
