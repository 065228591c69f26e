"""PGN: games, each a record (in ``--position all`` one record a class it passes through).

Games are replayed for ``final`` and ``all``; for ``start`` only the tags of a game that has
any are read (the start position is in them), so a study whose solution is damaged is still
classified. The comment before an HHdb study's first move is kept with its tags (``hhdb``).
A game without tags is replayed all the same: its moves are all that says it is one.
A file is cut for worker processes before an ``[Event`` tag after a blank line, where
``pgn.split_games`` starts a game too.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

import chess

from gbr_tui.core import hhdb, pgn
from gbr_tui.core.code import encode
from gbr_tui.core.collection.formats.base import CODE_TAG
from gbr_tui.core.collection.reading import Reading
from gbr_tui.core.collection.records import (
    GAME_TAGS,
    STIPULATION_RESULTS,
    BadRecord,
    Format,
    GamePositions,
    Item,
    Record,
    StudyRecord,
    caption_text,
)
from gbr_tui.core.collection.source import not_utf8
from gbr_tui.core.collection.tally import Tally
from gbr_tui.core.errors import GbrError, chess_reason
from gbr_tui.core.material import Material
from gbr_tui.core.replay import STANDARD_START, BothSidesCounts, MoveError, Replayed, StartPosition, replay

FORMAT = Format.PGN
NAME = "PGN"
DETECTION_ORDER = 1
HOLDS_GAMES = True
BATCH = False
CAPTION_IN = "a PGN tag"
UNCUT_REASON = None
HEADER_BEFORE_RECORDS = False
LINE_ENDS_BEFORE = 2  # a game after a blank line
SAVE_SUFFIX = ".pgn"
START_OVERLAP = 64  # a blank line and "[Event " may straddle two chunks

_MOVE_NUMBER_START = re.compile(r"\d+\s*\.")
_GAME_START = re.compile(rb"\n[ \t\r]*\n(?=\[Event )")
_LOOK_BACK = 1 << 12  # bytes looked at before a cut, for the line before its blank line
_CODES_KEPT = 1 << 12


def votes(line: str) -> bool:
    return line[0] == "[" or _MOVE_NUMBER_START.match(line) is not None


def record_start(data: bytes) -> int | None:
    found = _GAME_START.search(data)
    return found.end() if found is not None else None


def may_start_range(raw: io.BufferedReader, cut: int) -> bool:
    """Not a game after one of tags alone: ``pgn.split_games`` takes the tags after its blank
    line for its own."""
    start = max(cut - _LOOK_BACK, 0)
    raw.seek(start)
    text = raw.read(cut - start).decode("utf-8", "surrogateescape")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[:-1]
    for line in reversed(lines[1:] if start else lines):  # the first may be cut short
        if line and not line.isspace() and line[0] != "%":
            return line[0] != "["
    return False  # no line seen whole: no cut here


def written(board: chess.Board, code: str | None, study: StudyRecord | None = None) -> str:
    """A game from the position (its SetUp and FEN tags), the code in a ``GBR`` tag; a study's
    composer in White, its stipulation in Black, its source and year in Event and Date, its
    award in an ``Award`` tag, its solution as the moves and a result that follows the
    stipulation."""
    import copy

    import chess.pgn

    if study is not None and study.solution is not None:
        if study.solution.board().fen() != board.fen():
            raise GbrError("the solution does not start from the position saved")
        game = copy.deepcopy(study.solution)
        game.headers = chess.pgn.Headers()  # the seven roster tags, as a new game has them
        game.setup(board)
    else:
        game = chess.pgn.Game.from_board(board)
    if study is not None:
        headers = game.headers
        headers["Event"] = study.source or "?"
        headers["Date"] = f"{study.year}.??.??" if _YEAR.fullmatch(study.year) else "????.??.??"
        headers["White"] = study.composer or "?"
        headers["Black"] = (
            STIPULATION_RESULTS[study.stipulation][1] if study.stipulation in STIPULATION_RESULTS else "?"
        )
        headers["Result"] = study.result
        if study.award:
            headers["Award"] = study.award
    if code:
        game.headers[CODE_TAG] = code
    return str(game) + "\n"


_YEAR = re.compile(r"\d{4}")


def counted(reading: Reading, tally: Tally, on_block: Callable[[], None] | None) -> Iterator[Item]:
    return records(reading, fens=False)


def records(reading: Reading, fens: bool) -> Iterator[Item]:
    mode = reading.game_positions
    every_change = mode == GamePositions.ALL
    fens = fens and mode != GamePositions.START
    codes = _Codes(reading)
    caption = reading.caption
    for game in pgn.split_games(reading.source.lines()):
        reading.records_read += 1
        number = reading.records_read
        headers = {key: game.headers[key] for key in GAME_TAGS if key in game.headers}
        if (comment := hhdb.first_comment(game.movetext, headers)) is not None:
            headers[hhdb.FIRST_COMMENT] = comment
        try:
            if mode == GamePositions.START and game.headers:  # the movetext is not read at all
                yield _start_record(reading, game, number, headers)
                continue
            replayed = _replay(game, every_change, fens)
        except pgn.PgnError as error:
            yield BadRecord(number, game.line_of(error.offset), f"game from line {game.line}: {error.message}")
            continue
        reading.classified_any = True
        kings = replayed.kings
        printed = _game_caption(game, caption)
        if mode == GamePositions.START:  # a game without tags: only its moves say it is one
            ply, counts, fen = replayed.changes[0]
            material, code = codes.of(counts, kings)
            yield Record(number, game.line, code, material, chess.STARTING_FEN, ply, headers=headers, caption=printed)
            continue
        if mode == GamePositions.FINAL:
            ply, counts, fen = replayed.final
            material, code = codes.of(counts, kings)
            yield Record(number, game.line, code, material, fen, ply, headers=headers, caption=printed)
            continue
        # Every class once, with the plies the game stayed in it: material only shrinks
        # (a capture, or a pawn promoted), so a class is never left and entered again.
        changes = replayed.changes
        last_ply = replayed.final[0]
        entered: Record | None = None
        entered_ply = 0  # entered.ply, which a Record holds as optional
        for index, (ply, counts, fen) in enumerate(changes):
            material, code = codes.of(counts, kings)
            if entered is None or code != entered.code:
                entered = Record(number, game.line, code, material, fen, ply, headers=headers, caption=printed)
                entered_ply = ply
            if index + 1 == len(changes) or codes.of(changes[index + 1][1], kings)[1] != code:
                held = (changes[index + 1][0] if index + 1 < len(changes) else last_ply) - entered_ply
                if held >= reading.min_plies:
                    yield replace(entered, plies=held)


class _Codes:
    """The material and code of a game's men, kept for the counts met most."""

    def __init__(self, reading: Reading) -> None:
        self.rule = reading.rule
        self.by_counts: dict[tuple[BothSidesCounts, tuple[int, int]], tuple[Material, str]] = {}

    def of(self, counts: BothSidesCounts, kings: tuple[int, int]) -> tuple[Material, str]:
        try:
            return self.by_counts[counts, kings]
        except KeyError:
            if len(self.by_counts) > _CODES_KEPT:
                self.by_counts.clear()
            material = Material(counts[:5], counts[5:], kings)
            found = self.by_counts[counts, kings] = (material, encode(material, self.rule))
            return found


