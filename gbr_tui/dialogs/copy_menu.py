"""The ``y`` menu: the position in every written form, each shown; choosing one copies it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from gbr_tui.core.written_forms import Form, WrittenForm, not_written_words

#: The widest form name, so that every text starts in one column.
NAME_WIDTH = max(len(form.label) for form in Form)


def _prompt(form: WrittenForm) -> Table:
    """``e  EG caption   g3g1 0323.12 ...``: a text too long wraps under itself; a form the
    position cannot be written in says why."""
    row = Table.grid(padding=(0, 1))
    row.add_column(width=1, no_wrap=True)
    row.add_column(width=NAME_WIDTH, no_wrap=True)
    row.add_column(ratio=1, overflow="fold")
    shown = Text(form.text) if form.text is not None else Text(f"({form.problem})", style="italic")
    row.add_row(Text(form.key, style="bold"), form.name, shown)
    return row


class CopyMenu(ModalScreen[WrittenForm | None]):
    """Dismisses with the form chosen (by its letter, or the arrows and Enter; ``y`` again
    chooses the highlighted one), or None (Esc or F10)."""

    CSS_PATH = "../styles/dialogs.tcss"
    HELP_TITLE = "Copy menu"
    BINDINGS = [
        Binding("escape,f10", "dismiss", "Cancel", id="dialog.cancel"),
        Binding("y", "copy_highlighted", "Copy the highlighted form", show=False, id="copy.highlighted"),
        *(
            Binding(form.key, f"copy('{form.key}')", f"Copy the {form.label}", show=False, id=f"copy.{form.key}")
            for form in Form
        ),
    ]

    def __init__(self, forms: Sequence[WrittenForm]) -> None:
        super().__init__()
        self.forms = {form.key: form for form in forms}

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = "Copy (OSC 52)"
            # In the border: the menu keeps its rows for the forms in the compact layout.
            dialog.border_subtitle = "a letter or Enter copies · Esc cancels"
            options = [Option(_prompt(form), id=key, disabled=form.text is None) for key, form in self.forms.items()]
            yield OptionList(*options, id="copy-forms")

    def on_mount(self) -> None:
        forms = self.query_one(OptionList)
        forms.highlighted = next((index for index, form in enumerate(self.forms.values()) if form.text), None)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_id is not None:  # every option has its form's key as its id
            self.action_copy(event.option_id)

    def action_copy_highlighted(self) -> None:
        forms = self.query_one(OptionList)
        if forms.highlighted is not None:
            key = forms.get_option_at_index(forms.highlighted).id
            if key is not None:
                self.action_copy(key)

    def action_copy(self, key: str) -> None:
        """Dismiss with the form, or say why the position has none in it (the menu stays)."""
        if not self.is_active:
            return  # a second key, typed before the menu closed
        form = self.forms[key]
        if form.text is None:
            self.notify(not_written_words(form), severity="warning", markup=False)
            return
        self.dismiss(form)
