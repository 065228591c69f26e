"""PGN text: games split apart as python-chess separates them, and the SAN moves of a mainline.

Replaying the moves is ``gbr_tui.core.replay``'s part.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from gbr_tui.core.errors import GbrError

RESULTS = frozenset(("1-0", "0-1", "1/2-1/2", "*"))
_START_TAGS = frozenset(("FEN", "SetUp", "Variant"))  # the tags that set up the start

_TAG = re.compile(r'\[\s*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TAG_LINE = re.compile(rf"\s*(?:{_TAG.pattern}\s*)+")
_UNESCAPE = re.compile(r"\\(.)")

# Movetext without comments, variations or NAGs is split on whitespace once move numbers are gone.
_MOVE_NUMBER = re.compile(r"\b\d+\.+")
_MOVE_NUMBERS = re.compile(r"(?:\d+\.+ )*")  # words ending in a dot, a space after each
_EXPORT_NUMBERS = [f"{number}." for number in range(1, 1001)]  # a longer game's are cut out as above
_NUMBERS_EACH_MOVE = [f"{number}{dots}" for number in range(1, 1001) for dots in (".", "...")]
_RICH_MOVETEXT = re.compile(r"[{}();$%\\]")
_TOKEN = re.compile(
    r"""
    (?P<comment>\{[^}]*\}?)
    |(?P<rest>;[^\n]*)
    |(?P<nag>\$\d+)
    |(?P<open>\()
    |(?P<close>\))
    |(?P<number>\d+\.+)
    |(?P<word>[^\s{}();$]+)
    |(?P<stray>[^\s])
    """,
    re.VERBOSE,
)
_GLYPHS = re.compile(r"[!?]+")
_COMMENT = re.compile(r"\{[^}]*\}")
#: What a reader hands out for a line too long to keep (see ``collection.source``).
OVERLONG_LINE = "\x00(a line over 1 MB, not read)"
#: A game's text kept at most; beyond it the game is bad and the rest of its text is skipped.
MAX_GAME_CHARS = 1 << 24


class PgnError(GbrError):
    """A broken game. ``offset`` is where in the movetext the fault is, when known."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass
class RawGame:
    """One game as read from the file, before its moves are replayed."""

    line: int  # where the game starts
    movetext_line: int  # where its movetext starts
    headers: dict[str, str] = field(default_factory=dict)
    movetext: str = ""
    error: PgnError | None = None  # a fault found while splitting (a malformed tag)
    error_line: int | None = None
    movetext_fault: bool = False  # the fault is in the movetext (a start position is still read)
    tag_lines: dict[str, int] = field(default_factory=dict)  # where the FEN, SetUp, Variant tags are

    def fail(self, message: str, line: int) -> None:
        """Note a fault found while splitting (the first one is kept)."""
        if self.error is None:
            self.error = PgnError(message)
            self.error_line = line
            self.movetext_fault = True

    def line_of(self, offset: int | None) -> int:
        """The file line of an offset into the movetext."""
        if offset is None:
            return self.error_line or self.line
        return self.movetext_line + self.movetext.count("\n", 0, offset)


