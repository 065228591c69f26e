"""A tally from an index's rows of materials: the same classes as counting the materials one
by one."""

from __future__ import annotations

import numpy as np
import pytest

from gbr_tui.core import Rule
from gbr_tui.core.collection.material_rows import tally_of_materials
from gbr_tui.core.collection.tally import Tally
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import Material

# KR v K (no 9), KNNN v K and KNNN v KNN (three knights: both 0009.00), KQQQ v K (a 9 under
# either rule), and KR v K with two White kings (a board that says so: kings kept apart).
MATERIALS = [
    (Material.from_string("KR v K"), 5, (3, 1, 0, 1)),
    (Material.from_string("KNNN v K"), 2, (2, 0, 0, 0)),
    (Material.from_string("KNNN v KNN"), 2, None),
    (Material.from_string("KQQQ v K"), 7, (0, 0, 7, 0)),
    (Material((0, 1, 0, 0, 0), (0, 0, 0, 0, 0), (2, 1)), 1, None),
    (Material.from_string("KR v K"), 3, (0, 3, 0, 0)),  # the same material from another source
]


def rows(materials):
    men = np.array([(*m.white, *m.black) for m, _, _ in materials], dtype=np.int64)
    kings = np.array([m.kings for m, _, _ in materials], dtype=np.int64)
    counts = np.array([count for _, count, _ in materials], dtype=np.int64)
    return men, kings, counts


def one_by_one(materials, rule: Rule, games: bool) -> Tally:
    from gbr_tui.core.code import encode

    tally = Tally()
    for material, count, results in materials:
        code = encode(material, rule)
        tally.add(code, material, count)
        if games and results is not None:
            held = tally.results.setdefault((code, material), [0, 0, 0, 0])
            held[:] = [a + b for a, b in zip(held, results)]
    return tally


@pytest.mark.parametrize("rule", [Rule.COUNT, Rule.PROMOTED])
@pytest.mark.parametrize("games", [False, True])
def test_the_rows_give_the_classes_counting_one_by_one_gives(rule, games):
    materials = MATERIALS if games else [(m, count, None) for m, count, _ in MATERIALS]
    results = [results for _, _, results in materials] if games else None
    tally = tally_of_materials(*rows(materials), results, rule)
    expected = one_by_one(materials, rule, games)
    assert tally.codes == expected.codes
    for either_colour in (False, True):
        assert tally.classes(either_colour=either_colour) == expected.classes(either_colour=either_colour)


def test_a_row_of_more_than_eight_pawns_is_refused():
    men, kings, counts = rows([(Material.from_string("KR v K"), 1, None)])
    men[0, 4] = 9
    with pytest.raises(GbrError):
        tally_of_materials(men, kings, counts, None, Rule.COUNT)
