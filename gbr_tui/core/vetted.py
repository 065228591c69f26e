"""A batch's verdicts, the interface between the batch encoder (``batch``) and numpy's path
(``fast``): neither imports the other for it, and this module never imports numpy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gbr_tui.core.material import Material

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


class Vetted:
    """A batch none of whose texts is vouched for: every one is ``rejected``, python-chess's to
    judge. ``fast.VettedBlock`` vouches for the plain ones, with their codes and men."""

    #: From ``vet_text``: where each line ends in the text, when known.
    line_ends: NDArray[np.intp] | None = None

    def __init__(self, texts: int) -> None:
        self.rejected: Sequence[int] = range(texts)

    @property
    def codes(self) -> list[str]:
        """The code of each text vouched for, "" in the place of each rejected one."""
        return [""] * len(self.rejected)

    @property
    def written(self) -> str | None:
        """Every code, a line end after each, when every text was vouched for (as one string:
        no list of them is made); None otherwise."""
        return None

    def material(self, index: int) -> Material:
        """The men behind the code of text ``index``, which must have been vouched for."""
        raise IndexError(f"text {index} of the batch was not vouched for")

    def code_indices(self) -> NDArray[np.int32] | None:
        """The codes vouched for as numbers (``fast.code_indices``); None: count ``codes``."""
        return None

    def nine_keys(self) -> tuple[Sequence[bytes] | NDArray[np.bytes_], Sequence[int] | NDArray[np.int64]]:
        """The vouched-for codes with a 9, which hide their material, and the men behind each
        packed in one number (``Tally.add_packed``); none here."""
        return [], []
