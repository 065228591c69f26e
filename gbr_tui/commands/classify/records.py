"""``--per-record`` and ``--csv``: one JSON object or CSV row per record kept."""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterable

from gbr_tui.commands.common import write_json_lines
from gbr_tui.core import short_form
from gbr_tui.core.collection import HEADERS, Record
from gbr_tui.core.collection.tally import ONE_KING_A_SIDE, swapped_code
from gbr_tui.core.describe import king_warnings
from gbr_tui.core.hhdb import hhdb_fields, tags_only
from gbr_tui.core.material import Material
from gbr_tui.core.patterns import ClassPattern

CSV_FIELDS = ("file", "record", "line", "ply", "plies", "code", "material", "position", *HEADERS)


def write_rows(rows: Iterable[dict], as_csv: bool) -> None:
    """The rows on stdout: as CSV under a header line, or as JSON Lines."""
    out = sys.stdout
    if as_csv:
        writer = csv.DictWriter(out, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
    else:
        write_json_lines(rows, out)


def wanted(pattern: ClassPattern | None, code: str, material: Material, either_colour: bool) -> bool:
    """Whether a class is kept: no pattern, or it (or with ``either_colour`` its twin) matches."""
    if pattern is None or pattern.matches(code, material):
        return True
    return either_colour and pattern.matches(swapped_code(code), material.swapped())


def record_row(file: str, record: Record, code: str, material: Material, short: bool) -> dict:
    """A record's row, its class as given (folded with ``--either-colour``)."""
    row = {
        "file": file,
        "record": record.number,
        "line": record.line,
        "code": short_form(code) if short else code,
        "material": str(material),
        "position": record.fen,
    }
    if material.kings != ONE_KING_A_SIDE:  # not a legal position: said, as the editor does
        row["warnings"] = king_warnings(material.kings)
    if record.ply is not None:
        row["ply"] = record.ply
    if record.plies is not None:
        row["plies"] = record.plies
    row.update(tags_only(record.headers))
    row.update(hhdb_fields(record.headers))
    return row
