"""``--per-record`` and ``--csv``: one JSON object or CSV row per record kept."""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterable

from gbr_tui.commands.common import write_json_lines
from gbr_tui.core import short_form
from gbr_tui.core.collection import HEADERS, Record
from gbr_tui.core.collection.tally import ONE_KING_A_SIDE, swapped_code
from gbr_tui.core.hhdb import hhdb_fields, tags_only
from gbr_tui.core.material import Material
from gbr_tui.core.patterns import ClassPattern
from gbr_tui.core.validity import king_status, status_words

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


def status_of(record: Record) -> int:
    """Why a record's position is not a legal one (``validity.board_status``), 0 if it is: a
    game's positions are told by their kings alone."""
    kings = record.material.kings
    return record.status or (king_status(kings) if kings != ONE_KING_A_SIDE else 0)


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
    if status := status_of(record):  # not a legal position: said, as the editor does
        row["warnings"] = status_words(status)
    if record.ply is not None:
        row["ply"] = record.ply
    if record.plies is not None:
        row["plies"] = record.plies
    row.update(tags_only(record.headers))
    row.update(hhdb_fields(record.headers))
    return row
