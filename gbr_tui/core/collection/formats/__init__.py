"""The collection formats, one module each, named by its ``Format``'s value: what the rest of
the collection layer asks of a format (``base.REQUIRED``) is declared there. Adding a format
is a ``Format`` member, its module here and its line in ``FORMATS``; every list of formats a
user reads is worded from ``FORMATS`` (``format_names``)."""

from __future__ import annotations

from gbr_tui.core.collection.formats import csv, epd, fen, jsonl, pgn
from gbr_tui.core.collection.formats.base import CollectionFormat
from gbr_tui.core.collection.records import Format

#: The formats in the order users read them listed.
FORMATS: tuple[CollectionFormat, ...] = (pgn, epd, fen, csv, jsonl)
_BY_FORMAT = {module.FORMAT: module for module in FORMATS}
_DETECTION = sorted(FORMATS, key=lambda module: module.DETECTION_ORDER)
_DETECT_LINES = 50  # records looked at to tell the format


def format_module(format: Format) -> CollectionFormat:
    """The module of a format, which says how its records are read, cut, read back, written."""
    return _BY_FORMAT[format]


def format_names() -> str:
    """The formats as users read them listed: "PGN, EPD, FEN lines, CSV or JSON Lines"."""
    return _listed([module.NAME for module in FORMATS])


def caption_places() -> str:
    """Where a printed caption may be, as users read it: "a PGN tag, an EPD opcode, a CSV
    column or a JSON field"."""
    return _listed([module.CAPTION_IN for module in FORMATS if module.CAPTION_IN is not None])


def _listed(names: list[str]) -> str:
    return f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else "".join(names)


def detect_format(sample: str) -> Format:
    """The format of a collection from its first records (up to ``_DETECT_LINES``), so that one
    bad line does not decide: each line is taken for the first format (``DETECTION_ORDER``)
    whose module's ``votes`` takes it (a JSON object with a ``"fen"`` field, a PGN tag or move
    number, an EPD line: a placement and three fields, then operations or nothing, a FEN line,
    a CSV row: a comma that is not in a position); the most common wins, the earliest on a tie.
    Nothing recognised: one FEN per line."""
    votes: dict[Format, int] = {}
    looked = 0
    for line in sample.split("\n", 1000)[:1000]:
        text = line.strip()
        if not text or text[0] in "%;":
            continue
        looked += 1
        if looked > _DETECT_LINES:
            break
        kind = next((module.FORMAT for module in _DETECTION if module.votes(text)), None)
        if kind is not None:
            votes[kind] = votes.get(kind, 0) + 1
    if not votes:
        return Format.FEN
    return max(votes, key=votes.__getitem__)  # dicts keep order: the earliest wins a tie


__all__ = ["FORMATS", "CollectionFormat", "caption_places", "detect_format", "format_module", "format_names"]
