"""The summary of ``gbr-tui classify``: a table of classes (or families) with their counts,
shares and material, or the same as JSON Lines.

A table is written in aligned columns, not as a rich Table (rich takes some 150 us a row, and a
file of scattered positions has tens of thousands of classes); bars come from a few rich Bars
rendered once each (a bar has ``BAR_WIDTH * 8 + 1`` sizes). The classes of positions (no
results, no pattern) (folded or not) are written with numpy where it is loaded or pays
(``SUMMARY_NUMPY_WORTH``), the rest a row at a time.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import gc
import io
import os
import sys
from collections.abc import Iterator

from gbr_tui.commands.common import write_json_lines
from gbr_tui.core import short_form
from gbr_tui.core.collection import ClassRow, GamePositions, Tally
from gbr_tui.core.collection.tally import NO_RESULTS, FamilyRow, SortBy, family_rows
from gbr_tui.core.collection.theory import ClassTheory
from gbr_tui.core.describe import (
    EITHER_COLOUR_NOTE,
    RESULT_HEADINGS,
    SCORE_NOTE,
    class_materials,
    score_words,
    share_of_games_note,
)
from gbr_tui.core.patterns import ClassPattern

BAR_WIDTH = 10  # cells of a share bar
#: Classes from which the summary's numpy path pays numpy's import (some 0.1 s, against some
#: 9 us a class a row at a time); once numpy is loaded (the batch path ran), it is always used.
SUMMARY_NUMPY_WORTH = 20_000
_FAST_MODULE = "gbr_tui.core.fast"


class Summary:
    """The summary of what was counted, as the command line asks for it (``--by``, ``--sort``,
    ``--short``, ``--either-colour``, ``--json``, ``--bars``)."""

    def __init__(
        self,
        tally: Tally,
        pattern: ClassPattern | None,
        args: argparse.Namespace,
        game_positions: GamePositions,
        theory: dict[str, ClassTheory] | None = None,
    ) -> None:
        self.tally = tally
        #: With --tablebases: per class, what the tables say of its positions.
        self.theory = theory
        self.pattern = pattern
        self.args = args
        self.game_positions = game_positions

    def rows(self) -> list[ClassRow] | list[FamilyRow]:
        """The summary's rows, a class's (or a family's) each, in the order asked for."""
        sort = SortBy(self.args.sort)
        if self.args.by == "family":
            return family_rows(self.tally, sort)
        return self.tally.classes(self.pattern, self.args.either_colour, sort)

    def write(self) -> None:
        """The summary on stdout, as a table or as JSON Lines (see the module's docstring)."""
        with collection_paused():
            columns = self._class_columns()
            if columns is not None:
                self._write_class_columns(columns)
            elif self.args.json:
                write_json_lines(self._summary_objects())
            else:
                self._write_table()

    def _class_columns(self):
        if self.args.by == "family" or self.pattern is not None or self.tally.results or self.theory is not None:
            return None
        if not uses_numpy(self.tally):
            return None
        from gbr_tui.core.collection.summary_lines import class_columns

        return class_columns(self.tally, SortBy(self.args.sort), self.args.either_colour)

    def _write_class_columns(self, columns) -> None:
        """The summary of classes of positions, as ``_write_table`` or ``_summary_objects``
        write it, all lines at once."""
        from gbr_tui.core.collection.summary_lines import summary_lines

        classified, short, out = self.tally.classified, self.args.short, sys.stdout
        if self.args.json:  # as _summary_objects writes them

            def shown(count: int) -> str:  # numbers as json.dumps writes them: an int, a float's repr
                share = count / classified if classified else 0
                return f'", "count": {count}, "share": {share!r}, "material": "'

            write_utf8(summary_lines(columns, shown, '{"code": "', '"}\n', short)[0])
            return
        counts = columns.distinct_counts()
        bar = Bars(BAR_WIDTH) if self.args.bars or sys.stdout.isatty() else None
        shares = {count: self._share_cell(count, bar) for count in counts}
        code_width = (4 if short and columns.all_short() else 7) if len(columns.codes) else 0
        widths = [
            max(len("class"), code_width),
            max([len("count"), *(len(str(count)) for count in counts)]),
            max([len("share"), *map(len, shares.values())]),
        ]

        def cells(count: int) -> str:
            return f"  {count:>{widths[1]}}  {shares[count]:>{widths[2]}}  "

        lines, material_width = summary_lines(columns, cells, short=short, code_width=widths[0], shown=3)
        widths.append(max(len("material"), material_width))
        if self.args.either_colour:
            out.write(EITHER_COLOUR_NOTE + "\n")
        out.write(f"{'class':<{widths[0]}}  {'count':>{widths[1]}}  {'share':>{widths[2]}}  material\n")
        out.write("  ".join("-" * width for width in widths) + "\n")
        write_utf8(lines)
        self._write_notes(games=False)

    def _share_cell(self, count: int, bar: Bars | None) -> str:
        classified = self.tally.classified
        share = count / classified if classified else 0
        return f"{share:.1%}" if bar is None else f"{bar(share)} {share:.1%}"

    def _write_notes(self, games: bool) -> None:
        out = sys.stdout
        if self.game_positions == GamePositions.ALL and self.tally.classified:
            out.write(share_of_games_note(self.tally.classified, self.args.by) + "\n")
        if games:
            out.write(SCORE_NOTE + "\n")
        out.flush()

    def _write_table(self) -> None:
        rows = self.rows()
        games = any(row.results is not None for row in rows)
        by_family = self.args.by == "family"
        headings = ["family" if by_family else "class", "count", "share"]
        if games:
            headings += RESULT_HEADINGS
        if self.theory is not None:
            headings.append("tablebase")
        if not by_family:
            headings.append("material")
        bars = self.args.bars or sys.stdout.isatty()
        bar = Bars(BAR_WIDTH) if bars else None
        columns = [[heading, *column] for heading, column in zip(headings, self._summary_columns(rows, games, bar))]
        widths = [max(map(len, column)) for column in columns]
        last = len(headings) - 1
        # Every column right-aligned but the first (names) and a last material column.
        formats = [
            f"{{:<{width}}}" if index == 0 or (index == last and not by_family) else f"{{:>{width}}}"
            for index, width in enumerate(widths)
        ]
        template = "  ".join(formats) + "\n"
        out = sys.stdout
        if self.args.either_colour:
            out.write(EITHER_COLOUR_NOTE + "\n")
        lines = [template.format(*cells).rstrip() + "\n" for cells in zip(*columns)]
        out.write(lines[0])
        out.write("  ".join("-" * width for width in widths) + "\n")
        out.writelines(lines[1:])
        self._write_notes(games)

    def _summary_columns(
        self, rows: list[ClassRow] | list[FamilyRow], games: bool, bar: Bars | None
    ) -> list[list[str]]:
        """The table's cells, a column at a time."""
        names = [self._name(row) for row in rows]
        counts = [row.count for row in rows]
        columns = [names, list(map(str, counts)), [self._share_cell(count, bar) for count in counts]]
        if games:
            results = [row.results or NO_RESULTS for row in rows]
            columns += [[str(held[index]) for held in results] for index in range(len(NO_RESULTS))]
            columns.append([score_words(row.score) for row in rows])
        if self.theory is not None:
            columns.append([self._theory_words(row) for row in rows])
        if self.args.by != "family":  # then every row is a class's
            columns.append([class_materials(row.materials) for row in rows if isinstance(row, ClassRow)])
        return columns

    def _theory_words(self, row: ClassRow | FamilyRow) -> str:
        found = self.theory.get(row.code) if self.theory is not None and isinstance(row, ClassRow) else None
        return "-" if found is None or not found.positions else found.words()

    def _name(self, row: ClassRow | FamilyRow) -> str:
        if isinstance(row, FamilyRow):
            return row.family.name
        return short_form(row.code) if self.args.short else row.code

    def _summary_objects(self) -> Iterator[dict]:
        """The summary as objects: code (or family), count, share, material (for a family its
        definition), and for games the results and the score."""
        classified = self.tally.classified
        for row in self.rows():
            found: dict[str, object]
            if isinstance(row, FamilyRow):
                found = {"family": row.family.name}
                material = row.family.definition
            else:
                found = {"code": short_form(row.code) if self.args.short else row.code}
                material = class_materials(row.materials, len(row.materials))
            found.update(count=row.count, share=row.count / classified if classified else 0, material=material)
            if row.results is not None:
                white, draws, black, unknown = row.results
                found.update(white_wins=white, draws=draws, black_wins=black, unknown=unknown, score=row.score)
            if self.theory is not None and isinstance(row, ClassRow):
                theory = self.theory.get(row.code)
                found["tablebase"] = None if theory is None else theory.fields
            yield found


def write_utf8(parts: list) -> None:
    """Parts of UTF-8 text (any buffers) on stdout: as they are where stdout writes UTF-8 and
    its line ends are "\n" (no copy as a str of some MB, none encoded back), else as text."""
    out = sys.stdout
    buffer = getattr(out, "buffer", None)
    if buffer is None or os.linesep != "\n" or codecs.lookup(out.encoding or "ascii").name != "utf-8":
        out.write("".join(bytes(part).decode("utf-8") for part in parts))
        return
    out.flush()
    for part in parts:
        buffer.write(part)


def uses_numpy(tally: Tally) -> bool:
    return _FAST_MODULE in sys.modules or len(tally.codes) >= SUMMARY_NUMPY_WORTH


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """Python's cycle collector paused while the summary is built: its tens of thousands of rows
    hold no cycles, and each collection would walk all of them (two thirds of the summary's
    time with 60,000 classes)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Bars:
    """Share bars as text: a rich ``Bar`` rendered once for each of its sizes."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.steps = width * 8
        self._rendered: dict[int, str] = {}
        from rich.console import Console

        self._console = Console(width=width, color_system=None, legacy_windows=False, file=io.StringIO())

    def __call__(self, share: float) -> str:
        step = round(share * self.steps)
        text = self._rendered.get(step)
        if text is None:
            from rich.bar import Bar

            with self._console.capture() as capture:
                self._console.print(Bar(self.steps, 0, step, width=self.width), end="")
            text = self._rendered[step] = capture.get().rstrip("\n").ljust(self.width)
        return text
