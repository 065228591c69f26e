"""A persistent index of collections: one SQLite file (Python's ``sqlite3``) that a later
``classify`` and the browser (``StoredIndex``) read instead of the sources.

Per record it keeps the source, the record's number, line, byte offset (uncompressed files) and
ply, its headers, and the men of each type on each side: so every rule, form and pattern is a
query, not a re-read. A record with a printed caption (``start`` and ``final``: a caption is
printed with one position of a game) also keeps the caption and its position as read, so that
``check INDEX`` and the browser check it without the file. It keeps the bad records as they
were reported, the ``--position`` and the caption's tag or column it was built with, and each
source's size and modification time: an index whose source has changed, or gone, is never used
(``StaleIndex`` says why).

``schema``: the tables and opening an index; ``building``: writing one; ``likeness``: what
``similar`` and ``duplicates`` read; ``query``: what ``classify
INDEX`` and ``check INDEX`` read; ``browse``: the browser's ``StoredIndex``.
"""

from gbr_tui.core.collection.store.browse import NoOffsets, StoredIndex, index_for, index_offer
from gbr_tui.core.collection.store.building import build
from gbr_tui.core.collection.store.likeness import indexed_boards, similar_in_collection, similar_in_index
from gbr_tui.core.collection.store.query import captioned, read
from gbr_tui.core.collection.store.schema import INDEX_SUFFIX, StaleIndex, default_index, is_index

__all__ = [
    "INDEX_SUFFIX",
    "NoOffsets",
    "StaleIndex",
    "StoredIndex",
    "build",
    "captioned",
    "default_index",
    "index_for",
    "index_offer",
    "indexed_boards",
    "is_index",
    "read",
    "similar_in_collection",
    "similar_in_index",
]
