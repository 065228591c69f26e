"""The materials behind codes with a 9, as numpy's path found them (``fast``), counted by code."""

from __future__ import annotations

import numpy as np

from gbr_tui.core.fast import code_indices, sorted_order
from gbr_tui.core.material import Material

#: The runs of materials once counted: the runs' codes (sorted), starts and stops.
_Runs = tuple[np.ndarray, np.ndarray, np.ndarray]
#: What is pickled (a worker's count handed back): the blocks, one once counted, and the runs.
_State = tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], _Runs]


class PackedMaterials:
    """The materials behind codes with a 9, as the batch path found them: each a packed key
    (six bits a type, as ``fast.VettedBlock.keys``) beside its code. Blocks are only appended; they
    are counted together when first asked, and a ``Material`` is made only for those asked for.
    """

    def __init__(self) -> None:
        self._codes: list[np.ndarray] = []  # a block's full codes (S7), a key each
        self._keys: list[np.ndarray] = []
        self._counts: list[np.ndarray] = []
        self._runs: _Runs | None = None
        self._groups: dict[str, tuple[int, int]] | None = None
        self._lengths: dict[str, int] | None = None
        self._men: bytes | None = None  # each counted key's men (10 bytes), with _times its count
        self._times: list[int] = []

    def add(self, codes: np.ndarray, keys: np.ndarray, counts: np.ndarray | None = None) -> None:
        if len(codes):
            self._codes.append(codes)
            self._keys.append(keys)
            self._counts.append(np.ones(len(keys), dtype=np.int64) if counts is None else counts)
            self._runs = self._groups = self._lengths = self._men = None

    def extend(self, other: PackedMaterials) -> None:
        if not self._codes:  # taken as they are: counted once, when first asked
            self._codes, self._keys, self._counts = list(other._codes), list(other._keys), list(other._counts)
            self._runs = other._runs
        elif other._codes:
            other._counted()
            self.add(other._codes[0], other._keys[0], other._counts[0])

    def count(self) -> None:
        """Count the blocks added so far (else done when first asked)."""
        self._counted()

    def _counted(self) -> _Runs:
        """Each code's run of (key, count), the most frequent first, equal counts by key: the
        runs' codes (sorted), starts and stops."""
        if self._runs is not None:
            return self._runs
        if not self._codes:
            self._runs = (np.array([], dtype="S7"), np.array([], dtype=np.int64), np.array([], dtype=np.int64))
            return self._runs
        codes = np.concatenate(self._codes)
        keys, counts = np.concatenate(self._keys), np.concatenate(self._counts)
        # One entry a (code, key): the key's men fix its code, so the key alone tells them apart.
        order = sorted_order(keys)
        keys = keys.take(order)
        new = np.empty(len(keys), dtype=bool)
        new[:1] = True
        np.not_equal(keys[1:], keys[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        keys, counts, codes = (
            keys.take(starts),
            np.add.reduceat(counts.take(order), starts),
            codes.take(order.take(starts)),
        )
        # By code, the most frequent first, equal counts by key (as they are): one key of both.
        numbers = code_indices(codes.view(np.uint8).reshape(len(codes), 7))
        most = int(counts.max(initial=0))
        order = sorted_order(numbers.astype(np.int64) * (most + 1) + (most - counts))
        keys, counts, codes, numbers = keys.take(order), counts.take(order), codes.take(order), numbers.take(order)
        starts = np.flatnonzero(np.diff(numbers, prepend=-1) != 0)
        self._codes = [codes]
        self._keys, self._counts = [keys], [counts]
        self._runs = (codes[starts], starts, np.append(starts[1:], len(keys)))
        return self._runs

    def _count(self) -> dict[str, tuple[int, int]]:
        """Each code's run, as (start, stop) by code."""
        if self._groups is None:
            names, starts, stops = self._counted()
            self._groups = dict(zip(names.astype("U7").tolist(), zip(starts.tolist(), stops.tolist())))
        return self._groups

    def codes(self) -> dict[str, int]:
        """Each code with how many materials are behind it."""
        if self._lengths is None:
            self._lengths = {code: stop - start for code, (start, stop) in self._count().items()}
        return self._lengths

    def materials(self, code: str, shown: int | None = None) -> list[tuple[Material, int]]:
        """The materials behind ``code`` (the first ``shown`` of them), the most frequent first."""
        start, stop = self._count().get(code, (0, 0))
        if shown is not None:
            stop = min(stop, start + shown)
        if self._men is None:  # one conversion for all: numpy's per-call cost is some 5 us a class
            # Bytes, not lists: a listing reads the first few materials of each class, and a
            # list of lists of all of them cost more than the rest of the listing.
            self._men = self.men_runs()[3].tobytes()
            self._times = self._counts[0].tolist()
        men = self._men
        return [
            (Material(tuple(men[at : at + 5]), tuple(men[at + 5 : at + 10])), count)
            for at, count in zip(range(10 * start, 10 * stop, 10), self._times[start:stop])
        ]

    def men_runs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Each code's run of materials as ``materials`` lists them: the runs' codes (sorted),
        starts and lengths; and the men of every material, a row each (Q R B N P q r b n p),
        and its count."""
        names, starts, stops = self._counted()
        keys = self._keys[0]
        men = np.empty((len(keys), 10), dtype=np.uint8)
        for column in range(10):
            men[:, column] = (keys >> (6 * column)) & 63
        return names, starts, stops - starts, men, self._counts[0]

    def __getstate__(self) -> _State:
        runs = self._counted()  # first: it leaves one block, counted
        return self._codes, self._keys, self._counts, runs

    def __setstate__(self, state: _State) -> None:
        self._codes, self._keys, self._counts, self._runs = state
        self._groups = self._lengths = self._men = None
