"""The app's tablebases: the directories in use, the tables opened from them when first needed,
and the verdict a screen shows: probed at once when the tables are already open and free (well
under a millisecond), else in a worker thread.

The core's ``tablebases`` module (and python-chess's probing with it) is imported only when a
directory is set and a position is probed: never on the way to the first frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess
from textual.worker import get_current_worker

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from gbr_tui.core.tablebases import Tablebases, Verdict


@dataclass(frozen=True)
class ShownVerdict:
    """What a pane shows: the verdict in words, and how it stands to the stipulation."""

    fen: str  # the position probed: a verdict is shown only while the board is still this one
    words: str
    agreement: str | None = None
    agrees: bool = True


class AppTablebases:
    """The directories the app probes, opened on first use; ``notify`` says each problem once."""

    def __init__(self, directories: Sequence[str], notify: Callable[[str], None]) -> None:
        self.directories = tuple(directories)
        self._notify = notify
        self._tables: Tablebases | None = None

    def use(self, directories: Sequence[str]) -> None:
        """Probe ``directories`` from now on (none: no verdicts)."""
        self.close()
        self.directories = tuple(directories)

    def tables(self) -> Tablebases | None:
        """The opened tables, None when no directory is set or none holds tables."""
        if not self.directories:
            return None
        if self._tables is None:
            from gbr_tui.core.tablebases import Tablebases

            self._tables = Tablebases(self.directories)
            self.say_problems()
        return None if self._tables.empty else self._tables

    def say_problems(self) -> None:
        if self._tables is not None:
            for problem in self._tables.new_problems():
                self._notify(problem)

    def close(self) -> None:
        if self._tables is not None:
            self._tables.close()
            self._tables = None


def shown_verdict(tables: Tablebases, board: chess.Board, stipulation: str | None) -> ShownVerdict | None:
    """The verdict on ``board`` as a pane shows it (run in a worker thread), None outside the
    tables."""
    return verdict_shown(tables.probe(board), board, stipulation)


def verdict_shown(verdict: Verdict | None, board: chess.Board, stipulation: str | None) -> ShownVerdict | None:
    """``verdict`` (on ``board``) as a pane shows it, None outside the tables."""
    from gbr_tui.core.tablebases import stipulation_words

    if verdict is None:
        return None
    agreement = stipulation_words(stipulation, verdict)
    if agreement is None:
        return ShownVerdict(board.fen(), verdict.words())
    return ShownVerdict(board.fen(), verdict.words(), *agreement)


def probe_verdict(
    node: DOMNode,
    tables: Tablebases,
    board: chess.Board,
    stipulation: str | None,
    show: Callable[[str, str | None, ShownVerdict | None], None],
) -> None:
    """The verdict on ``board`` against ``stipulation`` given to ``show(fen, stipulation,
    verdict)``: at once when the tables are open and free, else from a worker thread so that
    typing never waits (a newer probe for ``node`` cancels an older one; ``show`` may still get
    an older board's or stipulation's, and checks both)."""
    board = board.copy(stack=False)
    quick, verdict = tables.probe_if_quick(board)
    if quick:
        node.workers.cancel_group(node, "tablebase")
        show(board.fen(), stipulation, verdict_shown(verdict, board, stipulation))
        return

    def probe() -> None:
        shown = shown_verdict(tables, board, stipulation)
        if not get_current_worker().is_cancelled:
            node.app.call_from_thread(show, board.fen(), stipulation, shown)

    node.run_worker(probe, thread=True, exclusive=True, group="tablebase", exit_on_error=False)
