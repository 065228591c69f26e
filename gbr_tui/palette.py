"""The command palette: every editor action, each example by name, and decoding."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import cast

from textual import on
from textual.binding import Binding
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.message import Message
from textual.widgets import Input, OptionList

from gbr_tui.core import Rule
from gbr_tui.core.describe import BLACK_TO_MOVE_WORDS, RULE_CHOICE, example_words
from gbr_tui.core.examples import ALL
from gbr_tui.core.written_forms import Form
from gbr_tui.interfaces import GbrAppInterface


class GbrCommands(Provider):
    """Every editor action, each example by name, and decoding, for the command palette."""

    def commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        # Here, when the palette opens: the app starts without the collection layer.
        from gbr_tui.core.collection.formats import format_names
        from gbr_tui.core.collection.writing import saved_format_names

        app, gbr_app = self.app, cast(GbrAppInterface, self.app)
        actions = [
            ("Decode a code", "Read a GBR code in any printed dialect (d, F2)", "app.decode"),
            (
                "Load a FEN, a code or a piece list",
                "Type a FEN, a code or a piece list to set up (i)",
                "input_position",
            ),
            ("Flip the board", "Turn the board round (f)", "flip"),
            ("Copy...", "The copy menu: every form of the position, each shown (y)", "copy_menu"),
            ("Clear the board", "Remove every man (c)", "clear"),
            ("Start position", "Set up the starting array (s)", "start_position"),
            ("Undo", "Undo the last edit (u, ctrl+z)", "undo"),
            ("Redo", "Redo the edit undone last (U, ctrl+y)", "redo"),
            ("Toggle the side to move", "White to move or Black to move (t)", "toggle_turn"),
            ("Castling rights...", "Set the castling rights as in FEN: KQkq, Kq, - (C)", "castling"),
            ("Stipulation: + win", "White to play and win (+; again to unset)", "stipulation('+')"),
            ("Stipulation: = draw", "White to play and draw (=; again to unset)", "stipulation('=')"),
            *(
                (
                    f"Stipulation: {sign} {words}",
                    f"{sign} with Black to move, as EG prints BTM ({sign} then t)",
                    f"study_stipulation('{sign}', 'b')",
                )
                for sign, words in BLACK_TO_MOVE_WORDS.items()
            ),
            ("En passant square", "The cursor's square as the en passant square; again for none (e)", "en_passant"),
            ("Type men with their squares", "Kg3 Ba2 h6 / Kg1 ...: each put as typed (m)", "start_typing"),
            ("Letters or glyphs", "Draw the men as letters (ASCII) or chess glyphs", "toggle_letters"),
            ("Help", "Every key (?, F1)", "app.help"),
            (
                "Tablebases...",
                "Directories of Syzygy or Gaviota tables: the code pane gives their verdict",
                "app.set_tablebases",
            ),
            ("Open a collection", f"Browse a {format_names()} file by class (o, F3)", "app.open_collection"),
            ("Back to the collection", "The collection opened last (l, F4)", "app.show_collection"),
            (
                "Save the position to a file",
                f"Append it to a {saved_format_names()} file, with its code (w, F5)",
                "app.save_position",
            ),
            (
                "Solution mode: enter the study's moves",
                "Play the solution from the position: SAN or the board; variations, take back (v, F6)",
                "solve",
            ),
            (
                "Diagram: write an SVG, PNG or PDF image to print",
                "The board with its caption, as a file (D)",
                "diagram",
            ),
        ]
        actions += [
            (
                f"Copy the {form.label}",
                f"Copy the position as the {form.label} (y {form.key}{', or Y' if form is Form.FEN else ''})",
                f"copy_form('{form.key}')",
            )
            for form in Form
        ]
        commands: list[tuple[str, str, Callable[[], object]]] = [
            (
                title,
                help_text,
                partial(app.run_action, action) if action.startswith("app.") else partial(gbr_app.in_editor, action),
            )
            for title, help_text, action in actions
            if app.check_action(action.rpartition(".")[2], ()) is not False
        ]
        other_rule = Rule.PROMOTED if gbr_app.rule == Rule.COUNT else Rule.COUNT
        commands.append((f"Use the {other_rule.value} rule", RULE_CHOICE, gbr_app.action_toggle_rule))
        for example in ALL:
            commands.append(
                (
                    f"Load example {example.code(gbr_app.rule, short=False)} {example.name}",
                    example_words(example),
                    partial(gbr_app.load_example, example),
                )
            )
        return commands

    async def discover(self) -> Hits:
        for title, help_text, callback in self.commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self.commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)


class GbrCommandPalette(CommandPalette):
    """Textual's palette, closed by ctrl+p too (Esc is never the only way out), and safe from
    keys typed ahead, which arrive together (over ssh above all). In Textual 8.2.8:

    - ctrl+p and PgDn at once move the page of a list not yet laid out: OptionList raises
      KeyError. PgUp and PgDn wait here until the list is laid out.
    - A second Enter before the palette has closed chooses again and dismisses a closed
      palette: ScreenStackError. Here only the palette on top chooses.
    - A key typed just before ctrl+p or Esc starts a search once the palette has closed, whose
      results find no list: NoMatches. Here a closed palette does not search.
    """

    BINDINGS = [
        Binding("ctrl+p", "escape", "Close the command palette", show=False),
        Binding("pagedown", "page(1)", "Next page", show=False),
        Binding("pageup", "page(-1)", "Previous page", show=False),
    ]

    @on(Input.Submitted)
    @on(OptionList.OptionSelected)
    def _choose_once(self, event: Message) -> None:
        if not self.is_active:
            event.prevent_default()  # Textual's own handlers, in CommandPalette, do not run

    @on(Input.Changed)
    def _search_while_open(self, event: Input.Changed) -> None:
        if self not in self.app.screen_stack:
            event.prevent_default()

    def action_page(self, direction: int) -> None:
        commands = self.query_one(CommandList)
        if not commands.scrollable_content_region:
            return
        if direction > 0:
            commands.action_page_down()
        else:
            commands.action_page_up()
