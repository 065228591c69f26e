"""A collection's records read as studies (a consumer of the record walk, ``walk.py``): each one's
position, stipulation, composer and source, as a diagram and an index print them."""

from __future__ import annotations

from dataclasses import dataclass

import chess

from gbr_tui.core.collection import BadRecord, Collection, Record
from gbr_tui.core.collection.walk import Consumer, walk

#: A PGN result and the stipulation it gives a study: White wins (``+``) or draws (``=``).
RESULT_STIPULATIONS = {"1-0": "+", "1/2-1/2": "="}


@dataclass(frozen=True)
class Study:
    """One record as a study: where it is (file, record number and line), its class and board,
    what its result stipulates, who composed it and where it was published."""

    file: str
    number: int
    line: int
    code: str
    board: chess.Board
    stipulation: str | None
    composer: str
    source: str
    printed_caption: str | None

    @property
    def place(self) -> str:
        """``studies.pgn:12: record 2``: where the study is, for messages."""
        return f"{self.file}:{self.line}: record {self.number}"


def known(value: str | None) -> str:
    """A PGN tag's value, or "" where it is missing or unknown (``?``, ``????.??.??``)."""
    value = (value or "").strip()
    return "" if not value.strip("?.") else value


def source_words(headers: dict[str, str]) -> str:
    """Where a study was published, as an index prints it: ``Shakhmaty 1925``."""
    event = known(headers.get("Event")) or known(headers.get("Site"))
    year = known(headers.get("Date"))[:4].strip("?")
    return " ".join(part for part in (event, year) if part)


def study_from_record(record: Record, file: str) -> Study:
    """A study from a classified record: the composer is the PGN's White tag, as study
    collections keep it; an EPD record's ``id`` stands for the source."""
    headers = dict(record.headers)
    assert record.fen is not None, "records are read with their FENs"
    return Study(
        file=file,
        number=record.number,
        line=record.line,
        code=record.code,
        board=chess.Board(record.fen),
        stipulation=RESULT_STIPULATIONS.get(headers.get("Result", "")),
        composer=known(headers.get("White")),
        source=source_words(headers) or known(headers.get("id")),
        printed_caption=record.caption,
    )


class StudyReader(Consumer):
    """Collects a collection's records as studies (the first position of each record), and its
    bad records."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.studies: list[Study] = []
        self.bad_records: list[BadRecord] = []

    def record(self, record: Record, first: bool) -> None:
        if first:
            self.studies.append(study_from_record(record, self.file))

    def bad(self, bad: BadRecord) -> None:
        self.bad_records.append(bad)


def read_studies(collection: Collection) -> StudyReader:
    """Every record of ``collection`` as a study, with its bad records."""
    reader = StudyReader(collection.name)
    walk(collection.records(), reader, games=False)
    return reader
