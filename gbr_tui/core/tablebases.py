"""Endgame tablebase verdicts: python-chess's own probing (``chess.syzygy``, ``chess.gaviota``),
worded from the side to move's view and held against a stipulation.

Loaded only when tables are set: neither the core's start-up nor the app's first frame imports
this module. A directory may hold Syzygy tables (``.rtbw`` WDL, ``.rtbz`` DTZ), Gaviota tables
(``.gtb.cp4``, the compression python-chess reads without a native library) or both; they are
told apart by their names. Files are data from outside: a directory without tables, an
unreadable or damaged file gives one worded problem, never a traceback, and the position is
then said to be outside the tables.

Results for White (``white_result``) set the 50-move rule aside, as the composition codex
does; the words still say when the 50-move rule would draw a win (Syzygy's "cursed" wins).
"""

from __future__ import annotations

import lzma
import os
import struct
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import chess

from gbr_tui.core.material import Material
from gbr_tui.core.text import printable

if TYPE_CHECKING:
    import chess.gaviota
    import chess.syzygy

SYZYGY_SUFFIXES = (".rtbw", ".rtbz")
GAVIOTA_SUFFIX = ".gtb.cp4"
#: Gaviota files in the other compressions (cp1, cp2, cp3): python-chess does not read them.
OTHER_GAVIOTA_SUFFIXES = (".gtb.cp1", ".gtb.cp2", ".gtb.cp3")
#: A Gaviota file's header: ten little-endian 32-bit numbers, the ninth where its blocks start.
GAVIOTA_HEADER = struct.Struct("<10I")
#: What reading a damaged table file raises inside python-chess's probing.
DAMAGED_TABLE_ERRORS = (OSError, ValueError, IndexError, struct.error, lzma.LZMAError, EOFError)
#: How many characters of a directory's name a message shows.
SHOWN_NAME = 200

SIDE_NAMES = {chess.WHITE: "White", chess.BLACK: "Black"}
#: White's result (1, 0, -1) in words, as stipulations and collections say it.
RESULT_WORDS = {1: "a White win", 0: "a draw", -1: "a Black win"}
#: A stipulation's sign and the result for White it asks for.
STIPULATED_RESULTS = {"+": 1, "=": 0}


@dataclass(frozen=True)
class Verdict:
    """What the tables say of one position, from the side to move's view: WDL as python-chess
    gives it (-2 loss, -1 loss saved by the 50-move rule, 0 draw, 1 win the 50-move rule
    draws, 2 win), DTZ (Syzygy) and DTM in plies (Gaviota), None where no table has them."""

    turn: chess.Color
    wdl: int
    dtz: int | None = None
    dtm: int | None = None

    @property
    def white_result(self) -> int:
        """1 when White wins, 0 a draw, -1 when Black wins (the 50-move rule set aside)."""
        side = (self.wdl > 0) - (self.wdl < 0)
        return side if self.turn == chess.WHITE else -side

    @property
    def fields(self) -> dict[str, int | None]:
        """The JSON form: ``{"wdl": ..., "dtz": ..., "dtm": ...}``."""
        return {"wdl": self.wdl, "dtz": self.dtz, "dtm": self.dtm}

    def words(self) -> str:
        """The verdict as the code pane and the command line say it: "White wins: mate in 16",
        "draw", "Black wins, but the 50-move rule draws it"."""
        if self.wdl == 0:
            return "draw"
        winner = SIDE_NAMES[self.turn if self.wdl > 0 else not self.turn]
        if abs(self.wdl) == 1:
            return f"{winner} wins, but the 50-move rule draws it"
        if self.dtm is not None:
            return f"{winner} wins: mate in {(abs(self.dtm) + 1) // 2}"
        if self.dtz is not None:
            return f"{winner} wins: DTZ {abs(self.dtz)}"
        return f"{winner} wins"


def stipulation_words(stipulation: str | None, verdict: Verdict) -> tuple[str, bool] | None:
    """Whether ``verdict`` agrees with ``stipulation`` (``+`` White wins, ``=`` a draw), in
    words, and whether it agrees; None without a stipulation."""
    wanted = STIPULATED_RESULTS.get(stipulation or "")
    if wanted is None:
        return None
    found = RESULT_WORDS[verdict.white_result]
    if verdict.white_result == wanted:
        return f"agrees with the stipulation {stipulation}", True
    return f"the stipulation {stipulation} asks for {RESULT_WORDS[wanted]}; the tablebase says {found}", False


def table_files(directory: str | os.PathLike[str]) -> tuple[list[str], list[str], list[str]]:
    """The names of the Syzygy, Gaviota (cp4) and unreadable Gaviota (cp1-cp3) table files in
    ``directory``. OSError when it cannot be listed."""
    names = sorted(os.listdir(directory))
    return (
        [name for name in names if name.endswith(SYZYGY_SUFFIXES)],
        [name for name in names if name.endswith(GAVIOTA_SUFFIX)],
        [name for name in names if name.endswith(OTHER_GAVIOTA_SUFFIXES)],
    )


def gaviota_index_problem(path: Path) -> str | None:
    """Why a Gaviota file's header cannot be its own (the block index it announces does not
    fit in the file), or None. A damaged header would have python-chess allocate without
    bound."""
    try:
        size = path.stat().st_size
        with path.open("rb") as file:
            header = file.read(GAVIOTA_HEADER.size)
    except OSError as error:
        return f"cannot be read ({printable(error.strerror or str(error))})"
    if len(header) < GAVIOTA_HEADER.size:
        return "damaged (shorter than its header)"
    offset = GAVIOTA_HEADER.unpack(header)[8]  # where the blocks start, after the block index
    if offset < GAVIOTA_HEADER.size + 8 or offset > size or (offset - GAVIOTA_HEADER.size) % 4:
        return "damaged (its block index does not fit in the file)"
    return None


