"""PGN collections: start, final and all positions, broken games with their lines."""

from __future__ import annotations

import pytest

from gbr_tui.core.collection import BadRecord, Collection, Record


def records(tmp_path, text: str, position: str = "start") -> list:
    path = tmp_path / "games.pgn"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    with Collection(path, game_positions=position) as collection:
        return list(collection.records())


SCANDINAVIAN = """[Event "Club"]
[Site "Here"]
[Date "2024.01.02"]
[White "Anna"]
[Black "Ben"]
[Result "*"]

1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 *
"""
# Both sides start with Q, RR, BB, NN and 8 pawns: a = 1+3 = 4, b = c = d = 2+6 = 8: 4888.88.
# 2. exd5 (ply 3) takes a Black pawn: 4888.87. 2...Qxd5 (ply 4) takes a White pawn: 4888.77.
# Nothing is taken after that, so the final position (ply 6) is 4888.77 too.


def test_start_position_is_the_standard_one_without_a_fen_tag(tmp_path):
    (record,) = records(tmp_path, SCANDINAVIAN)
    assert (record.number, record.line, record.code, record.ply) == (1, 1, "4888.88", 0)
    assert record.headers == {
        "Event": "Club",
        "Site": "Here",
        "Date": "2024.01.02",
        "White": "Anna",
        "Black": "Ben",
        "Result": "*",
    }


def test_final_position(tmp_path):
    (record,) = records(tmp_path, SCANDINAVIAN, "final")
    assert (record.code, record.ply) == ("4888.77", 6)
    assert record.fen == "rnb1kbnr/ppp1pppp/8/q7/8/2N5/PPPP1PPP/R1BQKBNR"


def test_all_positions_with_the_ply_each_class_starts(tmp_path):
    items = records(tmp_path, SCANDINAVIAN, "all")
    assert [(r.number, r.ply, r.code) for r in items] == [(1, 0, "4888.88"), (1, 3, "4888.87"), (1, 4, "4888.77")]


STUDY = """[Event "Pawn race"]
[SetUp "1"]
[FEN "8/8/8/8/8/k7/7P/K7 w - - 0 1"]

1. h4 Kb3 2. h5 Kc4 3. h6 Kd5 4. h7 Ke6 5. h8=Q *
"""
# KP v K: no pieces, one White pawn: 0000.10. 5. h8=Q (ply 9) makes KQ v K: 1000.00.


def test_start_from_the_fen_tag_and_a_promotion(tmp_path):
    (start,) = records(tmp_path, STUDY)
    assert (start.code, start.headers["FEN"]) == ("0000.10", "8/8/8/8/8/k7/7P/K7 w - - 0 1")
    assert [(r.ply, r.code) for r in records(tmp_path, STUDY, "all")] == [(0, "0000.10"), (9, "1000.00")]


@pytest.mark.parametrize("capture", ["exd6", "exd6 e.p.", "exd6!?"])
def test_en_passant_takes_a_pawn(tmp_path, capture):
    # 3. exd6 e.p. (ply 5) removes Black's d-pawn, which was not on d6: 4888.87.
    text = f"1. e4 a6 2. e5 d5 3. {capture} *\n"
    assert [(r.ply, r.code) for r in records(tmp_path, text, "all")] == [(0, "4888.88"), (5, "4888.87")]


def test_a_class_is_reported_once_per_game(tmp_path):
    # White K a1, N b1 c1 e1; Black N c3, K h8. Three White knights make d = 9 (0009.00); after
    # 1. Nxc3 White still has three knights and Black none: 9 again, the same class.
    text = '[FEN "7k/8/8/8/8/2n5/8/KNN1N3 w - - 0 1"]\n\n1. Nxc3 Kg8 *\n'
    assert [(r.ply, r.code) for r in records(tmp_path, text, "all")] == [(0, "0009.00")]
    (final,) = records(tmp_path, text, "final")
    assert str(final.material) == "KNNN v K"


def test_comments_variations_nags_and_escapes_are_skipped(tmp_path):
    text = """% an escaped line
[Event "Notes"]

1. e4 {a comment with a [bracket
and a blank line

inside} (1. d4 d5 2. c4 dxc4) 1... e5 $1 2. Nf3!? Nc6 ; rest of line 3. Bxc6
3. Bb5 a6 4. Bxc6 dxc6 *
"""
    # Mainline: 4. Bxc6 takes a Black knight (d: 2 + 3 = 5), 4...dxc6 a White bishop (c: 1 + 6 = 7);
    # queens and rooks untouched (a = 4, b = 8), no pawn lost: 4875.88.
    (record,) = records(tmp_path, text, "final")
    assert (record.code, record.ply) == ("4875.88", 8)


