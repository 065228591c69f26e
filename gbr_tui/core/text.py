"""Text from outside (a file, a paste, a client) made safe to draw or print.

A PGN header or a file name can hold escape sequences that retitle the terminal or clear it;
every such string passes through ``printable`` before it is shown.
"""

from __future__ import annotations

#: What marks a cut: the number of characters left out follows it.
CUT_MARK = "…"


def printable(text: str, limit: int | None = None) -> str:
    """``text`` with every character that is not printable (ESC, other controls, newlines,
    bidirectional overrides) written as its escape (``\\x1b``), cut to ``limit`` characters."""
    escaped = text if text.isprintable() else "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)
    if limit is None or len(escaped) <= limit:
        return escaped
    kept = limit
    for _ in range(3):  # the suffix's length depends on the count it gives; settles at once
        suffix = f"{CUT_MARK} ({len(escaped) - kept:,} more)"
        kept = max(limit - len(suffix), 0)
    return escaped[:kept] + f"{CUT_MARK} ({len(escaped) - kept:,} more)"
