"""The ``w`` dialog: the file to append the position to (a format that saves: PGN or EPD), completed from
the directory, and once, in the same box, what a study record holds (composer, source, year, award,
stipulation): the app fills them with the last answers."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.widgets import Input, Label, Static

from gbr_tui.core import GbrError
from gbr_tui.core.collection.formats import format_module
from gbr_tui.core.collection.records import StudyRecord
from gbr_tui.core.collection.writing import SAVED_FORMATS, saved_format, saved_format_names
from gbr_tui.core.text import printable
from gbr_tui.dialogs.input_dialog import InputDialog, problem_text
from gbr_tui.dialogs.open_collection import SHOWN_PATH_LENGTH, PathSuggester, expanded
from gbr_tui.widgets.bounded_input import BoundedInput

#: The study fields of the dialog: the StudyRecord field each fills, and its label.
STUDY_FIELDS = (
    ("composer", "Composer"),
    ("source", "Source"),
    ("year", "Year"),
    ("award", "Award"),
    ("stipulation", "Stipulation"),
)
#: What the stipulation field reads: the signs, and the words for them.
STIPULATION_ANSWERS = {"": None, "+": "+", "=": "=", "win": "+", "draw": "="}
#: Of a field, at most this much is kept.
FIELD_LENGTH = 200
#: What each field shows while it is empty.
#: Each field's placeholder: worded as an example, so that an empty field never reads as filled in.
_HINTS = {
    "composer": "e.g. L. Kubbel",
    "source": "e.g. Shakhmaty",
    "year": "e.g. 1925",
    "award": "e.g. 1st Prize",
    "stipulation": "+ win, = draw, empty: none",
}


def writable_file_problem(path: Path) -> str | None:
    """Why the position cannot be appended to ``path``, or None."""
    shown = printable(str(path), SHOWN_PATH_LENGTH)
    try:
        saved_format(path)
    except GbrError as error:
        return printable(error.message, SHOWN_PATH_LENGTH)
    directory = path.parent
    if path.is_dir():
        return f"{shown} is a directory, not a file"
    if not directory.is_dir():
        return f"{printable(str(directory), SHOWN_PATH_LENGTH)}: no such directory"
    if path.exists() and not os.access(path, os.W_OK):
        return f"{shown}: not writable (permission denied)"
    if not path.exists() and not os.access(directory, os.W_OK | os.X_OK):
        return f"{printable(str(directory), SHOWN_PATH_LENGTH)}: cannot make a file there (permission denied)"
    return None


@dataclass(frozen=True)
class StudySave:
    """What the dialog gives: the file, and the study record's fields as answered."""

    path: Path
    study: StudyRecord


class SavePositionDialog(InputDialog[StudySave]):
    """Dismisses with the file to append the position to, when it can be written, and the
    study's fields (Tab goes from one to the next; Enter in any of them saves)."""

    TITLE_TEXT = f"Save the position (appended to a {saved_format_names()} file)"
    PLACEHOLDER = " or ".join(f"studies{suffix}" for suffix in SAVED_FORMATS)
    HINT = (
        f"the code as GBR in {' or '.join(str(format_module(format).CAPTION_IN) for format in SAVED_FORMATS.values())}"
        " · Tab: the study's fields · → completes · Enter saves · Esc or F10 cancels"
    )

    HELP_TITLE = "Save dialog"
    # Priority bindings: acted on in the order keys come, before the keys after them go to a
    # field (a Tab typed ahead in a burst would otherwise move on after the letters behind it).
    BINDINGS = [
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True, id="save.next_field"),
        Binding(
            "shift+tab", "app.focus_previous", "Previous field", show=False, priority=True, id="save.previous_field"
        ),
    ]

    def __init__(self, last: StudyRecord | None = None) -> None:
        super().__init__(suggester=PathSuggester())
        self.last = last if last is not None else StudyRecord()

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = self.TITLE_TEXT
            yield BoundedInput(placeholder=self.PLACEHOLDER, suggester=self.suggester, id="dialog-input")
            with Grid(id="study-fields"):
                for name, label in STUDY_FIELDS:
                    value = getattr(self.last, name) or ""
                    yield Label(label)
                    yield BoundedInput(value, max_length=FIELD_LENGTH, id=f"study-{name}", placeholder=_HINTS[name])
            yield Static(id="dialog-feedback", markup=False)
            yield Static(self.HINT, id="dialog-hint", markup=False)

    def _read(self, text: str, typing: bool = False) -> StudySave | None:
        """The path is read from its own input whichever field changed or took the Enter."""
        return super()._read(self.query_one("#dialog-input", Input).value, typing)

    def _field(self, name: str) -> str:
        return self.query_one(f"#study-{name}", Input).value.strip()

    def check(self, text: str) -> tuple[StudySave | None, str | Text]:
        path, said = self._path(text)
        if path is None:
            return None, said
        answer = self._field("stipulation").lower()
        if answer not in STIPULATION_ANSWERS:
            return None, problem_text(f"Stipulation: {printable(answer, 20)!r} is not + (win), = (draw) or empty")
        study = StudyRecord(
            composer=self._field("composer"),
            source=self._field("source"),
            year=self._field("year"),
            award=self._field("award"),
            stipulation=STIPULATION_ANSWERS[answer],
        )
        return StudySave(path, study), said

    def _path(self, text: str) -> tuple[Path | None, str | Text]:
        try:
            path = expanded(text.strip())
        except LookupError as unknown:
            user = printable(str(unknown.args[0]), SHOWN_PATH_LENGTH)
            return None, problem_text(f"{user}: no such user (~ alone is your home folder)")
        problem = writable_file_problem(path)
        if problem is not None:
            return None, problem_text(problem)
        shown = printable(str(path), SHOWN_PATH_LENGTH)
        return path, f"appends to {shown}" if path.exists() else f"makes the new file {shown}"