def test_games_without_headers_are_separated_by_blank_lines(tmp_path):
    text = "1. e4 d5 2. exd5 *\n\n1. d4 *\n"
    items = records(tmp_path, text, "final")
    assert [(r.number, r.line, r.code) for r in items] == [(1, 1, "4888.87"), (2, 3, "4888.88")]


def test_castling_both_ways_and_check_markers(tmp_path):
    text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 d6 4. O-O Bg4 5. d3 Qd7 6. Nc3 O-O-O 7. Bxf7 Qxf7 *\n"
    # 7. Bxf7 takes a Black pawn (4888.87); 7...Qxf7 takes a White bishop: c = 1 + 6 = 7: 4878.87.
    # Kings on g1 (rook f1) and c8 (rook d8) after castling; the f7 pawn and c4 bishop are gone.
    (record,) = records(tmp_path, text, "final")
    assert record.code == "4878.87"
    assert record.fen == "2kr1bnr/ppp2qpp/2np4/4p3/4P1b1/2NP1N2/PPP2PPP/R1BQ1RK1"


def test_an_illegal_move_is_reported_at_its_line(tmp_path):
    text = (
        SCANDINAVIAN
        + "\n"
        + """[Event "Broken"]

1. e4 e5 2. Nf3 Nc6
3. Ke3 Nf6 *

"""
        + STUDY
    )
    items = records(tmp_path, text, "final")  # the moves are read only when they are needed
    assert [type(i) for i in items] == [Record, BadRecord, Record]
    broken = items[1]
    # The game starts on line 10; its movetext on line 12; 3. Ke3 is on line 13.
    assert (broken.number, broken.line) == (2, 13)
    assert "illegal move 'Ke3'" in broken.reason and "line 10" in broken.reason


@pytest.mark.parametrize(
    "movetext, reason",
    [
        ("1. e4 {never closed", "never closed"),
        ("1. e4 (1. d4 *", "never closed"),
        ("1. e4 ) e5 *", "closes no variation"),
        ("1. e4 e5 1-0 2. Nf3", "after the result"),
        ("1. e4 e9 *", "invalid move 'e9'"),
        ("1. Nf3 Nf6 2. Nd5 *", "illegal move 'Nd5'"),  # no knight reaches d5
        ("1. e4 e5 2. Ke2 Ke7 3. Ke3 Ke6 4. Kf4 *", "illegal move 'Kf4'"),  # the e5 pawn guards f4
        ("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 Ke7 *", "illegal move 'Ke7'"),  # mate: no escape
        ("1. e4 f5 2. Qh5+ Nf6 *", "illegal move 'Nf6'"),  # leaves the check on h5-e8 standing
    ],
)
def test_broken_movetext(tmp_path, movetext, reason):
    (item,) = records(tmp_path, f'[Event "x"]\n\n{movetext}\n', "final")
    assert isinstance(item, BadRecord)
    assert reason in item.reason


def test_ambiguous_move_is_bad_and_a_pin_resolves_one(tmp_path):
    # Knights on c3 and g3 can both go to e4 (and e2): "Ne4" is ambiguous.
    ambiguous = '[FEN "4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1"]\n\n1. Ne4 *\n'
    (item,) = records(tmp_path, ambiguous, "final")
    assert isinstance(item, BadRecord) and "ambiguous" in item.reason
    # Knights on c3 and e3 can both reach d5, but the Black rook on e8 pins the e3 knight to its
    # king on e1: "Nd5" is the c3 knight's move, as python-chess reads it.
    pinned = '[FEN "4r2k/8/8/8/8/2N1N3/8/4K3 w - - 0 1"]\n\n1. Nd5 Rxe3+ *\n'
    # Rxe3 then takes the knight left on e3: White keeps one knight (d = 1), Black a rook (b = 3).
    (item,) = records(tmp_path, pinned, "final")
    assert isinstance(item, Record) and item.code == "0301.00"


def test_malformed_tag_and_bad_fen_tag(tmp_path):
    text = '[Event "x"\n\n1. e4 *\n\n[FEN "8/8/8/8/8/8/8/9 w - - 0 1"]\n\n1. e4 *\n\n[SetUp "1"]\n\n*\n'
    items = records(tmp_path, text)
    assert [type(i) for i in items] == [BadRecord] * 3
    assert "malformed tag" in items[0].reason and items[0].line == 1
    assert "bad start position" in items[1].reason
    assert "no FEN tag" in items[2].reason


def test_bytes_that_are_not_utf8_spoil_only_their_game(tmp_path):
    data = b'[Event "x"]\n[White "M\xfcller"]\n\n1. e4 *\n\n[Event "y"]\n\n1. d4 *\n'
    items = records(tmp_path, data)
    assert [type(i) for i in items] == [BadRecord, Record]
    assert "UTF-8" in items[0].reason
    assert items[1].headers == {"Event": "y"}
