"""The batch path's materials behind codes with a 9 (``Tally.add_packed``): counted together
whatever the blocks they came in, merged and pickled (worker processes) without loss."""

from __future__ import annotations

import pickle

from gbr_tui.core.collection import Tally
from gbr_tui.core.fast import VectorEncoder

# Three or more knights on one side make the knight digit a 9 (spec: a 9 hides three or more),
# so both of these are 0009.00, White with three knights or with four, Black a bare king.
THREE_KNIGHTS = "4k3/8/8/8/8/8/8/NNN1K3 w - - 0 1"
FOUR_KNIGHTS = "4k3/8/8/8/8/8/8/NNNNK3 w - - 0 1"


def tally_of(*blocks: list[str]) -> Tally:
    tally = Tally()
    encoder = VectorEncoder()
    for block in blocks:
        vetted = encoder.vet(block)
        assert not vetted.rejected
        tally.codes.update(vetted.codes)
        tally.add_packed(*vetted.nine_keys())
    return tally


def listed(tally: Tally) -> list[tuple[str, list[tuple[str, int]], int]]:
    return [(row.code, [(str(m), n) for m, n in row.materials], row.count) for row in tally.classes()]


def test_equal_counts_are_listed_the_same_whatever_block_came_first() -> None:
    forward = tally_of([THREE_KNIGHTS, FOUR_KNIGHTS], [FOUR_KNIGHTS, THREE_KNIGHTS])
    backward = tally_of([FOUR_KNIGHTS], [THREE_KNIGHTS, THREE_KNIGHTS, FOUR_KNIGHTS])
    assert listed(forward) == listed(backward)
    assert sorted(listed(forward)[0][1]) == [("KNNN v K", 2), ("KNNNN v K", 2)]


def test_the_most_frequent_material_comes_first_and_materials_sum_to_the_count() -> None:
    tally = tally_of([FOUR_KNIGHTS, THREE_KNIGHTS], [THREE_KNIGHTS])
    assert listed(tally) == [("0009.00", [("KNNN v K", 2), ("KNNNN v K", 1)], 3)]
    assert {str(m): n for m, n in tally.materials("0009.00").items()} == {"KNNN v K": 2, "KNNNN v K": 1}
    row = tally.classes()[0]
    assert len(row.materials) == 2 and [str(m) for m, _ in row.materials[:1]] == ["KNNN v K"]


def test_merged_and_pickled_tallies_count_as_one() -> None:
    whole = tally_of([THREE_KNIGHTS, FOUR_KNIGHTS, THREE_KNIGHTS])
    merged = Tally()
    for part in ([THREE_KNIGHTS], [FOUR_KNIGHTS, THREE_KNIGHTS]):
        merged.merge(pickle.loads(pickle.dumps(tally_of(part))))
    assert listed(merged) == listed(whole)


def test_a_tally_of_several_blocks_is_listed_the_same_once_pickled() -> None:
    # Each block is counted apart until the tally is pickled, which counts them together.
    tally = tally_of([THREE_KNIGHTS], [FOUR_KNIGHTS], [THREE_KNIGHTS])
    copied = pickle.loads(pickle.dumps(tally))
    assert listed(copied) == listed(tally) == [("0009.00", [("KNNN v K", 2), ("KNNNN v K", 1)], 3)]
    merged = Tally()
    merged.merge(copied)
    merged.merge(pickle.loads(pickle.dumps(tally_of([FOUR_KNIGHTS], [FOUR_KNIGHTS]))))
    assert listed(merged) == [("0009.00", [("KNNNN v K", 3), ("KNNN v K", 2)], 5)]  # the most first
