"""The shipped board's shape and fairness, and board validation."""

import pytest

from engines.karibik import CARIBBEAN, COLOURS, Board
from engines.karibik._caribbean import AREAS, EDGES

B = CARIBBEAN


def test_size_and_kinds():
    kinds = [a.kind for a in B.areas]
    assert len(B.areas) == 48
    assert (kinds.count("port"), kinds.count("hideout"), kinds.count("start"), kinds.count("sea")) == (16, 12, 6, 14)
    assert len({a.name for a in B.areas}) == 48


def test_connected_degree_and_diameter():
    assert all(d < len(B.areas) for row in B.distance for d in row)
    degree = sum(len(n) for n in B.neighbours) / len(B.areas)
    assert 3 <= degree <= 4
    assert min(len(n) for n in B.neighbours) >= 2
    assert 10 <= max(max(row) for row in B.distance) <= 12


def test_adjacency_is_symmetric():
    for area, near in enumerate(B.neighbours):
        assert area not in near
        for other in near:
            assert area in B.neighbours[other]


def test_every_port_has_its_chest_with_the_value_distribution():
    values = sorted(B.chest_value[p] for p in B.ports)
    assert values == [4000] * 3 + [5000] * 3 + [6000] * 4 + [7000] * 3 + [8000] * 3
    assert B.areas[B.area_id("Havana")].chest == 7000


def test_three_hideouts_per_colour_in_different_regions():
    for colour in COLOURS:
        mine = [B.areas[h] for h in B.hideouts if B.areas[h].colour == colour]
        assert len(mine) == 3
        assert len({a.region for a in mine}) == 3


def test_hideout_distances_fair_between_colours():
    totals = []
    for colour in COLOURS:
        mine = [h for h in B.hideouts if B.areas[h].colour == colour]
        totals.append(sum(B.distance[h][p] for h in mine for p in B.ports))
    assert max(totals) <= 1.10 * min(totals)
    assert totals == [251, 251, 245, 246]


def test_each_hideout_within_three_steps_of_two_ports():
    for h in B.hideouts:
        assert sum(1 for p in B.ports if B.distance[h][p] <= 3) >= 2, B.areas[h].name


def test_coordinates_inside_drawing_frame():
    for a in B.areas:
        assert 0 <= a.x <= 100 and 0 <= a.y <= 55


def test_wire_form_lists_areas_and_adjacency():
    wire = B.as_dict()
    assert wire["name"] == "caribbean"
    assert wire["areas"][B.area_id("Veracruz")][:3] == ["Veracruz", "port", 8000]
    assert wire["areas"][B.area_id("Aruba")][:3] == ["Aruba", "hideout", "blue"]
    assert wire["adjacent"][0] == list(B.neighbours[0])


def test_another_board_loads_from_data():
    small = Board.from_data("tiny", [(f"S{i}", "start", None, "x", i, 0) for i in range(6)]
                            + [("P", "port", 5000, "x", 0, 1), ("H", "hideout", "red", "x", 1, 1)]
                            + [(f"H{c}", "hideout", c, "x", 2, 1) for c in COLOURS[1:]],
                            [(f"S{i}", f"S{i + 1}") for i in range(5)] + [("S0", "P"), ("P", "H")]
                            + [("S5", f"H{c}") for c in COLOURS[1:]])
    assert small.ports == (6,) and small.distance[0][7] == 2


@pytest.mark.parametrize("edges,message", [
    (EDGES + (("Havana", "Atlantis"),), "unknown area 'Atlantis'"),
    (EDGES + (EDGES[0],), "given twice"),
    (tuple(e for e in EDGES if "Veracruz" not in e), "not all connected"),
])
def test_bad_board_data_is_rejected(edges, message):
    with pytest.raises(ValueError, match=message):
        Board.from_data("bad", AREAS, edges)


def test_bad_area_kind_is_rejected():
    with pytest.raises(ValueError, match="kind 'island'"):
        Board.from_data("bad", ((AREAS[0][0], "island") + AREAS[0][2:],) + AREAS[1:], EDGES)
