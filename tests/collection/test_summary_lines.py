"""The summary of classes of positions written all at once with numpy gives, byte for byte,
the lines written a row at a time: plain classes, codes with a 9 and many materials behind
them (the batch path's), positions python-chess read one by one (no king, two kings), bad
lines, in every form (table, bars, short codes, JSON, sorted by count, colour twins folded),
with and without jobs."""

from __future__ import annotations

import random

import chess
import pytest

from gbr_tui.cli import prepare
from gbr_tui.commands.classify import summary as classify_summary

# Three or more knights on one side make the knight digit a 9 (spec: a 9 hides three or more),
# so all of these are 0009.00 behind White's knights, Black a bare king; the two White kings
# are read by python-chess, the rest by the batch path.
KNIGHTS = [f"4k3/8/8/8/8/8/8/{'N' * knights}K{7 - knights} w - - 0 1" for knights in (3, 4, 5)]
ODD = [
    "8/8/8/8/8/8/8/8 w - - 0 1",  # no king at all
    "k7/8/8/8/8/8/8/KK6 w - - 0 1",  # two White kings
    "4k3/8/8/8/8/8/8/NNNKK3 w - - 0 1",  # three knights and two kings: 0009.00 too
    "not a FEN",
    "",
]


def scattered(rng: random.Random) -> str:
    """Kings and up to 20 men anywhere: tens of classes in a few hundred lines."""
    board = chess.Board(None)
    squares = rng.sample(chess.SQUARES, 22)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for square in squares[2 : 2 + rng.randrange(21)]:
        symbol = rng.choice("QRBNqrbn" if chess.square_rank(square) in (0, 7) else "QRBNPqrbnp")
        board.set_piece_at(square, chess.Piece.from_symbol(symbol))
    return board.fen()


@pytest.fixture(scope="module")
def positions(tmp_path_factory):
    rng = random.Random(14)
    lines = [scattered(rng) for _ in range(9000)]  # more than a batch: numpy vets them
    lines += KNIGHTS * 5
    for line in ODD * 3:
        lines.insert(rng.randrange(len(lines)), line)
    path = tmp_path_factory.mktemp("summary") / "positions.fen"
    path.write_text("\n".join(lines) + "\n")
    return path


def summary(path, options: list[str], numpy: bool, monkeypatch, capsys) -> tuple[str, str]:
    monkeypatch.setattr(classify_summary, "uses_numpy", lambda tally: numpy)
    prepare(["classify", *options, str(path)])()
    captured = capsys.readouterr()
    return captured.out, captured.err


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--json"],
        ["--short"],
        ["--short", "--json"],
        ["--bars"],
        ["--sort", "count"],
        ["--sort", "score", "--json"],
        ["--either-colour"],
        ["--either-colour", "--json", "--sort", "count"],
    ],
)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_numpy_writes_the_summary_a_row_at_a_time_gives(positions, options, jobs, monkeypatch, capsys) -> None:
    options = [*options, "--jobs", jobs]
    by_rows = summary(positions, options, False, monkeypatch, capsys)
    at_once = summary(positions, options, True, monkeypatch, capsys)
    assert at_once == by_rows
    assert len(by_rows[0].splitlines()) > 1000  # many classes, and the odd ones among them


@pytest.mark.parametrize("options", [["--either-colour"], ["--either-colour", "--json", "--sort", "count"]])
def test_a_material_counted_thousands_of_times_folds_as_rows_do(tmp_path, options, monkeypatch, capsys) -> None:
    """Three White knights 4,000 times and three Black ones 3,000 times: one material of 7,000
    folded, among others (a count times a code's number is beyond 32 bits)."""
    rng = random.Random(15)
    lines = [KNIGHTS[0]] * 4000 + ["4K3/8/8/8/8/8/8/nnnk4 w - - 0 1"] * 3000
    lines += [scattered(rng) for _ in range(2000)]
    rng.shuffle(lines)
    path = tmp_path / "knights.fen"
    path.write_text("\n".join(lines) + "\n")
    by_rows = summary(path, [*options, "--jobs", "1"], False, monkeypatch, capsys)
    assert by_rows == summary(path, [*options, "--jobs", "1"], True, monkeypatch, capsys)
    assert "7000" in by_rows[0]


