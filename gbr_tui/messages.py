"""Messages the screens post; the app routes them (no screen touches another)."""

from __future__ import annotations

from dataclasses import dataclass

import chess
from textual.message import Message

from gbr_tui.core.setup import Arrangement


@dataclass
class LoadPosition(Message):
    """Put this position in the editor and show the editor."""

    arrangement: Arrangement
    #: What the notification says was loaded, after the arrangement's own words.
    source: str = ""


@dataclass
class FindSimilar(Message):
    """List the records of the collection opened last whose position is this board's under a
    board transform, or up to ``max_distance`` men away (``what`` names the list)."""

    board: chess.Board
    max_distance: int
    what: str
