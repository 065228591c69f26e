"""The ``w`` dialog: the file to append the position to (a format that saves: PGN or EPD), completed from
the directory."""

from __future__ import annotations

import os
from pathlib import Path

from rich.text import Text

from gbr_tui.core import GbrError
from gbr_tui.core.collection.formats import format_module
from gbr_tui.core.collection.writing import SAVED_FORMATS, saved_format, saved_format_names
from gbr_tui.core.text import printable
from gbr_tui.dialogs.input_dialog import InputDialog, problem_text
from gbr_tui.dialogs.open_collection import SHOWN_PATH_LENGTH, PathSuggester, expanded


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


class SavePositionDialog(InputDialog[Path]):
    """Dismisses with the file to append the position to, when it can be written."""

    TITLE_TEXT = f"Save the position (appended to a {saved_format_names()} file)"
    PLACEHOLDER = " or ".join(f"studies{suffix}" for suffix in SAVED_FORMATS)
    HINT = (
        f"the code as GBR in {' or '.join(str(format_module(format).CAPTION_IN) for format in SAVED_FORMATS.values())}"
        " · → completes · Enter saves · Esc or F10 cancels"
    )

    def __init__(self) -> None:
        super().__init__(suggester=PathSuggester())

    def check(self, text: str) -> tuple[Path | None, str | Text]:
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
