"""FEN, EPD and CSV collections read through numpy give the records, numbers, lines, classes and
messages that reading each line with python-chess gives, on seeded files with spoiled lines."""

from __future__ import annotations

import random

import pytest

from gbr_tui.core.collection import BadRecord, Collection
from tests.support.positions import clean_lines, spoiled


def collection_file(tmp_path, kind: str, share: float, seed: int) -> tuple:
    rng = random.Random(f"{kind}-{share}-{seed}")
    fens = clean_lines("random", rng, 700) + clean_lines("endgames", rng, 300)
    fens = [spoiled(rng, fen) if rng.random() < share else fen for fen in fens]
    if kind == "epd":
        full = [fen if " " in fen else fen + " w - -" for fen in fens]  # EPD has all four fields
        lines = [" ".join(fen.split(" ")[:4]) + f' id "p{n}";' for n, fen in enumerate(full)]
    elif kind == "csv":
        lines = ["id,fen"] + [f'{n},"{fen}"' for n, fen in enumerate(fens)]
    else:
        lines = fens
    ending = "\r\n" if rng.random() < 0.5 else "\n"
    path = tmp_path / f"spoiled.{kind}"
    path.write_bytes(ending.join(lines).encode("utf-8", "surrogateescape") + b"\n")
    return path


def read(path, vector: bool) -> tuple[list, tuple, list]:
    with Collection(path, format=path.suffix[1:]) as collection:
        collection.encoder.vector = vector
        records = list(collection.records())
    reported: list[BadRecord] = []
    with Collection(path, format=path.suffix[1:]) as collection:
        collection.encoder.vector = vector
        tally = collection.tally(reported.append)
    materials = {code: dict(tally.materials(code)) for code in tally.codes}
    return records, (tally.codes, materials, tally.classified, tally.bad), reported


@pytest.mark.parametrize("kind", ["fen", "epd", "csv"])
@pytest.mark.parametrize("share", [0.0, 0.01, 0.05])
def test_numpy_reads_a_collection_as_python_chess_does(tmp_path, kind: str, share: float) -> None:
    path = collection_file(tmp_path, kind, share, seed=3)
    fast_records, fast_tally, fast_bad = read(path, vector=True)
    slow_records, slow_tally, slow_bad = read(path, vector=False)
    assert fast_records == slow_records
    assert fast_bad == slow_bad == [item for item in slow_records if type(item) is BadRecord]
    if kind != "csv":  # CSV's tally is its records' (the same path as above)
        assert fast_tally == slow_tally
    assert (len(slow_bad) > 0) == (share > 0)
    assert len(slow_records) >= 990
