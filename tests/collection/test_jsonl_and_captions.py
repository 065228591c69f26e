"""JSON Lines collections, and the printed caption each reader keeps with a record."""

from __future__ import annotations

import io
import json

from gbr_tui.core.collection import BadRecord, Collection, Format, Record, detect_format

ARVES = "8/K7/2nn4/8/8/1B1k4/1R6/8 w - - 0 1"  # spec 4: KRB v KNN, 0116.00
CAPTION = "a7d3 0116.00 b2b3c6d6 3/3+"


def read(data: bytes, **options) -> list:
    return list(Collection(io.BytesIO(data), caption="GBR", **options).records())


def test_json_lines_are_detected_and_read() -> None:
    line = json.dumps({"fen": ARVES, "GBR": CAPTION, "White": "Composer", "Site": 3}).encode()
    assert detect_format(line.decode()) == Format.JSONL
    (record,) = read(line + b"\n")
    assert (record.code, record.caption) == ("0116.00", CAPTION)
    assert record.headers == {"White": "Composer"}  # a header that is not a string is left out


def test_bad_json_lines_are_bad_records_with_their_lines() -> None:
    good = json.dumps({"fen": ARVES}).encode()
    lines = [
        good,
        b'{"fen": "8/8"',  # cut short
        b"[1, 2]",  # not an object
        b'{"GBR": "0116"}',  # no fen
        b'{"fen": 7}',  # not a string
        json.dumps({"fen": ARVES, "GBR": 116.0}).encode(),  # a caption that is a number
        b'{"fen": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",  # nested too deeply for the parser
        b"",
        b'{"fen": "8/8/8/8/8/8/8/9 w - - 0 1"}',  # not a FEN
        b'{"fen": "' + b"x" * (1 << 21) + b'"}',  # over 1 MB
        good,
    ]
    items = read(b"\n".join(lines) + b"\n", format=Format.JSONL)
    assert [type(item) for item in items] == [Record] + [BadRecord] * 8 + [Record]
    assert [item.line for item in items] == [1, 2, 3, 4, 5, 6, 7, 9, 10, 11]  # line 8 is blank
    reasons = [item.reason for item in items[1:-1]]
    assert reasons[0].startswith("not a JSON object:") and "column" in reasons[0]
    assert reasons[1] == "not a JSON object but an array"
    assert reasons[2] == 'no "fen" field: expected a FEN as a string'
    assert reasons[3] == 'a number in its "fen" field: expected a FEN as a string'
    assert reasons[4] == 'the "GBR" field is a number, not a string'
    assert reasons[5].startswith("not a JSON object")
    assert "not a valid FEN" in reasons[6]
    assert "over 1 MB" in reasons[7]


def test_each_reader_keeps_the_caption() -> None:
    epd = " ".join(ARVES.split()[:4])
    pgn = f'[FEN "{ARVES}"]\n[SetUp "1"]\n[GBR "{CAPTION}"]\n\n*\n'.encode()
    assert read(pgn)[0].caption == CAPTION
    quoted, bare, none = read(f'{epd} GBR "{CAPTION}"; id "a";\n{epd} GBR 0116.00;\n{epd} id "GBR";\n'.encode())
    assert (quoted.caption, quoted.headers) == (CAPTION, {"id": "a"})
    assert bare.caption == "0116.00"
    assert none.caption is None  # GBR inside another operation's string is no opcode
    header, blank = read(f"fen,gbr\n{ARVES},{CAPTION}\n{ARVES}, \n".encode())
    assert (header.caption, blank.caption) == (CAPTION, None)  # the column found by its name; blank: none


def test_no_caption_unless_asked() -> None:
    line = json.dumps({"fen": ARVES, "GBR": CAPTION}).encode()
    (record,) = Collection(io.BytesIO(line)).records()
    assert record.caption is None
