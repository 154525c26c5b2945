"""Movement and the ship actions: loot, rob, exchange, hand over, deliver, and the [R] rules.

Seat 0 is red (hideouts Utila, Dry Tortugas, Saint Croix), seat 1 blue (Corn Islands, Pedro
Cays, Caicos), seat 3 yellow (Isla del Carmen, Ile a Vache, Marie-Galante).
"""

import pytest

from engines import IllegalAction
from engines.karibik import KaribikState
from engines.karibik._rules import DELIVERED, MAX_TRANSFERS, ON_SHIP

from ._positions import STARTS, area, arriba_to_seat0, events, play, position

HAVANA, TRINIDAD, VERACRUZ = area("Havana"), area("Trinidad"), area("Veracruz")


def ships(*names):
    rest = [r for r in STARTS if r not in names]
    return list(names) + rest[:6 - len(names)]


def test_move_one_area_per_step_never_into_an_occupied_area():
    state = arriba_to_seat0(2, ships=ships("Cayman Trench", "Swan Islands"), on_ports=["Bridgetown"])
    moves = [a for a in state.legal_actions(0) if a[0] == "move"]
    assert moves == [["move", area("Port Royal")], ["move", TRINIDAD], ["move", area("Ile a Vache")]]
    play(state, ["move", TRINIDAD])
    assert state.steps_left == 1
    assert [a for a in state.legal_actions(0) if a[0] == "move"] == [
        ["move", area("Dry Tortugas")], ["move", area("Gulf of Guacanayabo")], ["move", area("Cayman Trench")]]
    play(state, ["move", area("Gulf of Guacanayabo")])
    # No steps and nothing to do: the move ends on its own.
    assert state.ship_area[0] == area("Gulf of Guacanayabo") and state.ship > 0
    assert [e["to"] for e in events(state, kind="move")] == [TRINIDAD, area("Gulf of Guacanayabo")]


def test_a_ship_surrounded_by_ships_cannot_move_through_them():
    state = position(ships=ships("Sigsbee Deep", "Veracruz", "Campeche"), on_ports=["Bridgetown"],
                     bids=[[5, 0, 1, 2, 3, 4], [4, 0, 1, 2, 3, 5]])
    assert events(state, kind="reveal")[0]["steps"] == 5
    assert state.ship_area[0] == area("Sigsbee Deep") and events(state, kind="move_end")[0]["ship"] == 0
    assert events(state, kind="end") == [{"type": "end", "ship": 0}]  # the protocol 1.x alias


def test_cannot_move_beyond_the_allowance_and_may_stop_early():
    state = arriba_to_seat0(1, ships=ships("Gulf of Guacanayabo"), on_ports=["Bridgetown"])
    with pytest.raises(IllegalAction, match="legal"):
        state.check(0, ["move", area("Dry Tortugas")])  # two steps away
    play(state, ["end"])
    assert state.ship_area[0] == area("Gulf of Guacanayabo") and state.ship > 0


def test_loot_loads_the_chest_and_pays_2000_without_using_movement():
    # [R] 7: looting costs no movement; [R] 2: actions from the starting area.
    state = arriba_to_seat0(1, ships=ships("Havana"), on_ports=["Havana"])
    play(state, ["loot"])
    assert state.scores == [2000, 0] and state.ship_chest[0] == HAVANA
    assert state.chest_status[HAVANA] == ON_SHIP and state.steps_left == 1
    assert events(state, kind="loot") == [{"type": "loot", "ship": 0, "chest": HAVANA, "player": 0, "gain": 2000}]


def test_no_loot_while_carrying_a_chest():
    # [R] 3: one chest per ship.
    state = arriba_to_seat0(1, ships=ships("Havana"), on_ports=["Havana"], cargo={0: "Veracruz"})
    assert ["loot"] not in state.legal_actions(0)


def test_rob_an_adjacent_ship_reached_during_movement():
    # [R] 2: adjacency counts from every area the ship occupies during its move.
    state = arriba_to_seat0(2, ships=ships("Gulf of Guacanayabo", "Cayman Trench"), cargo={1: "Veracruz"})
    assert ["rob", 1] not in state.legal_actions(0)
    play(state, ["move", TRINIDAD], ["rob", 1])
    assert state.ship_chest[:2] == [VERACRUZ, None]


def test_exchange_swaps_the_chests():
    state = arriba_to_seat0(1, ships=ships("Cayman Trench", "Trinidad"), cargo={0: "Havana", 1: "Veracruz"})
    assert ["rob", 1] not in state.legal_actions(0)
    play(state, ["exchange", 1])
    assert state.ship_chest[:2] == [VERACRUZ, HAVANA]


def test_hand_over_to_an_empty_adjacent_ship():
    state = arriba_to_seat0(1, ships=ships("Cayman Trench", "Trinidad"), cargo={0: "Havana"})
    play(state, ["hand", 1])
    assert state.ship_chest[:2] == [None, HAVANA]


def test_hand_over_to_a_ship_in_a_hideout_unloads_for_the_hideout_owner():
    # Bravo waits in Pedro Cays (blue, seat 1); seat 0 hands it Havana's chest: seat 1 scores 8000.
    state = arriba_to_seat0(1, ships=ships("Willemstad", "Pedro Cays"), cargo={0: "Havana"}, on_ports=["Veracruz"])
    play(state, ["hand", 1])
    assert state.scores == [0, 8000] and state.ship_chest[:2] == [None, None]
    assert state.chest_status[HAVANA] == DELIVERED
    assert events(state, kind="deliver")[0] == {"type": "deliver", "ship": 1, "area": area("Pedro Cays"),
                                                "chest": HAVANA, "owner": 1, "gain": 8000}


