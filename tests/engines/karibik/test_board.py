"""The shipped board: its shape, its symmetry (what makes colours fair), and board validation."""

import pytest

from engines.karibik import CARIBBEAN, COLOURS, Board
from engines.karibik._caribbean import AREAS, EDGES, SYMMETRIES

B = CARIBBEAN


def as_ids(mapping):
    """A symmetry given by area names as a tuple: area id -> image id."""
    return tuple(B.area_id(mapping[a.name]) for a in B.areas)


def colour_map(perm):
    """How a symmetry moves the colours: colour index -> colour index (via the hideouts)."""
    moved = {}
    for h in B.hideouts:
        moved.setdefault(B.owner[h], set()).add(B.owner[perm[h]])
    assert all(len(images) == 1 for images in moved.values())
    return tuple(moved[c].pop() for c in range(len(COLOURS)))


def group():
    """Every composition of the generating symmetries (the closure)."""
    gens = [as_ids(s) for s in SYMMETRIES.values()]
    found = {tuple(range(len(B.areas)))}
    frontier = list(found)
    while frontier:
        perm = frontier.pop()
        for gen in gens:
            composed = tuple(gen[perm[a]] for a in range(len(B.areas)))
            if composed not in found:
                found.add(composed)
                frontier.append(composed)
    return found


def test_size_and_kinds():
    kinds = [a.kind for a in B.areas]
    assert len(B.areas) == 46
    assert (kinds.count("port"), kinds.count("hideout"), kinds.count("start"), kinds.count("sea")) == (16, 12, 6, 12)
    assert len({a.name for a in B.areas}) == 46


def test_connected_degree_and_diameter():
    assert all(d < len(B.areas) for row in B.distance for d in row)
    assert sum(len(n) for n in B.neighbours) == 2 * 84
    assert (min(len(n) for n in B.neighbours), max(len(n) for n in B.neighbours)) == (2, 6)
    assert max(max(row) for row in B.distance) == 9


def test_adjacency_is_symmetric():
    for area, near in enumerate(B.neighbours):
        assert area not in near
        for other in near:
            assert area in B.neighbours[other]


@pytest.mark.parametrize("name", sorted(SYMMETRIES))
def test_each_generator_is_a_symmetry_of_the_board(name):
    perm = as_ids(SYMMETRIES[name])
    assert sorted(perm) == list(range(len(B.areas)))
    for area in B.areas:
        image = B.areas[perm[area.id]]
        assert (image.kind, image.chest) == (area.kind, area.chest), (area.name, image.name)
        assert sorted(perm[n] for n in B.neighbours[area.id]) == list(B.neighbours[image.id])
    colour_map(perm)  # hideouts of one colour go to hideouts of one colour


def test_generators_act_on_colours_as_claimed():
    red, blue, green, yellow = range(4)
    assert colour_map(as_ids(SYMMETRIES["turn"])) == (blue, green, red, yellow)
    assert colour_map(as_ids(SYMMETRIES["swap"])) == (blue, red, yellow, green)


def test_symmetry_group_makes_every_player_count_fair():
    # 12 symmetries (A4); each maps the seats in play onto themselves as needed.
    perms = group()
    assert len(perms) == 12
    maps = {colour_map(p) for p in perms}
    assert len(maps) == 12
    assert {m[0] for m in maps} == {0, 1, 2, 3}  # 4 players: any colour to any other
    two, three = (1, 0, 3, 2), (1, 2, 0, 3)
    assert two in maps and three in maps  # 2 players: seats 0 <-> 1; 3 players: 0 -> 1 -> 2, 3 fixed


def test_chest_values_and_hub_ports():
    values = sorted(B.chest_value[p] for p in B.ports)
    assert values == [5000] * 12 + [8000] * 4
    hubs = [B.areas[p].name for p in B.ports if B.chest_value[p] == 8000]
    assert hubs == ["Trujillo", "Havana", "Port Royal", "Bridgetown"]
    for port in B.ports:
        owners = sorted(B.owner[n] for n in B.neighbours[port] if B.owner[n] is not None)
        assert len(owners) == (3 if B.chest_value[port] == 8000 else 1) and len(set(owners)) == len(owners)


def test_three_hideouts_per_colour_in_different_regions():
    for colour in COLOURS:
        mine = [B.areas[h] for h in B.hideouts if B.areas[h].colour == colour]
        assert len(mine) == 3
        assert len({a.region for a in mine}) == 3


def test_hideout_distances_equal_between_colours():
    for limit in (1, 2, 3):
        near = [sum(1 for p in B.ports for h in B.hideouts if B.owner[h] == c and B.distance[h][p] <= limit)
                for c in range(4)]
        assert len(set(near)) == 1, (limit, near)
    totals = [sum(B.distance[h][p] for h in B.hideouts if B.owner[h] == c for p in B.ports) for c in range(4)]
    assert len(set(totals)) == 1


def test_coordinates_inside_drawing_frame():
    for a in B.areas:
        assert 0 <= a.x <= 100 and 0 <= a.y <= 55


def test_drawing_has_no_crossing_borders():
    def side(a, b, c):
        return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)

    edges = [(B.areas[a], B.areas[b]) for a, near in enumerate(B.neighbours) for b in near if b > a]
    for i, (a, b) in enumerate(edges):
        for c, d in edges[i + 1:]:
            if len({a.id, b.id, c.id, d.id}) == 4:
                assert not (side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0), (a.name, b.name,
                                                                                                       c.name, d.name)


def test_wire_form_lists_areas_and_adjacency():
    wire = B.as_dict()
    assert wire["name"] == "caribbean"
    assert wire["areas"][B.area_id("Havana")][:3] == ["Havana", "port", 8000]
    assert wire["areas"][B.area_id("Pedro Cays")][:3] == ["Pedro Cays", "hideout", "blue"]
    assert wire["adjacent"][0] == list(B.neighbours[0])


def test_another_board_loads_from_data():
    small = Board.from_data("tiny", [("P", "port", 5000, "x", 0, 1)]
                            + [(f"S{i}", "start", None, "x", i, 0) for i in range(6)]
                            + [("H", "hideout", "red", "x", 1, 1)]
                            + [(f"H{c}", "hideout", c, "x", 2, 1) for c in COLOURS[1:]],
                            [(f"S{i}", f"S{i + 1}") for i in range(5)] + [("S0", "P"), ("P", "H")]
                            + [("S5", f"H{c}") for c in COLOURS[1:]])
    assert small.ports == (0,) and small.distance[1][7] == 2


def test_ports_must_come_first_so_chest_ids_index_the_chests_list():
    with pytest.raises(ValueError, match=r"the ports must be the first areas \(ids 0..15\)"):
        Board.from_data("bad", AREAS[1:] + AREAS[:1], EDGES)


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
