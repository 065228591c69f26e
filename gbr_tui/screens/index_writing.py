"""Writing the index of a big file from the collection browser (its key ``i``)."""

from __future__ import annotations

import dataclasses
import os

from textual import work
from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker, WorkerState, get_current_worker

from gbr_tui.core.collection import CollectionRequest, store
from gbr_tui.core.collection.source import Cancelled
from gbr_tui.core.describe import INDEX_CANCELLED_WORDS, index_building_words, index_written_words
from gbr_tui.core.errors import GbrError
from gbr_tui.core.text import printable
from gbr_tui.screens.collection_views import shown_name
from gbr_tui.widgets.reading_status import ReadingStatus


class IndexWriter(Widget):
    """Writes the index of ``files`` (one file) to ``output`` in a thread, saying in ``status``
    how far it has got; says how it ended, posts ``Ended`` and goes. Nothing to see itself."""

    class Ended(Message):
        """The writing ended: ``written`` is the index written, or None."""

        def __init__(self, written: str | None) -> None:
            super().__init__()
            self.written = written

    def __init__(self, files: CollectionRequest, output: str, status: ReadingStatus) -> None:
        super().__init__()
        self.files, self.output, self.status = files, output, status
        self.done = 0  # bytes read so far, set by the writing thread
        self.display = False

    def on_mount(self) -> None:
        self.file_size = os.path.getsize(self.files.paths[0])
        self.status.begin(self.file_size)
        self._ticker = self.set_interval(0.1, self._show_progress)
        self._write()

    def cancel(self) -> None:
        self.workers.cancel_group(self, "build")

    def _show_progress(self) -> None:
        self.status.count(self.done)
        self.status.say(index_building_words(shown_name(self.output), self.done, self.file_size))

    @work(thread=True, exclusive=True, exit_on_error=False, group="build")
    def _write(self) -> str:
        worker = get_current_worker()

        def tick(bytes_read: int) -> bool:
            self.done = bytes_read
            return not worker.is_cancelled

        store.build(dataclasses.replace(self.files, min_plies=0), self.output, tick=tick)
        return self.output

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state not in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        self._ticker.stop()
        self.status.end()
        if event.state == WorkerState.SUCCESS:
            self.notify(printable(index_written_words(shown_name(self.output))), markup=False)
        elif isinstance(event.worker.error, Cancelled) or event.state == WorkerState.CANCELLED:
            self.notify(INDEX_CANCELLED_WORDS, severity="warning", markup=False)
        else:
            error = event.worker.error
            message = error.message if isinstance(error, GbrError) else str(error)
            self.notify(printable(message), title="Index not written", severity="error", markup=False)
        self.post_message(self.Ended(self.output if event.state == WorkerState.SUCCESS else None))
        self.remove()
