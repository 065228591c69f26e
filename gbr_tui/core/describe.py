"""Every sentence the app and the command line say, in one wording: sides, stipulations, the
editor's notices, what is kept between runs, checks of printed captions, collections and their
indexes (the words of clusters and worker processes: ``cluster_words``).

Plain wording only: these functions word facts they are given. What a code and its digits mean
is worked out in ``explanation``, the forms a position is written in in ``written_forms``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import chess

from gbr_tui.core.code import Rule
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import TYPE_NAMES, Material
from gbr_tui.core.text import printable

if TYPE_CHECKING:
    from gbr_tui.core.examples import Example
    from gbr_tui.core.notation import DecodedCode

SIDE_NAMES = {chess.WHITE: "White", chess.BLACK: "Black"}
NUMBER_WORDS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight")

STIPULATION_WORDS = {"+": "White to play and win", "=": "White to play and draw"}
#: The same stipulations with Black to move, as study columns print them (EG: ``BTM, Win``).
BLACK_TO_MOVE_WORDS = {"+": "Black to move, White wins", "=": "Black to move, draw"}
NO_STIPULATION = "no stipulation"

#: The two rules side by side, for a choice between them.
RULE_CHOICE = "count: 9 for three or more of a type; promoted: 9 also for a second queen on a side"
RULE_MEANINGS = {
    Rule.COUNT: "count rule: a 9 means three or more of that type on a side",
    Rule.PROMOTED: "promoted rule: a 9 means three or more on a side, or two queens",
}


def join_words(words: list[str]) -> str:
    """``a, b and c``."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 class``, ``1,204 classes``."""
    return f"{count:,} {noun if count == 1 else nouns or noun + 's'}"


def number_of(count: int, noun: str) -> str:
    """``a bishop``, ``two bishops``, ``no pawns``; figures from nine on."""
    number = NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)
    return f"{number} {noun if count == 1 else noun + 's'}"


def stipulation_words(stipulation: str | None, turn: chess.Color = chess.WHITE) -> str:
    """``+ White to play and win`` (``+ Black to move, White wins`` with Black to move), or that
    there is none."""
    if not stipulation:
        return NO_STIPULATION
    words = STIPULATION_WORDS if turn == chess.WHITE else BLACK_TO_MOVE_WORDS
    return f"{stipulation} {words[stipulation]}"


def to_move_words(color: chess.Color) -> str:
    return f"{SIDE_NAMES[color]} to move"


def side_to_move_words(decoded: DecodedCode) -> str:
    """Who moves in a decoded text, and what says so (``DecodedCode.to_move``)."""
    if decoded.side_to_move is not None:
        return f"{SIDE_NAMES[decoded.side_to_move]}, as the result says"
    if decoded.stipulation:
        return "White, as the stipulation says (+ and = are White to play)"
    return "not given: a GBR code never says who moves"


def unknown_types_words(unknown: list[str]) -> str:
    """``knights``, ``queens and knights``: the types a 9 hides."""
    return join_words([TYPE_NAMES[piece_type] + "s" for piece_type in unknown])


def hidden_count_words(unknown: list[str]) -> str:
    """What a 9 leaves open, for the types it hides."""
    return f"a 9 hides the exact number of {unknown_types_words(unknown)}: three or more on a side"


def example_words(example: Example) -> str:
    """One example in full, for the line under the examples table: ``Saavedra 1895 · KP v KR ·
    G. E. Barbier & F. Saavedra, Glasgow Weekly Citizen 1895 · White to play and win``."""
    if example.fen is None:
        return f"{example.name} · {example.white} v {example.black}: a class, set up in a legal arrangement"
    men = f"{example.white} v {example.black}"
    parts = [example.name, men, example.source, example.result or to_move_words(example.board.turn)]
    return " · ".join(part for part in parts if part)


def example_loaded_words(example: Example, rule: Rule = Rule.COUNT) -> str:
    """What loading a named position says: what it is, and the stipulation it carries or why
    it carries none (``+`` and ``=`` are White to play)."""
    said = f"{example.code(rule, short=False)} {example.name}, as published ({example.source})"
    if example.stipulation:
        return f"{said}: {stipulation_words(example.stipulation)}"
    if example.result:
        return f"{said}: {example.result}; no + or = (both mean White to play)"
    return f"{said}: {to_move_words(example.board.turn)}, {NO_STIPULATION}"


# --- the editor -------------------------------------------------------------------------------------


#: The board pane's foot while no key waits for more: how to type men with their squares.
TYPING_HINT = "m types men: Kg3 h6"


def not_legal_words(warnings: Sequence[str]) -> str:
    """An input whose position chess cannot reach: its code is still given (spec section 5)."""
    return f"not a legal position ({'; '.join(warnings)}): its code is given all the same"


