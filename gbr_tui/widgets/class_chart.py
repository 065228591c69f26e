"""A bar chart of a collection's largest classes, beside the class table."""

from __future__ import annotations

from collections.abc import Sequence

from rich.bar import Bar
from rich.table import Table
from textual.widgets import Static

from gbr_tui.core.text import printable

LABEL_WIDTH = 7  # abcd.ef
SHARE_WIDTH = 6  # 100.0%


class ClassChart(Static):
    """One bar a class, longest first: its records against the largest class's (rich Bars)."""

    def show(self, bars: Sequence[tuple[str, int]], total: int) -> None:
        """``bars``: (code, records), the largest first; ``total`` the shares are of."""
        width = max(1, self.size.width - LABEL_WIDTH - SHARE_WIDTH - 2)
        chart = Table.grid(padding=(0, 1))
        chart.add_column(width=LABEL_WIDTH, no_wrap=True)
        chart.add_column(width=width)
        chart.add_column(width=SHARE_WIDTH, justify="right")
        largest = max((count for _, count in bars), default=0)
        for code, count in bars[: max(0, self.size.height - 1)]:
            chart.add_row(printable(code), Bar(largest, 0, count, width=width), f"{count / total:.1%}" if total else "")
        self.update(chart if bars else "")
