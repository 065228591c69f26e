"""The palette's Tablebases dialog: the directories of endgame tables the code pane probes."""

from __future__ import annotations

import os

from rich.text import Text

from gbr_tui.core.tablebases import table_files
from gbr_tui.core.text import printable
from gbr_tui.dialogs.input_dialog import InputDialog, problem_text
from gbr_tui.dialogs.open_collection import SHOWN_PATH_LENGTH, PathSuggester, expanded

#: What the dialog takes for "no tablebases".
NONE_WORDS = ("none", "-")


class TablebasesDialog(InputDialog[tuple[str, ...]]):
    """Dismisses with the directories typed (parted by ``:``) when each holds tables; with none
    for ``none``."""

    TITLE_TEXT = "Tablebases"
    PLACEHOLDER = "~/syzygy:/usr/share/gaviotatb/gtb4 (none: no verdicts)"
    HINT = "Syzygy .rtbw/.rtbz, Gaviota .gtb.cp4 · parted by : · Enter sets and keeps them · Esc or F10 cancels"

    def __init__(self, directories: tuple[str, ...] = ()) -> None:
        super().__init__(os.pathsep.join(directories), suggester=PathSuggester())

    def check(self, text: str) -> tuple[tuple[str, ...] | None, str | Text]:
        if text.strip().lower() in NONE_WORDS:
            return (), "no tablebases: the code pane shows no verdict"
        directories = tuple(part.strip() for part in text.split(os.pathsep) if part.strip())
        counts = []
        for directory in directories:
            shown = printable(directory, SHOWN_PATH_LENGTH)
            try:
                syzygy, gaviota, _ = table_files(expanded(directory))
            except LookupError as error:
                return None, problem_text(f"unknown user in {printable(str(error), SHOWN_PATH_LENGTH)}")
            except OSError as error:
                return None, problem_text(f"{shown}: {printable(error.strerror or str(error))}")
            if not syzygy and not gaviota:
                return None, problem_text(f"{shown}: no Syzygy (.rtbw/.rtbz) or Gaviota (.gtb.cp4) tables")
            counts.append(len(syzygy) + len(gaviota))
        return tuple(str(expanded(directory)) for directory in directories), f"{sum(counts)} table files"