def not_legal_count_words(count: int) -> str:
    positions = "position is" if count == 1 else "positions are"
    return f"{count:,} {positions} not legal (said above): their codes are given all the same"


def no_match_words(typed: str) -> str:
    """The examples' line when the filter lets none through."""
    return f"No example matches '{printable(typed.strip(), 40)}': backspace edits the filter"


def pasted_words(text: str, problem: str) -> str:
    """Why a paste on the board set nothing up: its start (it may be anything) and the reason."""
    return f"Not a position: '{printable(text.strip(), 40)}': {problem}"


def typing_words(side: chess.Color, pending: str) -> str:
    """The board pane's foot while men are typed (``m``): whose men, and the man so far."""
    return f"typing {SIDE_NAMES[side]}'s men: {pending}_"


def en_passant_words(square: chess.Square, now: chess.Square | None, held: bool) -> str:
    """What setting the en passant square on ``square`` did: ``now`` is the board's after."""
    name = chess.square_name(square)
    if held:
        return f"en passant square {name}" if now is not None else "no en passant square"
    rank = chess.square_rank(square)
    if rank not in (2, 5):
        return f"{name} cannot be the en passant square: it is on the third or the sixth rank"
    mover = chess.WHITE if rank == 2 else chess.BLACK
    step = 8 if mover == chess.WHITE else -8
    past, start = chess.square_name(square + step), chess.square_name(square - step)
    return (
        f"{name} cannot be the en passant square: it needs a {SIDE_NAMES[mover]} pawn on {past}, "
        f"{name} and {start} empty, and {SIDE_NAMES[not mover]} to move"
    )


def castling_words(wanted: str, refused: str) -> str:
    """``castling rights KQkq``, and which of them the men do not allow yet (``-``: none)."""
    if refused == "-":
        return f"castling rights {wanted}"
    return f"castling rights {wanted}: {refused} not until its king and rook stand on their home squares"


def stipulation_conflict(stipulation: str | None, turn: chess.Color) -> str | None:
    """What to say when Black is to move under a stipulation, else None: the code's prefix
    (``+``, ``=``) reads as White to play, so Black's move is not in it."""
    if stipulation in STIPULATION_WORDS and turn == chess.BLACK:
        eg_word = "Win" if stipulation == "+" else "Draw"
        return f"Black to move: the code's {stipulation} does not say so (EG prints BTM, {eg_word})"
    return None


# --- what is kept between runs -------------------------------------------------------------------


def restored_words(fen: str, stipulation: str | None) -> str:
    """What the app says when it sets up the position left on the board last time."""
    return f"Set up as you left it: {fen}, {stipulation_words(stipulation)} (c clears the board)"


#: What a served client is told when it asks for an action that opens or saves a file on the
#: host anyway (by the action's name).
NOT_OFFERED = {
    "open_collection": "Opening files is not offered here: this app is served, and opens nothing on the server.",
    "show_collection": "Opening files is not offered here: this app is served, and opens nothing on the server.",
    "save_position": "Saving positions is not offered here: this app is served, and saves nothing on the server.",
    "screenshot": "Saving screenshots is not offered here: this app is served, and saves nothing on the server.",
    "build_index": "Writing an index is not offered here: this app is served, and writes nothing on the server.",
    "diagram": "Writing diagrams is not offered here: this app is served, and writes nothing on the server.",
    "find_similar": "Searching a collection is not offered here: this app is served, and opens nothing on the server.",
    "set_tablebases": "Tablebases are set when the server starts (GBR_TUI_TABLEBASES): not from here.",
}


def not_offered_words(action: str) -> str:
    return NOT_OFFERED.get(action, "Not offered here: this app is served.")


QUIT_HINT_WORDS = "ctrl+q quits (or 'Quit' in the ctrl+p palette); q is a Black queen on the board."


def first_start_words(example: Example) -> str:
    """What the app says at its very first start, over the study it opens with."""
    return (
        f"{example.source}: {example.result}, to show what the app does. "
        "c clears the board, s sets up the start position, i loads a FEN, a code or a piece list."
    )


def unknown_theme_words(theme: str) -> str:
    return f"the kept theme {printable(theme, 60)!r} is not one of this version's: the default theme"


def not_kept_words(path: object, error: OSError) -> str:
    reason = printable(error.strerror or str(error))
    return f"Settings cannot be kept in {printable(str(path), 200)} ({reason}): they last until you quit"


def saved_words(path: object, code: str | None) -> str:
    """``Appended the position to studies.pgn (GBR =0323.12g3g1...)``."""
    written = f"GBR {code}" if code else "no code: more than 8 pawns on a side"
    return f"Appended the position to {printable(str(path), 200)} ({written})"


