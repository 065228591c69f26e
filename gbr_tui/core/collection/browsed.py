"""What the collection browser reads: the classes and records of a collection, held in memory
from its files (``ClassIndex``) or queried from an index written before (``StoredIndex``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from gbr_tui.core.collection.index import ClassListing, IndexedRecord
from gbr_tui.core.collection.records import BadRecord, GamePositions
from gbr_tui.core.collection.tally import ClassRow, SortBy
from gbr_tui.core.patterns import ClassPattern


@runtime_checkable
class BrowsedIndex(Protocol):
    """A collection's classes and records as the browser lists them."""

    sampled_rows: int  # records read back to size a position list's columns
    files: list[str]  # the names of the files read, as shown
    bad: list[tuple[str, BadRecord]]  # (file, bad record), in order
    failures: list[str]  # files that could not be read as collections at all
    classified: int  # records (games) classified
    games: bool  # some file is a PGN: its classes have results
    fields: set[str]  # the FIELDS some record has
    captions_checked: int  # records with a printed caption, checked against their position
    #: The records whose caption disagrees with their position: the caption, and (part,
    #: words) for each part that disagrees.
    disagreements: dict[int, tuple[str, list[tuple[str, str]]]]
    record: Callable[[int], IndexedRecord]  # one record (by its id), its position read back

    @property
    def position(self) -> GamePositions:
        """The positions of games it holds (``--position``)."""

    @property
    def index_file(self) -> str | None:
        """The index (``gbr-tui index``) it reads, which stands for its files; None: the files
        were read."""

    def classes(
        self, pattern: ClassPattern | None = None, either_colour: bool = False, sort: SortBy = SortBy.CODE
    ) -> ClassListing:
        """The classes with a wanted material."""

    def largest_families(self, count: int) -> list[tuple[str, int]]:
        """The ``count`` families with most records, largest first."""

    def positions(self, row: ClassRow, either_colour: bool = False) -> Sequence[int]:
        """The records (their ids) of a class, in file order."""

    def close(self) -> None:
        """Let go of what it holds open."""