def test_the_odd_positions_and_the_many_materials_behind_a_nine_are_listed(positions, monkeypatch, capsys) -> None:
    out, _ = summary(positions, [], True, monkeypatch, capsys)
    (line,) = [line for line in out.splitlines() if line.startswith("0009.00 ")]
    # Five times each of three, four and five knights, and three times three knights with two
    # kings: the three batch materials first (equal counts by their men), then "1 more".
    assert line.split("  ")[-1] == "KNNN v K, KNNNN v K, KNNNNN v K, 1 more"
    # No men and no piece digit: 0000.00, also for the empty board and for two White kings.
    (line,) = [line for line in out.splitlines() if line.startswith("0000.00 ")]
    assert {"- v -", "KK v K"} <= set(line.split("  ")[-1].split(", "))


def test_a_material_of_more_men_than_a_byte_holds_is_left_to_the_rows() -> None:
    """The columns hold a byte a count: a tally holding a material with more (no board has
    them, a tally may) is not listed here, and the row-at-a-time summary writes it."""
    from gbr_tui.core.collection.summary_lines import class_columns
    from gbr_tui.core.collection.tally import Tally
    from gbr_tui.core.material import Material

    tally = Tally()
    tally.add("0100.00", Material((0, 1, 0, 0, 0), (0, 0, 0, 0, 0)))  # KR v K (spec: 0100)
    assert class_columns(tally) is not None
    tally.add("0000.00", Material((0, 0, 0, 0, 0), (0, 0, 0, 0, 0), kings=(300, 1)))
    assert class_columns(tally) is None


@pytest.mark.parametrize("options", [[], ["--json"], ["--either-colour", "--short"]])
def test_lines_written_a_few_at_a_time_are_the_same(positions, options, monkeypatch, capsys) -> None:
    """The lines are made in parts (``_LINES_AT_ONCE``); parts of 7 lines cut classes with many
    materials and the odd ones at every place."""
    from gbr_tui.core.collection import summary_lines

    by_rows = summary(positions, options, False, monkeypatch, capsys)
    monkeypatch.setattr(summary_lines, "_LINES_AT_ONCE", 7)
    assert summary(positions, options, True, monkeypatch, capsys) == by_rows


@pytest.mark.parametrize("options", [[], ["--json"], ["--either-colour"]])
def test_no_class_and_one_class_are_written_as_row_at_a_time(tmp_path, options, monkeypatch, capsys) -> None:
    bad = tmp_path / "bad.fen"
    bad.write_text("not a FEN\n\n")
    one = tmp_path / "one.fen"
    one.write_text("4k3/8/8/8/8/8/8/4K2R w K - 0 1\n" * 3)  # KR v K three times (spec: 0100.00)
    for path in (bad, one):
        assert summary(path, options, True, monkeypatch, capsys) == summary(path, options, False, monkeypatch, capsys)
    out, _ = summary(one, options, True, monkeypatch, capsys)
    assert "0100.00" in out and "KR v K" in out


@pytest.mark.parametrize("stdout", ["text", "latin-1"])
def test_a_stdout_that_is_not_utf8_bytes_gets_the_same_text(positions, stdout, monkeypatch, capsys) -> None:
    """The lines go to stdout's bytes where it writes UTF-8; else (no bytes under it, another
    encoding) as text."""
    import io
    import sys

    expected = summary(positions, ["--json"], False, monkeypatch, capsys)[0]
    bytes_out = io.BytesIO()
    out = io.StringIO() if stdout == "text" else io.TextIOWrapper(bytes_out, encoding="latin-1")
    monkeypatch.setattr(sys, "stdout", out)
    summary(positions, ["--json"], True, monkeypatch, capsys)
    out.flush()
    assert (out.getvalue() if stdout == "text" else bytes_out.getvalue().decode("latin-1")) == expected


@pytest.mark.parametrize("high", [50, 1 << 40])
def test_distinct_values_are_uniques(high: int) -> None:
    """Small values are told apart by counting them, large ones by ``np.unique``."""
    import numpy as np

    from gbr_tui.core.collection.summary_lines import distinct_values

    values = np.random.default_rng(high % 97).integers(0, high, 3000)
    distinct, which = distinct_values(values)
    expected, inverse = np.unique(values, return_inverse=True)
    assert distinct.tolist() == expected.tolist() and which.tolist() == inverse.ravel().tolist()
