"""Captions as printed: reading a result text, writing a position in each printed form.

Results (spec section 3) are often free text: ``Draw?``, ``White wins in 78 moves``, ``Black to
move loses``, ``BTM, win``. The text is kept as printed; only what its words say is derived:

* a win for White gives ``+``, a draw ``=``; a bare ``Win`` (no side named) is White's, as EG
  prints every stipulation from White's side, so ``BTM, win`` is White's win with Black to move;
* "Black to move loses" is White's win; a win named for Black (or a loss for White) has no
  sign: the stipulation stays unset;
* "could win" / "could draw" still give ``+`` / ``=``: the stipulation names the aim, and the
  hedge stays in the kept text, as does a question mark;
* "Black to move" / ``BTM`` give Black the move, "White to move" / ``WTM`` White;
* words for both a win and a draw give no sign.

Forms written (``write_caption``): compact ``=0323.12g3g1a3a2e1g8h6c3c6``; EG
``g3g1 0323.12 a3a2e1g8.h6c3c6 4/5 Draw``; ARVES ``a7d3 0116.00 b2b3c6d6 3/3+``; German
``0000.02.a1a8.a2b2`` (code, kings and pieces together, pawns); book ``+ 1234.56 a7c8`` (the other men's squares follow the kings, spaced,
so that the form gives the whole board).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from gbr_tui.core.code import Rule, encode, extended_code, extended_squares
from gbr_tui.core.errors import GbrError

FORMS = ("compact", "eg", "arves", "german", "book")

_TOKEN = re.compile(r"[a-z]+|[+=]")
_WIN = {"win", "wins", "won", "winning"}
_DRAW = {"draw", "draws", "drawn", "drawing"}
_LOSS = {"lose", "loses", "lost", "losing"}
_SIDES = {"white": chess.WHITE, "black": chess.BLACK}
_MOVERS = {"wtm": chess.WHITE, "btm": chess.BLACK}


@dataclass(frozen=True)
class ResultReading:
    """What a printed result text says: a stipulation sign and a side to move, each or neither."""

    stipulation: str | None
    side_to_move: chess.Color | None
    queried: bool  # a '?' is printed


def read_result(text: str) -> ResultReading:
    """Derive from a result text as printed only what its words say (module docstring)."""
    lower = text.lower()
    mover: chess.Color | None = None
    signs: set[str] = set()
    for clause in lower.split(","):
        tokens = _TOKEN.findall(clause)
        subject: chess.Color | None = None
        for index, token in enumerate(tokens):
            if token in _MOVERS and mover is None:
                mover = _MOVERS[token]
            elif token in _SIDES:
                if tokens[index + 1 : index + 3] == ["to", "move"] and mover is None:
                    mover = _SIDES[token]
                subject = _SIDES[token] if subject is None else subject
            elif token in _DRAW or token == "=":
                signs.add("=")
            elif token in _WIN or token == "+":
                if subject in (None, chess.WHITE) or token == "+":
                    signs.add("+")
                else:
                    signs.add("black wins")
            elif token in _LOSS:
                signs.add("+" if subject == chess.BLACK else "no white win")
    stipulation = next(iter(signs)) if len(signs) == 1 else None
    if stipulation not in ("+", "="):
        stipulation = None
    return ResultReading(stipulation, mover, "?" in text)


# --- writing ------------------------------------------------------------------------------------

_EG_WORDS = {"+": "Win", "=": "Draw"}


def _names(squares: list[chess.Square]) -> str:
    return "".join(chess.square_name(square) for square in squares)


def _men_count(board: chess.BaseBoard) -> str:
    return "/".join(str(chess.popcount(board.occupied_co[color])) for color in (chess.WHITE, chess.BLACK))


def _check_result(stipulation: str | None, result: str | None, needed: bool) -> None:
    """A result text must not contradict the stipulation; where the form writes the
    stipulation only in the result part (``needed``), the text must say it."""
    if result is None or not stipulation:
        return
    said = read_result(result).stipulation
    if said != stipulation and (said is not None or needed):
        raise GbrError(f"the result {result!r} does not say the stipulation {stipulation}")


def write_caption(
    board: chess.BaseBoard,
    form: str = "compact",
    stipulation: str | None = None,
    result: str | None = None,
    rule: Rule = Rule.COUNT,
) -> str:
    """``board`` (one king a side) written in one printed ``form`` of ``FORMS``.

    ``stipulation`` is ``+``, ``=`` or None; ``result`` a result text written as given, in the
    result part of the form (after the code in the compact, German and book forms, whose
    stipulation is a prefix). EG writes ``BTM`` when Black is to move and no result is given.
    """
    if form not in FORMS:
        raise GbrError(f"unknown form {form!r}: expected one of {', '.join(FORMS)}")
    if stipulation not in (None, "", "+", "="):
        raise GbrError(f"stipulation must be '+' (win) or '=' (draw), not {stipulation!r}")
    stipulation = stipulation or None
    if result is not None and not result.strip():
        result = None
    _check_result(stipulation, result, needed=form in ("eg", "arves"))
    squares = extended_squares(board)
    kings, men = _names(squares[:2]), squares[2:]
    code = encode(board, rule)
    tail = f" {result}" if result else ""
    pawns = set(chess.SquareSet(board.pawns))
    pieces_part = _names([square for square in men if square not in pawns])
    pawns_part = _names([square for square in men if square in pawns])
    if form == "compact":
        return extended_code(board, stipulation, rule) + tail
    if form == "german":
        # Print runs the kings and the pieces together in one section (spec section 3).
        parts = [code, kings + pieces_part] + ([pawns_part] if pawns_part else [])
        return (stipulation or "") + ".".join(parts) + tail
    if form == "book":
        return " ".join(part for part in (stipulation, code, kings, _names(men)) if part) + tail
    if form == "arves":
        parts = [kings, code, _names(men), _men_count(board) + (stipulation or "" if result is None else "")]
        return " ".join(part for part in parts if part) + tail
    # EG: kings, code, pieces '.' pawns, men count with kings, the result as a word.
    if result is None:
        words = [
            word
            for word in (
                "BTM" if getattr(board, "turn", chess.WHITE) == chess.BLACK else "",
                _EG_WORDS.get(stipulation or ""),
            )
            if word
        ]
        result = ", ".join(words) or None
    men_part = ".".join(part for part in (pieces_part, pawns_part) if part)
    return " ".join(part for part in (kings, code, men_part, _men_count(board), result) if part)
