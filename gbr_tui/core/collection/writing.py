"""Saving a position to a collection: appended to a PGN file as a game with no moves, or to an
EPD file as one line, its code in a ``GBR`` tag or opcode. python-chess writes both; the
readers (``readers``) read them back.

The code written is the compact extended one, stipulation and every man (``=0323.12g3g1...``),
which ``gbr-tui decode`` and ``check`` read; without one king a side, the code alone.
"""

from __future__ import annotations

from pathlib import Path

import chess
import chess.pgn

from gbr_tui.core.code import Rule, encode, extended_code
from gbr_tui.core.collection.records import Format
from gbr_tui.core.errors import GbrError

#: The tag (PGN) and opcode (EPD) the code is written in.
CODE_TAG = "GBR"
#: The file name endings saving takes, and the format each writes.
SAVED_FORMATS = {".pgn": Format.PGN, ".epd": Format.EPD}


def saved_format(path: Path) -> Format:
    """The format a file is saved in, by its name's ending; GbrError for any other name."""
    try:
        return SAVED_FORMATS[path.suffix.lower()]
    except KeyError:
        raise GbrError(f"{path.name} is not named as a PGN or EPD file: end the name in .pgn or .epd") from None


def saved_code(board: chess.Board, stipulation: str | None, rule: Rule = Rule.COUNT) -> str | None:
    """The code written with the position; None when the board has none (nine pawns)."""
    try:
        return extended_code(board, stipulation, rule)
    except GbrError:
        try:
            return f"{stipulation or ''}{encode(board, rule)}"
        except GbrError:
            return None


def position_record(board: chess.Board, format: Format, code: str | None) -> str:
    """The position as one record of ``format``, ending in a newline."""
    if format == Format.EPD:
        return board.epd(**({CODE_TAG: code} if code else {})) + "\n"
    game = chess.pgn.Game.from_board(board)  # its SetUp and FEN tags
    if code:
        game.headers[CODE_TAG] = code
    return str(game) + "\n"


def append_position(path: Path, board: chess.Board, stipulation: str | None, rule: Rule = Rule.COUNT) -> str | None:
    """Append the position to the PGN or EPD file ``path`` (made when missing); the code
    written, or None. GbrError for a name that is neither; OSError when it cannot be written."""
    format = saved_format(path)
    code = saved_code(board, stipulation, rule)
    record = position_record(board, format, code)
    with path.open("a+b") as file:
        size = file.seek(0, 2)
        if size:  # after what the file holds: on a line of its own; a game after a blank line
            file.seek(-min(size, 2), 2)
            tail = file.read()
            if not tail.endswith(b"\n"):
                record = "\n" + record
            if format == Format.PGN and not tail.endswith(b"\n\n"):
                record = "\n" + record
        file.write(record.encode("utf-8"))
    return code
