"""Saving the editor's position to PGN and EPD files: appended, the code in a GBR tag or
opcode, and read back by the collection reader (what `gbr-tui classify` reads) with the same
code. Kubbel's study and its code are the spec's (section 3)."""

from __future__ import annotations

import chess
import chess.pgn
import pytest

from gbr_tui.core import GbrError
from gbr_tui.core.collection import Collection, Format, Record
from gbr_tui.core.collection.writing import append_position, saved_format

KUBBEL = chess.Board("6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1 w - - 0 1")
KUBBEL_EVERY_MAN = "=0323.12g3g1a3a2e1g8h6c3c6"  # spec: =0323.12g3g1, then the men in its order
# Réti's study (1921): White Kh8, Pc6; Black Ka6, Ph5 -- two pawns, one each side: 0000.11.
RETI = chess.Board("7K/8/k1P5/7p/8/8/8/8 w - - 0 1")


def _records(path):
    with Collection(path) as collection:
        return collection.format, list(collection.records())


@pytest.mark.parametrize("suffix", [".pgn", ".epd", ".PGN"])
def test_saved_positions_read_back_with_their_codes(tmp_path, suffix):
    path = tmp_path / f"studies{suffix}"
    assert append_position(path, KUBBEL, "=") == KUBBEL_EVERY_MAN
    assert append_position(path, RETI, None) == "0000.11h8a6c6h5"
    format, records = _records(path)
    assert format == (Format.EPD if suffix == ".epd" else Format.PGN)
    assert [type(record) for record in records] == [Record, Record]
    assert [record.code for record in records] == ["0323.12", "0000.11"]
    assert chess.Board(records[0].fen).board_fen() == KUBBEL.board_fen()


def test_the_pgn_game_has_the_fen_in_setup_tags_and_the_code_in_a_gbr_tag(tmp_path):
    path = tmp_path / "studies.pgn"
    append_position(path, KUBBEL, "=")
    with path.open() as file:
        game = chess.pgn.read_game(file)
    assert game.headers["SetUp"] == "1" and game.headers["FEN"] == KUBBEL.fen()
    assert game.headers["GBR"] == KUBBEL_EVERY_MAN


def test_the_epd_line_has_the_code_in_a_gbr_opcode(tmp_path):
    path = tmp_path / "studies.epd"
    append_position(path, KUBBEL, "=")
    board, operations = chess.Board.from_epd(path.read_text().splitlines()[0])
    assert board.board_fen() == KUBBEL.board_fen() and operations == {"GBR": KUBBEL_EVERY_MAN}


def test_appending_keeps_what_the_file_holds_and_starts_on_a_new_line(tmp_path):
    path = tmp_path / "studies.pgn"
    path.write_text('[Event "mine"]\n[SetUp "1"]\n[FEN "8/8/8/8/8/8/8/K1k5 w - - 0 1"]\n\n*')  # no newline
    append_position(path, KUBBEL, "=")
    records = _records(path)[1]
    assert [record.code for record in records] == ["0000.00", "0323.12"]
    assert records[0].headers["Event"] == "mine"


def test_a_board_without_one_king_a_side_is_saved_with_its_plain_code(tmp_path):
    path = tmp_path / "empty.epd"
    assert append_position(path, chess.Board(None), "+") == "+0000.00"
    assert [record.code for record in _records(path)[1]] == ["0000.00"]


@pytest.mark.parametrize("name", ["studies.txt", "studies", "studies.pgn.gz"])
def test_other_names_are_refused_with_the_endings_taken(tmp_path, name):
    with pytest.raises(GbrError, match=r"not named as a PGN or EPD file: end the name in \.pgn or \.epd"):
        saved_format(tmp_path / name)
    with pytest.raises(GbrError):
        append_position(tmp_path / name, KUBBEL, None)
    assert not (tmp_path / name).exists()
