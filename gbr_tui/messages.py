"""Messages the screens post; the app routes them (no screen touches another)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess
from textual.message import Message

from gbr_tui.core.setup import Arrangement

if TYPE_CHECKING:
    import chess.pgn


@dataclass
class LoadPosition(Message):
    """Put this position in the editor and show the editor."""

    arrangement: Arrangement
    #: What the notification says was loaded, after the arrangement's own words.
    source: str = ""
    #: A study's solution loaded with it (from a PGN), for the solution mode.
    solution: chess.pgn.Game | None = None


@dataclass
class FindSimilar(Message):
    """List the records of the collection opened last whose position is this board's under a
    board transform, or up to ``max_distance`` men away (``what`` names the list)."""

    board: chess.Board
    max_distance: int
    what: str