def split_games(lines: Iterable[str], first_line: int = 1) -> Iterator[RawGame]:
    """Games from PGN lines (without their line ends), as python-chess separates them.

    A game is its tag pairs, then movetext up to a blank line or the next tag line. Lines
    starting with ``%`` are escapes and skipped. Blank lines inside ``{...}`` do not end a game.
    """
    game: RawGame | None = None
    movetext: list[str] = []
    size = 0  # of the movetext kept
    in_comment = False
    after_blank = False  # the line before was blank
    number = first_line - 1
    for line in lines:
        number += 1
        if in_comment:
            assert game is not None  # a comment is only open in a game's movetext
            if after_blank and line.startswith("[Event "):  # the comment was never closed
                in_comment = False
            else:
                after_blank = not line or line.isspace()
                size += len(line)
                if size > MAX_GAME_CHARS:
                    if size - len(line) <= MAX_GAME_CHARS:
                        game.fail("the game's text is over 16 MB long (the rest is skipped)", number)
                    in_comment = still_in_comment(line, True)
                    continue
                movetext.append(line)
                in_comment = still_in_comment(line, True)
                continue
        if not line or line.isspace():
            after_blank = True
            if movetext:
                assert game is not None  # movetext is only kept in a game
                game.movetext = "\n".join(movetext)
                yield game
                game, movetext, size = None, [], 0
            continue
        after_blank = False
        first = line[0]
        if first == "%":
            continue
        if first == "[" and not movetext:
            if game is None:
                game = RawGame(number, number)
            _read_tags(game, line, number)
            continue
        if first == "[":
            assert game is not None  # movetext is only kept in a game
            game.movetext = "\n".join(movetext)
            yield game
            game, movetext, size = RawGame(number, number), [], 0
            _read_tags(game, line, number)
            continue
        if game is None:
            game = RawGame(number, number)
        if not movetext:
            game.movetext_line = number
        if first == "\x00" and line == OVERLONG_LINE:
            game.fail("a line over 1 MB long", number)
            movetext.append("")  # the game goes on to its end all the same
            continue
        size += len(line)
        if size > MAX_GAME_CHARS:
            if size - len(line) <= MAX_GAME_CHARS:
                game.fail("the game's text is over 16 MB long (the rest is skipped)", number)
        else:
            movetext.append(line)
        if "{" in line or "}" in line:
            in_comment = still_in_comment(line, False)
    if game is not None:
        game.movetext = "\n".join(movetext)
        yield game


def still_in_comment(line: str, in_comment: bool) -> bool:
    """Whether a ``{`` comment is open at the end of ``line`` (open at its start when
    ``in_comment``): a comment ends at the first ``}``, and ``;`` outside one comments out the
    rest of the line. Whole comments are cut out at regex speed (Lichess's lines hold hundreds)."""
    if in_comment:
        end = line.find("}")
        if end < 0:
            return True
        line = line[end + 1 :]
    rest = _COMMENT.sub("", line) if "}" in line else line
    brace = rest.find("{")
    return brace >= 0 and rest.find(";", 0, brace) < 0


def _read_tags(game: RawGame, line: str, number: int) -> None:
    single = _TAG.fullmatch(line)  # most lines hold one tag and nothing else: one regex pass
    if single is not None:
        tags: Iterable[tuple[str, str]] = ((single[1], single[2]),)
    elif _TAG_LINE.fullmatch(line) is None:
        if game.error is None:
            game.error = PgnError(f"malformed tag line {line.strip()[:40]!r}")
            game.error_line = number
        return
    else:
        tags = _TAG.findall(line)
    for name, value in tags:
        game.headers[name] = _UNESCAPE.sub(r"\1", value) if "\\" in value else value
        if name in _START_TAGS:
            game.tag_lines[name] = number


def san_tokens(movetext: str) -> list[str]:
    """The mainline's moves: no move numbers, comments, variations, NAGs, glyphs, ``e.p.`` or
    result.

    Raises PgnError for unbalanced braces or parentheses and for moves after the result.
    """
    if _RICH_MOVETEXT.search(movetext) is not None:
        return _commented_tokens(movetext)
    return _plain_tokens(movetext)


def _commented_tokens(movetext: str) -> list[str]:
    """The moves of movetext with comments: Lichess's export has one after every move
    (``{ [%clk 0:04:52] }``). Comments alone are cut out at regex speed and the rest read as
    plain movetext; anything else (variations, NAGs, a brace left over, a fault) is read token
    by token, which also words the faults and their places."""
    bare = _COMMENT.sub(" ", movetext) if "{" in movetext else movetext
    if _RICH_MOVETEXT.search(bare) is None:
        try:
            return _plain_tokens(bare)
        except PgnError:
            pass  # placed in the movetext with its comments, below
    return _rich_tokens(movetext)


