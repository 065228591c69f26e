"""Every sentence about a code, a side, a digit, a stipulation or a collection, in one wording.

The command line, the decode screen and the code pane all print these; none words a fact itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from gbr_tui.core.material import Material


def read_summary(classified: int, bad: int) -> str:
    """``read 1,204 = classified 1,200 + bad 4``: every record read is one or the other."""
    return f"read {classified + bad:,} = classified {classified:,} + bad {bad:,}"


def class_materials(materials: Sequence[tuple[Material, int]], shown: int = 3) -> str:
    """The materials of a class, most frequent first: ``KNNN v K, KNNN v KNN``, with ``2 more``
    after the first ``shown``."""
    names = [str(material) for material, _ in materials[:shown]]
    if len(materials) > shown:
        names.append(f"{len(materials) - shown} more")
    return ", ".join(names)
