"""The browser's index: records grouped by class and given back as they were read."""

from __future__ import annotations

import gc
import io
import tracemalloc

import chess
import pytest

from gbr_tui.core.collection import ClassIndex, Collection
from gbr_tui.core.collection.records import BadRecord, Record
from gbr_tui.core.hhdb import FIRST_COMMENT
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


def test_hhdbs_first_comment_comes_back_from_a_stream_too():
    # A stream cannot be read again at an offset: the record's text is held, the comment after
    # its FIELDS; a game whose Black tag is not HHdb's keeps none.
    fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
    pgn = (
        f'[Black "+0100.00e1e5"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n{{stipulation: +. EG#12}} *\n\n'
        f'[Black "B"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n{{stipulation: +. EG#12}} *\n'
    )
    index = index_of(pgn, "hhdb.pgn")
    (row,) = index.classes()
    first, second = (index.record(record).headers for record in index.positions(row))
    assert first == {"Black": "+0100.00e1e5", FIRST_COMMENT: "stipulation: +. EG#12"}
    assert second == {"Black": "B"}
    assert index.fields == {"Black"}  # the comment is no column of the list


#: Records of the memory tests: more than a text block of the source (2,500 lines of 39
#: characters, 97,500 > 64 K) and than a thousand records (the index reports progress every
#: 1,024); the full count in the slow part.
MANY = [2_500, pytest.param(20_000, marks=pytest.mark.slow)]


@pytest.mark.parametrize("count", MANY)
def test_a_stream_keeps_each_records_text_and_little_more(count):
    # EPD records of KR v K (a 25-character position) with an id of 6 characters, read from a
    # stream (it cannot be read again): kept as their text (25 + 7 separators before the 7
    # header slots, 6 of them empty, + 6 = 38 bytes) and 24 bytes of numbers (men 8, record 4,
    # line 4, text end 8). A Python string per record alone would cost 49 bytes over its text.
    text = "".join(f'{KR_V_K} id "r{n:05}";\n' for n in range(count))
    index, held = measured(lambda: index_of(text, "many.epd"))
    assert index.classified == count
    assert index.record(count - 1).headers == {"id": f"r{count - 1:05}"}
    assert index.bytes_held == count * (38 + 24)
    assert held / count < 38 + 24 + 15  # and some slack for the arrays' growth


@pytest.mark.parametrize("suffix", ["fen", "epd"])
def test_a_stream_gives_back_each_records_text_among_bad_lines(suffix):
    """Read from a stream, the records kept as their texts: those the batch path vouched for
    and those python-chess read alone (two White kings), around bad and blank lines."""
    lines = [line.decode() for line in spoiled_lines(suffix == "epd")]
    index = index_of("".join(lines), f"spoiled.{suffix}")
    with Collection(io.BytesIO("".join(lines).encode()), name=f"spoiled.{suffix}") as collection:
        records = [item for item in collection.records() if type(item) is Record]
    assert index.classified == len(records) > 10_000
    assert [(entry.number, entry.line, entry.fen) for entry in map(index.record, range(len(records)))] == [
        (record.number, record.line, record.fen) for record in records
    ]


@pytest.mark.parametrize("count", MANY)
def test_a_file_keeps_only_each_records_place_and_reads_it_back(tmp_path, count):
    # The same records in a file: 24 bytes a record (men 8, record 4, line 4, byte offset 8),
    # no text; a record is read back from its line when it is shown.
    path = tmp_path / "many.epd"
    path.write_text("".join(f'{KR_V_K} id "r{n:05}";\n' for n in range(count)))
    index, held = measured(lambda: file_index(path))
    assert index.bytes_held == count * 24
    assert held / count < 24 + 15
    record = index.record(count - 1)
    assert (record.number, record.line, record.fen, record.headers) == (
        count,
        count,
        KR_V_K,
        {"id": f"r{count - 1:05}"},
    )


KR_V_K = "8/8/8/4k3/8/8/8/KR6 w - -"


