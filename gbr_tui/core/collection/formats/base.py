"""What a collection format declares: the attributes of a module under ``formats``, as the rest
of the collection layer asks them. ``REQUIRED`` lists them (the registry's test checks each
module declares every one); ``CollectionFormat`` types them."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Protocol

import chess

from gbr_tui.core.collection.reading import Reading
from gbr_tui.core.collection.records import Format, Item, StudyRecord
from gbr_tui.core.collection.tally import Tally

if TYPE_CHECKING:
    from gbr_tui.core.collection.positions import VouchedLines

#: The tag (PGN) or opcode (EPD) a saved position's code is written in.
CODE_TAG = "GBR"


class CollectionFormat(Protocol):
    """A format module (``formats/pgn.py``...), its constants read-only members, so that each
    module is checked against it as it is."""

    #: The ``Format`` it reads (its module is named by the value: ``formats/pgn.py``).
    @property
    def FORMAT(self) -> Format: ...

    #: Its name in the lists of formats users read: "FEN lines".
    @property
    def NAME(self) -> str: ...

    #: Where its vote is asked when a file's format is told (lower first): a line two formats'
    #: votes take is the first's.
    @property
    def DETECTION_ORDER(self) -> int: ...

    #: Whether a record is a game, whose several records (``--position all``) are one game.
    @property
    def HOLDS_GAMES(self) -> bool: ...

    #: Whether its plain records are classified by the encoder's batch path (numpy), many at a
    #: time: its module then also has ``vouched``.
    @property
    def BATCH(self) -> bool: ...

    #: Where a record's printed caption is ("a PGN tag"), None when it has none.
    @property
    def CAPTION_IN(self) -> str | None: ...

    #: Why a file of it is never cut into byte ranges for worker processes, or None.
    @property
    def UNCUT_REASON(self) -> str | None: ...

    #: Whether a record read back alone needs the lines before the file's first record (CSV:
    #: its header).
    @property
    def HEADER_BEFORE_RECORDS(self) -> bool: ...

    #: The name ending of a file positions are saved to in it (".pgn"), None when none are.
    @property
    def SAVE_SUFFIX(self) -> str | None: ...

    #: The line ends a record saved to a file needs before it, after the file's last record.
    @property
    def LINE_ENDS_BEFORE(self) -> int: ...

    #: Bytes of a chunk kept for the next when looking for a record start (``record_start``).
    @property
    def START_OVERLAP(self) -> int: ...

    def votes(self, line: str) -> bool:
        """Whether a line (stripped, not blank nor a comment) looks like one of its records."""
        ...

    def records(self, reading: Reading, fens: bool) -> Iterator[Item]:
        """Every record in file order, unguarded (``Reading.guarded``); ``fens=False`` may
        leave the FEN of replayed games' positions out."""
        ...

    def counted(self, reading: Reading, tally: Tally, on_block: Callable[[], None] | None) -> Iterator[Item]:
        """The records for a tally: what the batch path counts in ``tally`` itself is not
        handed out."""
        ...

    def record_start(self, data: bytes) -> int | None:
        """Where the first record start after the start of ``data`` is in it, if any."""
        ...

    def may_start_range(self, raw: io.BufferedReader, cut: int) -> bool:
        """Whether a byte range starting at ``cut`` reads as the whole file reads there."""
        ...

    #: A position as one record, ending in a newline, its code (if any) as its caption, and
    #: what a study record holds when one is given; None when positions are not saved in it.
    @property
    def written(self) -> Callable[[chess.Board, str | None, StudyRecord | None], str] | None: ...


class BatchFormat(CollectionFormat, Protocol):
    """A format read by the batch path (``BATCH``), which declares ``vouched`` as well."""

    def vouched(self, reading: Reading) -> Iterator[Item | VouchedLines]:
        """Every record in file order, the runs of lines the batch path vouched for as
        ``VouchedLines``."""
        ...


#: Every attribute a format module declares (None where it does not apply, as its type says).
REQUIRED = (
    "FORMAT",
    "NAME",
    "DETECTION_ORDER",
    "HOLDS_GAMES",
    "BATCH",
    "CAPTION_IN",
    "UNCUT_REASON",
    "HEADER_BEFORE_RECORDS",
    "SAVE_SUFFIX",
    "LINE_ENDS_BEFORE",
    "START_OVERLAP",
    "votes",
    "records",
    "counted",
    "record_start",
    "may_start_range",
    "written",
)
#: What a format read by the batch path (``BATCH``) declares as well.
BATCH_REQUIRED = ("vouched",)
