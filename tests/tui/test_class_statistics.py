"""The browser's endgame statistics through its keys: results per class, the either-colour
toggle, the sort key, and the chart of the largest classes (also while the file loads)."""

from __future__ import annotations

import multiprocessing

from gbr_tui.core.collection import ClassIndex, GamePositions, loading
from gbr_tui.screens.collection import CollectionScreen
from gbr_tui.widgets.class_chart import ClassChart
from tests.support.browser import browser, kr_v_k_lines, loaded, shown_classes, status, write
from tests.support.games import MOVES, START, game, mirrored
from tests.support.tui import screen_text, settled, until

# The game of the statistics tests (KRN v KR, 0401.00 at the start), won by White, and its
# colour twin (KR v KRN: R 3 + 1 = 4, N 3: 0403.00), won by Black; then KQ v K (1000.00) drawn.
TWIN_FEN, TWIN_MOVES = mirrored(START, MOVES)
KQ_V_K = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
GAMES = game(START, MOVES, "1-0") + game(TWIN_FEN, TWIN_MOVES, "0-1") + game(KQ_V_K, [], "1/2-1/2")


def chart_text(screen: CollectionScreen) -> str:
    """The chart as drawn, one line a row."""
    chart = screen.query_one(ClassChart)
    return "\n".join(
        "".join(segment.text for segment in chart.render_line(y)).rstrip() for y in range(chart.size.height)
    )


async def test_results_per_class_and_the_either_colour_toggle(tmp_path):
    app = browser(write(tmp_path, "twins.pgn", GAMES))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        # Results as White wins/draws/Black wins/unknown; the score is White's points in percent.
        assert shown_classes(screen) == [
            ("0401.00", "1", "33.3%", "100.0%", "1/0/0/0", "KRN v KR"),
            ("0403.00", "1", "33.3%", "0.0%", "0/0/1/0", "KR v KRN"),
            ("1000.00", "1", "33.3%", "50.0%", "0/1/0/0", "KQ v K"),
        ]
        await pilot.press("e")
        await settled(pilot)
        # Folded: the stronger side (a knight more) as White, who won both games.
        assert shown_classes(screen) == [
            ("0401.00", "2", "66.7%", "100.0%", "2/0/0/0", "KRN v KR"),
            ("1000.00", "1", "33.3%", "50.0%", "0/1/0/0", "KQ v K"),
        ]
        assert "either colour (stronger side as White)" in status(screen)
        await pilot.press("enter")  # the folded class lists the positions of both twins
        assert len(screen.positions) == 2
        await pilot.press("escape", "e")
        await settled(pilot)
        assert [row[0] for row in shown_classes(screen)] == ["0401.00", "0403.00", "1000.00"]
        assert "either colour" not in status(screen)


async def test_the_sort_key_cycles_code_count_score(tmp_path):
    app = browser(write(tmp_path, "twins.pgn", GAMES + game(KQ_V_K, [], "*")))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        assert [row[0] for row in shown_classes(screen)] == ["0401.00", "0403.00", "1000.00"]
        await pilot.press("s")
        await settled(pilot)
        # 1000.00 has two games, the others one each (ties keep the code order).
        assert [row[0] for row in shown_classes(screen)] == ["1000.00", "0401.00", "0403.00"]
        assert "most first" in status(screen)
        await pilot.press("s")
        await settled(pilot)
        # Scores: 0401.00 100%, 1000.00 50% (a draw; the other game unknown), 0403.00 0%.
        assert [row[0] for row in shown_classes(screen)] == ["0401.00", "1000.00", "0403.00"]
        assert "best score first" in status(screen)
        await pilot.press("s")
        await settled(pilot)
        assert [row[0] for row in shown_classes(screen)] == ["0401.00", "0403.00", "1000.00"]


async def test_the_chart_shows_the_largest_classes_and_hides_when_narrow(tmp_path):
    app = browser(write(tmp_path, "twins.pgn", GAMES + game(KQ_V_K, [], "*")), game_positions=GamePositions.START)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await loaded(pilot)
        chart = chart_text(screen).splitlines()
        # 1000.00 first (2 of 4 games: its bar the longest), then the two others.
        assert [line.split()[0] for line in chart if line.strip()] == ["1000.00", "0401.00", "0403.00"]
        assert chart[0].rstrip().endswith("50.0%") and "█" in chart[0]
        assert chart[0].count("█") > chart[1].count("█")
        assert "1000.00" in screen_text(app)  # the chart fits beside the table at 80x24
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert not screen.query_one(ClassChart).display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert screen.query_one(ClassChart).display


async def test_the_chart_follows_the_file_as_it_loads(tmp_path, monkeypatch):
    path = tmp_path / "rooks.fen"
    path.write_text(kr_v_k_lines(200_000))
    release = multiprocessing.get_context("fork").Event()  # the file is read by a forked process
    read = ClassIndex.read

    def held_read(index, collection, tick, *reading):
        def held(records: int, bytes_read: int | None) -> bool:
            if records >= 100_000:
                release.wait(10)
            return tick(records, bytes_read)

        return read(index, collection, held, *reading)

    monkeypatch.setattr(ClassIndex, "read", held_read)
    # Forked from here, as `gbr-tui FILE` forks it, not from the fork server: the reader runs the
    # patched read.
    monkeypatch.setattr(loading, "_context", lambda forked: multiprocessing.get_context("fork"))
    app = browser(path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await until(pilot, lambda: "0100.00" in chart_text(screen))
        assert screen.index is None  # still loading, and the chart already shows KR v K
        assert "0100.00" in chart_text(screen) and "█" in chart_text(screen)
        release.set()
        screen = await loaded(pilot)
        assert chart_text(screen).split()[0] == "0100.00" and "100.0%" in chart_text(screen)


async def test_m_charts_the_largest_families(tmp_path):
    app = browser(write(tmp_path, "twins.pgn", GAMES + game(KQ_V_K, [], "*")), game_positions=GamePositions.ALL)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("m")
        await pilot.pause()
        lines = [line for line in chart_text(screen).splitlines() if line.strip()]
        # Every class the games pass through: the twins are KRN v KR (rook and minor piece v
        # rook), then KR v KR and KR v K (rook endings, once a game); the two KQ v K games are
        # queen endings. Four games: 50% each, in the table's order on a tie.
        labels = [line.split("█")[0].strip() for line in lines]
        assert labels[0] == "rook endings" and labels[2] == "queen endings"
        assert labels[1].startswith("rook and minor") and labels[1].endswith("…")  # cut to fit
        assert all(line.endswith("50.0%") for line in lines)
        await pilot.press("m")
        await pilot.pause()
        # Back to classes: KR v KR (0400.00) is passed by both twins, KQ v K (1000.00) is both
        # KQ v K games; on the tie, code order.
        assert [line.split()[0] for line in chart_text(screen).splitlines()[:2]] == ["0400.00", "1000.00"]
