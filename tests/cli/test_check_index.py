"""`gbr-tui check INDEX`: what `check FILE...` prints, every disagreement, bad record and summary
line, without reading the files; an index that cannot stand for them is refused with a message.

The collections are those of ``test_check`` (spec section 4's published captions, and some
changed by hand) and the seeded ones of ``test_ordered_records`` (captions that agree, disagree
or do not decode, among bad records).
"""

from __future__ import annotations

import gzip
import os
import sqlite3

import pytest

from tests.support.captions import ARVES, WRITERS, pgn_game
from tests.support.process import run_gbr
from tests.support.seeded import seeded_file


@pytest.fixture(autouse=True)
def in_tmp_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # names as given are printed: the same relative name both ways


def same_output(file_args: list[str], index_args: list[str], options: list[str]) -> str:
    """Check the files and the index with the same options; both print the same. The file's
    stderr, for the caller to see that there was something to print."""
    from_file = run_gbr("check", *options, *file_args)
    from_index = run_gbr("check", *options, *index_args)
    assert (from_index.status, from_index.stdout, from_index.stderr) == (
        from_file.status,
        from_file.stdout,
        from_file.stderr,
    )
    return from_file.stderr


#: Each format without options and with one of the others, the formats taking them in turn; each
#: with every option in the slow part.
FORMAT_OPTIONS = [
    *(
        pytest.param(kind, [[], [["--json"], ["--rule", "promoted"]][number % 2]], id=kind)
        for number, kind in enumerate(WRITERS)
    ),
    *(
        pytest.param(kind, [[], ["--json"], ["--rule", "promoted"]], id=f"{kind}-every-option", marks=pytest.mark.slow)
        for kind in WRITERS
    ),
]


@pytest.mark.parametrize(("kind", "option_sets"), FORMAT_OPTIONS)
def test_an_index_prints_what_its_file_prints(tmp_path, kind: str, option_sets: list[list[str]]) -> None:
    name = f"studies.{kind}"
    WRITERS[kind](tmp_path / name)
    assert "wrote studies." in run_gbr("index", name).stderr
    for options in option_sets:
        stderr = same_output([name], [f"{name}.gbr-index"], options)
        # Seven captions, four of them wrong; one record without; two bad (test_check).
        assert stderr.endswith("checked 7 = agree 3 + disagree 4 (+ unchecked 1, bad 2)\n")


@pytest.mark.parametrize(("kind", "position"), [("pgn", "start"), ("pgn", "final"), ("epd", "start")])
def test_seeded_collections_print_the_same_both_ways(tmp_path, kind: str, position: str) -> None:
    path = seeded_file(tmp_path, kind, 2)
    run_gbr("index", "--position", position, "-o", "seeded.idx", path.name)
    for options in (["--position", position], ["--position", position, "--json"]):
        stderr = same_output([path.name], ["seeded.idx"], options)
        assert "does not decode" in stderr and "disagree 0 " not in stderr


def test_several_files_and_indexes_in_one_run(tmp_path) -> None:
    WRITERS["epd"](tmp_path / "studies.epd")
    WRITERS["csv"](tmp_path / "studies.csv")
    plain = seeded_file(tmp_path, "fen", 1).name  # no captions at all: said so on stderr
    run_gbr("index", "-o", "both.idx", "studies.epd", plain)
    run_gbr("index", "studies.csv")
    stderr = same_output(["studies.epd", plain, "studies.csv"], ["both.idx", "studies.csv.gbr-index"], ["--json"])
    assert f"{plain}: no record has a caption" in stderr
    same_output(["studies.csv", "studies.epd", plain], ["studies.csv", "both.idx"], [])  # a file and an index


