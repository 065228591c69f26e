"""The browser's loading with `--jobs`: two worker processes fill the same index as one process
(classes, positions with their record numbers and lines, bad records, wrong printed codes), and
no worker process is left once the browser is left while they read."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from pathlib import Path

import pytest
import zstandard

from gbr_tui.core.collection import CollectionRequest, GamePositions
from tests.support.browser import browser, loaded, shown_classes, status
from tests.support.seeded import GOOD_GAME, seeded_file


def everything(screen) -> tuple:
    """What the browser holds: each class's records (file, number, line, position, headers) in
    its order, the bad records, and the records whose printed code disagrees."""
    index = screen.index
    classes = [(row.code, [index.record(record) for record in index.positions(row)]) for row in index.classes()]
    disagreements = sorted((index.record(record).number, found) for record, found in index.disagreements.items())
    return classes, index.bad, disagreements


@pytest.mark.parametrize(("kind", "position"), [("pgn", "final"), ("epd", "start"), ("pgn.zst", "final")])
async def test_two_jobs_fill_what_one_fills(tmp_path, kind: str, position: str) -> None:
    """A plain file is cut into byte ranges; a zstd file is decompressed and cut by the
    browser's reading process while the workers read."""
    path = seeded_file(tmp_path, kind.split(".")[0], 2)
    if kind.endswith(".zst"):
        path = path.with_name(path.name + ".zst")
        path.write_bytes(zstandard.ZstdCompressor().compress(path.with_suffix("").read_bytes()))
    seen = []
    for jobs in (1, 2):
        app = browser(path, game_positions=GamePositions(position), jobs=jobs)
        async with app.run_test(size=(100, 30)) as pilot:
            screen = await loaded(pilot)
            held = everything(screen)
            assert held[1] and held[2]  # bad records, and wrong printed codes
            assert "bad" in status(screen)
            seen.append((shown_classes(screen), held, status(screen)))
    assert seen[1] == seen[0]  # the same table, records, numbers and status line


def long_games(directory, games: int):
    path = directory / "long.pgn"
    path.write_text("".join(f'[Event "Game {number}"]\n\n{GOOD_GAME}\n\n' for number in range(games)))
    return path


def reading_processes() -> set[int]:
    """The browser's reading process (``loading``) and its worker processes, by pid (Linux)."""
    found = set()
    for child in multiprocessing.active_children():
        found.add(child.pid)
        for task in Path(f"/proc/{child.pid}/task").glob("*/children"):
            found.update(int(pid) for pid in task.read_text().split())
    return found


async def gone(pids: set[int], seconds: float = 30) -> bool:
    """Whether every one of ``pids`` has ended within ``seconds``: a loaded machine is slow to
    end processes, so the bound is generous and the wait ends as soon as they have."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(Path(f"/proc/{pid}").exists() and "zombie" not in status_of(pid) for pid in pids):
            return True
        await asyncio.sleep(0.05)
    return False


def status_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return "zombie"  # gone meanwhile


@pytest.mark.parametrize("leave", ["another file", "quit"])
async def test_no_worker_is_left_when_the_browser_is_left_while_reading(tmp_path, leave: str) -> None:
    # 40,000 games of eight plies: seconds of replaying, so the workers are still at it.
    path = long_games(tmp_path, 40_000)
    other = tmp_path / "other.fen"
    other.write_text("8/8/8/4k3/8/8/8/KR6 w - - 0 1\n")
    app = browser(path, game_positions=GamePositions.FINAL, jobs=2)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(400):
            readers = reading_processes()
            if len(readers) == 3:  # the reading process and its two workers
                break
            await pilot.pause(0.02)
        assert len(readers) == 3
        assert not pilot.app.screen.listed  # still reading
        if leave == "another file":
            await app.browse(CollectionRequest((str(other),)))
            await loaded(pilot)
            assert await gone(readers)
    assert await gone(readers)
