"""A bar chart of a collection's largest classes (or families), beside the class table."""

from __future__ import annotations

from collections.abc import Sequence

from rich.bar import Bar
from rich.table import Table
from textual.widgets import Static

from gbr_tui.core.text import printable

LABEL_WIDTH = 7  # abcd.ef
SHARE_WIDTH = 6  # 100.0%


class ClassChart(Static):
    """One bar a class or family, longest first: its records against the largest one's (rich
    Bars). A family's name takes half the width at most, cut with an ellipsis."""

    def show(self, bars: Sequence[tuple[str, int]], total: int) -> None:
        """``bars``: (code or family, records), the largest first; ``total`` the shares are of."""
        longest = max((len(label) for label, _ in bars), default=LABEL_WIDTH)
        label_width = max(LABEL_WIDTH, min(longest, self.size.width // 2))
        width = max(1, self.size.width - label_width - SHARE_WIDTH - 2)
        chart = Table.grid(padding=(0, 1))
        chart.add_column(width=label_width, no_wrap=True, overflow="ellipsis")
        chart.add_column(width=width)
        chart.add_column(width=SHARE_WIDTH, justify="right")
        largest = max((count for _, count in bars), default=0)
        for code, count in bars[: max(0, self.size.height - 1)]:
            chart.add_row(printable(code), Bar(largest, 0, count, width=width), f"{count / total:.1%}" if total else "")
        self.update(chart if bars else "", layout=False)  # its size is the stylesheet's
