"""Saving the position (w, F5): a path dialog, then the position appended to a PGN or EPD file
that the collection reader reads back with the same code; clear messages for names and places
that cannot be written; never offered when served. Kubbel's code is the spec's (section 3)."""

from __future__ import annotations

import pytest

from gbr_tui.app import make_app
from gbr_tui.core import board_from_fen
from gbr_tui.core.collection import Collection
from gbr_tui.dialogs.save_position import SavePositionDialog
from gbr_tui.palette import GbrCommands
from tests.support.tui import KUBBEL_FEN, run_command, toasts

KUBBEL_EVERY_MAN = "=0323.12g3g1a3a2e1g8h6c3c6"


def kubbel_app(**options):
    return make_app(board_from_fen(KUBBEL_FEN), "=", **options)


@pytest.mark.parametrize(("key", "name"), [("w", "studies.pgn"), ("f5", "studies.epd")])
async def test_the_position_is_appended_and_reads_back_with_its_code(tmp_path, monkeypatch, key, name):
    monkeypatch.chdir(tmp_path)  # a short path to type
    path = tmp_path / name
    app = kubbel_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for _ in range(2):  # twice: appended, not replaced
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, SavePositionDialog)
            await pilot.press(*name, "enter")
            await pilot.pause()
        assert not isinstance(app.screen, SavePositionDialog)
        assert any(f"Appended the position to {name} (GBR {KUBBEL_EVERY_MAN})" in toast for toast in toasts(app))
    with Collection(path) as collection:
        records = list(collection.records())
    assert [record.code for record in records] == ["0323.12", "0323.12"]
    assert KUBBEL_EVERY_MAN in path.read_text()


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("studies.txt", "studies.txt is not named as a PGN or EPD file: end the name in .pgn or .epd"),
        ("missing/studies.pgn", "missing: no such directory"),
        ("folder.pgn", "folder.pgn is a directory, not a file"),
    ],
)
async def test_what_cannot_be_written_is_said_in_the_dialog(tmp_path, monkeypatch, typed, said):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder.pgn").mkdir()
    app = kubbel_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w", *typed, "enter")
        await pilot.pause()
        assert isinstance(app.screen, SavePositionDialog)  # Enter saves nothing
        assert said in app.screen.feedback
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["folder.pgn"]


async def test_a_file_that_cannot_be_written_is_said(tmp_path, monkeypatch):
    # As root every file is writable: the refusal comes from the operating system instead.
    monkeypatch.chdir(tmp_path)

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    app = kubbel_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        monkeypatch.setattr("pathlib.Path.open", refused)
        await pilot.press("w", *"studies.pgn", "enter")
        await pilot.pause()
        assert any("The position is not saved to studies.pgn: Permission denied" in toast for toast in toasts(app))


async def test_the_palette_offers_saving(tmp_path):
    app = kubbel_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_command(pilot, "Save the position to a file")
        assert isinstance(app.screen, SavePositionDialog)


@pytest.mark.parametrize("key", ["w", "f5"])
async def test_served_saving_is_not_offered(key):
    app = kubbel_app(served=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert not isinstance(app.screen, SavePositionDialog)
        assert any("Saving positions is not offered here" in toast for toast in toasts(app))
        titles = [title for title, _, _ in GbrCommands(app.screen).commands()]
        assert "Save the position to a file" not in titles
