"""Where a file of records a line each may be cut for worker processes (``parallel``): at any
line start, unless the line starts with a byte order mark, which a range's start would drop."""

from __future__ import annotations

import io

_BOM = b"\xef\xbb\xbf"
#: Bytes of one chunk kept for the next when looking for a record start: a line end is one byte.
START_OVERLAP = 0


def record_start(data: bytes) -> int | None:
    """Where the first record after the start of ``data`` starts in it (after a line end)."""
    end = data.find(b"\n")
    return end + 1 if end >= 0 else None


def may_start_range(raw: io.BufferedReader, cut: int) -> bool:
    raw.seek(cut)
    return raw.read(len(_BOM)) != _BOM
