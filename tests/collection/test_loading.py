"""Reading collections in a worker process for the browser (``loading``)."""

from __future__ import annotations

import multiprocessing
import threading

import pytest

from gbr_tui.core import Rule
from gbr_tui.core.collection import ClassIndex, CollectionRequest, loading
from gbr_tui.core.collection.loading import Loading, Progress
from gbr_tui.core.collection.records import CollectionError

# KR v K is 0100.00 (one White rook: R digit 1); KNNN v K is 0009.00 (three knights: 9).
KR_V_K = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
KNNN_V_K = "8/8/8/4k3/8/8/8/NNN1K3 w - - 0 1"


def finished(reading: Loading) -> tuple[list[Progress], ClassIndex]:
    reports = []
    for _ in range(600):
        report = reading.next(0.1)
        if isinstance(report, ClassIndex):
            return reports, report
        if report is not None:
            reports.append(report)
    raise AssertionError("the reading did not end")


def test_a_file_read_in_a_process_is_the_index_read_here(tmp_path):
    path = tmp_path / "positions.fen"
    path.write_text(f"{KR_V_K}\nnot a position\n{KNNN_V_K}\n{KR_V_K}\n")
    request = CollectionRequest((str(path),))
    reports, index = finished(Loading(request, Rule.COUNT))
    assert [(row.code, row.count) for row in index.classes()] == [("0009.00", 1), ("0100.00", 2)]
    assert [(bad.number, bad.line) for _, bad in index.bad] == [(2, 2)]
    assert [index.record(i).fen for i in index.positions(index.classes()[1])] == [KR_V_K, KR_V_K]
    assert reports[-1].done == path.stat().st_size and reports[-1].records == 4
    assert reports[-1].bars == [("0100.00", 2), ("0009.00", 1)]  # the chart's bars, largest first


def test_a_missing_file_is_a_failure_and_the_others_are_read(tmp_path):
    path = tmp_path / "positions.fen"
    path.write_text(f"{KR_V_K}\n")
    request = CollectionRequest((str(tmp_path / "gone.fen"), str(path)))
    _, index = finished(Loading(request, Rule.COUNT))
    assert index.classified == 1 and len(index.failures) == 1 and "gone.fen" in index.failures[0]


def test_stopping_ends_the_reading_process(tmp_path):
    path = tmp_path / "many.fen"
    path.write_text(f"{KR_V_K}\n" * 400_000)
    reading = Loading(CollectionRequest((str(path),)), Rule.COUNT)
    while not isinstance(reading.next(1), Progress):
        pass
    reading.stop()
    assert reading._process.exitcode == 0  # it ended by itself, not stopped by force
    with pytest.raises(CollectionError, match="stopped before the end"):
        reading.next(0)


def test_the_reading_started_early_is_taken_only_for_its_files_and_rule(tmp_path):
    path = tmp_path / "positions.fen"
    path.write_text(f"{KR_V_K}\n")
    request = CollectionRequest((str(path),))
    loading.begin(request, Rule.COUNT)
    assert loading.taken(request, Rule.PROMOTED) is None  # and that reading is stopped
    assert loading.taken(request, Rule.COUNT) is None
    loading.begin(request, Rule.COUNT)
    reading = loading.taken(request, Rule.COUNT)
    assert reading is not None and finished(reading)[1].classified == 1


def test_a_reading_started_beside_other_threads_comes_from_the_fork_server(tmp_path):
    """The app's readings start from its worker threads: a fork of a process with threads can
    deadlock, so the reader is not forked from it (where a fork server exists)."""
    path = tmp_path / "positions.fen"
    path.write_text(f"{KR_V_K}\n{KNNN_V_K}\n")
    started = []
    thread = threading.Thread(target=lambda: started.append(Loading(CollectionRequest((str(path),)), Rule.COUNT)))
    thread.start()
    thread.join()
    (reading,) = started
    if "forkserver" in multiprocessing.get_all_start_methods():
        assert isinstance(reading._process, multiprocessing.get_context("forkserver").Process)
    assert [(row.code, row.count) for row in finished(reading)[1].classes()] == [("0009.00", 1), ("0100.00", 1)]
