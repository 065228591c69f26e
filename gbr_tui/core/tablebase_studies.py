"""A study held against the tablebase: its stipulation, then its solution's main line.

The stipulation is read from a ``Stipulation`` tag (``+``, ``=``, ``Win``, ``Draw``), from the
caption (``+0300.10b6a1``), or from HHdb's ``Black`` tag, which holds the stipulation and the
code (``=0323.12g3g1``). Two parts can disagree, beside those of ``core.check``: the
``stipulation`` (the table gives another result at the start) and the ``solution`` (a White
move that spoils the result or has a real dual, a Black move that is not the longest defence).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import chess

from gbr_tui.core.check import Disagreement
from gbr_tui.core.errors import GbrError
from gbr_tui.core.hhdb import stipulation_from
from gbr_tui.core.pgn import san_tokens, split_games
from gbr_tui.core.tablebase_lines import Mark, MarkedMove, mark_line
from gbr_tui.core.tablebases import STIPULATED_RESULTS, Tablebases, Verdict

#: The parts a study's check adds to ``core.check.PARTS``.
TABLEBASE_PARTS = ("stipulation", "solution")
#: White's result as a stipulation's sign (``-`` for a Black win, which no stipulation asks).
RESULT_SIGNS = {1: "+", 0: "=", -1: "-"}
#: HHdb's ``Black`` tag: a stipulation sign, then the code and the kings (``=0323.12g3g1``).
#: A main line is judged up to this many plies (each probes every legal move: a long game
#: within the tables would otherwise cost seconds).
MAX_JUDGED_PLIES = 400
#: Marks a published solution should not have.
FLAWS = (Mark.SPOILS, Mark.NOT_LONGEST)


@dataclass(frozen=True)
class StudyCheck:
    """A study's start verdict and its main line's marks (None where not judged)."""

    stipulation: str | None
    start: Verdict | None
    marks: list[MarkedMove | None] = field(default_factory=list)
    first_move: int = 1  # the start position's move number
    first_turn: chess.Color = chess.WHITE

    def move_name(self, marked: MarkedMove) -> str:
        """``3.Kb4`` or ``1...Rd6+``."""
        white_first = self.first_turn == chess.WHITE
        plies_before = marked.ply + (0 if white_first else 1)
        number = self.first_move + plies_before // 2
        return f"{number}{'.' if plies_before % 2 == 0 else '...'}{marked.san}"

    @property
    def judged(self) -> bool:
        """Whether the tables had a say: the start or a move within them, with a result held to."""
        return (self.start is not None and self.stipulation is not None) or any(self.marks)

    def disagreements(self) -> list[Disagreement]:
        found = []
        if self.start is not None and self.stipulation in ("+", "="):
            actual = RESULT_SIGNS[self.start.white_result]
            if actual != self.stipulation:
                found.append(Disagreement("stipulation", self.stipulation, actual, self.start.words()))
        for marked in self.marks:
            if marked is not None and (marked.mark in FLAWS or (marked.mark == Mark.DUAL and marked.real_duals)):
                found.append(Disagreement("solution", self.move_name(marked), marked.kind, marked.words()))
        return found

    def solution_words(self) -> list[str]:
        """Each judged move with its mark: ``1.c7 only move (DTZ 1)``."""
        return [f"{self.move_name(marked)} {marked.words()}" for marked in self.marks if marked is not None]

    @property
    def fields(self) -> dict[str, object]:
        """The JSON form of the marks."""
        return {
            "stipulation": self.stipulation,
            "tablebase": None if self.start is None else self.start.fields,
            "solution": [
                {"move": self.move_name(marked), "mark": marked.kind, "words": marked.words()}
                for marked in self.marks
                if marked is not None
            ],
        }


def check_study(
    tables: Tablebases,
    start: chess.Board,
    moves: Sequence[chess.Move],
    headers: Mapping[str, str],
    caption: str | None = None,
) -> StudyCheck:
    """The study's stipulation (``stipulation_from``) against the table at its start, and its
    main line ``moves`` marked (``mark_line``); a line with an illegal move is judged up to it,
    a long one up to MAX_JUDGED_PLIES.
    The moves are held to the stipulated result, or to the table's when the table contradicts
    the stipulation (that is said once, not again at every move)."""
    stipulation = stipulation_from(headers, caption)
    verdict = tables.probe(start)
    held_to = stipulation
    if verdict is not None and STIPULATED_RESULTS.get(stipulation or "") not in (None, verdict.white_result):
        held_to = None
    legal: list[chess.Move] = []
    board = start.copy(stack=False)
    for move in moves[:MAX_JUDGED_PLIES]:
        if not board.is_legal(move):
            break
        legal.append(move)
        board.push(move)
    return StudyCheck(
        stipulation,
        verdict,
        mark_line(tables, start, legal, held_to),
        start.fullmove_number,
        start.turn,
    )


def study_checks(
    lines: Iterable[str], tables: Tablebases, caption_tag: str | None = None
) -> Iterator[tuple[int, StudyCheck]]:
    """Each game of PGN ``lines`` (numbered from 1, as the collection numbers its records) that
    the tables judge, with its check (the caption in the tag ``caption_tag``). A game whose start or moves cannot be read is judged as far
    as it can be (its faults are the collection reader's to report)."""
    for number, game in enumerate(split_games(lines), start=1):
        if game.headers.get("Variant", "standard").lower() not in ("standard", "chess", "from position"):
            continue
        try:
            start = chess.Board(game.headers["FEN"]) if "FEN" in game.headers else chess.Board()
            sans = san_tokens(game.movetext)
        except (ValueError, GbrError):
            continue
        moves: list[chess.Move] = []
        board = start.copy(stack=False)
        for san in sans:
            try:
                moves.append(board.push_san(san))
            except ValueError:
                break
        caption = game.headers.get(caption_tag) if caption_tag else None
        checked = check_study(tables, start, moves, game.headers, caption)
        if checked.judged:
            yield number, checked