def _material_key(board: chess.Board) -> tuple[int, ...]:
    """The men of each kind and colour: the tables a probe of ``board`` opens first."""
    return tuple(
        chess.popcount(board.pieces_mask(kind, colour)) for colour in chess.COLORS for kind in chess.PIECE_TYPES
    )


class Tablebases:
    """The tables of one or more directories, opened through python-chess; ``problems`` says
    in words what could not be used. A probe holds a lock: the app probes from worker threads,
    of which an older one may still run when a newer starts."""

    def __init__(self, directories: Iterable[str | os.PathLike[str]]) -> None:
        self.directories = [Path(directory) for directory in directories]
        self.problems: list[str] = []
        self._problems_said = 0
        self._lock = threading.Lock()
        self._opened: set[tuple[int, ...]] = set()  # materials probed: their tables are open
        self._syzygy: chess.syzygy.Tablebase | None = None
        self._gaviota: chess.gaviota.PythonTablebase | None = None
        for directory in self.directories:
            self._add(directory)

    def _add(self, directory: Path) -> None:
        shown = printable(str(directory), SHOWN_NAME)
        try:
            syzygy, gaviota, other_gaviota = table_files(directory)
        except OSError as error:
            reason = "not a directory" if directory.exists() else "no such directory"
            if isinstance(error, PermissionError):
                reason = "cannot be read"
            self.problems.append(f"tablebases {shown}: {reason}")
            return
        if syzygy:
            import chess.syzygy

            if self._syzygy is None:
                self._syzygy = chess.syzygy.Tablebase()
            self._syzygy.add_directory(str(directory))
        if gaviota:
            import chess.gaviota

            if self._gaviota is None:
                self._gaviota = chess.gaviota.PythonTablebase()
            self._gaviota.add_directory(str(directory))
            for name in gaviota:
                if (problem := gaviota_index_problem(directory / name)) is not None:
                    # python-chess would build a struct as large as the damaged header says
                    self._gaviota.available_tables.pop(name.removesuffix(GAVIOTA_SUFFIX), None)
                    self.problems.append(f"tablebases {shown}: {printable(name, SHOWN_NAME)}: {problem}")
        if not syzygy and not gaviota:
            why = (
                "holds Gaviota tables in a compression python-chess cannot read (only .gtb.cp4)"
                if other_gaviota
                else "holds no tablebase files (Syzygy .rtbw/.rtbz, Gaviota .gtb.cp4)"
            )
            self.problems.append(f"tablebases {shown}: {why}")

    def new_problems(self) -> list[str]:
        """The problems met since the last call (all of them the first time)."""
        new = self.problems[self._problems_said :]
        self._problems_said = len(self.problems)
        return new

    @property
    def empty(self) -> bool:
        """True when no directory gave a table."""
        return self._syzygy is None and self._gaviota is None

    def probe(self, board: chess.Board) -> Verdict | None:
        """The verdict on ``board``, None when it is outside the tables (illegal, castling
        rights, a material no table holds) or a table file is damaged (then said in
        ``problems``, once)."""
        with self._lock:
            return self._probe(board)

    def probe_if_quick(self, board: chess.Board) -> tuple[bool, Verdict | None]:
        """``(True, the verdict)`` when it comes at once: no other probe is running and the
        tables of ``board``'s material were opened by an earlier probe (then a probe takes well
        under a millisecond, where opening a table can take tens); else ``(False, None)``, and
        the caller probes in a worker thread."""
        if self.empty or board.castling_rights or not board.is_valid():
            return True, None
        if not self._lock.acquire(blocking=False):
            return False, None
        try:
            if _material_key(board) not in self._opened:
                return False, None
            return True, self._probe(board)
        finally:
            self._lock.release()

    def _probe(self, board: chess.Board) -> Verdict | None:
        if self.empty or board.castling_rights or not board.is_valid():
            return None
        wdl = dtz = dtm = None
        try:
            if self._syzygy is not None:
                wdl = self._syzygy.get_wdl(board)
                if wdl is not None:
                    dtz = self._syzygy.get_dtz(board)
            if self._gaviota is not None:
                dtm = self._gaviota.get_dtm(board)
                if wdl is None and dtm is not None:
                    wdl = self._gaviota.probe_wdl(board) * 2
        except DAMAGED_TABLE_ERRORS as error:
            self._damaged(board, error)
            return None
        self._opened.add(_material_key(board))
        if wdl is None:
            return None
        return Verdict(board.turn, wdl, dtz, dtm)

    def probe_wdl(self, board: chess.Board) -> int | None:
        """WDL alone (the quicker probe, for many positions), None outside the tables."""
        if self.empty or board.castling_rights or not board.is_valid():
            return None
        with self._lock:
            try:
                if self._syzygy is not None and (wdl := self._syzygy.get_wdl(board)) is not None:
                    return wdl
                if self._gaviota is not None and self._gaviota.get_dtm(board) is not None:
                    return self._gaviota.probe_wdl(board) * 2
            except DAMAGED_TABLE_ERRORS as error:
                self._damaged(board, error)
        return None

    def _damaged(self, board: chess.Board, error: Exception) -> None:
        problem = f"a damaged or unreadable table for {Material.from_board(board).tablebase_name}: {printable(str(error), SHOWN_NAME)}"
        if problem not in self.problems:
            self.problems.append(problem)

    def close(self) -> None:
        """The table files closed, once a probe running in another thread has ended."""
        with self._lock:
            for tables in (self._syzygy, self._gaviota):
                if tables is not None:
                    tables.close()

    def __enter__(self) -> Tablebases:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()
