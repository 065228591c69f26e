"""Saving a position to a collection: appended to a file of a format whose module writes records
(``written``: PGN, a game with no moves; EPD, one line), its code in a ``GBR`` tag or opcode.
python-chess writes both; the readers read them back.

The code written is the compact extended one, stipulation and every man (``=0323.12g3g1...``),
which ``gbr-tui decode`` and ``check`` read; without one king a side, the code alone.
"""

from __future__ import annotations

from pathlib import Path

import chess

from gbr_tui.core.code import Rule, encode, extended_code
from gbr_tui.core.collection.formats import FORMATS, format_module
from gbr_tui.core.collection.records import Format, StudyRecord
from gbr_tui.core.errors import GbrError

#: The file name endings saving takes, and the format each writes.
SAVED_FORMATS = {module.SAVE_SUFFIX: module.FORMAT for module in FORMATS if module.SAVE_SUFFIX is not None}


def saved_format_names() -> str:
    """The formats positions are saved in, as users read them: "PGN or EPD"."""
    return " or ".join(format_module(format).NAME for format in SAVED_FORMATS.values())


def saved_format(path: Path) -> Format:
    """The format a file is saved in, by its name's ending; GbrError for any other name."""
    try:
        return SAVED_FORMATS[path.suffix.lower()]
    except KeyError:
        raise GbrError(
            f"{path.name} is not named as a {saved_format_names()} file: end the name in {' or '.join(SAVED_FORMATS)}"
        ) from None


def saved_code(board: chess.Board, stipulation: str | None, rule: Rule = Rule.COUNT) -> str | None:
    """The code written with the position; None when the board has none (nine pawns)."""
    try:
        return extended_code(board, stipulation, rule)
    except GbrError:
        try:
            return f"{stipulation or ''}{encode(board, rule)}"
        except GbrError:
            return None


def position_record(board: chess.Board, format: Format, code: str | None, study: StudyRecord | None = None) -> str:
    """The position as one record of ``format``, ending in a newline (a study record when
    ``study`` is given)."""
    written = format_module(format).written
    if written is None:
        raise GbrError(f"positions are not saved as {format_module(format).NAME}")
    return written(board, code, study)


def append_position(
    path: Path,
    board: chess.Board,
    stipulation: str | None,
    rule: Rule = Rule.COUNT,
    study: StudyRecord | None = None,
) -> str | None:
    """Append the position to the file ``path`` of a saved format (``SAVED_FORMATS``; made when
    missing), as a study record when ``study`` is given (its stipulation then wins): the code
    written, or None. GbrError for another name; OSError when it cannot be written."""
    format = saved_format(path)
    if study is not None:
        stipulation = study.stipulation
    code = saved_code(board, stipulation, rule)
    record = position_record(board, format, code, study)
    with path.open("a+b") as file:
        size = file.seek(0, 2)
        if size:  # after what the file holds: on a line of its own; a game after a blank line
            wanted = format_module(format).LINE_ENDS_BEFORE
            file.seek(-min(size, wanted), 2)
            tail = file.read()
            record = "\n" * (wanted - (len(tail) - len(tail.rstrip(b"\n")))) + record
        file.write(record.encode("utf-8"))
    return code
