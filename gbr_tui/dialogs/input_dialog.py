"""One line of input in a modal box: what each dialog of the app is built on."""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Static

from gbr_tui.widgets.bounded_input import BoundedInput

Result = TypeVar("Result")


class InputDialog(ModalScreen[Result | None], Generic[Result]):
    """A titled input, a feedback line and a hint. As the user types, ``check`` reads the text;
    Enter dismisses with what it read, when that is something. Esc or F10 dismisses with None.
    """

    CSS_PATH = "../styles/dialogs.tcss"
    BINDINGS = [Binding("escape,f10", "dismiss", "Cancel", id="dialog.cancel")]

    TITLE_TEXT: ClassVar[str] = ""
    PLACEHOLDER: ClassVar[str] = ""
    HINT: ClassVar[str] = "Enter loads it · Esc or F10 cancels"

    def __init__(self, value: str = "", suggester: Suggester | None = None) -> None:
        super().__init__()
        self.value = value
        self.suggester = suggester

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = self.TITLE_TEXT
            yield BoundedInput(self.value, placeholder=self.PLACEHOLDER, suggester=self.suggester, id="dialog-input")
            yield Static(id="dialog-feedback", markup=False)
            yield Static(self.HINT, id="dialog-hint", markup=False)

    def check(self, text: str) -> tuple[Result | None, str | Text]:
        """What ``text`` reads as (None when nothing can be made of it) and what to say."""
        raise NotImplementedError

    @property
    def feedback(self) -> str:
        """The feedback line as shown."""
        return str(self.query_one("#dialog-feedback", Static).content)

    def still_typed(self, text: str) -> bool:
        """Whether ``text``, which reads as nothing yet, may still be on its way (a path whose
        name begins a file's): then the feedback waits for Enter rather than say it is wrong."""
        return False

    def _read(self, text: str, typing: bool = False) -> Result | None:
        result, feedback = self.check(text) if text.strip() else (None, "")
        if typing and result is None and self.still_typed(text):
            feedback = ""
        self.query_one("#dialog-feedback", Static).update(feedback)
        return result

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self._read(event.value, typing=True)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if not self.is_active:
            return  # a second Enter, typed before the dialog closed
        result = self._read(event.value)
        if result is not None:
            self.dismiss(result)


def problem_text(message: str, pointer: str = "") -> Text:
    """A problem in bold, then the input with a caret under the bad spot when there is one."""
    return Text.assemble((message, "bold"), "\n" if pointer else "", pointer)
