"""The browser's two lists: the classes of a collection, and the positions of one class."""

from __future__ import annotations

from typing import cast

from textual.binding import Binding

from gbr_tui.interfaces import BrowsingScreen
from gbr_tui.widgets.record_list import RecordList

# The keys that move the focus are priority bindings: the app runs them before it hands on the
# next key, so keys typed right after them (over SSH keys come in bursts) reach what they opened.


class ClassTable(RecordList):
    """The classes, one a row; Enter or a click lists the positions of a class.

    Tens of thousands of classes are listed at once: only the rows on screen are drawn.
    """

    HELP_TITLE = "Classes"
    SELECT_ON_CLICK = True  # nothing is shown for the highlighted class: a click opens it
    BINDINGS = [
        Binding(
            "enter",
            "screen.open_class",
            "list",
            tooltip="List the positions of this class",
            priority=True,
            id="classes.open",
        ),
        # b lists the bad records (the screen's key); when there is none, it says so here.
        Binding("b", "no_bad_records", "Say that no record is bad", show=False, id="classes.no_bad"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool:
        if action == "no_bad_records":
            index = cast(BrowsingScreen, self.screen).index
            return index is not None and not index.bad
        return True

    def action_no_bad_records(self) -> None:
        self.notify("No bad records: every record of the collection was read.", title="Bad records")


class PositionList(RecordList):
    """The positions of one class; Enter loads one into the editor."""

    HELP_TITLE = "Positions"
    BINDINGS = [
        Binding(
            "enter",
            "screen.load_position",
            "load",
            tooltip="Load this position into the editor",
            priority=True,
            id="positions.load",
        )
    ]
