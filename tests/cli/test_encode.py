"""`gbr-tui encode` through a subprocess."""

from __future__ import annotations

import io
import json
import subprocess

import chess
import pytest

from tests.support.process import COMMAND, run_gbr

KUBBEL = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"  # spec section 3: =0323.12g3g1
ARVES = "8/K7/2nn4/8/8/1B1k4/1R6/8"  # spec section 4: a7d3 0116.00 b2b3c6d6 3/3+
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  # 4888.88
# KNN v KN, published as 0005 (spec section 2): kings e1 e8, knights b1 g1 (White), b8 (Black).
KNN_KN = "1n2k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1"
TWO_QUEENS = "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1"  # count rule 2000.00, promoted 9000.00


def test_codes_of_arguments_in_order() -> None:
    result = run_gbr("encode", KUBBEL, START, ARVES)
    assert result.status == 0
    assert result.lines == ["0323.12", "4888.88", "0116.00"]
    assert result.stderr == ""


def test_codes_of_stdin_lines_skipping_blank_ones_and_any_line_end() -> None:
    stdin = f"{KUBBEL}\r\n\n   \n{START}\r{ARVES}"  # CRLF, blank lines, a lone CR, no final EOL
    result = run_gbr("encode", stdin=stdin)
    assert (result.status, result.lines) == (0, ["0323.12", "4888.88", "0116.00"])


def test_a_dash_reads_stdin_among_arguments() -> None:
    result = run_gbr("encode", START, "-", ARVES, stdin=f"{KUBBEL}\n")
    assert result.lines == ["4888.88", "0323.12", "0116.00"]


def test_short_form() -> None:
    assert run_gbr("encode", "--short", KNN_KN, KUBBEL).lines == ["0005", "0323.12"]


def test_extended_form_with_stipulation() -> None:
    # Spec section 3 order: kings g3 g1, rook a3, bishops a2 e1, knight g8, pawns h6, c3 c6.
    result = run_gbr("encode", "--extended", "--stipulation", "=", KUBBEL)
    assert result.lines == ["=0323.12g3g1a3a2e1g8h6c3c6"]
    assert run_gbr("encode", "--stipulation", "+", ARVES).lines == ["+0116.00"]


def test_rule_option() -> None:
    assert run_gbr("encode", TWO_QUEENS).lines == ["2000.00"]
    assert run_gbr("encode", "--rule", "count", TWO_QUEENS).lines == ["2000.00"]
    assert run_gbr("encode", "--rule", "promoted", TWO_QUEENS).lines == ["9000.00"]
    assert run_gbr("encode", "--rule", "promoted", "--json", TWO_QUEENS).lines[0].find('"code": "9000.00"') > 0


def test_json_lines_have_the_issue_keys() -> None:
    result = run_gbr("encode", "--json", "--stipulation", "=", KUBBEL, "nonsense", stdin="")
    assert result.status == 1
    good, bad = (json.loads(line) for line in result.lines)
    assert {"input", "code", "short", "extended", "material"} <= good.keys()
    assert good["input"] == KUBBEL
    assert good["code"] == good["short"] == "0323.12"
    assert good["extended"] == "=0323.12g3g1a3a2e1g8h6c3c6"
    assert good["material"] == "KBBPvKRNPP"
    assert good["warnings"] == []
    assert bad["input"] == "nonsense"
    assert "error" in bad and "code" not in bad
    assert "gbr-tui encode: 'nonsense'" in result.stderr


def test_json_warns_about_unreachable_positions_and_has_no_extended_form_without_kings() -> None:
    (record,) = map(json.loads, run_gbr("encode", "--json", "8/8/8/8/8/8/8/P7").lines)
    assert record["code"] == "0000.10"
    assert record["extended"] is None
    assert record["material"] == "Pv-"  # no king on the board, none implied
    assert "pawns on the first or last rank" in record["warnings"]
    assert "White has no king" in record["warnings"]