def not_saved_words(path: object, error: Exception) -> str:
    reason = error.message if isinstance(error, GbrError) else (getattr(error, "strerror", None) or str(error))
    return f"The position is not saved to {printable(str(path), 200)}: {printable(reason)}"


# --- reading collections, checking their captions ---------------------------------------------------


def king_warnings(kings: tuple[int, int]) -> list[str]:
    """Why a position without one king a side is not a legal one, as ``position_warnings``
    words python-chess's flags."""
    words = [
        f"{SIDE_NAMES[color]} has no king" for color, count in zip((chess.WHITE, chess.BLACK), kings) if count == 0
    ]
    if max(kings) > 1:
        words.append("a side has more than one king")
    return words


def kingless_summary(count: int) -> str:
    """The line ``classify`` writes before its last when some positions lack one king a side."""
    positions = "position is" if count == 1 else "positions are"
    return f"{count:,} {positions} not legal (no king, or more than one, on a side): classified by their men"


def not_legal_status_words(count: int) -> str:
    """The browser's status line, of the positions without one king a side."""
    return f"{count:,} not legal (no king, or more than one, on a side)"


def read_summary(classified: int, bad: int) -> str:
    """``read 1,204 = classified 1,200 + bad 4``: every record read is one or the other."""
    return f"read {classified + bad:,} = classified {classified:,} + bad {bad:,}"


def check_summary(agree: int, disagree: int, unchecked: int, bad: int) -> str:
    """``checked 12 = agree 10 + disagree 2 (+ unchecked 3, bad 1)``: every record read is one of
    these; checked are those with a caption that decodes."""
    checked = agree + disagree
    return f"checked {checked:,} = agree {agree:,} + disagree {disagree:,} (+ unchecked {unchecked:,}, bad {bad:,})"


def no_captions_words(name: str) -> str:
    """What to say of a collection in which no record has a caption where one was looked for."""
    return (
        f"no record has a caption (no {printable(name, 60)} tag, opcode, field or column): "
        "--tag or --code-column names where they are"
    )


def caption_error_words(caption: str, error: GbrError) -> str:
    """Why a printed caption is not checked: ``the caption 'a7d3 01x6' does not decode: ...``."""
    spot = "" if error.offset is None else f" (at column {error.offset + 1})"
    return f"the caption '{printable(caption, 100)}' does not decode: {printable(error.message)}{spot}"


def disagreement_words(part: str, printed: str, actual: str, detail: str = "") -> str:
    """``code: printed 0324.12, the position gives 0323.12 (N printed 4, ...)``; for the
    tablebase's parts ``stipulation: printed +, the tablebase gives = (draw)`` and
    ``solution: 2.Kc5 spoils the win: now a draw``."""
    if part == "solution":
        return f"solution: {printable(printed, 100)} {detail or actual}"
    if part == "stipulation":
        words = f"stipulation: printed {printable(printed, 100)}, the tablebase gives {actual}"
        return f"{words} ({detail})" if detail else words
    words = f"{part}: printed {printable(printed, 100)}, the position gives {actual}"
    return f"{words} ({detail})" if detail else words


def other_rule_words(rule: Rule) -> str:
    return f"the {rule.value} rule gives the printed code"


def squares_difference_words(printed_only: set[chess.Square], position_only: set[chess.Square]) -> str:
    """``b4 printed, empty in the position; b3 in the position, not printed``; or that the
    squares are the same ones with other men on them."""
    if not printed_only and not position_only:
        return "the same squares, other men on them"
    words = []
    if printed_only:
        words.append(f"{_square_names(printed_only)} printed, empty in the position")
    if position_only:
        words.append(f"{_square_names(position_only)} in the position, not printed")
    return "; ".join(words)


def _square_names(squares: set[chess.Square]) -> str:
    return " ".join(chess.square_name(square) for square in sorted(squares))


#: The heading of the browser's column that marks the records whose printed code disagrees.
DISAGREEMENT_MARK = "check"


def disagreement_mark(parts: Sequence[tuple[str, str]]) -> str:
    """A disagreeing record's mark in a list: ``! code, kings`` (a sign that needs no colour)."""
    return "! " + ", ".join(part for part, _ in parts)


def disagreeing_words(count: int) -> str:
    """``2 printed codes disagree with their positions``."""
    if count == 1:
        return "1 printed code disagrees with its position"
    return f"{plural(count, 'printed code')} disagree with their positions"


def printed_words(caption: str, limit: int = 200) -> str:
    """``printed '=0324.12g3g1'``: a caption as printed, made printable."""
    return f"printed '{printable(caption, limit)}'"


