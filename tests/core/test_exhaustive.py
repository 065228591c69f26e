"""Every code abcd.ef (piece digits 0-9, pawn digits 0-8: 10**4 * 9**2 = 810,000) parses;
every code without a 9 encodes back to itself, and so do the short forms."""

from __future__ import annotations

import itertools

import pytest

from gbr_tui.core import decode, encode

pytestmark = pytest.mark.slow  # every code: `uv run pytest -m slow`

PIECES = ["".join(digits) for digits in itertools.product("0123456789", repeat=4)]
PAWNS = [white + black for white in "012345678" for black in "012345678"]


def test_all_810000_codes_parse_and_those_without_a_9_round_trip() -> None:
    parsed = round_trips = 0
    for pieces in PIECES:
        exact = "9" not in pieces
        for pawns in PAWNS:
            code = f"{pieces}.{pawns}"
            decoded = decode(code)
            assert decoded.code == code
            parsed += 1
            if exact:
                assert encode(decoded.material) == code
                round_trips += 1
            else:
                assert decoded.material is None
    assert parsed == 810_000
    assert round_trips == 9**4 * 81  # piece digits 0-8 only: 531,441


def test_all_short_forms_parse_and_round_trip() -> None:
    for pieces in PIECES:
        decoded = decode(pieces)
        assert decoded.code == f"{pieces}.00"
        assert decoded.short == pieces
        if "9" not in pieces:
            assert encode(decoded.material, short=True) == pieces