def test_bad_lines_are_reported_with_line_numbers_and_the_rest_goes_on() -> None:
    stdin = f"{KUBBEL}\n8/8/8/44/8/8/8/8\n\n{START}\n8/8/8/8/8/8/8/8 x\n"
    result = run_gbr("encode", stdin=stdin)
    assert result.status == 1
    assert result.lines == ["0323.12", "4888.88"]
    messages = result.stderr.splitlines()
    # Line 2: the second 4 is character 8 (index 7); line 5: the turn field at index 16.
    assert (
        messages[0]
        == "gbr-tui encode: line 2: not a valid FEN: two subsequent digits in position part of fen (at column 8)"
    )
    assert messages[1] == "    8/8/8/44/8/8/8/8"
    assert messages[2] == "    " + " " * 7 + "^"
    assert messages[3].startswith("gbr-tui encode: line 5: not a valid FEN: expected 'w' or 'b'")
    assert messages[5] == "    " + " " * 16 + "^"


def test_more_than_eight_pawns_is_a_fen_but_has_no_code() -> None:
    result = run_gbr("encode", "4k3/PPPPPPPP/8/8/8/8/P7/4K3")
    assert result.status == 1
    assert "more than 8 pawns" in result.stderr


@pytest.mark.parametrize(
    "stdin",
    [
        b"",
        b"\n\n",
        bytes(range(256)) * 4,  # binary garbage, NUL and control characters included
        b"8/8/8/8/8/8/8/8 w\xff\n4k3/8/8/8/8/8/8/4K3\n",  # a byte that is not UTF-8
        b"\xef\xbb\xbf" + KUBBEL.encode(),  # a byte-order mark
    ],
    ids=["empty", "blank", "binary", "not-utf8", "bom"],
)
def test_odd_stdin_never_crashes(stdin: bytes) -> None:
    result = run_gbr("encode", stdin=stdin)
    assert result.status in (0, 1)
    assert result.status == (1 if "gbr-tui encode: line" in result.stderr else 0)
    for line in result.stderr.splitlines():
        assert all(char.isprintable() for char in line)  # control bytes are not echoed


def test_the_line_with_a_bad_byte_is_the_one_reported() -> None:
    result = run_gbr("encode", stdin=b"8/8/8/8/8/8/8/8 w\xff\n4k3/8/8/8/8/8/8/4K3\n")
    assert result.lines == ["0000.00"]
    assert result.stderr.startswith("gbr-tui encode: line 1: ")