def _plain_tokens(movetext: str) -> list[str]:
    """``san_tokens`` of movetext without comments, variations or NAGs."""
    tokens = movetext.split()
    # Export format, "1. e4 e5 2. Nf3": every third word the next number, and no other dot.
    end = len(tokens) - 1 if tokens and tokens[-1] in RESULTS else len(tokens)
    numbers = tokens[:end:3]
    if numbers == _EXPORT_NUMBERS[: len(numbers)] and movetext.count(".") == len(numbers):
        del tokens[:end:3]
    elif _numbered_each_move(tokens, end, movetext):
        del tokens[:end:2]
    else:
        # Words that end in a dot: when they are all move numbers ("12.", "12...") and hold
        # every dot, they are the words the regex below takes out, found without it.
        dotted = "".join(token + " " for token in tokens if token[-1] == ".")
        if dotted.count(".") == movetext.count(".") and _MOVE_NUMBERS.fullmatch(dotted) is not None:
            tokens = [token for token in tokens if token[-1] != "."]
        else:
            tokens = _MOVE_NUMBER.sub(" ", movetext).split()
    if tokens and tokens[-1] in RESULTS:
        tokens.pop()
    if not RESULTS.isdisjoint(tokens):
        result = next(token for token in tokens if token in RESULTS)
        raise PgnError(f"moves after the result {result}", _offset_of(movetext, result))
    if "!" in movetext or "?" in movetext or "e.p." in movetext:
        tokens = [move for move in map(_move_only, tokens) if move]
    return tokens


def _numbered_each_move(tokens: list[str], end: int, movetext: str) -> bool:
    """Whether the words are "1. e4 1... e5 2. Nf3": a number before every move, as Lichess
    writes them once the comment between them is gone, and no other dot."""
    numbers = tokens[:end:2]
    count = len(numbers)
    return numbers == _NUMBERS_EACH_MOVE[:count] and movetext.count(".") == count // 2 * 4 + count % 2


def _move_only(token: str) -> str:
    """A move token without its glyphs (``!?``); empty for glyphs alone and ``e.p.``."""
    return "" if token == "e.p." else _GLYPHS.sub("", token)


def _offset_of(movetext: str, token: str) -> int | None:
    match = re.search(rf"(?<!\S){re.escape(token)}(?!\S)", movetext)
    return match.start() if match else None


def _rich_tokens(movetext: str) -> list[str]:
    tokens: list[str] = []
    depth = 0
    result_at: int | None = None
    for match in _TOKEN.finditer(movetext):
        kind = match.lastgroup
        text = match.group()
        if kind == "comment":
            if not text.endswith("}"):
                raise PgnError("a comment '{' is never closed", match.start())
        elif kind == "open":
            depth += 1
        elif kind == "close":
            if depth == 0:
                raise PgnError("')' closes no variation", match.start())
            depth -= 1
        elif kind == "stray":
            raise PgnError(f"unexpected {text!r}", match.start())
        elif kind == "word" and depth == 0:
            if text in RESULTS:
                result_at = match.start()
                continue
            move = _move_only(text)
            if not move:
                continue
            if result_at is not None:
                raise PgnError("moves after the result", match.start())
            tokens.append(move)
    if depth:
        raise PgnError("a variation '(' is never closed", len(movetext))
    return tokens


def move_offset(movetext: str, index: int) -> int | None:
    """Where the ``index``-th mainline move (0-based) starts in the movetext (for reports)."""
    depth = 0
    seen = 0
    for match in _TOKEN.finditer(movetext):
        kind = match.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
        elif kind == "word" and depth == 0 and match.group() not in RESULTS and _move_only(match.group()):
            if seen == index:
                return match.start()
            seen += 1
    return None
