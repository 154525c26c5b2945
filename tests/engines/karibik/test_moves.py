"""Movement and the ship actions: loot, rob, exchange, hand over, deliver, and the [R] rules."""

import pytest

from engines import IllegalAction
from engines.karibik import KaribikState
from engines.karibik._rules import DELIVERED, MAX_TRANSFERS, ON_SHIP

from ._positions import area, arriba_to_seat0, events, play, position

HAVANA, TRUJILLO, NASSAU, VERACRUZ = area("Havana"), area("Trujillo"), area("Nassau"), area("Veracruz")


def ships(*names):
    rest = ["Caicos Passage", "Jardines Bank", "Mona Passage", "Gulf of Darien", "Anegada Passage", "Bay of Campeche"]
    rest = [r for r in rest if r not in names]
    return list(names) + rest[:6 - len(names)]


def test_move_one_area_per_step_never_into_an_occupied_area():
    state = arriba_to_seat0(2, ships=ships("Yucatan Channel", "Sigsbee Deep"), on_ports=["Bridgetown"])
    moves = [a for a in state.legal_actions(0) if a[0] == "move"]
    assert moves == [["move", HAVANA], ["move", area("Isla Mujeres")], ["move", area("Gulf of Mexico")]]
    play(state, ["move", area("Gulf of Mexico")])
    assert state.steps_left == 1
    assert [a for a in state.legal_actions(0) if a[0] == "move"] == [
        ["move", area("Bay of Campeche")], ["move", area("Yucatan Channel")], ["move", area("Florida Straits")]]
    play(state, ["move", area("Florida Straits")])
    # No steps and nothing to do: the move ends on its own.
    assert state.ship_area[0] == area("Florida Straits") and state.ship > 0
    assert [e["to"] for e in events(state, kind="move")] == [area("Gulf of Mexico"), area("Florida Straits")]


def test_a_ship_surrounded_by_ships_cannot_move_through_them():
    state = position(ships=ships("Caicos Passage", "Tortuga", "Great Inagua"), on_ports=["Bridgetown"],
                     bids=[[5, 0, 1, 2, 3, 4], [4, 0, 1, 2, 3, 5]])
    assert events(state, kind="reveal")[0]["steps"] == 5
    assert state.ship_area[0] == area("Caicos Passage") and events(state, kind="end")[0]["ship"] == 0


def test_cannot_move_beyond_the_allowance_and_may_stop_early():
    state = arriba_to_seat0(1, ships=ships("Gulf of Mexico"), on_ports=["Bridgetown"])
    with pytest.raises(IllegalAction, match="legal"):
        state.check(0, ["move", area("Campeche")])  # two steps away
    play(state, ["end"])
    assert state.ship_area[0] == area("Gulf of Mexico") and state.ship > 0


def test_loot_loads_the_chest_and_pays_2000_without_using_movement():
    # [R] 7: looting costs no movement; [R] 2: actions from the starting area.
    state = arriba_to_seat0(1, ships=ships("Havana"), on_ports=["Havana"])
    play(state, ["loot"])
    assert state.scores == [2000, 0] and state.ship_chest[0] == HAVANA
    assert state.chest_status[HAVANA] == ON_SHIP and state.steps_left == 1
    assert events(state, kind="loot") == [{"type": "loot", "ship": 0, "chest": HAVANA, "player": 0, "gain": 2000}]


def test_no_loot_while_carrying_a_chest():
    # [R] 3: one chest per ship.
    state = arriba_to_seat0(1, ships=ships("Havana"), on_ports=["Havana"], cargo={0: "Nassau"})
    assert ["loot"] not in state.legal_actions(0)


def test_rob_an_adjacent_ship_reached_during_movement():
    # [R] 2: adjacency counts from every area the ship occupies during its move.
    state = arriba_to_seat0(2, ships=ships("Roatan", "Jardines Bank"), cargo={1: "Nassau"})
    assert ["rob", 1] not in state.legal_actions(0)
    play(state, ["move", area("Isla de Pinos")], ["rob", 1])
    assert state.ship_chest[:2] == [NASSAU, None]


def test_exchange_swaps_the_chests():
    state = arriba_to_seat0(1, ships=ships("Jardines Bank", "Cayman Trench"), cargo={0: "Havana", 1: "Nassau"})
    assert ["rob", 1] not in state.legal_actions(0)
    play(state, ["exchange", 1])
    assert state.ship_chest[:2] == [NASSAU, HAVANA]


def test_hand_over_to_an_empty_adjacent_ship():
    state = arriba_to_seat0(1, ships=ships("Jardines Bank", "Cayman Trench"), cargo={0: "Havana"})
    play(state, ["hand", 1])
    assert state.ship_chest[:2] == [None, HAVANA]


def test_hand_over_to_a_ship_in_a_hideout_unloads_for_the_hideout_owner():
    # Bravo waits in Aruba (blue, seat 1); seat 0 hands it Veracruz's chest: seat 1 scores 8000.
    state = arriba_to_seat0(1, ships=ships("Maracaibo", "Aruba"), cargo={0: "Veracruz"}, on_ports=["Havana"])
    play(state, ["hand", 1])
    assert state.scores == [0, 8000] and state.ship_chest[:2] == [None, None]
    assert state.chest_status[VERACRUZ] == DELIVERED
    assert events(state, kind="deliver")[0] == {"type": "deliver", "ship": 1, "area": area("Aruba"),
                                                "chest": VERACRUZ, "owner": 1, "gain": 8000}


