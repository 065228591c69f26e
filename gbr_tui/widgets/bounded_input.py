"""An Input that keeps a bounded amount of what is typed or pasted."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from gbr_tui.core.describe import plural

#: Longer than any printed code, caption, FEN, piece list or path.
MAX_INPUT = 2000


class BoundedInput(Input):
    """An Input of at most ``max_length`` characters (``MAX_INPUT`` unless told): a longer paste
    is cut to fit, and a notification says how much was left out (Textual's own Input would
    refuse the whole paste). Every key on a 10 MB value would decode and redraw 10 MB."""

    def __init__(self, *args, max_length: int = MAX_INPUT, **kwargs) -> None:
        super().__init__(*args, max_length=max_length, **kwargs)

    def on_paste(self, event: events.Paste) -> None:
        line = event.text.splitlines()[0] if event.text else ""
        start, end = sorted(self.selection)
        assert self.max_length is not None  # always given (``__init__``)
        room = self.max_length - (len(self.value) - (end - start))
        if len(line) > room:
            self.notify(
                f"Pasted text cut to {plural(room, 'character')}: {plural(len(line) - room, 'character')} left out",
                severity="warning",
            )
            line = line[: max(room, 0)]
        self.replace(line, start, end)
        event.prevent_default()  # not Input's own paste, which refuses what does not fit
        event.stop()
