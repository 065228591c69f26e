"""The ``D`` dialog: the file the position's diagram is written to (.svg, .png or .pdf)."""

from __future__ import annotations

import os
from pathlib import Path

from rich.text import Text

from gbr_tui.core import GbrError
from gbr_tui.core.publish.rendering import SUFFIXES, check_renderer, diagram_format
from gbr_tui.core.text import printable
from gbr_tui.dialogs.input_dialog import InputDialog, problem_text
from gbr_tui.dialogs.open_collection import SHOWN_PATH_LENGTH, PathSuggester, expanded


class DiagramDialog(InputDialog[Path]):
    """Dismisses with the diagram's file, when it can be written in the format its name says."""

    TITLE_TEXT = "Write the diagram (the board and its caption)"
    PLACEHOLDER = " or ".join(f"study{suffix}" for suffix in SUFFIXES)
    HINT = "the format by the name's ending · → completes · Enter writes · Esc or F10 cancels"

    def __init__(self) -> None:
        super().__init__(suggester=PathSuggester())

    def check(self, text: str) -> tuple[Path | None, str | Text]:
        try:
            path = expanded(text.strip())
        except LookupError as unknown:
            user = printable(str(unknown.args[0]), SHOWN_PATH_LENGTH)
            return None, problem_text(f"{user}: no such user (~ alone is your home folder)")
        shown = printable(str(path), SHOWN_PATH_LENGTH)
        try:
            check_renderer(diagram_format(path))
        except GbrError as error:
            return None, problem_text(printable(error.message, 2 * SHOWN_PATH_LENGTH))
        if path.is_dir():
            return None, problem_text(f"{shown} is a directory, not a file")
        if not path.parent.is_dir():
            return None, problem_text(f"{printable(str(path.parent), SHOWN_PATH_LENGTH)}: no such directory")
        if not os.access(path.parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
            return None, problem_text(f"{shown}: not writable (permission denied)")
        return path, f"replaces {shown}" if path.exists() else f"makes the new file {shown}"
