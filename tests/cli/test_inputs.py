"""Where inputs come from: arguments, or stdin lines with their numbers (in-process)."""

from __future__ import annotations

import io
import time

import pytest

from gbr_tui.commands import common
from gbr_tui.commands.common import Input, excerpt, inputs, not_utf8

TEXT = "é1\r\n\n  second  \rthird\nfourth é\n\nlast"
EXPECTED = [
    Input("é1", 1),
    Input("second", 3),
    Input("third", 4),
    Input("fourth é", 5),
    Input("last", 7),
]


@pytest.mark.parametrize("block", [1, 2, 3, 7, 1 << 20])
def test_stdin_lines_keep_their_numbers_across_block_boundaries(monkeypatch, block: int) -> None:
    # Small blocks cut '\r\n' and the two bytes of 'é' apart: nothing may change.
    monkeypatch.setattr(common, "STDIN_BLOCK_BYTES", block)
    assert list(inputs([], io.BytesIO(TEXT.encode()))) == EXPECTED


def test_a_text_stream_works_too() -> None:
    assert list(inputs([], io.StringIO(TEXT))) == EXPECTED


def test_arguments_and_dash() -> None:
    items = list(inputs(["a", "-", " b "], io.BytesIO(b"x\ny\n")))
    assert items == [Input("a"), Input("x", 1), Input("y", 2), Input("b")]


def test_undecodable_bytes_are_kept_as_escapes_and_named() -> None:
    # Python's surrogateescape: byte 0xff is U+DCFF, so the message can name the byte.
    assert list(inputs([], io.BytesIO(b"ok\n\xff\xfe\n"))) == [
        Input("ok", 1),
        Input("\udcff\udcfe", 2),
    ]
    assert not_utf8("ok") is None
    error = not_utf8("a\udcfe")
    assert (error.message, error.offset) == ("not UTF-8: byte 0xfe", 1)


def test_excerpt_hides_control_characters_and_keeps_the_caret_aligned() -> None:
    assert excerpt("a\x1b[31mb", 6) == ("a\ufffd[31mb", 6)


def test_excerpt_of_a_long_line_centres_on_the_spot() -> None:
    text = "x" * 500 + "!" + "y" * 500
    shown, caret = excerpt(text, 500)
    assert shown.startswith("...") and shown.endswith("...")
    assert shown[caret] == "!"


def test_a_long_line_read_in_small_blocks_costs_linear_time(monkeypatch) -> None:
    # 8 MB with no line end (a NUL file, say) in 131,072 reads of 64 bytes: joining what came so
    # far on every read would copy some 500 GB; reading it once takes well under a second.
    monkeypatch.setattr(common, "STDIN_BLOCK_BYTES", 64)
    size = 8 << 20
    started = time.perf_counter()
    (item,) = inputs([], io.BytesIO(b"\0" * size))
    assert time.perf_counter() - started < 10
    assert (len(item.text), item.line) == (size, 1)
