"""The batch path's counting without sorts of 64-bit numbers: radix orders against
``np.lexsort``, codes counted by index against a Counter, and the materials behind codes with a
9 listed as ``np.unique`` and ``np.lexsort`` list them (the order they had before)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from gbr_tui.core.fast import code_counts, code_indices, counted_codes, sorted_order, written_codes
from gbr_tui.core.packed_materials import PackedMaterials


@pytest.mark.parametrize(
    "highs",
    [
        [3],  # one key, a few values: many ties, which keep their order
        [1 << 16, 5],  # a key wider than one 16-bit digit
        [1 << 60, 1 << 20, 2],  # three keys, the widest a packed material's
    ],
)
def test_sorted_order_is_lexsorts(highs: list[int]) -> None:
    rng = np.random.default_rng(len(highs))
    keys = [rng.integers(0, high, 5000, dtype=np.int64) for high in highs]
    assert (sorted_order(*keys) == np.lexsort(keys)).all()


def test_sorted_order_of_nothing() -> None:
    assert sorted_order(np.zeros(0, dtype=np.int64)).tolist() == []


def code_rows(codes: list[str]) -> np.ndarray:
    return np.frombuffer("".join(codes).encode("ascii"), np.uint8).reshape(len(codes), 7)


def test_code_indices_are_the_six_digits() -> None:
    # 0400.00 (KQ v K, a spec example) is 040000; the dot is no digit.
    assert code_indices(code_rows(["0400.00", "9999.88", "0000.00", "1234.56"])).tolist() == [40000, 999988, 0, 123456]


def test_counted_codes_are_a_counter_in_the_order_codes_first_came() -> None:
    rng = np.random.default_rng(5)
    codes = [
        f"{rng.integers(0, 3)}{rng.integers(0, 3)}0{rng.integers(0, 9)}.{rng.integers(0, 3)}0" for _ in range(3000)
    ]
    blocks = [code_indices(code_rows(codes[start : start + 700])) for start in range(0, len(codes), 700)]
    counted = counted_codes(blocks)
    expected = Counter(codes)  # a Counter keeps the order its keys first came in
    assert counted == expected
    assert list(counted) == list(expected)


def test_code_counts_are_the_codes_counted_by_number_with_those_counted_one_by_one() -> None:
    """Blocks of code numbers (the batch path's) and a Counter of codes (records python-chess
    read one by one, some codes in both): every code once, by number, with both its counts."""
    rng = np.random.default_rng(6)
    codes = [
        f"{rng.integers(0, 10)}{rng.integers(0, 3)}0{rng.integers(0, 9)}.{rng.integers(0, 3)}0" for _ in range(3000)
    ]
    blocks = [code_indices(code_rows(codes[start : start + 700])) for start in range(0, 2100, 700)]
    counted = Counter(codes[2100:])
    numbers, counts = code_counts(blocks, counted)
    expected = Counter(codes)
    assert [row.tobytes().decode() for row in written_codes(numbers)] == sorted(expected)
    assert counts.tolist() == [expected[code] for code in sorted(expected)]
    assert code_counts(blocks, Counter({"0400": 2})) is None  # a short code is no full one
    assert [array.tolist() for array in code_counts([], Counter())] == [[], []]


def test_packed_materials_are_listed_as_unique_and_lexsort_list_them() -> None:
    """Each code's run: the most frequent first, equal counts by key; counted from several
    blocks, some with counts (a merged worker's) and some a line each."""
    rng = np.random.default_rng(9)
    # Men packed six bits a type (Q R B N P q r b n p); a code's digits follow from the men,
    # here made up of the first type's count alone (the runs only need a code per key).
    men = rng.integers(0, 4, (4000, 10))
    keys = (men << (6 * np.arange(10))).sum(1)
    codes = np.array([f"{men_row[0]}{men_row[5]}99.00" for men_row in men.tolist()], dtype="S7")
    counts = rng.integers(1, 4, len(keys))
    packed = PackedMaterials()
    packed.add(codes[:1000], keys[:1000])
    packed.add(codes[1000:], keys[1000:], counts[1000:])
    names, starts, lengths, men_listed, times = packed.men_runs()

    # The reference: what the listing was before (np.unique, then np.lexsort).
    weights = np.append(np.ones(1000, dtype=np.int64), counts[1000:])
    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    summed = np.bincount(inverse.ravel(), weights=weights).astype(np.int64)
    order = np.lexsort((unique, -summed, codes[first].astype("U7")))
    assert (times == summed[order]).all()
    assert (men_listed.astype(np.int64) == (unique[order][:, None] >> (6 * np.arange(10))) & 63).all()
    listed_codes = codes[first][order]
    assert names.tolist() == sorted(set(listed_codes.tolist()))
    assert (listed_codes[starts] == names).all() and lengths.sum() == len(unique)