def test_exchange_with_a_ship_in_a_hideout_makes_it_unload():
    # [R] 5
    state = arriba_to_seat0(1, ships=ships("Maracaibo", "Aruba"), cargo={0: "Veracruz", 1: "Havana"},
                            on_ports=["Nassau"])
    play(state, ["exchange", 1])
    assert state.ship_chest[:2] == [HAVANA, None] and state.scores == [0, 8000]


def test_deliver_while_passing_through_a_hideout():
    state = arriba_to_seat0(2, ships=ships("La Guaira"), cargo={0: "Havana"}, on_ports=["Nassau"])
    play(state, ["move", area("Margarita")], ["deliver"])
    assert state.scores == [7000, 0] and state.ship_chest[0] is None
    play(state, ["move", area("Grenada")])  # no steps or actions left: the move ends
    assert state.ship_area[0] == area("Grenada") and state.ship > 0


def test_ending_in_a_hideout_forces_the_unload():
    state = arriba_to_seat0(2, ships=ships("La Guaira"), cargo={0: "Havana"}, on_ports=["Nassau"])
    play(state, ["move", area("Margarita")], ["end"])
    assert state.scores == [7000, 0] and state.ship_chest[0] is None
    assert state.chest_status[HAVANA] == DELIVERED


def test_delivery_goes_to_the_owner_even_when_another_player_moves():
    # Seat 0 steers into Aruba (blue, seat 1's hideout) and must unload there.
    state = arriba_to_seat0(1, ships=ships("Maracaibo"), cargo={0: "Havana"}, on_ports=["Nassau"])
    play(state, ["move", area("Aruba")], ["end"])
    assert state.scores == [0, 7000]


def test_unused_colours_hideouts_are_plain_sea():
    # Two players: Grenada (yellow) is open sea; no delivery, no forced unload.
    state = arriba_to_seat0(2, ships=ships("Bridgetown"), cargo={0: "Havana"}, on_ports=["Nassau"])
    play(state, ["move", area("Grenada")])
    assert ["deliver"] not in state.legal_actions(0)
    play(state, ["end"])
    assert state.ship_chest[0] == HAVANA and state.scores == [0, 0]


def test_the_same_hideout_counts_with_four_players():
    state = arriba_to_seat0(1, players=4, ships=ships("Bridgetown"), cargo={0: "Havana"}, on_ports=["Nassau"])
    play(state, ["move", area("Grenada")], ["end"])
    assert state.scores == [0, 0, 0, 7000]


def test_actions_may_repeat_within_one_move():
    # [R] 4: deliver, move, loot, move back, deliver again.
    state = arriba_to_seat0(2, ships=ships("Isla Mujeres"), cargo={0: "Havana"}, on_ports=["Trujillo", "Nassau"])
    play(state, ["deliver"], ["move", TRUJILLO], ["loot"], ["move", area("Isla Mujeres")], ["deliver"])
    assert state.scores == [7000 + 2000 + 4000, 0]


def test_an_emptied_port_stays_empty():
    state = arriba_to_seat0(2, ships=ships("Isla Mujeres"), cargo={0: "Trujillo"}, on_ports=["Nassau"],
                            reserve=["Havana", "Portobelo"])
    play(state, ["deliver"], ["move", TRUJILLO])
    assert ["loot"] not in state.legal_actions(0)
    assert state.chest_status[TRUJILLO] == DELIVERED


def test_no_action_drops_a_chest_at_sea():
    state = arriba_to_seat0(1, ships=ships("Gulf of Mexico"), cargo={0: "Havana"})
    assert {a[0] for a in state.legal_actions(0)} == {"move", "end"}
    with pytest.raises(IllegalAction):
        state.check(0, ["deliver"])


def test_transfers_are_capped_per_move():
    state = arriba_to_seat0(1, ships=ships("Jardines Bank", "Cayman Trench"), cargo={0: "Havana", 1: "Nassau"})
    for _ in range(MAX_TRANSFERS):
        play(state, ["exchange", 1])
    assert state.transfers_left == 0 and ["exchange", 1] not in state.legal_actions(0)
    assert state.ship_chest[:2] == [HAVANA, NASSAU]


def test_transfer_events_name_both_chests():
    state = arriba_to_seat0(1, ships=ships("Jardines Bank", "Cayman Trench"), cargo={1: "Nassau"})
    play(state, ["rob", 1])
    assert events(state, kind="rob") == [{"type": "rob", "ship": 0, "other": 1, "gave": None, "got": NASSAU}]


def test_other_seats_cannot_move_the_ship():
    state = arriba_to_seat0(1, ships=ships("Gulf of Mexico"), on_ports=["Havana"])
    with pytest.raises(IllegalAction, match="not your decision"):
        state.check(1, ["end"])
    assert isinstance(state, KaribikState)
