"""`encode --tablebases` and `decode --tablebases`: the verdict beside each code, and in JSON."""

from __future__ import annotations

import json

from tests.support.process import run_gbr
from tests.support.tablebases import SAAVEDRA, SYZYGY

KRK = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# 1.c7? is the only win (core tests); after 1.Kb7? Rd6 Black takes the pawn: a draw.
SAAVEDRA_AFTER_KB7 = "8/1K6/2P5/3r4/8/8/8/k7 b - - 1 1"


def test_encode_prints_the_verdict_beside_each_code_within_the_tables():
    result = run_gbr("encode", "--tablebases", str(SYZYGY), SAAVEDRA, START, SAAVEDRA_AFTER_KB7)
    assert result.status == 0, result.stderr
    assert result.lines[1] == "4888.88"  # outside the tables: the code alone
    code, verdict = result.lines[0].split("  ")
    assert code == "0300.10" and verdict.startswith("White wins")
    assert result.lines[2] == "0300.10  draw"


def test_encode_says_a_stipulation_the_table_contradicts():
    result = run_gbr("encode", "--tablebases", str(SYZYGY), "--stipulation", "+", SAAVEDRA_AFTER_KB7)
    assert result.lines == ["+0300.10  draw; the stipulation + asks for a White win; the tablebase says a draw"]


def test_encode_json_adds_the_tablebase_fields_or_null():
    result = run_gbr("encode", "--json", "--tablebases", str(SYZYGY), SAAVEDRA, START, KRK)
    records = [json.loads(line) for line in result.lines]
    saavedra, start, krk = (record["tablebase"] for record in records)
    # 1.c7 wins and is a pawn move: the first zeroing move is the next ply (DTZ 1).
    assert saavedra == {"wdl": 2, "dtz": 1, "dtm": None}
    assert start is None
    assert krk["wdl"] == 2 and krk["dtz"] > 0 and krk["dtm"] is None


def test_encode_without_the_option_has_no_tablebase_field():
    assert "tablebase" not in json.loads(run_gbr("encode", "--json", SAAVEDRA).lines[0])


def test_decode_of_a_code_with_every_square_gives_the_verdict():
    result = run_gbr("decode", "--tablebases", str(SYZYGY), "=0300.10b6a1d5c6", "0100.00")
    assert result.status == 0, result.stderr
    rows = [line for line in result.lines if line.startswith("Tablebase")]
    assert rows == ["Tablebase    White wins: DTZ 1 (White to move: the code does not say)"]
    assert "the stipulation = asks for a draw; the tablebase says a White win" in result.stdout
    records = [
        json.loads(line)
        for line in run_gbr("decode", "--json", "--tablebases", str(SYZYGY), "+0300.10b6a1d5c6", "0100").lines
    ]
    assert [record["tablebase"] for record in records] == [{"wdl": 2, "dtz": 1, "dtm": None}, None]


def test_tables_that_cannot_be_used_are_said_and_the_codes_still_printed(tmp_path):
    (tmp_path / "KRvK.rtbw").write_bytes(b"\x00" * 64)  # damaged
    result = run_gbr("encode", "--tablebases", str(tmp_path / "none"), "--tablebases", str(tmp_path), KRK, START)
    assert result.status == 0
    assert result.lines == ["0100.00", "4888.88"]
    said = result.stderr.splitlines()
    assert len(said) == 2
    assert said[0] == f"gbr-tui encode: tablebases {tmp_path / 'none'}: no such directory"
    assert said[1].startswith("gbr-tui encode: a damaged or unreadable table for KRvK: ")
    assert "Traceback" not in result.stderr
