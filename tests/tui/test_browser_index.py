"""The browser on an SQLite index (`gbr-tui index`): opened by name or found beside the file,
the same classes and positions as the file gives; a stale one said, never used; a big file
without one offered it, never when served.

The studies and their classes are the hand-checked ones of ``test_collection_browser``.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import types

from textual.widgets import Static

from gbr_tui import cli
from gbr_tui.app import make_app
from gbr_tui.core.collection import CollectionRequest, GamePositions, store
from gbr_tui.core.collection.source import Cancelled
from gbr_tui.screens.collection import CollectionScreen
from tests.support.browser import STUDIES_CLASSES, STUDIES_PGN, browser, loaded, shown_classes, status, write
from tests.support.tui import toasts, until

# Game 2 starts 8/8/8/4k3/8/8/8/R3K3 w; after 1. Ra5+ Kd4 the rook is on a5 and Black's king
# on d4: KR v K still, 0100.00, the first class listed.
GAME_2_FINAL = "8/8/8/R7/3k4/8/8/4K3"


def indexed(path, position: GamePositions = GamePositions.START, output: str | None = None) -> str:
    output = output or store.default_index(str(path))
    store.build(CollectionRequest((str(path),), game_positions=position), output)
    return output


async def loaded_into_editor(app, pilot) -> str:
    """The placement the editor shows after Enter on the first class and its first position."""
    await loaded(pilot)
    await pilot.press("enter")
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    assert app.screen is app.editor
    return app.editor.setup.board.board_fen()


async def test_an_index_lists_the_classes_the_file_lists_and_says_so(tmp_path):
    index = indexed(write(tmp_path, "studies.pgn", STUDIES_PGN), output=str(tmp_path / "studies.idx"))
    app = browser(index)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await loaded(pilot)
        assert shown_classes(screen) == STUDIES_CLASSES
        assert status(screen).startswith("studies.pgn · 3 classes · read 5 = classified 4 + bad 1")  # its file's
        assert "from the index studies.idx, built with --position start" in status(screen)
        await pilot.press("b")  # the bad game, as the index keeps it: game 4, its FEN tag on line 38
        assert screen.query_one("#bad-records").count == 1
        assert screen.index.bad[0][1].line == 38


async def test_enter_loads_from_the_index_the_position_the_file_gives(tmp_path):
    studies = write(tmp_path, "studies.pgn", STUDIES_PGN)
    index = indexed(studies, GamePositions.FINAL, str(tmp_path / "final.idx"))
    from_index = browser(index)  # its --position is the index's
    async with from_index.run_test(size=(100, 30), notifications=True) as pilot:
        assert await loaded_into_editor(from_index, pilot) == GAME_2_FINAL
        assert any("0100.00 from studies.pgn:12, record 2" in toast for toast in toasts(from_index))
    from_file = browser(studies, game_positions=GamePositions.FINAL)
    async with from_file.run_test(size=(100, 30)) as pilot:
        assert await loaded_into_editor(from_file, pilot) == GAME_2_FINAL


async def test_a_stale_index_is_said_and_not_used(tmp_path):
    studies = write(tmp_path, "studies.pgn", STUDIES_PGN)
    index = indexed(studies, output=str(tmp_path / "studies.idx"))
    with open(studies, "a") as file:
        file.write("\n")
    app = browser(index)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await until(pilot, lambda: "Could not read" in status(app.screen))
        screen = app.screen
        assert "stale index" in status(screen) and "has changed since it was indexed" in status(screen)
        assert shown_classes(screen) == [] and screen.index is None
        assert any("stale index" in toast for toast in toasts(app))


async def test_a_fresh_default_index_is_used_and_a_stale_one_said(tmp_path):
    studies = write(tmp_path, "studies.pgn", STUDIES_PGN)
    indexed(studies)
    app = browser(studies)
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await loaded(pilot)
        assert shown_classes(screen) == STUDIES_CLASSES
        assert "from the index studies.pgn.gbr-index" in status(screen)
    os.utime(studies, ns=(1, 1))  # the file's time changes: the index may not stand for it
    app = browser(studies)
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        screen = await loaded(pilot)
        assert shown_classes(screen) == STUDIES_CLASSES  # read from the file itself
        assert "from the index" not in status(screen)
        assert any("stale index" in toast and "reading studies.pgn itself" in toast for toast in toasts(app))


async def test_a_big_file_is_offered_an_index_which_the_browser_then_reads(tmp_path, monkeypatch):
    studies = write(tmp_path, "studies.pgn", STUDIES_PGN)
    monkeypatch.setattr(CollectionScreen, "index_offer_bytes", os.path.getsize(studies))  # big: this one
    app = browser(studies)
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        screen = await loaded(pilot)
        assert "from the index" not in status(screen)
        assert any("i writes an index of it (studies.pgn.gbr-index)" in toast for toast in toasts(app))
        assert screen.check_action("build_index", ())
        await pilot.press("i")
        built = "from the index studies.pgn.gbr-index, built with --position start"
        await until(pilot, lambda: built in status(screen))  # not the status while it is read
        assert built in status(screen)
        assert shown_classes(screen) == STUDIES_CLASSES
        assert os.path.exists(store.default_index(str(studies)))
        assert not screen.check_action("build_index", ())  # written: offered no more


async def test_a_smaller_file_is_offered_nothing(tmp_path, monkeypatch):
    studies = write(tmp_path, "studies.pgn", STUDIES_PGN)
    monkeypatch.setattr(CollectionScreen, "index_offer_bytes", os.path.getsize(studies) + 1)
    app = browser(studies)
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        screen = await loaded(pilot)
        assert not screen.check_action("build_index", ())
        assert not any("writes an index" in toast for toast in toasts(app))


async def test_served_no_index_is_offered(tmp_path, monkeypatch):
    studies = write(tmp_path, "studies.pgn", STUDIES_PGN)
    monkeypatch.setattr(CollectionScreen, "index_offer_bytes", 1)
    app = make_app(served=True)
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await app.browse(CollectionRequest((str(studies),)))  # a served app opens none itself
        screen = await loaded(pilot)
        assert not screen.check_action("build_index", ())
        assert not any("writes an index" in toast for toast in toasts(app))
        await pilot.press("i")
        await pilot.pause()
        assert not os.path.exists(store.default_index(str(studies)))
        assert any("Writing an index is not offered here" in toast for toast in toasts(app))


async def test_a_record_of_a_file_changed_while_browsing_is_said_not_loaded(tmp_path):
    studies = write(tmp_path, "studies.pgn", STUDIES_PGN)
    app = browser(indexed(studies, output=str(tmp_path / "studies.idx")))
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        screen = await loaded(pilot)
        studies.write_text(STUDIES_PGN.replace("Rook ending", "Rook endgame"))
        await pilot.press("enter")
        await pilot.pause()
        details = str(screen.query_one("#position-details", Static).content)
        assert "stale index" in details
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen  # nothing loaded into the editor
        assert any("stale index" in toast for toast in toasts(app))


async def test_writing_the_index_can_be_cancelled_and_the_file_is_read_again(tmp_path, monkeypatch):
    studies = write(tmp_path, "studies.pgn", STUDIES_PGN)
    monkeypatch.setattr(CollectionScreen, "index_offer_bytes", 1)
    started = threading.Event()

    def endless_build(request, output, on_bad=None, tick=None):
        """Reads on until told to stop, as a build of a huge file would."""
        done = 0
        while tick(done):
            started.set()
            done += 1
            time.sleep(0.01)
        raise Cancelled("index not built: cancelled")

    monkeypatch.setattr(store, "build", endless_build)
    app = browser(studies)
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        screen = await loaded(pilot)
        await pilot.press("i")
        await until(pilot, lambda: started.is_set() and "Writing the index studies.pgn.gbr-index" in status(screen))
        assert "i cancels" in status(screen)
        await pilot.press("i")
        await until(pilot, lambda: any("not written (cancelled)" in toast for toast in toasts(app)))
        assert any("The index was not written (cancelled)" in toast for toast in toasts(app))
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert shown_classes(screen) == STUDIES_CLASSES  # the file read again
        assert "from the index" not in status(screen) and not os.path.exists(store.default_index(str(studies)))
        assert screen.check_action("build_index", ())  # still offered


def test_the_command_line_opens_an_index_alone(tmp_path, monkeypatch, capsys):
    studies = write(tmp_path, "studies.pgn", STUDIES_PGN)
    index = indexed(studies, output=str(tmp_path / "studies.idx"))
    started = []
    monkeypatch.setitem(
        sys.modules, "gbr_tui.app", types.SimpleNamespace(run_app=lambda files, **terminal: started.append(files) or 0)
    )
    monkeypatch.setattr("gbr_tui.terminal.not_a_terminal", lambda *streams: None)  # pytest's are not
    assert cli.main([index]) == 0
    assert started == [CollectionRequest((index,))]
    assert cli.main([str(studies), index]) == 2
    assert capsys.readouterr().err == f"gbr-tui: {index}: an index is opened alone, without other files\n"
    assert len(started) == 1
