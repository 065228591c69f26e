"""The browser on an HHdb collection: the first comment's EG number in a record's details, and
the filter of sound and unsound studies (``u``), as ``--studies`` filters on the command line;
on the file and on its index (which keeps the Black tag and what the comment says)."""

from __future__ import annotations

from textual.widgets import Static

from gbr_tui.core.collection import CollectionRequest, store
from tests.support.browser import STUDIES_PGN, browser, loaded, status, write
from tests.support.published import HHDB_STUDY, hhdb_study
from tests.support.tui import toasts, until

# One class, three studies: the first marked unsound (U1), the others sound (AN is no U mark).
HHDB_PGN = (
    hhdb_study("#34", "Kubbel 12", "=0323.12g3g1 U1", "{stipulation: = EG#1234} ")
    + hhdb_study("#35", "Troitzky", "=0323.12g3g1", "{stipulation: =. EG#1235} ")
    + hhdb_study("#36", "Rinck", "=0323.12g3g1 AN")
)


def numbers(screen) -> list[int]:
    """The record (game) numbers of the positions listed."""
    return [screen.index.record(record).number for record in screen.positions]


async def test_the_filter_of_sound_studies_and_the_eg_number(tmp_path) -> None:
    app = browser(write(tmp_path, "hhdb.pgn", HHDB_PGN))
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("enter")  # the one class's positions
        await until(pilot, lambda: len(screen.positions) == 3)
        details = str(screen.query_one("#position-details", Static).render())
        assert "Kubbel · diagram 34 · EG 1234 · White to play and draw · dualled at move 1 (U1)" in details
        assert "FirstComment" not in details  # read, not listed as a tag
        await pilot.press("u")
        await until(pilot, lambda: len(screen.positions) == 2)
        assert "sound studies only: 2 of 3 positions" in status(screen)
        assert numbers(screen) == [2, 3]  # Troitzky's and Rinck's
        await pilot.press("u")
        await until(pilot, lambda: len(screen.positions) == 1)
        assert "unsound studies only: 1 of 3 positions" in status(screen)
        assert numbers(screen) == [1]  # Kubbel's
        await pilot.press("u")
        await until(pilot, lambda: len(screen.positions) == 3)
        assert "studies only" not in status(screen)
        await pilot.press("u")  # sound again, then back to the classes: the note goes with the list
        await until(pilot, lambda: len(screen.positions) == 2)
        await pilot.press("escape")
        await until(pilot, lambda: "studies only" not in status(screen))
        await pilot.press("enter")  # the filter holds for the class opened again
        await until(pilot, lambda: "sound studies only: 2 of 3 positions" in status(screen))


async def test_the_filter_is_refused_without_hhdb_marks(tmp_path) -> None:
    app = browser(write(tmp_path, "studies.pgn", STUDIES_PGN))
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        screen = await loaded(pilot)
        await pilot.press("enter")  # the first class: two KR v K games, no HHdb Black tags
        await until(pilot, lambda: len(screen.positions) == 2)
        await pilot.press("u")
        await until(pilot, lambda: any("No HHdb marks here" in toast for toast in toasts(app)))
        assert len(screen.positions) == 2 and "studies only" not in status(screen)


async def test_the_filter_on_an_index_reads_the_black_tags_it_keeps(tmp_path) -> None:
    path = write(tmp_path, "hhdb.pgn", HHDB_PGN)
    output = str(tmp_path / "hhdb.idx")
    store.build(CollectionRequest((str(path),)), output)
    app = browser(output)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.positions) == 3)
        details = str(screen.query_one("#position-details", Static).render())
        # What the first comment says is kept: the details read as from the file.
        assert "Kubbel · diagram 34 · EG 1234 · White to play and draw · dualled at move 1 (U1)" in details
        await pilot.press("u", "u")  # unsound: Kubbel's alone
        await until(pilot, lambda: "unsound studies only: 1 of 3 positions" in status(screen))
        assert numbers(screen) == [1]


async def test_a_study_loaded_brings_the_stipulation_of_its_black_tag(tmp_path) -> None:
    """Kubbel's study has its stipulation only in HHdb's Black tag (=0323.12g3g1): the editor
    gets it with the position, so its code pane and tablebase say it."""
    app = browser(write(tmp_path, "hhdb.pgn", HHDB_PGN))
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.positions) == 3)
        await pilot.press("enter")  # the position list's first record into the editor
        await until(pilot, lambda: app.screen is app.editor)
        assert app.editor.setup.board.board_fen() == HHDB_STUDY.split()[0]
        assert app.editor.setup.stipulation == "="


async def test_a_filter_that_keeps_no_study_shows_no_board(tmp_path) -> None:
    """Troitzky's and Rinck's studies are sound: their unsound studies are none, and the board
    no longer shows the last one listed."""
    from gbr_tui.widgets.board import BoardView

    sound_only = HHDB_PGN[HHDB_PGN.index('[Event "#35"]') :]
    app = browser(write(tmp_path, "sound.pgn", sound_only))
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await loaded(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: len(screen.positions) == 2)
        assert screen.query_one(BoardView).board.occupied  # the first study's position
        await pilot.press("u", "u")  # sound (both), then unsound: none
        await until(pilot, lambda: "unsound studies only: 0 of 2 positions" in status(screen))
        assert not screen.positions
        assert not screen.query_one(BoardView).board.occupied


async def test_a_record_a_worker_cannot_read_back_is_said_and_the_app_goes_on(tmp_path) -> None:
    """The dup marks are found in a worker thread; a record it cannot read back (a damaged
    index, a file changed since) is said in a toast, and the browser stays up."""
    import sqlite3
    import threading

    app = browser(write(tmp_path, "hhdb.pgn", HHDB_PGN))
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        screen = await loaded(pilot)
        record = screen.index.record

        def damaged(number):
            if threading.current_thread() is not threading.main_thread():
                raise sqlite3.DatabaseError("database disk image is malformed")
            return record(number)

        screen.index.record = damaged
        await pilot.press("enter")
        await until(pilot, lambda: any("malformed" in toast for toast in toasts(app)))
        assert app.is_running and len(screen.positions) == 3
