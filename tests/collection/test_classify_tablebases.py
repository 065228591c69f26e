"""`classify --tablebases`: per class, theory (the tables) beside play (the games' results)."""

from __future__ import annotations

import json

from tests.support.process import run_gbr
from tests.support.tablebases import SAAVEDRA, SYZYGY


def game(result: str, fen: str, movetext: str) -> str:
    return f'[Event "?"]\n[Result "{result}"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n{movetext} {result}\n\n'


KRK = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"
# Saavedra is won in theory (1.c7 wins); one game won, one drawn after 1.Kb7?; KR v K won in a game.
GAMES = game("1-0", SAAVEDRA, "1. c7 Rd6+") + game("1/2-1/2", SAAVEDRA, "1. Kb7") + game("1-0", KRK, "1. Rb2")


def test_theory_and_play_per_class_in_the_table_and_json(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(GAMES)
    table = run_gbr("classify", "--tablebases", str(SYZYGY), str(path))
    assert table.status == 0, table.stderr
    rows = {line.split()[0]: line for line in table.lines[2:] if line[:1].isdigit()}
    # Start positions: both Saavedra games start won for White; the drawn game differs.
    assert "100% won in theory, 50% won in play (differs 50%)" in rows["0300.10"]
    assert "100% won in theory, 100% won in play (differs 0%)" in rows["0100.00"]
    final = run_gbr("classify", "--json", "--position", "final", "--tablebases", str(SYZYGY), str(path))
    by_code = {record["code"]: record["tablebase"] for record in map(json.loads, final.lines)}
    # After 1.Kb7? (Black to move) the table says draw: theory and play agree there.
    assert by_code["0300.10"] == {
        "positions": 2,
        "won": 1,
        "drawn": 1,
        "lost": 0,
        "games": 2,
        "games_won": 1,
        "games_drawn": 1,
        "games_lost": 0,
        "differs": 0,
    }


def test_positions_outside_the_tables_have_no_theory(tmp_path):
    path = tmp_path / "positions.fen"
    path.write_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n" + KRK + "\n")
    result = run_gbr("classify", "--json", "--tablebases", str(SYZYGY), str(path))
    by_code = {record["code"]: record["tablebase"] for record in map(json.loads, result.lines)}
    assert by_code["4888.88"] is None
    assert by_code["0100.00"]["won"] == 1 and by_code["0100.00"]["games"] == 0


def test_either_colour_folds_the_theory_with_the_class(tmp_path):
    path = tmp_path / "positions.fen"
    # K v KR with Black's rook, Black to move: Black wins; folded, it is KR v K won for the stronger side.
    path.write_text(KRK + "\n" + "6kr/8/8/8/8/8/8/K7 b - - 0 1\n")
    result = run_gbr("classify", "--json", "--either-colour", "--tablebases", str(SYZYGY), str(path))
    (record,) = map(json.loads, result.lines)
    assert record["code"] == "0100.00" and record["tablebase"]["won"] == 2


def test_a_folded_class_listed_by_the_browser_is_counted_as_classify_counts_it():
    """The browser adds each listed position under its folded class's code; a position whose
    stronger side is Black counts for that side, as ``classes(either_colour=True)`` folds it."""
    import chess

    from gbr_tui.core.collection.theory import Theory
    from gbr_tui.core.tablebases import Tablebases

    theory = Theory(Tablebases([SYZYGY]))
    # KR v K, White to move: White wins. K v KR, White to move, the rook out of reach: Black,
    # the stronger side, wins; its game lost by White is won by the stronger side.
    theory.add_listed("0100.00", chess.Board(KRK), "1-0", either_colour=True)
    theory.add_listed("0100.00", chess.Board("r3k3/8/8/8/8/8/8/7K w - - 0 1"), "0-1", either_colour=True)
    folded = theory.classes(either_colour=True)
    assert list(folded) == ["0100.00"]
    assert folded["0100.00"].fields == {
        "positions": 2,
        "won": 2,
        "drawn": 0,
        "lost": 0,
        "games": 2,
        "games_won": 2,
        "games_drawn": 0,
        "games_lost": 0,
        "differs": 0,
    }


def test_tablebases_with_a_per_record_output_is_a_usage_error(tmp_path):
    path = tmp_path / "positions.fen"
    path.write_text(KRK + "\n")
    result = run_gbr("classify", "--per-record", "--tablebases", str(SYZYGY), str(path))
    assert result.status == 2 and "--tablebases adds to a summary by class" in result.stderr
