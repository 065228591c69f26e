"""A line of moves marked against the tablebase: each White move "only move", "dual" (with the
other moves that keep the stipulated result, each a real or a minor dual) or "spoils the win";
each Black move "best" or "not the longest defence".

A move's distance counts plies from the position it is played in, as the table has it: DTM (to
mate) where every move compared has one, else DTZ (to the next capture or pawn move, which a
capture or pawn move is itself). A dual whose distance is longer than the main move's is a
minor dual: only a longer way to the same end (Saavedra's 3.Kb6, which the rook's checks send
back). The walk starts at the first position within the tables and stops after a move that
spoils the stipulated result (what follows no longer tests the study).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

import chess

from gbr_tui.core.tablebases import RESULT_WORDS, Tablebases, Verdict


class Mark(Enum):
    ONLY = "only move"
    DUAL = "dual"
    SPOILS = "spoils"
    BEST = "best"
    NOT_LONGEST = "not the longest defence"


@dataclass(frozen=True)
class Alternative:
    """Another move that keeps the stipulated result (a dual) or defends longer."""

    san: str
    distance: int | None
    minor: bool = False  # a longer way to the same end

    def words(self, metric: str) -> str:
        said = [f"{metric} {self.distance}"] if self.distance is not None else []
        said += ["minor"] if self.minor else []
        return f"{self.san} ({', '.join(said)})" if said else self.san


@dataclass(frozen=True)
class MarkedMove:
    """One move of the line and what the tables make of it."""

    ply: int  # 0 for the line's first move
    san: str
    mark: Mark
    wanted: int  # the result for White the line is held to (1, 0, -1)
    distance: int | None = None
    metric: str = "DTZ"  # what the distances count: "DTM" or "DTZ" plies
    alternatives: tuple[Alternative, ...] = field(default_factory=tuple)
    result_after: int | None = None  # the result for White after the move

    @property
    def kind(self) -> str:
        """The mark as said: "minor dual" for a dual whose alternatives are all minor."""
        if self.mark == Mark.DUAL and not self.real_duals:
            return "minor dual"
        return self.mark.value

    @property
    def real_duals(self) -> tuple[Alternative, ...]:
        return tuple(other for other in self.alternatives if not other.minor)

    def words(self) -> str:
        """ "only move", "dual: also Kc7 (DTZ 13), Kb7 (DTZ 15, minor)", "spoils the win"."""
        distance = f" ({self.metric} {self.distance})" if self.distance is not None else ""
        others = ", ".join(other.words(self.metric) for other in self.alternatives)
        if self.mark == Mark.SPOILS:
            after = RESULT_WORDS[self.result_after if self.result_after is not None else 0]
            return f"spoils {'the win' if self.wanted else 'the draw'}: now {after}"
        if self.mark == Mark.DUAL:
            return f"{self.kind}{distance}: also {others}"
        if self.mark == Mark.NOT_LONGEST:
            return f"not the longest defence{distance}: {others}"
        return f"{self.mark.value}{distance}"


def mark_line(
    tables: Tablebases, start: chess.Board, moves: Sequence[chess.Move], stipulation: str | None = None
) -> list[MarkedMove | None]:
    """Each of ``moves`` (played from ``start``) marked, None where it is not judged (before the
    first position within the tables, after a spoiling move). The result held to is the
    stipulation's (``+`` a White win, ``=`` a draw), else the table's at the first position
    within the tables. A move that is not legal ends the walk (ValueError from python-chess)."""
    board = start.copy(stack=False)
    wanted: int | None = {"+": 1, "=": 0}.get(stipulation or "")
    marks: list[MarkedMove | None] = []
    spoiled = False
    for ply, move in enumerate(moves):
        if spoiled:
            marks.append(None)
            board.push(move)
            continue
        verdict = tables.probe(board)
        if verdict is None:
            marks.append(None)
            board.push(move)
            continue
        if wanted is None:
            wanted = verdict.white_result
        marked = _marked(tables, board, move, ply, wanted)
        marks.append(marked)
        spoiled = marked is not None and marked.mark == Mark.SPOILS
        board.push(move)
    return marks


@dataclass(frozen=True)
class _Outcome:
    move: chess.Move
    result: int  # for White
    verdict: Verdict


def _marked(tables: Tablebases, board: chess.Board, played: chess.Move, ply: int, wanted: int) -> MarkedMove | None:
    if played not in board.legal_moves:
        raise ValueError(f"illegal move {played.uci()} in {board.fen()}")
    outcomes = []
    for move in board.legal_moves:
        board.push(move)
        verdict = tables.probe(board)
        board.pop()
        if verdict is None:
            return None  # a move leaves the tables: the position cannot be judged whole
        outcomes.append(_Outcome(move, verdict.white_result, verdict))
    san = board.san(played)
    main = next(outcome for outcome in outcomes if outcome.move == played)
    if board.turn == chess.WHITE:
        keeping = [outcome for outcome in outcomes if outcome.result == wanted]
        if main.result != wanted:
            return MarkedMove(ply, san, Mark.SPOILS, wanted, result_after=main.result)
        metric, distances = _distances(board, keeping, decisive=wanted != 0)
        others = tuple(
            sorted(
                (
                    Alternative(
                        board.san(outcome.move),
                        distances.get(outcome.move),
                        minor=_longer(distances.get(outcome.move), distances.get(played)),
                    )
                    for outcome in keeping
                    if outcome.move != played
                ),
                key=lambda other: (other.minor, other.distance or 0, other.san),  # real duals first
            )
        )
        mark = Mark.DUAL if others else Mark.ONLY
        return MarkedMove(ply, san, mark, wanted, distances.get(played), metric, others, main.result)
    best_result = min(outcome.result for outcome in outcomes)
    best = [outcome for outcome in outcomes if outcome.result == best_result]
    metric, distances = _distances(board, best, decisive=best_result != 0)
    longest = max((distances[outcome.move] for outcome in best if outcome.move in distances), default=None)
    if main.result == best_result and (longest is None or distances.get(played) == longest):
        return MarkedMove(ply, san, Mark.BEST, wanted, distances.get(played), metric, result_after=main.result)
    longer = tuple(
        Alternative(board.san(outcome.move), distances.get(outcome.move))
        for outcome in best
        if longest is None or distances.get(outcome.move) == longest
    )
    return MarkedMove(ply, san, Mark.NOT_LONGEST, wanted, distances.get(played), metric, longer, main.result)


def _distances(board: chess.Board, outcomes: list[_Outcome], decisive: bool) -> tuple[str, dict[chess.Move, int]]:
    """The plies from ``board`` to mate (DTM, when every outcome has it) or to the next
    capture or pawn move (DTZ) after each move; none for draws."""
    if not decisive or not outcomes:
        return "DTZ", {}
    if all(outcome.verdict.dtm is not None for outcome in outcomes):
        return "DTM", {outcome.move: 1 + abs(outcome.verdict.dtm or 0) for outcome in outcomes}
    distances = {}
    for outcome in outcomes:
        if board.is_zeroing(outcome.move):
            distances[outcome.move] = 1
        elif outcome.verdict.dtz is not None:
            distances[outcome.move] = 1 + abs(outcome.verdict.dtz)
    return "DTZ", distances


def _longer(distance: int | None, main: int | None) -> bool:
    return distance is not None and main is not None and distance > main
