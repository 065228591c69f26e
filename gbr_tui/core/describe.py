"""Every sentence about a code, a side, a digit, a stipulation or a collection, in one wording.

The command line, the decode screen and the code pane all print these; none words a fact itself.
"""

from __future__ import annotations


def read_summary(classified: int, bad: int) -> str:
    """``read 1,204 = classified 1,200 + bad 4``: every record read is one or the other."""
    return f"read {classified + bad:,} = classified {classified:,} + bad {bad:,}"
