"""The ``o`` dialog: the path of a collection to browse, completed from the directory."""

from __future__ import annotations

import os
from pathlib import Path

from rich.text import Text
from textual.suggester import Suggester

from gbr_tui.core.collection import CollectionRequest, format_names
from gbr_tui.core.collection.codecs import codec_names
from gbr_tui.core.text import printable
from gbr_tui.dialogs.input_dialog import InputDialog, problem_text

#: How much of a typed path a message repeats.
SHOWN_PATH_LENGTH = 200


def expanded(text: str) -> Path:
    """``~`` and ``~user`` expanded; for an unknown user, ``LookupError`` with the ``~user`` part."""
    try:
        return Path(text).expanduser()
    except RuntimeError:  # pathlib's "Could not determine home directory" for ~nosuchuser
        raise LookupError(text.split("/", 1)[0]) from None


def readable_file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be opened as a collection, or None."""
    shown = printable(str(path), SHOWN_PATH_LENGTH)
    if path.is_dir():
        return f"{shown} is a directory, not a file"
    if not path.exists():
        return f"{shown}: no such file"
    if not os.access(path, os.R_OK):
        return f"{shown}: not readable (permission denied)"
    return None


class PathSuggester(Suggester):
    """Completes the last part of a path from the directory's entries (→ accepts)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        try:
            path = expanded(value)
        except LookupError:
            return None
        directory, start = (path, "") if value.endswith("/") else (path.parent, path.name)
        try:
            names = sorted(entry.name + ("/" if entry.is_dir() else "") for entry in os.scandir(directory))
        except OSError:
            return None
        found = next((name for name in names if name.startswith(start) and not name.startswith(".")), None)
        return None if found is None else value + found[len(start) :]


class OpenCollectionDialog(InputDialog[CollectionRequest]):
    """Dismisses with the collection to open when the path names a readable file."""

    TITLE_TEXT = "Open a collection"
    PLACEHOLDER = "games.pgn, studies.epd.gz, puzzles.csv, positions.fen ..."
    HINT = f"{format_names()}; {codec_names()} too · → completes · Enter opens · Esc or F10 cancels"

    def __init__(self) -> None:
        super().__init__(suggester=PathSuggester())

    def still_typed(self, text: str) -> bool:
        """A path being typed: no such file yet, but its name begins an entry of its folder."""
        try:
            path = expanded(text.strip())
        except LookupError:
            return False
        if path.exists() or text.endswith("/"):
            return False
        try:
            return any(entry.name.startswith(path.name) for entry in os.scandir(path.parent))
        except OSError:
            return False

    def check(self, text: str) -> tuple[CollectionRequest | None, str | Text]:
        try:
            path = expanded(text.strip())
        except LookupError as unknown:
            user = printable(str(unknown.args[0]), SHOWN_PATH_LENGTH)
            return None, problem_text(f"{user}: no such user (~ alone is your home folder)")
        problem = readable_file_problem(path)
        if problem is not None:
            return None, problem_text(problem)
        return CollectionRequest((str(path),)), ""
