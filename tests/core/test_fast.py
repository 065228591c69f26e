"""The numpy path against python-chess on seeded files of FENs, clean and with 1% and 5% of the
lines spoiled in every way we could think of: every code and every error message the same."""

from __future__ import annotations

import random

import chess
import pytest

from gbr_tui.core import FenEncoder, GbrError, Rule
from tests.support.positions import clean_lines, spoiled


def verdicts(results: list[str | GbrError]) -> list[str | tuple[str, int | None]]:
    return [result if isinstance(result, str) else (result.message, result.offset) for result in results]


@pytest.mark.parametrize("kind", ["random", "games", "endgames"])
@pytest.mark.parametrize("share", [0.0, 0.01, 0.05])
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])  # a second seed: slow
def test_numpy_and_python_chess_give_the_same_verdicts(kind: str, share: float, seed: int) -> None:
    rng = random.Random(f"{kind}-{share}-{seed}")
    lines = clean_lines(kind, rng, 1500)
    spoilt = 0
    for index in range(len(lines)):
        if rng.random() < share:
            lines[index] = spoiled(rng, lines[index])
            spoilt += 1
    assert (spoilt > 0) == (share > 0)
    fast = FenEncoder(vector=True)
    expected = verdicts(FenEncoder(vector=False).codes(lines))
    assert verdicts(fast.codes(lines)) == expected
    if share == 0:  # every clean line is vouched for, python-chess is never asked
        assert list(fast.vet(lines).rejected) == []
    else:
        assert any(not isinstance(verdict, str) for verdict in expected)


@pytest.mark.parametrize("rule", list(Rule))
@pytest.mark.parametrize("short", [False, True])
def test_every_spoiling_alone_agrees_under_each_rule_and_form(rule: Rule, short: bool) -> None:
    rng = random.Random(f"alone-{rule}-{short}")
    lines = [spoiled(rng, fen) for fen in clean_lines("random", rng, 800)]
    lines += clean_lines("endgames", rng, 200)  # codes with 9s and short forms among them
    expected = verdicts(FenEncoder(rule, short, vector=False).codes(lines))
    assert verdicts(FenEncoder(rule, short, vector=True).codes(lines)) == expected


def test_vetted_materials_are_the_boards_counts() -> None:
    from gbr_tui.core import Material

    rng = random.Random(7)
    lines = clean_lines("random", rng, 500)
    vetted = FenEncoder(vector=True).vet(lines)
    assert list(vetted.rejected) == []
    for index, fen in enumerate(lines):
        assert vetted.material(index) == Material.from_board(chess.Board(fen))


@pytest.mark.parametrize("piece_lines", [1, 7, 64])
def test_a_batch_vetted_in_pieces_agrees_with_python_chess(monkeypatch, piece_lines: int) -> None:
    """The bytes of a batch are vetted a piece of lines at a time: lines spoiled at the start,
    the end and inside the pieces (line ends inside the texts too) get python-chess's verdicts,
    and the vouched-for lines their materials."""
    from gbr_tui.core import Material, fast

    monkeypatch.setattr(fast, "_PIECE_LINES", piece_lines)
    rng = random.Random(f"pieces-{piece_lines}")
    lines = clean_lines("random", rng, 300) + clean_lines("endgames", rng, 100)
    for index in range(0, len(lines), 5):
        lines[index] = spoiled(rng, lines[index])
    lines[piece_lines] = lines[piece_lines][:5] + "\n" + lines[piece_lines][5:]
    expected = verdicts(FenEncoder(vector=False).codes(lines))
    assert verdicts(FenEncoder(vector=True).codes(lines)) == expected
    vetted = FenEncoder(vector=True).vet(lines)
    assert piece_lines in vetted.rejected
    for index in set(range(len(lines))) - set(vetted.rejected):
        assert vetted.material(index) == Material.from_board(chess.Board(lines[index]))


@pytest.mark.parametrize("piece_lines", [1, 7, 4096])
@pytest.mark.parametrize("share", [0.0, 0.05])
def test_a_text_vetted_whole_agrees_with_its_lines_vetted(monkeypatch, piece_lines: int, share: float) -> None:
    """``vet_text`` (a block's text, its lines never made strings) gives each line the verdict,
    code and material ``vet`` gives the lines, whatever the pieces it is cut in; where the text
    is ASCII, its line ends cut out the lines."""
    from gbr_tui.core import fast

    monkeypatch.setattr(fast, "_PIECE_LINES", piece_lines)
    rng = random.Random(f"text-{piece_lines}-{share}")
    lines = clean_lines("random", rng, 200) + clean_lines("games", rng, 100) + clean_lines("endgames", rng, 100)
    lines = [spoiled(rng, fen).replace("\n", "") if rng.random() < share else fen for fen in lines]
    for count in (len(lines), 7 * 8, 1, 0):  # whole pieces, and a single line
        text = "".join(line + "\n" for line in lines[:count])
        encoder = FenEncoder(vector=True)
        by_lines, whole = encoder.vet(lines[:count]), encoder.vet_text(text, count)
        assert list(whole.rejected) == list(by_lines.rejected)
        assert whole.codes == by_lines.codes
        assert [whole.material(index) for index in range(count)] == [by_lines.material(i) for i in range(count)]
        if count and text.isascii():
            starts = [0, *(whole.line_ends[:-1] + 1).tolist()]
            assert [text[start:end] for start, end in zip(starts, whole.line_ends.tolist())] == lines[:count]
        elif count:
            assert whole.line_ends is None
    assert (share > 0) == bool(FenEncoder(vector=True).vet_text("".join(line + "\n" for line in lines), 400).rejected)


def test_a_text_small_enough_for_python_chess_is_all_left_to_it() -> None:
    vetted = FenEncoder(vector=False).vet_text("8/8/8/8/8/8/8/8\n" * 3, 3)
    assert list(vetted.rejected) == [0, 1, 2] and vetted.line_ends is None


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"


@pytest.mark.parametrize(
    "fen",
    [
        f"{START} K\0 - 0 1",
        f"{START} KQ\0 - 0 1",
        f"{START} K\0\0\0 - 0 1",
        f"{START} - -\0 0 1",
        f"{START} KQkq -\0",
    ],
)
def test_a_castling_or_en_passant_field_ending_in_nul_bytes_is_left_to_python_chess(fen: str) -> None:
    """A field read as a word padded with zero bytes: a valid spelling followed by NUL bytes
    was vouched for (code 4888.88) where python-chess refuses the FEN."""
    with pytest.raises(ValueError):
        chess.Board(fen)
    assert list(FenEncoder(vector=True).vet([fen, START + " - - 0 1"]).rejected) == [0]