def test_captions_of_another_tag(tmp_path) -> None:
    (tmp_path / "tagged.pgn").write_text(pgn_game(ARVES, None, "e").replace("[SetUp", '[Code "d3a7 0116.00"]\n[SetUp'))
    run_gbr("index", "--tag", "Code", "tagged.pgn")
    stderr = same_output(["tagged.pgn"], ["tagged.pgn.gbr-index"], ["--tag", "Code"])
    assert stderr.endswith("checked 1 = agree 0 + disagree 1 (+ unchecked 0, bad 0)\n")
    refused = run_gbr("check", "tagged.pgn.gbr-index")  # the GBR tag: not what the index holds
    assert refused.status == 2 and refused.stdout == ""
    assert "the index holds the captions read with --tag Code, not --tag GBR" in refused.stderr


def test_a_stale_index_or_one_of_another_position_is_refused(tmp_path) -> None:
    WRITERS["pgn"](tmp_path / "studies.pgn")
    run_gbr("index", "--position", "final", "studies.pgn")
    other = run_gbr("check", "studies.pgn.gbr-index")  # --position start
    assert other.status == 2 and other.stdout == ""
    assert "the index holds the classes of --position final, not start" in other.stderr
    assert run_gbr("check", "--position", "final", "studies.pgn.gbr-index").status == 1  # it disagrees
    with open("studies.pgn", "a") as file:
        file.write("\n")
    stale = run_gbr("check", "--position", "final", "studies.pgn.gbr-index")
    assert stale.status == 2 and stale.stdout == ""
    assert "stale index: " in stale.stderr and "has changed since it was indexed" in stale.stderr
    os.remove("studies.pgn")
    gone = run_gbr("check", "--position", "final", "studies.pgn.gbr-index")
    assert gone.status == 2 and "is not there any more" in gone.stderr


def test_an_index_of_schema_3_is_refused(tmp_path) -> None:
    WRITERS["epd"](tmp_path / "studies.epd")
    run_gbr("index", "studies.epd")
    with sqlite3.connect("studies.epd.gbr-index") as database:  # as schema 3 wrote it: no captions
        database.execute("DROP TABLE captions")
        database.execute("UPDATE meta SET value = '3' WHERE key = 'version'")
    for command in ("check", "classify"):
        refused = run_gbr(command, "studies.epd.gbr-index")
        assert refused.status == 2 and refused.stdout == ""
        assert "an index of another version of gbr-tui; run `gbr-tui index` again" in refused.stderr


def test_a_tampered_caption_is_refused_never_raised(tmp_path) -> None:
    WRITERS["csv"](tmp_path / "studies.csv")
    run_gbr("index", "studies.csv")
    with sqlite3.connect("studies.csv.gbr-index") as database:
        # Bytes, not text: a caption of no index of ours.
        database.execute("UPDATE captions SET caption = x'00ff' WHERE record = (SELECT MIN(record) FROM captions)")
    refused = run_gbr("check", "studies.csv.gbr-index")  # run_gbr asserts there is no traceback
    assert refused.status == 2 and "not a gbr-tui index" in refused.stderr


def test_only_records_with_a_caption_keep_one(tmp_path) -> None:
    WRITERS["jsonl"](tmp_path / "studies.jsonl")
    run_gbr("index", "studies.jsonl")
    with sqlite3.connect("studies.jsonl.gbr-index") as database:
        captions = list(database.execute("SELECT caption, position FROM captions ORDER BY record"))
        (records,) = database.execute("SELECT COUNT(*) FROM records").fetchone()
    # Nine records read (the tenth line is no JSON object), eight of them with a caption (seven
    # that decode, one that does not): the record without one keeps nothing.
    assert records == 9 and len(captions) == 8
    assert captions[1] == ("a7d3 0116.00 b2b3c6d6 3/3+", ARVES)


def test_an_index_of_a_compressed_file_is_checked_without_it(tmp_path) -> None:
    # The browser reads such a file itself (no offsets to read a record at); check needs none.
    WRITERS["epd"](tmp_path / "studies.epd")
    (tmp_path / "studies.epd.gz").write_bytes(gzip.compress((tmp_path / "studies.epd").read_bytes()))
    run_gbr("index", "studies.epd.gz")
    stderr = same_output(["studies.epd.gz"], ["studies.epd.gz.gbr-index"], [])
    assert stderr.endswith("checked 7 = agree 3 + disagree 4 (+ unchecked 1, bad 2)\n")
