"""The browser's two lists: the classes of a collection, and the positions of one class."""

from __future__ import annotations

from textual.binding import Binding

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
        )
    ]


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


class BadRecordList(RecordList):
    """The bad records with their file, line and reason; Enter shows the reason whole (its
    column is cut at the screen's edge)."""

    HELP_TITLE = "Bad records"
    BINDINGS = [
        Binding(
            "enter",
            "screen.show_bad_record",
            "whole",
            tooltip="Show the reason of this bad record whole",
            priority=True,
            id="bad_records.show",
        )
    ]