def _game_caption(game: pgn.RawGame, caption: str | None) -> str | None:
    return caption_text(game.headers.get(caption)) if caption is not None else None


def _start_record(reading: Reading, game: pgn.RawGame, number: int, headers: dict[str, str]) -> Item:
    """A game's record in ``start`` mode: from its tags alone, the movetext unread."""
    if game.error is not None and not game.movetext_fault:
        raise game.error
    _check_utf8(game.headers.values())
    board = _start(game).board
    reading.classified_any = True
    material = Material.from_board(board)
    return Record(
        number,
        game.line,
        encode(material, reading.rule),
        material,
        board.fen(),
        0,
        headers=headers,
        caption=_game_caption(game, reading.caption),
    )


def _replay(game: pgn.RawGame, every_change: bool, fens: bool) -> Replayed:
    """Replay a game's mainline; PgnError (with the offset of the fault) when it is broken."""
    if game.error is not None:
        raise game.error
    _check_utf8((game.movetext, *game.headers.values()), game.movetext)
    start = _start(game)
    sans = pgn.san_tokens(game.movetext)
    try:
        return replay(start, sans, every_change, fens)
    except MoveError as error:
        offset = pgn.move_offset(game.movetext, error.index)
        raise pgn.PgnError(f"{error.message} at ply {error.index + 1}", offset) from None


def _check_utf8(texts: Iterable[str], movetext: str | None = None) -> None:
    """PgnError for the first text with bytes that are not UTF-8 (its offset in the movetext)."""
    for text in texts:
        bad = not_utf8(text)
        if bad is not None:
            offset = bad if text is movetext else None
            raise pgn.PgnError(f"bytes that are not UTF-8 ({text[max(0, bad - 10) : bad].strip()!r}...)", offset)


def _start(game: pgn.RawGame) -> StartPosition:
    """The game's start position; a PgnError reported at the line of the tag at fault."""
    headers = game.headers
    if "FEN" not in headers and "Variant" not in headers:
        if headers.get("SetUp") == "1":
            game.error_line = game.tag_lines.get("SetUp")
            raise pgn.PgnError("SetUp is 1 but there is no FEN tag")
        return STANDARD_START
    import chess.pgn  # here: it imports chess.engine and asyncio, which most games never need

    tags = chess.pgn.Headers(headers)
    try:
        tags.variant()
    except ValueError as error:
        game.error_line = game.tag_lines.get("Variant")
        raise pgn.PgnError(f"bad start position: {chess_reason(error)}") from None
    try:
        return StartPosition(tags.board())
    except ValueError as error:
        game.error_line = game.tag_lines.get("FEN", game.tag_lines.get("Variant"))
        raise pgn.PgnError(f"bad start position: {chess_reason(error)}") from None
