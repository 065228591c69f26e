"""Encoding many FENs fast, with exactly the answers python-chess parsing would give.

A few FENs are python-chess's alone: a board each. Many go through numpy a block at a time
(``gbr_tui.core.fast``), whose checks vouch for the plain lines and leave every other line to
python-chess, so verdicts and messages are the same either way. numpy's import costs about as
much CPU as python-chess spends on ``NUMPY_WORTH`` FENs (0.3 s against some 35 us a FEN,
measured on the benchmark machine), so an encoder that has been given fewer FENs in all (a few
lines typed, a pipe that trickles) never imports it; once it is imported, every batch uses it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from gbr_tui.core.code import Rule, format_code, material_digits
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import Material, board_from_fen
from gbr_tui.core.vetted import Vetted

if TYPE_CHECKING:
    from gbr_tui.core.fast import VectorEncoder

NUMPY_WORTH = 8192  # FENs in a batch from which numpy's import pays
_CHUNK = 1 << 14  # FENs vetted at once (about 1 MB of text)
_FAST_MODULE = "gbr_tui.core.fast"


class FenEncoder:
    """Codes of FENs (full, or the placement field alone), one rule and form per encoder.

    ``vector`` True or False forces numpy's path or python-chess's (tests); None chooses by
    the size of each batch.
    """

    def __init__(self, rule: Rule = Rule.COUNT, short: bool = False, vector: bool | None = None) -> None:
        self.rule = rule
        self.short = short
        self.vector = vector
        self._vector_encoder: VectorEncoder | None = None
        self._fens_seen = 0  # in all the batches so far: a pipe's come a few at a time

    def code(self, fen: str) -> str:
        """The code of one FEN; raises GbrError for a FEN python-chess would reject."""
        return self.material_and_code(fen)[1]

    def material_and_code(self, fen: str) -> tuple[Material, str]:
        """The material and the code of one FEN (python-chess reads it)."""
        material = Material.from_board(board_from_fen(fen))
        return material, format_code(material_digits(material, self.rule), self.short)

    def vet(self, fens: list[str]) -> Vetted:
        """The batch's plain FENs encoded the fast way; none when the batch is too small for it."""
        if not fens or not self._uses_numpy(len(fens)):
            return Vetted(len(fens))
        return self._vector().vet(fens)

    def vet_text(self, text: str, lines: int) -> Vetted:
        """As ``vet``, for the ``lines`` lines of one text, a line end after each."""
        if not lines or not self._uses_numpy(lines):
            return Vetted(lines)
        return self._vector().vet_text(text)

    def _vector(self) -> VectorEncoder:
        if self._vector_encoder is None:
            from gbr_tui.core.fast import VectorEncoder

            self._vector_encoder = VectorEncoder(self.rule, self.short)
        return self._vector_encoder

    def codes(self, fens: list[str]) -> list[str | GbrError]:
        """The code of each FEN, in order, with a GbrError in place of each bad FEN: the batch
        path of ``gbr-tui encode``."""
        if len(fens) > _CHUNK:  # numpy is fastest on blocks whose arrays fit the caches
            return [code for start in range(0, len(fens), _CHUNK) for code in self.codes(fens[start : start + _CHUNK])]
        vetted = self.vet(fens)
        results: list[str | GbrError] = list(vetted.codes)
        for index in vetted.rejected:
            try:
                results[index] = self.material_and_code(fens[index])[1]
            except GbrError as error:
                results[index] = error
        return results

    def _uses_numpy(self, size: int) -> bool:
        if self.vector is not None:
            return self.vector
        self._fens_seen += size
        return self._fens_seen >= NUMPY_WORTH or _FAST_MODULE in sys.modules