def test_exchange_with_a_ship_in_a_hideout_makes_it_unload():
    # [R] 5
    state = arriba_to_seat0(1, ships=ships("Willemstad", "Pedro Cays"), cargo={0: "Havana", 1: "Veracruz"},
                            on_ports=["Campeche"])
    play(state, ["exchange", 1])
    assert state.ship_chest[:2] == [VERACRUZ, None] and state.scores == [0, 8000]


def test_deliver_while_passing_through_a_hideout():
    state = arriba_to_seat0(2, ships=ships("Trinidad"), cargo={0: "Havana"}, on_ports=["Veracruz"])
    play(state, ["move", area("Dry Tortugas")], ["deliver"])
    assert state.scores == [8000, 0] and state.ship_chest[0] is None
    play(state, ["move", area("Campeche Bank")])  # no steps or actions left: the move ends
    assert state.ship_area[0] == area("Campeche Bank") and state.ship > 0


def test_ending_in_a_hideout_forces_the_unload():
    state = arriba_to_seat0(2, ships=ships("Trinidad"), cargo={0: "Havana"}, on_ports=["Veracruz"])
    play(state, ["move", area("Dry Tortugas")], ["end"])
    assert state.scores == [8000, 0] and state.ship_chest[0] is None
    assert state.chest_status[HAVANA] == DELIVERED


def test_delivery_goes_to_the_owner_even_when_another_player_moves():
    # Seat 0 steers into Pedro Cays (blue, seat 1's hideout) and must unload there.
    state = arriba_to_seat0(1, ships=ships("Willemstad"), cargo={0: "Havana"}, on_ports=["Veracruz"])
    play(state, ["move", area("Pedro Cays")], ["end"])
    assert state.scores == [0, 8000]


def test_unused_colours_hideouts_are_plain_sea():
    # Two players: Ile a Vache (yellow) is open sea; no delivery, no forced unload.
    state = arriba_to_seat0(2, ships=ships("Cap-Francais"), cargo={0: "Havana"}, on_ports=["Veracruz"])
    play(state, ["move", area("Ile a Vache")])
    assert ["deliver"] not in state.legal_actions(0)
    play(state, ["end"])
    assert state.ship_chest[0] == HAVANA and state.scores == [0, 0]


def test_the_same_hideout_counts_with_four_players():
    state = arriba_to_seat0(1, players=4, ships=ships("Cap-Francais"), cargo={0: "Havana"}, on_ports=["Veracruz"])
    play(state, ["move", area("Ile a Vache")], ["end"])
    assert state.scores == [0, 0, 0, 8000]


def test_actions_may_repeat_within_one_move():
    # [R] 4: deliver, move, loot, move back, deliver again.
    state = arriba_to_seat0(2, ships=ships("Dry Tortugas"), cargo={0: "Havana"}, on_ports=["Trinidad", "Veracruz"])
    play(state, ["deliver"], ["move", TRINIDAD], ["loot"], ["move", area("Dry Tortugas")], ["deliver"])
    assert state.scores == [8000 + 2000 + 5000, 0]


def test_an_emptied_port_stays_empty():
    state = arriba_to_seat0(2, ships=ships("Dry Tortugas"), cargo={0: "Trinidad"}, on_ports=["Veracruz"],
                            reserve=["Havana", "Campeche"])
    play(state, ["deliver"], ["move", TRINIDAD])
    assert ["loot"] not in state.legal_actions(0)
    assert state.chest_status[TRINIDAD] == DELIVERED


def test_no_action_drops_a_chest_at_sea():
    state = arriba_to_seat0(1, ships=ships("Gulf of Guacanayabo"), cargo={0: "Havana"})
    assert {a[0] for a in state.legal_actions(0)} == {"move", "end"}
    with pytest.raises(IllegalAction):
        state.check(0, ["deliver"])


def test_transfers_are_capped_per_move():
    # [R] engine limit: MAX_TRANSFERS (12) rob/exchange/hand actions per ship's move.
    state = arriba_to_seat0(1, ships=ships("Cayman Trench", "Trinidad"), cargo={0: "Havana", 1: "Veracruz"})
    for _ in range(MAX_TRANSFERS):
        play(state, ["exchange", 1])
    assert state.transfers_left == 0 and ["exchange", 1] not in state.legal_actions(0)
    assert state.ship_chest[:2] == [HAVANA, VERACRUZ]


def test_transfer_events_name_both_chests():
    state = arriba_to_seat0(1, ships=ships("Cayman Trench", "Trinidad"), cargo={1: "Veracruz"})
    play(state, ["rob", 1])
    assert events(state, kind="rob") == [{"type": "rob", "ship": 0, "other": 1, "gave": None, "got": VERACRUZ}]


def test_other_seats_cannot_move_the_ship():
    state = arriba_to_seat0(1, ships=ships("Gulf of Guacanayabo"), on_ports=["Havana"])
    with pytest.raises(IllegalAction, match="not your decision"):
        state.check(1, ["end"])
    assert isinstance(state, KaribikState)
