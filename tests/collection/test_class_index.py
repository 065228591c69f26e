"""The browser's index: records grouped by class and given back as they were read."""

from __future__ import annotations

import importlib
import io
import tracemalloc

from gbr_tui.core.collection import ClassIndex, Collection
from gbr_tui.core.material import Material
from gbr_tui.core.patterns import parse_pattern

# KNNN v K and KNNN v KNN are both 0009.00 (three White knights: 9; spec section 2 gives
# KNNN v KNN as 0009); KR v K is 0100.00.
FENS = [
    "8/8/8/4k3/8/8/8/NNN1K3 w - - 0 1",
    "8/8/8/4k3/8/8/8/NNN1K1nn w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "8/8/8/4k3/8/8/8/NNN1K3 b - - 0 1",
]


def index_of(text: str, name: str) -> ClassIndex:
    index = ClassIndex()
    with Collection(io.BytesIO(text.encode()), name=name) as collection:
        assert index.read(collection)
    return index


def test_a_code_behind_a_9_lists_its_materials_and_their_positions_in_file_order():
    index = index_of("\n".join(FENS) + "\n", "positions.fen")
    nine, rook = index.classes()
    assert nine.code == "0009.00" and rook.code == "0100.00"
    assert nine.materials == ((Material.from_string("KNNN v K"), 2), (Material.from_string("KNNN v KNN"), 1))
    assert [index.record(i).line for i in index.positions(nine)] == [1, 2, 4]
    wanted = index.classes(parse_pattern("KNNN v K"))
    assert [index.record(i).fen for i in index.positions(wanted[0])] == [FENS[0], FENS[3]]


def test_headers_come_back_as_read_even_with_a_separator_inside():
    pgn = (
        '[Event "Odd\x1fname"]\n[Site "Riga"]\n[White "A"]\n[SetUp "1"]\n[FEN "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"]\n\n*\n'
    )
    index = index_of(pgn, "games.pgn")
    (row,) = index.classes()
    record = index.record(index.positions(row)[0])
    # The separator the index stores fields with is blanked, and the fields stay in place.
    assert record.headers == {"Event": "Odd name", "Site": "Riga", "White": "A"}
    assert (record.file, record.number, record.line) == ("games.pgn", 1, 1)
    assert index.fields == {"Event", "Site", "White"}


def test_the_index_holds_little_more_than_each_records_text():
    # 20,000 EPD records of KR v K (a 25-character position) with an id of 6 characters, kept as
    # their text (25 + 7 separators before the 7 header slots, 6 of them empty, + 6 = 38 bytes)
    # and 22 bytes of numbers (text end 8, record 4, line 4, file 2, class group 4). A Python
    # string per record alone would cost 49 bytes over its text.
    fen = "8/8/8/4k3/8/8/8/KR6 w - -"
    text = "".join(f'{fen} id "r{n:05}";\n' for n in range(20_000))
    importlib.import_module("gbr_tui.core.fast")  # numpy's one-time import is not what the index holds
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        index = index_of(text, "many.epd")
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert index.classified == 20_000
    assert index.record(19_999).headers == {"id": "r19999"}
    assert held / 20_000 < 38 + 22 + 15  # and some slack for the arrays' growth
