"""The app's actions on the machine it runs on: collections opened and browsed (and searched
for the board), positions saved, the tablebases' directories set. A served app offers none of
them (``GbrApp.offers``), nor the editor's diagram, Textual's screenshot or the browser's index.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual.app import App

from gbr_tui.core import GbrError, Rule
from gbr_tui.core.describe import not_saved_words, saved_words
from gbr_tui.screens import COLLECTION_SCREEN

if TYPE_CHECKING:
    from gbr_tui.core.collection import CollectionRequest
    from gbr_tui.core.collection.records import StudyRecord
    from gbr_tui.core.settings import Settings
    from gbr_tui.dialogs.save_position import StudySave
    from gbr_tui.messages import FindSimilar
    from gbr_tui.screens.editor import EditorScreen
    from gbr_tui.tablebase_support import AppTablebases

#: Actions that open or save files on the machine gbr-tui runs on: never offered when served.
HOST_FILE_ACTIONS = frozenset(
    {
        "open_collection",
        "show_collection",
        "save_position",
        "screenshot",
        "build_index",
        "diagram",
        "find_similar",
        "set_tablebases",
    }
)
NO_COLLECTION_TO_SEARCH = "No collection to search: open one first (o), then a searches it for the board."


class HostActions(App[None]):
    """What ``GbrApp`` mixes in: its actions on files and directories of the host."""

    editor: EditorScreen
    #: The collection opened last, which ``a`` searches.
    browsed: CollectionRequest | None = None
    #: The save dialog's last answers (composer, source...), offered again the next time.
    study_answers: StudyRecord | None = None
    tablebases: AppTablebases
    kept: Settings

    if TYPE_CHECKING:
        rule: Rule

        def _keep(self, kept: Settings) -> None: ...

    def on_find_similar(self, message: FindSimilar) -> None:
        """The records of the collection opened last like the board, listed (the one chosen is
        loaded into the editor, where undo brings back what was there)."""
        from gbr_tui.dialogs.anticipation import AnticipationList

        if self.browsed is None:
            self.notify(NO_COLLECTION_TO_SEARCH, severity="warning", markup=False)
            return
        self.push_screen(AnticipationList(self.browsed, message.board, message.max_distance, message.what))

    def action_open_collection(self) -> None:
        """The path dialog, then the browser."""
        from gbr_tui.dialogs.open_collection import OpenCollectionDialog

        self.push_screen(OpenCollectionDialog(), callback=self._opened)

    async def _opened(self, files: CollectionRequest | None) -> None:
        if files is not None:
            await self.browse(files)

    async def browse(self, files: CollectionRequest) -> None:
        """Open ``files`` in a new browser, in place of the one open before."""
        from gbr_tui.screens.collection import CollectionScreen

        if self.is_screen_installed(COLLECTION_SCREEN):
            old = self.get_screen(COLLECTION_SCREEN)
            if old in self.screen_stack:
                await self.pop_screen()
            self.uninstall_screen(COLLECTION_SCREEN)
            await old.remove()  # and with it its loader, which stops at its next tick
        self.install_screen(CollectionScreen(files), COLLECTION_SCREEN)
        self.browsed = files
        await self.push_screen(COLLECTION_SCREEN)

    def action_save_position(self) -> None:
        """The path dialog, then the position appended to that PGN or EPD file."""
        from gbr_tui.core.collection.records import StudyRecord
        from gbr_tui.dialogs.save_position import SavePositionDialog

        asked = replace(self.study_answers or StudyRecord(), stipulation=self.editor.setup.stipulation)
        self.push_screen(SavePositionDialog(asked), callback=self._save_position)

    def _save_position(self, save: StudySave | None) -> None:
        """Append the position as a study record, with the solution entered for it (``v``)."""
        from gbr_tui.core.collection.writing import append_position

        if save is None:
            return
        self.study_answers = save.study
        path, setup = save.path, self.editor.setup
        study = replace(save.study, solution=self.editor.solution_game())
        try:
            code = append_position(path, setup.board, setup.stipulation, self.rule, study)
        except (OSError, GbrError) as error:
            self.notify(not_saved_words(path, error), title="Not saved", severity="error", markup=False)
            return
        self.notify(saved_words(path, code), title="Saved", markup=False)

    def action_show_collection(self) -> None:
        """Back to the browser of the collection opened last."""
        if self.get_screen(COLLECTION_SCREEN) not in self.screen_stack:
            self.push_screen(COLLECTION_SCREEN)

    def action_set_tablebases(self) -> None:
        """The directories of tablebases the code pane probes, kept for the next start."""
        from gbr_tui.dialogs.tablebases import TablebasesDialog

        self.push_screen(TablebasesDialog(self.tablebases.directories), callback=self._set_tablebases)

    def _set_tablebases(self, directories: tuple[str, ...] | None) -> None:
        if directories is not None:
            self.tablebases.use(directories)
            self._keep(replace(self.kept, tablebases=directories or None))
            self.editor.probe_verdict()
