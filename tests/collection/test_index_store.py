"""`gbr-tui index` and `classify INDEX`: the output of `classify FILE`, without reading FILE; a
stale index is refused with a message."""

from __future__ import annotations

import os
import random
import sqlite3

import pytest

from tests.support.process import run_gbr
from tests.support.seeded import pgn_text, position_lines


@pytest.fixture(params=["pgn", "epd", "fen"])
def source(request, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # names as given are printed: the same relative name both ways
    rng = random.Random(f"index-{request.param}")
    kind = request.param
    text = pgn_text(rng, 150) if kind == "pgn" else position_lines(rng, 600, kind == "epd")
    path = tmp_path / f"mixed.{kind}"
    path.write_text(text.replace("\n", "\r\n") if kind == "fen" else text)
    return path.name


def options(kind: str, every: bool) -> list[list[str]]:
    """Option sets of classify: each rule once, and for PGN each in one --position (the three
    taken in turn) or, ``every``, in each; then the statistics of --position all."""
    rules = [[], ["--rule", "promoted", "--short"], ["--match", "0100*"], ["--either-colour", "--json"]]
    if kind != "pgn":
        return rules
    positions = ("start", "final", "all")
    if every:
        rules = [[*rule, "--position", position] for rule in rules for position in positions]
    else:
        rules = [[*rule, "--position", positions[number % 3]] for number, rule in enumerate(rules)]
    statistics = [["--position", "all", "--min-plies", "2"], ["--position", "all", "--by", "family", "--sort", "count"]]
    return rules + statistics


def assert_index_prints_what_file_prints(source: str, option_sets: list[list[str]]) -> None:
    """For each option set, ``classify INDEX`` prints what ``classify FILE`` prints (an index is
    built once for each --position)."""
    built = set()
    for chosen in option_sets:
        position = chosen[chosen.index("--position") + 1] if "--position" in chosen else "start"
        index = f"mixed-{position}.idx"
        if position not in built:
            made = run_gbr("index", "--position", position, "-o", index, source)
            assert made.status == 1 and f"wrote {index}" in made.stderr  # bad records: status 1
            built.add(position)
        from_file = run_gbr("classify", *chosen, source)
        from_index = run_gbr("classify", *chosen, index)
        assert "record" in from_file.stderr
        assert (from_index.status, from_index.stdout, from_index.stderr) == (
            from_file.status,
            from_file.stdout,
            from_file.stderr,
        )


def test_classify_index_prints_what_classify_file_prints(source: str) -> None:
    assert_index_prints_what_file_prints(source, options(source.rsplit(".", 1)[1], every=False))


@pytest.mark.slow
@pytest.mark.parametrize("source", ["pgn"], indirect=True)
def test_classify_index_prints_what_classify_file_prints_in_every_position(source: str) -> None:
    assert_index_prints_what_file_prints(source, options("pgn", every=True))


def test_the_offsets_point_at_the_records_lines(source: str) -> None:
    assert run_gbr("index", source).status == 1
    data = open(source, "rb").read()
    lines = data.split(b"\r\n" if source.endswith(".fen") else b"\n")
    with sqlite3.connect(source + ".gbr-index") as database:
        rows = list(database.execute("SELECT line, offset FROM records"))
    assert len(rows) > 100
    for line, offset in rows:
        assert data[offset:].startswith(lines[line - 1])
        assert offset == 0 or data[offset - 1 : offset] == b"\n"


def test_a_changed_or_missing_source_makes_the_index_stale(source: str) -> None:
    assert run_gbr("index", source).status == 1
    index = source + ".gbr-index"
    with open(source, "a") as file:
        file.write("\n")
    result = run_gbr("classify", index)
    assert result.status == 2 and "stale index" in result.stderr and result.stdout == ""
    os.remove(source)
    result = run_gbr("classify", index)
    assert result.status == 2 and "is not there any more" in result.stderr


def test_an_index_holds_one_position_mode(source: str) -> None:
    run_gbr("index", "--position", "final", source)
    result = run_gbr("classify", "--position", "start", source + ".gbr-index")
    assert result.status == 2 and "--position final" in result.stderr


def test_per_record_output_needs_the_collections(source: str) -> None:
    run_gbr("index", source)
    result = run_gbr("classify", "--per-record", source + ".gbr-index")
    assert result.status == 2 and "not an index" in result.stderr


def test_several_files_need_a_name_for_the_index(source: str) -> None:
    result = run_gbr("index", source, source)
    assert result.status == 2 and "-o INDEX" in result.stderr


def test_equally_frequent_materials_keep_the_order_they_were_met(tmp_path, monkeypatch) -> None:
    # KNNN v KN and KNNN v K are both 0009.00 (three White knights: 9, spec section 2); met in
    # that order, once each, the class lists them in that order.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nines.fen").write_text("4k3/8/8/8/8/8/1n6/NNN1K3 w - -\n4k3/8/8/8/8/8/8/NNN1K3 w - -\n")
    run_gbr("index", "nines.fen")
    from_index = run_gbr("classify", "nines.fen.gbr-index")
    assert "KNNN v KN, KNNN v K" in from_index.stdout
    assert from_index.stdout == run_gbr("classify", "nines.fen").stdout
