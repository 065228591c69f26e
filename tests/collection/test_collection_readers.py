"""Reading collections: each format, compression, bad records with their lines."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma

import pytest

from gbr_tui.core.collection import (
    BadRecord,
    Collection,
    CollectionError,
    Format,
    Record,
    detect_format,
)

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# Spec section 2: KR v K is 0100; section 4: k7/8/8/8/8/8/pp6/K7 is 0000.02 and the start 4888.88.
KR_V_K = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"
TWO_PAWNS = "k7/8/8/8/8/8/pp6/K7"


def read(path, **options) -> list:
    with Collection(path, **options) as collection:
        return list(collection.records())


def codes(items) -> list:
    return [(item.number, item.line, item.code) for item in items if isinstance(item, Record)]


def bad(items) -> list:
    return [(item.number, item.line) for item in items if isinstance(item, BadRecord)]


def test_fen_lines_with_blank_lines_keep_file_line_numbers(tmp_path):
    path = tmp_path / "positions.fen"
    path.write_text(f"{KR_V_K}\n\n{TWO_PAWNS}\n{START}\n")
    items = read(path)
    assert codes(items) == [(1, 1, "0100.00"), (2, 3, "0000.02"), (3, 4, "4888.88")]
    assert items[1].fen == TWO_PAWNS


def test_epd_lines_keep_their_id(tmp_path):
    path = tmp_path / "tests.epd"
    path.write_text(f'{KR_V_K.rsplit(" ", 2)[0]} bm Rb8; id "rook ending";\n{TWO_PAWNS} b - - id "pawns";\n')
    items = read(path)
    assert [item.code for item in items] == ["0100.00", "0000.02"]
    assert [item.headers["id"] for item in items] == ["rook ending", "pawns"]


LICHESS_HEADER = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags"


def test_csv_finds_the_fen_column_by_its_header(tmp_path):
    path = tmp_path / "puzzles.csv"
    path.write_text(
        f"{LICHESS_HEADER}\n"
        f"00sHx,{KR_V_K},e1e2,1500,75,90,100,endgame,https://example.org/x,\n"
        f'00sJ9,{TWO_PAWNS},a2a1q,1700,80,95,200,"promotion endgame",https://example.org/y,\n'
    )
    items = read(path)
    assert codes(items) == [(1, 2, "0100.00"), (2, 3, "0000.02")]


def test_csv_wrong_column_count_and_quoted_newlines(tmp_path):
    path = tmp_path / "puzzles.csv"
    # Record 2 spans lines 3-4 (a quoted newline); record 3 on line 5 has too few columns.
    path.write_text(f'id,position,note\na,{KR_V_K},plain\nb,{TWO_PAWNS},"two\nlines"\nc,{START}\nd,{START},last\n')
    items = read(path)
    assert codes(items) == [(1, 2, "0100.00"), (2, 3, "0000.02"), (4, 6, "4888.88")]
    assert bad(items) == [(3, 5)]
    assert "2 columns" in items[2].reason


def test_csv_column_named_or_numbered_and_headerless(tmp_path):
    named = tmp_path / "named.csv"
    named.write_text(f"first,second\n{START},{KR_V_K}\n")
    assert [i.code for i in read(named, fen_column="Second")] == ["0100.00"]
    assert [i.code for i in read(named, fen_column="1")] == ["4888.88"]
    headerless = tmp_path / "plain.csv"
    headerless.write_text(f"x,{KR_V_K}\ny,{TWO_PAWNS}\n")
    assert codes(read(headerless)) == [(1, 1, "0100.00"), (2, 2, "0000.02")]


def test_csv_without_a_fen_column_is_a_file_error(tmp_path):
    path = tmp_path / "nothing.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(CollectionError, match="--fen-column"):
        read(path)
    with pytest.raises(CollectionError, match="no column named 'fen'"):
        read(path, fen_column="fen")


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress], ids=["gzip", "bz2", "xz"])
def test_compressed_files_are_recognised_by_content(tmp_path, compress):
    path = tmp_path / "positions.txt"  # the name says nothing
    path.write_bytes(compress(f"{KR_V_K}\n{TWO_PAWNS}\n".encode()))
    assert codes(read(path)) == [(1, 1, "0100.00"), (2, 2, "0000.02")]


def test_compressed_pgn_and_a_binary_stream(tmp_path):
    data = gzip.compress(b'[Event "e"]\n\n1. e4 e5 *\n')
    with Collection(io.BytesIO(data), game_positions="final") as collection:
        assert collection.format == Format.PGN
        assert [item.code for item in collection.records()] == ["4888.88"]


def test_truncated_compressed_file_reports_the_unreadable_rest(tmp_path):
    path = tmp_path / "cut.fen.gz"
    data = gzip.compress((f"{KR_V_K}\n" * 50_000).encode())
    path.write_bytes(data[: len(data) // 2])
    items = read(path)
    assert isinstance(items[-1], BadRecord)
    assert "cannot read further" in items[-1].reason
    assert all(isinstance(item, Record) for item in items[:-1]) and len(items) > 1


def test_bad_fen_and_bad_bytes_are_reported_and_the_rest_goes_on(tmp_path):
    path = tmp_path / "mixed.fen"
    path.write_bytes(
        KR_V_K.encode()
        + b"\n"
        + b"8/8/8/9/8/8/8/K6k w - - 0 1\n"  # a 9 in a rank: not a FEN
        + b"k7/8/8/8/8/8/8/K\xe96 w - - 0 1\n"  # a Latin-1 byte
        + TWO_PAWNS.encode()
        + b"\n"
    )
    items = read(path)
    assert codes(items) == [(1, 1, "0100.00"), (4, 4, "0000.02")]
    assert bad(items) == [(2, 2), (3, 3)]
    assert "UTF-8" in items[2].reason


def test_tally_counts_the_same_as_records_even_with_bad_lines(tmp_path):
    path = tmp_path / "many.fen"
    lines = [KR_V_K, TWO_PAWNS, START] * 5000
    lines[7000] = "not a fen"
    path.write_text("\n".join(lines) + "\n")
    reported = []
    with Collection(path) as collection:
        tally = collection.tally(on_bad=reported.append)
    assert (tally.read, tally.classified, tally.bad) == (15000, 14999, 1)
    assert [(b.number, b.line) for b in reported] == [(7001, 7001)]
    # Line 7001 held the 7001st record, lines[7000] = TWO_PAWNS (7000 % 3 == 1).
    assert tally.codes == {"0100.00": 5000, "0000.02": 4999, "4888.88": 5000}


def test_tally_keeps_the_materials_behind_a_nine(tmp_path):
    # Three and four White knights both make d = 9: 0009.00; the tally keeps them apart.
    path = tmp_path / "knights.fen"
    path.write_text("k7/8/8/8/8/8/8/KNNN4\nk7/8/8/8/8/8/8/KNNNN3\nk7/8/8/8/8/8/8/KNNN4\n")
    with Collection(path) as collection:
        tally = collection.tally()
    assert tally.codes == {"0009.00": 3}
    assert {str(m): n for m, n in tally.materials("0009.00").items()} == {"KNNN v K": 2, "KNNNN v K": 1}


@pytest.mark.parametrize(
    "sample, expected",
    [
        ('[Event "x"]\n', Format.PGN),
        ("1. e4 e5 *\n", Format.PGN),
        (f"\n{LICHESS_HEADER}\n", Format.CSV),
        (f'{TWO_PAWNS} w - - id "x";\n', Format.EPD),
        (f"{TWO_PAWNS} w - -\n", Format.EPD),
        (f"{START}\n", Format.FEN),
        (f"{TWO_PAWNS}\n", Format.FEN),
        ("", Format.FEN),
    ],
)
def test_format_detection(sample, expected):
    assert detect_format(sample) == expected


def test_format_override(tmp_path):
    path = tmp_path / "positions"
    path.write_text(f"{START}\n")
    assert read(path, format=Format.EPD)[0].code == "4888.88"
    # Read as PGN, a FEN line is movetext that is not a move: a broken game.
    assert isinstance(read(path, format=Format.PGN)[0], BadRecord)


def test_missing_file_is_a_collection_error(tmp_path):
    with pytest.raises(CollectionError, match="no such file"):
        Collection(tmp_path / "absent.pgn")


@pytest.mark.parametrize("epd", [False, True], ids=["fen", "epd"])
def test_fast_tally_agrees_with_record_by_record(tmp_path, epd):
    """The block-at-a-time count and the one-by-one records give the same classes and
    materials, on seeded random positions with promoted pieces (codes with a 9) among them."""
    import random
    from collections import Counter

    import chess

    rng = random.Random(5)
    lines = []
    for _ in range(40):
        board = chess.Board("4k3/PPPPPPPP/8/8/8/8/pppppppp/4K3 w - - 0 1")
        for _ in range(rng.randrange(1, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            lines.append(board.epd(id="x") if epd else board.fen())
    path = tmp_path / ("positions.epd" if epd else "positions.fen")
    path.write_text("\n".join(lines) + "\n")
    expected = Counter((item.code, item.material) for item in read(path))
    with Collection(path) as collection:
        tally = collection.tally()
    got = Counter({(code, m): n for code in tally.codes for m, n in tally.materials(code).items()})
    assert got == expected
    assert any("9" in code[:4] for code, _ in expected)  # the case that needs the materials