def headers_words(headers: Mapping[str, str], limit: int = 60) -> str:
    """A record's headers in one line, made printable: ``White: Kubbel · Event: Shakhmaty``."""
    return " · ".join(f"{printable(name)}: {printable(value, limit)}" for name, value in headers.items())


# --- summaries of classes, the browser and indexes --------------------------------------------------


def share_of_games_note(games: int, row: str = "class") -> str:
    """Under a summary of every class games pass through: why its shares add up to more than
    100%; ``row`` is what a row is (a class, a family)."""
    return (
        f"share: of the {plural(games, 'game')}; a game counts once in each {row} it passes through, "
        "so the shares add up to more than 100%"
    )


#: The summary's columns for the results of games (the ``Result`` tag), and its score.
RESULT_HEADINGS = ("White", "draw", "Black", "unknown", "score")
#: How ``--either-colour`` (and the browser's toggle) writes a class.
EITHER_COLOUR_NOTE = (
    "either colour: each class is folded with its colour twin and written with the stronger side "
    "as White (more queens, then rooks, bishops, knights, pawns); its results are counted for that side"
)
#: What the score column is.
SCORE_NOTE = "score: White's points in percent (a draw is half) over the games with a known result"


#: The browser's one column for a class's results: White wins, draws, Black wins, unknown.
RESULTS_HEADING = "W/D/B/?"
_SORT_WORDS = {"code": "", "count": "most first", "score": "best score first"}


def browser_modes(either_colour: bool, sort: str, all_classes: bool) -> str:
    """What the browser's status adds about how the classes are listed: `` · either colour
    (stronger side as White) · most first · share of games``; empty for the default."""
    words = []
    if either_colour:
        words.append("either colour (stronger side as White)")
    if _SORT_WORDS[sort]:
        words.append(_SORT_WORDS[sort])
    if all_classes:
        words.append("share of games")
    return "".join(f" · {word}" for word in words)


def index_source_words(index: str, position: str) -> str:
    """Where the browser's classes come from when it reads an index."""
    return f"from the index {index}, built with --position {position}"


def index_reading_words(title: str, index: str) -> str:
    """While the browser opens an index: of the file ``title``, or named itself."""
    return f"Reading the index {index} ..." if title == index else f"Reading {title} from the index {index} ..."


def index_not_used_words(reason: str, file: str) -> str:
    """Why the browser reads a file itself though an index of it is there."""
    return f"{reason}: reading {file} itself"


def index_offer_words(file: str, size: int, index: str) -> str:
    return f"{file} is {size / 1e6:,.0f} MB: i writes an index of it ({index}), which opens at once next time"


def index_building_words(index: str, done: int, size: int) -> str:
    return f"Writing the index {index}: {done / 1e6:,.0f} of {size / 1e6:,.0f} MB read · i cancels"


def index_written_words(index: str) -> str:
    return f"Wrote {index}: the classes now come from it"


INDEX_CANCELLED_WORDS = "The index was not written (cancelled)"


def caption_options_words(tag: str | None, code_column: str | None) -> str:
    """Where captions are read, as the options that say it: ``--tag GBR --code-column 3``."""
    return " ".join(f"{option} {value}" for option, value in (("--tag", tag), ("--code-column", code_column)) if value)


def index_captions_words(index: str, held: str, asked: str) -> str:
    """Why ``check`` does not read an index whose captions were read elsewhere (``held`` and
    ``asked``: ``caption_options_words``)."""
    return (
        f"{index}: the index holds the captions read with {held}, not {asked}: give {held} or index again with {asked}"
    )


def score_words(score: float | None) -> str:
    """``62.5%``, or ``-`` when no game has a known result."""
    return "-" if score is None else f"{score:.1f}%"


def not_a_collection(file: str, records: int, line: int, reason: str) -> str:
    """Why a file is read as no chess collection at all: its first records are all bad."""
    return (
        f"{file}: not a chess collection: none of its first {records} records is a position or a game "
        f"(line {line}: {reason})"
    )


MATERIALS_SEPARATOR = ", "


def class_materials(materials: Sequence[tuple[Material, int]], shown: int = 3) -> str:
    """The materials of a class, most frequent first: ``KNNN v K, KNNN v KNN``, with ``2 more``
    after the first ``shown``."""
    names = [str(material) for material, _ in materials[:shown]]
    if len(materials) > shown:
        names.append(more_materials_words(len(materials) - shown))
    return MATERIALS_SEPARATOR.join(names)


def more_materials_words(count: int) -> str:
    """What follows the materials of a class that are shown: ``2 more``."""
    return f"{count} more"
