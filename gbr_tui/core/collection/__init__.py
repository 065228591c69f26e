"""Collections of positions and games (PGN, EPD, FEN lines, CSV with a FEN column, JSON Lines),
read and indexed by class.

``source`` opens a file and decompresses it (``codecs``); ``formats`` tells its format, and
each format's module turns its lines into records (``records``), which ``readers.Collection``
hands out; ``walk`` hands them to what consumes them, grouping games; ``tally`` counts classes
and lists them; ``index`` keeps every record by class for the browser.
"""

from gbr_tui.core.collection.formats import detect_format, format_names
from gbr_tui.core.collection.index import FIELDS, ClassIndex, IndexedRecord
from gbr_tui.core.collection.readers import Collection, CollectionRequest
from gbr_tui.core.collection.records import (
    GAME_TAGS,
    HEADERS,
    BadRecord,
    CollectionError,
    Format,
    GamePositions,
    Item,
    Record,
)
from gbr_tui.core.collection.source import not_utf8
from gbr_tui.core.collection.tally import ClassRow, Tally, class_rows, material_of_code

__all__ = [
    "FIELDS",
    "GAME_TAGS",
    "HEADERS",
    "BadRecord",
    "ClassIndex",
    "ClassRow",
    "Collection",
    "CollectionError",
    "CollectionRequest",
    "Format",
    "GamePositions",
    "IndexedRecord",
    "Item",
    "Record",
    "Tally",
    "class_rows",
    "detect_format",
    "format_names",
    "material_of_code",
    "not_utf8",
]