def measured(make):
    """What ``make()`` gives, and the bytes it left allocated: measured on a second run, as what
    a first read loads once (modules, numpy, caches) is not what the index holds."""
    make()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        made = make()
        gc.collect()  # garbage left for the collector is not held
        return made, tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def file_index(path) -> ClassIndex:
    index = ClassIndex()
    with Collection(str(path), caption="GBR") as collection:
        assert index.read(collection, path=str(path))
    return index


def spoiled_lines(epd: bool, count: int = 12_000) -> list[bytes]:
    """``count`` lines (12,000 by default: more than a batch the batch path vouches for at once):
    the FENS over and over, with blank lines, lines python-chess rejects, a line only
    python-chess reads (two White kings), EPD fields and captions (one of them wrong), and every
    kind of line end."""
    lines = []
    for number in range(count):
        fen = FENS[number % len(FENS)]
        if epd:
            fen = " ".join(fen.split()[:4])
        if number % 97 == 5:
            fen = ""
        elif number % 89 == 7:
            fen = fen.replace("8/8/8", "8/9/8")
        elif number % 83 == 3:
            fen = fen.replace("NNN1K3", "NNN1K2K")
        elif epd and number % 79 == 2:
            fen += f' id "n{number}"; GBR "{"0009.00" if number % 2 else "0100.00"}";'
        lines.append(fen.encode() + (b"\r\n" if number % 7 == 1 else b"\r" if number % 71 == 4 else b"\n"))
    return lines