@pytest.mark.parametrize(
    "args",
    [["--short", "--extended"], ["--rule", "bogus"], ["--stipulation", "x"], ["--nope"]],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    result = run_gbr("encode", *args, KUBBEL)
    assert result.status == 2
    assert "usage:" in result.stderr


def test_a_closed_pipe_ends_quietly() -> None:
    lines = (f"{START}\n" * 200_000).encode()
    with subprocess.Popen(
        [*COMMAND, "encode"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        process.stdin.write(lines[: 1 << 16])
        process.stdin.flush()
        assert process.stdout.readline() == b"4888.88\n"
        process.stdout.close()  # like `| head -1`
        try:
            process.stdin.write(lines[1 << 16 :])
            process.stdin.close()
        except BrokenPipeError:
            pass
        stderr = process.stderr.read().decode()
        status = process.wait(timeout=60)
    assert status == 0
    assert stderr == ""


def test_plain_codes_on_stdin_take_the_fast_path(monkeypatch, capsys) -> None:
    """No python-chess board is built for ordinary FENs in a big batch (in-process, to watch)."""
    from gbr_tui.cli import main
    from gbr_tui.core.batch import NUMPY_WORTH

    def refuse(fen: str):
        raise AssertionError("python-chess was asked")

    monkeypatch.setattr("gbr_tui.core.batch.board_from_fen", refuse)
    lines = [KUBBEL, START] * NUMPY_WORTH
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(("\n".join(lines) + "\n").encode())))
    assert main(["encode"]) == 0
    assert capsys.readouterr().out.splitlines() == ["0323.12", "4888.88"] * NUMPY_WORTH


def test_json_error_names_offset_and_column() -> None:
    # '9' is not a rank digit: python-chess objects to the placement's character at index 8.
    result = run_gbr("encode", "--json", "8/8/8/8/9/8/8/8 w - - 0 1")
    (record,) = map(json.loads, result.lines)
    assert (record["offset"], record["column"]) == (8, 9)
    assert "position" not in record
    assert "(at column 9)" in result.stderr


@pytest.mark.parametrize("fen", ["4k3/8/8/8/8/8/8/4K3 w  - 0 1", "4k3/8/8/8/8/8/8/4K3 w  - - 0 1"])
def test_an_empty_castling_field_gets_one_verdict_from_every_form(fen: str) -> None:
    # python-chess splits at runs of spaces: the fields after "w" are read one place earlier,
    # so "- 0 1" puts "0" where the en passant square goes (bad), and "- - 0 1" is fine.
    verdicts = set()
    for form in ([], ["--json"], ["--extended"]):
        verdicts.add(run_gbr("encode", *form, fen).status)
    assert len(verdicts) == 1
    assert verdicts == ({1} if fen.endswith("w  - 0 1") else {0})


def test_encode_writes_each_printed_form() -> None:
    # Spec section 4's vectors and their published forms.
    kubbel = "6n1/8/2p4P/8/8/r1p3K1/B7/4B1k1"
    assert run_gbr("encode", "--form", "eg", "--stipulation", "=", kubbel).lines == [
        "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw"
    ]
    assert run_gbr("encode", "--form", "arves", "--stipulation", "+", "8/K7/2nn4/8/8/1B1k4/1R6/8").lines == [
        "a7d3 0116.00 b2b3c6d6 3/3+"
    ]
    assert run_gbr("encode", "--form", "german", "k7/8/8/8/8/8/pp6/K7").lines == ["0000.02.a1a8.a2b2"]
    # The German Wikipedia's start position: kings and pieces in one section (spec section 3).
    assert run_gbr("encode", "--form", "german", chess.STARTING_BOARD_FEN).lines == [
        "4888.88.e1e8d1d8a1h1a8h8c1f1c8f8b1g1b8g8.a2b2c2d2e2f2g2h2a7b7c7d7e7f7g7h7"
    ]
    assert run_gbr("encode", "--form", "eg", "--result", "Draw?", kubbel).lines == [
        "g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw?"
    ]
    assert run_gbr("encode", kubbel).lines == ["0323.12"]  # the default stays the compact code


# Kubbel's study as the issue prints it; its code is published as =0323.12g3g1 (spec section 3).
KUBBEL_LIST = "White: Kg3, Ba2, Be1, Ph6 – Black: Kg1, Ra3, Ng8, Pc3, Pc6"


def test_a_piece_list_gives_the_code_a_fen_gives() -> None:
    assert run_gbr("encode", "--pieces", KUBBEL_LIST).lines == ["0323.12"]
    assert run_gbr("encode", "--pieces", "--stipulation", "=", "--extended", KUBBEL_LIST).lines == [
        "=0323.12g3g1a3a2e1g8h6c3c6"
    ]
    # The same as for the FEN, form by form.
    for options in (["--short"], ["--stipulation", "="], ["--form", "eg", "--result", "Draw"]):
        assert run_gbr("encode", *options, "--pieces", KUBBEL_LIST).lines == run_gbr("encode", *options, KUBBEL).lines


def test_piece_lists_from_stdin_one_a_line_bad_ones_reported_with_a_caret() -> None:
    stdin = "Kg3 Ba2 Be1 h6 / Kg1 Ra3 Ng8 c3 c6\n\nKg3 Xa2 / Kg1\n♔a7 ♖b2 ♗b3 / ♚d3 ♞c6 ♞d6 (3+3)\n"
    result = run_gbr("encode", "--pieces", stdin=stdin)
    # The third line is spec section 4's a7d3 0116.00 b2b3c6d6 3/3+ as figurines.
    assert result.lines == ["0323.12", "0116.00"]
    assert result.status == 1
    assert "line 3: unexpected 'X'" in result.stderr and "(at column 5)" in result.stderr
    assert "    Kg3 Xa2 / Kg1\n        ^" in result.stderr


def test_a_piece_list_in_json() -> None:
    record = json.loads(run_gbr("encode", "--pieces", "--json", KUBBEL_LIST).lines[0])
    assert (record["code"], record["material"]) == ("0323.12", "KBBPvKRNPP")
    bad = json.loads(run_gbr("encode", "--pieces", "--json", "Kg3 / Ra3").lines[0])
    assert bad["error"] == "Black has no king" and bad["offset"] == 9


def test_a_big_stdin_reports_bad_and_blank_lines_in_place() -> None:
    """Blocks big enough for numpy: the bad lines are still python-chess's, numbered and shown."""
    from gbr_tui.core.batch import NUMPY_WORTH

    repeats = NUMPY_WORTH // 2
    result = run_gbr("encode", stdin="".join(f"{KUBBEL}\nbad\n\n{START}\n" for _ in range(repeats)))
    assert result.status == 1
    assert result.lines == ["0323.12", "4888.88"] * repeats  # Kubbel's 0323.12 (spec), the start array
    reported = [line for line in result.stderr.splitlines() if line.startswith("gbr-tui encode: line")]
    # The words a single bad line gets on its own (python-chess's path), at its line number.
    alone = run_gbr("encode", stdin="bad\n").stderr.splitlines()[0]
    assert reported[:2] == [alone.replace("line 1:", "line 2:"), alone.replace("line 1:", "line 6:")]
    assert len(reported) == repeats
    assert f"skipped {repeats} blank lines" in result.stderr


def test_a_printed_piece_list_with_its_stipulation() -> None:
    """Fails before ("unexpected '.'"): the list's + is its stipulation, as --stipulation + is
    (0300.10: a Black rook counts 3, one White pawn)."""
    printed = "White: Kb6, Pc6. Black: Ka1, Rd5. +"
    assert run_gbr("encode", "--pieces", printed).lines == ["+0300.10"]
    assert run_gbr("encode", "--pieces", "--stipulation", "=", printed).lines == ["=0300.10"]  # the option wins
    record = json.loads(run_gbr("encode", "--pieces", "--json", "Kb6 c6 / Ka1 Rd5 (2+2) Draw").lines[0])
    assert (record["code"], record["stipulation"]) == ("0300.10", "=")


#: The issue's position without a Black king: KP v R, 0300.10 (a Black rook counts 3, one White
#: pawn). The code is defined (spec section 5: encode, but warn).
NO_BLACK_KING = "8/8/1KP5/3r4/8/8/8/8 w - - 0 1"


def test_a_position_that_cannot_occur_gets_its_code_and_is_said() -> None:
    """Fails before: 0300.10 and not a word, where the editor warns "Black has no king"."""
    result = run_gbr("encode", NO_BLACK_KING, KUBBEL)
    assert result.lines == ["0300.10", "0323.12"]
    assert result.status == 0  # every code was given
    assert f"'{NO_BLACK_KING}': not a legal position (Black has no king)" in result.stderr
    assert "1 position is not legal" in result.stderr and KUBBEL not in result.stderr
    record = json.loads(run_gbr("encode", "--json", NO_BLACK_KING).lines[0])
    assert (record["code"], record["legal"], record["warnings"]) == ("0300.10", False, ["Black has no king"])


def test_positions_that_cannot_occur_in_a_big_stdin_are_said_with_their_line() -> None:
    """Blocks big enough for numpy's path: a position without a Black king is not vouched for
    there, and python-chess's verdict names its line."""
    from gbr_tui.core.batch import NUMPY_WORTH

    lines = [KUBBEL] * NUMPY_WORTH
    lines[99] = NO_BLACK_KING
    result = run_gbr("encode", stdin="\n".join(lines) + "\n")
    assert result.lines[99] == "0300.10" and len(result.lines) == NUMPY_WORTH
    assert "line 100: not a legal position (Black has no king)" in result.stderr
    assert "1 position is not legal" in result.stderr
