"""A tally from rows of materials with counts, as an index keeps them (its ``materials``
table): the codes worked out for all rows at once, the materials behind codes with a 9 kept
packed (``fast.PackedMaterials``), so that a ``Material`` is made only for a class listed with
its materials, not for each of tens of thousands of rows."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from gbr_tui.core.code import Rule
from gbr_tui.core.collection.tally import MEN_SHIFTS, ONE_KING_A_SIDE, Results, Tally
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import Material

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


def tally_of_materials(
    men: NDArray[np.integer],
    kings: NDArray[np.integer],
    counts: NDArray[np.integer],
    results: list[Results | None] | None,
    rule: Rule,
) -> Tally:
    """The tally of materials given as numpy rows: ``men`` (Q R B N P q r b n p), ``kings``
    (White's, Black's) and ``counts``; ``results`` a row, for games (None: positions, or a
    material of no game). GbrError for a row with more than eight pawns a side."""
    import numpy as np

    from gbr_tui.core.fast import VectorEncoder
    from gbr_tui.core.packed_materials import PackedMaterials

    if len(men) and (men[:, 4].max() > 8 or men[:, 9].max() > 8):
        raise GbrError("a material with more than eight pawns a side")
    text = VectorEncoder(rule).count_rows(men)
    codes = text.tobytes().decode("ascii").split("\n")[:-1]
    nines = (text[:, :4] == ord("9")).any(axis=1)
    tally = Tally()
    number = counts.tolist()
    coded: Counter[str] = tally.codes
    for code, count in zip(codes, number):
        coded[code] += count
    one_king = (kings == 1).all(axis=1)
    odd = np.flatnonzero(~one_king)
    if results is None:
        packed = np.flatnonzero(nines & one_king)
        if len(packed):
            keys = (men[packed].astype(np.int64) << np.array(MEN_SHIFTS, dtype=np.int64)).sum(axis=1)
            full = np.ascontiguousarray(text[packed, :7]).view("S7").ravel()
            tally.packed = PackedMaterials()
            tally.packed.add(full, keys, counts[packed].astype(np.int64))
    else:
        odd = np.flatnonzero(nines | ~one_king | np.array([held is not None for held in results], dtype=bool))
    for row in odd.tolist():
        material = Material(tuple(men[row, :5].tolist()), tuple(men[row, 5:].tolist()), tuple(kings[row].tolist()))
        code = codes[row]
        if "9" in code[:4] or material.kings != ONE_KING_A_SIDE:
            tally.add_hidden(code, material, number[row])
        if results is not None and results[row] is not None:
            held = tally.results.setdefault((code, material), [0, 0, 0, 0])
            held[:] = [a + b for a, b in zip(held, results[row])]
    return tally
