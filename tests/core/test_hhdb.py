"""HHdb's conventions, as the issue quotes CQL's hhdb filter reading them."""

from __future__ import annotations

import re
import time

from gbr_tui.core.hhdb import (
    FIRST_COMMENT,
    KEPT_CHARS,
    KEPT_PART,
    composers,
    diagram_number,
    first_comment,
    hhdb_fields,
    hhdb_words,
    kept,
    kept_comment,
    looks_like_hhdb,
    read_black,
    read_comment,
    tags_only,
    with_kept_comment,
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
        "marks": ["dualled at move 1 (U1)", "several composers"],
        "sound": "unsound",
    }
    assert hhdb_words(headers) == (
        "Kubbel, Leonid · diagram 7 · White to play and draw · dualled at move 1 (U1) · several composers"
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


def test_the_first_comments_stipulation_and_eg_number() -> None:
    # CQL's hhdb filter: "stipulation: ([^.]+)\." and "EG#(\d+)" in the first comment; the
    # stipulation also ends at EG# or the line's end, and "EG #N" is read too.
    said = read_comment("stipulation: = EG#1234")
    assert (said.stipulation, said.eg, said.sign) == ("=", 1234, "=")
    said = read_comment("Kubbel, L. Shakhmaty. stipulation: +. EG #56")
    assert (said.stipulation, said.eg, said.sign) == ("+", 56, "+")
    assert read_comment("Stipulation: Draw.").sign == "="
    assert read_comment("STIPULATION: White to play and win").sign == "+"
    said = read_comment("stipulation: #3.")  # neither a win nor a draw: no sign, kept as written
    assert (said.stipulation, said.sign) == ("#3", None)
    for text in (None, "", "EG", "a comment", "stipulation:"):
        assert read_comment(text).stipulation is None and read_comment(text).eg is None


def test_the_first_comment_is_kept_only_for_an_hhdb_study_and_before_its_first_move() -> None:
    hhdb, other = {"Black": "=0323.12g3g1 U1"}, {"Black": "Draw"}
    assert first_comment("{stipulation: = EG#1234} 1/2-1/2", hhdb) == "stipulation: = EG#1234"
    assert first_comment("\n { EG#7 }\n1. Kf2 *", hhdb) == "EG#7"
    assert first_comment("{stipulation: = EG#1234} *", other) is None
    assert first_comment("1. Kf2 {stipulation: = EG#1234} *", hhdb) is None
    assert first_comment("{} *", hhdb) is None


def test_the_first_comment_in_fields_and_words() -> None:
    headers = {
        "White": "Kubbel 12",
        "Black": "=0323.12g3g1 U1",
        "Event": "#34",
        FIRST_COMMENT: "stipulation: = EG#1234",
    }
    fields = hhdb_fields(headers)
    assert (fields["eg"], fields["comment_stipulation"], fields["diagram"]) == (1234, "=", 34)
    assert "stipulation_disagreement" not in fields  # both say a draw
    assert hhdb_words(headers) == ("Kubbel · diagram 34 · EG 1234 · White to play and draw · dualled at move 1 (U1)")
    assert tags_only(headers) == {"White": "Kubbel 12", "Black": "=0323.12g3g1 U1", "Event": "#34"}
    # The comment says a win where the Black tag says a draw: said, the Black tag's kept.
    disagreeing = {**headers, FIRST_COMMENT: "stipulation: Win. EG#1234"}
    fields = hhdb_fields(disagreeing)
    assert fields["stipulation"] == "White to play and draw"
    assert fields["stipulation_disagreement"] == (
        "the first comment says White to play and win (Win): the Black tag's = is used"
    )
    assert "the first comment says White to play and win (Win)" in hhdb_words(disagreeing)
    # Neither a win nor a draw (HHdb's "-"): shown as written, no disagreement claimed.
    other = {"Black": "-0323.12g3g1", FIRST_COMMENT: "stipulation: #3."}
    assert "stipulation_disagreement" not in hhdb_fields(other)
    assert hhdb_words(other).endswith("another stipulation (-) · the first comment's stipulation: #3")


def test_composers_as_cql_reads_them() -> None:
    assert composers("Kubbel, Leonid NN") == "Kubbel, Leonid"  # CQL drops a trailing " NN"
    # MC (too many composers for White): the names are the first comment's, up to a full stop.
    many = {"White": "Kubbel, Leonid", "Black": "=0323.12g3g1 MC", FIRST_COMMENT: "Kubbel and Troitzky. EG#5"}
    assert hhdb_fields(many)["composer"] == "Kubbel and Troitzky"
    unnamed = {**many, FIRST_COMMENT: "stipulation: =. EG#5"}  # no names there: White's
    assert hhdb_fields(unnamed)["composer"] == "Kubbel, Leonid"


def test_every_mark_cql_names_is_said_in_its_words() -> None:
    """CQL's hhdb filter names the marks: U1 dual_at_move_1, U2 dual_after_move_1, U3
    white_fails, U4 white_wins_in_draw, U5 unreachable, CR colors_reversed, PH posthumous, TE
    theoretical_ending, TT theme_tourney, (c) correction, (m) modification, (s)
    corrected_solution, (v) version."""
    held = read_black("=0323.12g3g1 U3 U4 U5 CR PH TE TT (c) (m) (s) (v) U2")
    assert held is not None and held.marks == (
        "U3",
        "U4",
        "U5",
        "CR",
        "PH",
        "TE",
        "TT",
        "(c)",
        "(m)",
        "(s)",
        "(v)",
        "U2",
    )
    words = hhdb_fields({"Black": "=0323.12g3g1 U3 CR (c) (v)"})["marks"]
    assert words == ["unsound: White fails (U3)", "colours reversed", "a correction", "a version"]
    assert hhdb_fields({"Black": "=0323.12g3g1 U4"})["marks"] == ["unsound: White wins in a draw (U4)"]
    assert hhdb_fields({"Black": "=0323.12g3g1 U5"})["marks"] == ["unsound: the position cannot be reached (U5)"]
    assert read_black("=0323.12g3g1 UNDER TTX").marks == ()  # a mark is a word of its own


KUBBEL = {"White": "Kubbel 12", "Black": "=0323.12g3g1 U1", "Event": "#34"}


def test_an_index_keeps_what_the_first_comment_says_and_no_more() -> None:
    """What an index keeps of the comment (``kept_comment``), read back, gives the same HHdb
    fields and words as the comment itself; what no field reads (a source, a remark) is left."""
    many = {"White": "Kubbel, Leonid", "Black": "=0323.12g3g1 MC"}
    cases = [
        (KUBBEL, "stipulation: = EG#1234", "stipulation: =. EG#1234"),
        (KUBBEL, "stipulation: Win. EG#1234. 1st Prize, Shakhmaty 1925; a long remark", "stipulation: Win. EG#1234"),
        (KUBBEL, "stipulation: #3 EG\n#77", "stipulation: #3. EG#77"),  # CQL's pattern: EG, blanks, #
        (KUBBEL, "EG#007", "EG#7"),
        (many, "Kubbel and Troitzky. EG#5", "Kubbel and Troitzky. EG#5"),  # MC: the names too
        (KUBBEL, "Kubbel and Troitzky. EG#5", "EG#5"),  # without MC no name is read there
    ]
    for headers, comment, short in cases:
        full = {**headers, FIRST_COMMENT: comment}
        assert kept_comment(full) == short
        back = with_kept_comment(dict(headers), short)
        assert hhdb_fields(back) == hhdb_fields(full) and hhdb_words(back) == hhdb_words(full)
    for says_nothing in ("a comment", "", "stipulation:"):
        assert kept_comment({**KUBBEL, FIRST_COMMENT: says_nothing}) is None
    assert kept_comment({"Black": "Draw", FIRST_COMMENT: "EG#5"}) is None  # not HHdb's Black tag
    assert with_kept_comment({"Black": "Draw"}, "EG#5") == {"Black": "Draw"}  # nor read back there
    assert with_kept_comment(dict(KUBBEL), 5) == KUBBEL  # a tampered index: no text, nothing read


def test_a_hostile_first_comment_is_kept_short_and_read_in_linear_time() -> None:
    huge = "x" * 100_000 + ". stipulation: " + "W" * 10_000 + " EG#12"
    kept_text = kept_comment({**KUBBEL, FIRST_COMMENT: huge})
    assert kept_text == f"stipulation: {'W' * KEPT_PART}. EG#12"
    assert len(kept_text) <= KEPT_CHARS
    back = with_kept_comment(dict(KUBBEL), "z" * 10 * KEPT_CHARS)  # a tampered index
    assert len(back[FIRST_COMMENT]) == KEPT_CHARS
    # Thousands of digits are no EG number (Python refuses to read such an int).
    assert read_comment("EG#" + "9" * 5000).eg is None and read_comment("EG#123456789").eg == 123456789
    # A run of blanks inside the stipulation: the pattern CQL's words suggest, one lazy group
    # with its ends, took time in the square of the run (20,000 blanks: seconds); this is linear.
    blanks = "stipulation: a" + " " * 200_000 + "b"
    cql = re.compile(r"\bstipulation\s*:[ \t]*(.*?)\s*(?:\.|\bEG\s*#|\n|$)", re.IGNORECASE)
    start = time.process_time()
    assert read_comment(blanks).stipulation == "a" + " " * 200_000 + "b"
    assert time.process_time() - start < 1.0
    short = "stipulation: a" + " " * 50 + "b EG#3. c"
    match = cql.search(short)
    assert match is not None and read_comment(short).stipulation == match[1].strip()
