"""HHdb's conventions, as the issue quotes CQL's hhdb filter reading them."""

from __future__ import annotations

from gbr_tui.core.hhdb import (
    composers,
    diagram_number,
    hhdb_fields,
    hhdb_words,
    kept,
    looks_like_hhdb,
    read_black,
)


def test_the_black_tag_gives_stipulation_code_kings_and_marks() -> None:
    held = read_black("=0323.12g3g1")  # the spec's published caption (section 4)
    assert held is not None
    assert (held.stipulation, held.code, held.white_king, held.black_king, held.marks) == (
        "=",
        "0323.12",
        "g3",
        "g1",
        (),
    )
    assert held.sound and held.caption == "=0323.12g3g1"
    marked = read_black("+0116.00a7d3 U3 AN TW")
    assert marked is not None and marked.marks == ("U3", "AN", "TW") and not marked.sound


def test_other_black_tags_are_not_hhdb() -> None:
    for text in (None, "Troitzky", "0323.12", "=0323.12g3", "=0323.1g3g1", "x=0323.12g3g1"):
        assert read_black(text) is None


def test_composer_diagram_and_words() -> None:
    assert composers("Kubbel, Leonid 12") == "Kubbel, Leonid"
    assert composers("Troitzky, Alexey") == "Troitzky, Alexey"
    assert diagram_number("EG #1234 2001") == 1234 and diagram_number("Shakhmaty") is None
    headers = {"White": "Kubbel, Leonid 12", "Black": "=0323.12g3g1 U1 MC", "Event": "#7"}
    assert hhdb_fields(headers) == {
        "stipulation": "White to play and draw",
        "composer": "Kubbel, Leonid",
        "diagram": 7,
        "marks": ["unsound or dualled (U1)", "several composers"],
        "sound": "unsound",
    }
    assert hhdb_words(headers) == (
        "Kubbel, Leonid · diagram 7 · White to play and draw · unsound or dualled (U1) · several composers"
    )
    assert hhdb_words({"Black": "Troitzky"}) == ""


def test_the_sound_filter() -> None:
    unsound, sound = {"Black": "+0000.10e1e8 U5"}, {"Black": "+0000.10e1e8 AN"}
    assert [kept(headers, "sound") for headers in (unsound, sound, {})] == [False, True, True]
    assert [kept(headers, "unsound") for headers in (unsound, sound, {})] == [True, False, False]
    assert kept(unsound, None)


def test_an_hhdb_pgn_is_told_from_its_start() -> None:
    assert looks_like_hhdb('[Event "#1"]\n[White "A"]\n[Black "+0100.00a1a8"]\n')
    assert not looks_like_hhdb('[Event "#1"]\n[White "A"]\n[Black "B"]\n[GBR "0100.00"]\n')