@pytest.mark.parametrize("count", [6_000, pytest.param(12_000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("suffix", ["fen", "epd"])
def test_records_read_back_from_a_file_are_those_read_one_by_one(tmp_path, suffix, count):
    """Every record read back from its place, one by one (each read back costs a few
    milliseconds): 6,000 lines are still more than 4,096 (the batch path vets a piece of lines
    at a time) and than two text blocks of the source (64 K characters each)."""
    path = tmp_path / f"spoiled.{suffix}"
    path.write_bytes(b"".join(spoiled_lines(suffix == "epd", count)))
    index = file_index(path)
    with Collection(str(path), caption="GBR") as collection:
        items = list(collection.records())
    records = [item for item in items if type(item) is Record]
    assert [bad for _, bad in index.bad] == [item for item in items if type(item) is BadRecord]
    assert index.bad and index.classified == len(records)
    listed = sorted(i for row in index.classes() for i in index.positions(row))
    assert listed == list(range(len(records)))
    back = [index.record(i) for i in listed]
    assert [(entry.number, entry.line, entry.fen, entry.headers) for entry in back] == [
        (record.number, record.line, record.fen, dict(record.headers)) for record in records
    ]
    with Collection(str(path)) as collection:
        assert index.classes() == collection.tally().classes()
    captioned = [i for i, record in enumerate(records) if record.caption is not None]
    assert index.captions_checked == len(captioned)
    # Half the captions say 0100.00 (KR v K) where the position is KNNN v K (0009.00) or
    # KNNN v KNN: those disagree.
    wrong = [i for i in captioned if records[i].caption == "0100.00" and records[i].code != "0100.00"]
    assert sorted(index.disagreements) == wrong
    assert bool(wrong) == (suffix == "epd")


def test_a_record_of_a_changed_file_is_not_read_back(tmp_path):
    path = tmp_path / "positions.fen"
    path.write_text("\n".join(FENS) + "\n")
    index = file_index(path)
    path.write_text("\n".join(reversed(FENS)) + "\n")
    record = index.record(0)
    assert record.fen == "" and "changed since it was read" in record.problem


def test_a_listing_makes_a_row_only_when_read_and_sizes_its_columns_from_the_codes(monkeypatch):
    from gbr_tui.core.collection.index import ClassListing
    from gbr_tui.core.collection.tally import SortBy, Tally, material_of_code

    tally = Tally()
    # 0137.45: digits 0 (Q), 1 (R: one White), 3 (B: one Black), 7 (N: one White, two Black),
    # then 4 White and 5 Black pawns: 1 + 1 + 3 + 9 men, 14 letters, two kings and " v ": 19.
    widest = material_of_code("0137.45")
    tally.add("0137.45", widest)
    tally.add("0100.00", Material.from_string("KR v K"), 3)
    # Three White knights are a 9 (spec section 2): its materials are measured as listed.
    tally.add("0009.00", Material.from_string("KNNN v KNN"), 2)
    made = []
    row_of = tally.class_row
    monkeypatch.setattr(tally, "class_row", lambda code: made.append(code) or row_of(code))
    listing = ClassListing.of(tally)
    assert len(listing) == 3 and listing.records == 6 and made == []
    # 0009.00's one material is counted as python-chess read it (a 9): "KNNN v KNN", 10.
    assert listing.materials_width(3) == 19 == len(str(widest))
    rook = listing[1]
    assert rook.code == "0100.00" and rook.count == 3
    assert made == ["0009.00", "0100.00"]
    # The same rows, in the same orders, as the tally lists them at once.
    for sort in SortBy:
        by_sort = ClassListing.of(tally, sort=sort)
        assert list(by_sort) == tally.classes(sort=sort)
        assert by_sort.largest(2) == [(row.code, row.count) for row in tally.classes(sort=SortBy.COUNT)[:2]]
    folded = ClassListing.of(tally, either_colour=True)  # rows made at once: all measured
    assert list(folded) == tally.classes(either_colour=True)
    assert folded.materials_width(3) == 19


def knights_position(white: int, black: int) -> str:
    """Kings on e1 and e8, ``white`` White knights from a2 on, ``black`` Black knights from a7 on."""
    board = chess.Board(None)
    board.set_piece_at(chess.E1, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(chess.E8, chess.Piece(chess.KING, chess.BLACK))
    for square in range(chess.A2, chess.A2 + white):
        board.set_piece_at(square, chess.Piece(chess.KNIGHT, chess.WHITE))
    for square in range(chess.A7, chess.A7 + black):
        board.set_piece_at(square, chess.Piece(chess.KNIGHT, chess.BLACK))
    return board.fen()


@pytest.mark.parametrize("shown", [1, 2, 3, 50])
def test_the_materials_column_fits_the_widest_cell_of_the_batch_paths_classes(shown):
    """The materials of codes with a 9 the batch path counted are measured from their men at
    once: the width is the longest cell as written, with ``N more`` after the shown ones."""
    from gbr_tui.core.collection.index import ClassListing
    from gbr_tui.core.collection.tally import Tally
    from gbr_tui.core.describe import class_materials
    from gbr_tui.core.fast import VectorEncoder

    # Three or more knights on either side make the knight digit a 9: 40 materials (0 to 6
    # knights a side, one side with three or more) behind 0009.00; two behind 0009.10 (a White
    # pawn too); and the one material of 0002.00 (two White knights).
    fens = [knights_position(white, black) for white in range(7) for black in range(7) if max(white, black) >= 3]
    pawn = [fen.replace("/8/8/8/8/", "/8/8/8/P7/", 1) for fen in fens[-2:]]
    fens += [fen for fen in fens[:5] for _ in range(2)] + pawn + [knights_position(2, 0)]
    vetted = VectorEncoder().vet(fens)
    assert not vetted.rejected
    tally = Tally()
    tally.codes.update(vetted.codes)
    tally.add_packed(*vetted.nine_keys())
    # Two White kings: counted as python-chess reads it, its material as written.
    tally.add("0009.00", Material((0, 0, 0, 3, 0), (0, 0, 0, 0, 0), (2, 1)))
    listing = ClassListing.of(tally)
    assert [row.code for row in listing] == ["0002.00", "0009.00", "0009.10"]
    cells = [class_materials(row.materials, shown) for row in listing]
    assert listing.materials_width(shown) == max(map(len, cells))
    if shown == 1:
        # 0009.10: six White knights and a pawn against five or six Black knights, once each
        # (equal counts: fewer men first), so its cell is the first and "1 more": 17 + 8.
        # 0009.00 shows the least of the five materials counted twice (K v KNNN), then "40 more".
        assert cells == ["KNN v K", "K v KNNN, 40 more", "KNNNNNNP v KNNNNN, 1 more"]
        assert listing.materials_width(shown) == 25
