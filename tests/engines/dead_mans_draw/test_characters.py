"""The 17 characters: the secret choice at the start, each ability and its interplay."""

from collections import Counter

import pytest

from engines.dead_mans_draw import CHARACTERS, GAME

from ._helpers import bank, deciding, discard, events, make, play, row

MORE = ["N7", "N8", "N9"]


def chars(mine, theirs=None, players=2):
    return [mine] + [theirs] + [None] * (players - 2)


# -- the choice -------------------------------------------------------------------------------

def test_characters_are_on_by_default_and_chosen_simultaneously_in_secret():
    state = GAME.new_state(3, seed=5)
    assert state.acting == (0, 1, 2) and {state.decision(s) for s in range(3)} == {"character"}
    dealt = [state.observation(s)["dealt"] for s in range(3)]
    assert all(len(pair) == 2 and set(pair) <= set(CHARACTERS) for pair in dealt)
    assert len(set().union(*map(set, dealt))) == 6  # six different cards dealt
    assert state.legal_actions(1) == sorted(dealt[1])
    assert state.observation(0)["characters"] == [None, None, None]
    assert [e["characters"] for e in state.events_for(0) if e["type"] == "dealt"] == [dealt[0]]
    choice = {seat: dealt[seat][1] for seat in range(3)}
    state.apply(choice)
    assert state.observation(2)["characters"] == [choice[0], choice[1], choice[2]]
    assert "dealt" not in state.observation(0)
    assert events(state, "characters")[0]["characters"] == [choice[0], choice[1], choice[2]]


def test_characters_option_off_skips_the_choice():
    state = GAME.new_state(2, seed=5, options={"characters": False})
    assert state.decision(state.acting[0]) == "draw"
    assert state.observation(0)["characters"] == [None, None]


def test_davy_jones_locker_target_is_chosen_after_the_reveal():
    state = GAME.new_state(3, seed=0)
    picks = {seat: state.legal_actions(seat)[0] for seat in range(3)}
    holder = next((s for s in range(3) if "davy_jones_locker" in state.observation(s)["dealt"]), None)
    if holder is None:
        pytest.skip("seed deals no Locker")  # pragma: no cover - the seed below is fixed
    picks[holder] = "davy_jones_locker"
    state.apply(picks)
    assert deciding(state) == (holder, "locker", [(holder + 1) % 3, (holder + 2) % 3])
    state.apply_action((holder + 2) % 3)
    assert state.observation(0)["locker"][holder] == (holder + 2) % 3
    assert state.decision(state.acting[0]) == "draw"


def test_seed_zero_deals_a_locker():
    state = GAME.new_state(3, seed=0)
    assert any("davy_jones_locker" in state.observation(s)["dealt"] for s in range(3))


# -- abilities --------------------------------------------------------------------------------

def test_golden_scales_mermaids_are_worth_five_more():
    state = make(draw=["N5"], row=["K3"], banks=[[], ["N9"]], characters=chars("golden_scales"))
    play(state, ("draw", "draw"))
    assert state.outcome().scores == (3 + 5 + 5, 9)


def test_casanova_banks_mermaids_entering_in_own_turn_only():
    state = make(draw=["N5", "K4", "N6"] + MORE, row=["A3"], characters=chars("casanova", None))
    play(state, ("draw", "draw"))
    assert bank(state, 0) == {"N": ["N5"]} and row(state) == ["A3"]
    assert events(state, "banked")[0] == {"type": "banked", "seat": 0, "card": "N5", "by": "casanova"}
    play(state, ("draw", "draw"), ("draw", "collect"))
    assert row(state) == ["N6"]  # the opponent's Mermaid is placed normally


def test_casanova_first_card_mermaid_leaves_an_empty_row_that_must_draw_on():
    state = make(draw=["N5", "K4"] + MORE, characters=chars("casanova"))
    assert bank(state, 0) == {"N": ["N5"]} and row(state) == ["K4"]  # the second draw was forced
    assert [e["card"] for e in events(state, "draw")] == ["N5", "K4"]


def test_casanova_mermaid_does_not_count_for_the_kraken():
    state = make(draw=["X3", "N5", "K4", "T6"] + MORE, row=["A3"], characters=chars("casanova"))
    play(state, ("draw", "draw"))
    assert bank(state, 0) == {"N": ["N5"]} and row(state) == ["A3", "X3", "K4", "T6"]
    assert deciding(state) == (0, "draw", ["draw", "collect"])


def test_fisherman_banks_krakens_so_no_requirement_arises():
    state = make(draw=["X3", "K4"] + MORE, row=["A3"], characters=chars("fisherman"))
    play(state, ("draw", "draw"))
    assert bank(state, 0) == {"X": ["X3"]} and row(state) == ["A3"]
    assert deciding(state) == (0, "draw", ["draw", "collect"]) and state.observation(0)["kraken"] == 0


def test_plunderer_takes_bonus_top_cards_one_at_a_time_from_one_opponent():
    state = make(players=3, draw=["T4"] + MORE, row=["K3", "N4"], discard=["S2"],
                 banks=[[], ["C5", "C3", "A6"], ["O7"]], characters=["plunderer", None, None])
    play(state, ("draw", "draw"), ("draw", "collect"))
    assert deciding(state) == (0, "plunder", [[1, "A"], [1, "C"], [2, "O"]])
    play(state, ("plunder", [1, "C"]))
    assert deciding(state) == (0, "plunder", [[1, "A"], [1, "C"]])  # the same opponent only
    play(state, ("plunder", [1, "C"]))  # the third pick is forced: A6
    assert bank(state, 1) == {} and bank(state, 0)["C"] == ["C5", "C3"] and bank(state, 0)["A"] == ["A6"]
    assert discard(state) == ["S2"] and state.turn == 1


def test_plunderer_with_a_short_bank_gets_fewer():
    state = make(draw=["T4"] + MORE, row=["K3", "N4"], discard=["S2", "O2", "H2"],
                 banks=[[], ["C5"]], characters=chars("plunderer"))
    play(state, ("draw", "draw"), ("draw", "collect"))
    assert bank(state, 0)["C"] == ["C5"] and sum(map(len, bank(state, 0).values())) == 4
    assert len(discard(state)) == 3 and state.turn == 1


def test_greedy_doubles_the_bonus():
    pile = ["A2", "H2", "C2", "M2", "O2", "S2"]
    state = make(draw=["T4"] + MORE, row=["K3"], discard=pile, characters=chars("greedy"))
    play(state, ("draw", "draw"), ("draw", "collect"))
    assert len(events(state, "bonus")[0]["cards"]) == 4 and len(discard(state)) == 2


def test_navigator_chooses_from_the_whole_discard_pile():
    pile = ["A2", "K2", "T2", "N4", "O2"]
    state = make(draw=["M3"] + MORE, row=["N5"], discard=pile, characters=chars("navigator"))
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "map", sorted(pile))
    play(state, ("map", "T2"))
    assert row(state) == ["N5", "M3", "T2"] and sorted(discard(state)) == sorted(set(pile) - {"T2"})


def test_master_gunner_discards_the_whole_stack():
    state = make(draw=["C3"] + MORE, row=["N5"], banks=[[], ["K5", "K4", "A2"]], characters=chars("master_gunner"))
    play(state, ("draw", "draw"), ("cannon", [1, "K"]))
    assert bank(state, 1) == {"A": ["A2"]} and sorted(discard(state)) == ["K4", "K5"]


def test_vulture_banks_the_card_its_cannon_hits():
    state = make(draw=["C3"] + MORE, row=["N5"], banks=[[], ["K5", "K4"]], characters=chars("vulture"))
    play(state, ("draw", "draw"))
    assert bank(state, 0) == {"K": ["K5"]} and bank(state, 1) == {"K": ["K4"]} and discard(state) == []


def test_misfire_turns_the_opponents_cannon_on_their_own_bank():
    state = make(draw=["C3"] + MORE, row=["N5"], banks=[["K5", "A4"], ["S6"]], characters=chars(None, "misfire"))
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "cannon", [[0, "A"], [0, "K"]])
    play(state, ("cannon", [0, "K"]))
    assert bank(state, 0) == {"A": ["A4"]} and bank(state, 1) == {"S": ["S6"]} and discard(state) == ["K5"]


def test_misfire_with_master_gunner_discards_a_whole_own_stack():
    state = make(draw=["C3"] + MORE, row=["N5"], banks=[["K5", "K2"], ["S6"]],
                 characters=chars("master_gunner", "misfire"))
    play(state, ("draw", "draw"))  # the only own stack is forced
    assert bank(state, 0) == {} and sorted(discard(state)) == ["K2", "K5"] and bank(state, 1) == {"S": ["S6"]}


def test_seer_looks_privately_at_up_to_three_cards():
    state = make(draw=["O3", "K4", "T5", "S6"] + MORE, row=["N5"], characters=chars("seer"))
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "oracle", ["place", "collect"])
    assert state.observation(0)["draw_known"] == ["K4", "T5", "S6"]
    assert state.observation(1)["draw_known"] == []
    look = [e for e in state.log if e.data["type"] == "look"]
    assert len(look) == 1 and look[0].audience == frozenset({0}) and look[0].data["cards"] == ["K4", "T5", "S6"]
    assert events(state, "look", seat=1) == [] and events(state, "seer", seat=1)[0]["count"] == 3
    play(state, ("oracle", "place"))
    assert row(state) == ["N5", "O3", "K4"] and state.observation(0)["draw_known"] == ["T5", "S6"]


def test_swordswoman_may_take_a_suit_she_already_has():
    state = make(draw=["S3"] + MORE, row=["N5"], banks=[["C3"], ["C6", "K4"]], characters=chars("swordswoman"))
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "sword", [[1, "C"], [1, "K"]])


def test_seed_miser_example_hook_and_its_card_are_protected():
    # Cannon in the row, then a Hook brings a Mermaid from the bank; a second Cannon busts:
    # the Hook and the Mermaid are banked, both Cannons are discarded.
    state = make(draw=["H3", "C5"] + MORE, row=["C4"], banks=[["N6", "K7"]], characters=chars("miser"))
    play(state, ("draw", "draw"), ("hook", "N"))
    assert state.observation(0)["protected"] == [False, True, True]
    play(state, ("draw", "draw"))
    assert bank(state, 0) == {"H": ["H3"], "K": ["K7"], "N": ["N6"]} and sorted(discard(state)) == ["C4", "C5"]


def test_captain_hook_places_two_cards_from_two_stacks():
    state = make(draw=["H3"] + MORE, row=["N5"], banks=[["K4", "T6", "A2"]], characters=chars("captain_hook"))
    play(state, ("draw", "draw"), ("hook", "K"))
    assert deciding(state) == (0, "hook", ["A", "T"])
    play(state, ("hook", "T"))
    assert row(state) == ["N5", "H3", "K4", "T6"] and bank(state, 0) == {"A": ["A2"]}


def test_captain_hook_busting_on_the_first_card_stops():
    state = make(draw=["H3"] + MORE, row=["N5"], banks=[["N4", "T6"]], characters=chars("captain_hook"))
    play(state, ("draw", "draw"), ("hook", "N"))
    assert bank(state, 0) == {"T": ["T6"]} and state.turn == 1


def test_captain_hook_with_one_stack_places_one_card():
    state = make(draw=["H3"] + MORE, row=["N5"], banks=[["K4", "K2"]], characters=chars("captain_hook"))
    play(state, ("draw", "draw"))
    assert row(state) == ["N5", "H3", "K4"] and deciding(state)[1] == "draw"


def test_safe_harbour_protects_the_anchor_and_the_next_two_cards():
    state = make(draw=["A3", "K4", "M5", "O6", "K7"] + MORE, row=["N5"], characters=chars("safe_harbour"))
    play(state, ("draw", "draw"), ("draw", "draw"), ("draw", "draw"))
    play(state, ("draw", "draw"), ("oracle", "place"))  # the Oracle is the third card: unprotected
    assert bank(state, 0) == {"A": ["A3"], "K": ["K4"], "M": ["M5"], "N": ["N5"]}
    assert sorted(discard(state)) == ["K7", "O6"]


def test_safe_harbour_with_a_hook_after_the_anchor():
    state = make(draw=["A3", "H4", "K6"] + MORE, row=["N5"], banks=[["K5", "C2"]], characters=chars("safe_harbour"))
    play(state, ("draw", "draw"), ("draw", "draw"), ("hook", "K"))
    assert state.observation(0)["protected"] == [True, True, True, True]  # Hook and K5 are the 2
    play(state, ("draw", "draw"))  # K6 busts
    assert bank(state, 0) == {"A": ["A3"], "H": ["H4"], "C": ["C2"], "K": ["K5"], "N": ["N5"]}
    assert discard(state) == ["K6"]


def test_beast_master_makes_opponents_place_four_after_a_kraken():
    state = make(draw=["X3", "K4", "T5", "O6", "M7", "S5"] + MORE, row=["A3"],
                 characters=chars(None, "beast_master"))
    play(state, ("draw", "draw"))  # O6 reveals M7, which must be placed: the Map has no discard
    assert row(state) == ["A3", "X3", "K4", "T5", "O6", "M7"]
    assert deciding(state) == (0, "draw", ["draw", "collect"])


def test_beast_master_own_kraken_needs_two():
    state = make(draw=["X3", "K4", "T5"] + MORE, row=["A3"], characters=chars("beast_master"))
    play(state, ("draw", "draw"))
    assert row(state) == ["A3", "X3", "K4", "T5"] and deciding(state)[1] == "draw"


def test_living_shield_forces_the_sword_to_take_a_kraken():
    state = make(players=3, draw=["S3", "K2", "T2"] + MORE, row=["N5"],
                 banks=[["C3"], ["C6", "K4"], ["X5", "X4"]], characters=[None, "living_shield", None])
    play(state, ("draw", "draw"))  # the only Kraken is forced; it forces two more draws
    assert row(state) == ["N5", "S3", "X5", "K2", "T2"] and bank(state, 2) == {"X": ["X4"]}


def test_living_shield_without_any_kraken_makes_the_sword_do_nothing():
    state = make(draw=["S3"] + MORE, row=["N5"], banks=[["X3"], ["C6", "K4"]], characters=chars(None, "living_shield"))
    play(state, ("draw", "draw"))  # the Sword player's own Kraken does not count
    assert events(state, "no_effect")[0]["suit"] == "sword" and bank(state, 1) == {"C": ["C6"], "K": ["K4"]}


def test_davy_jones_locker_takes_the_targets_busted_cards():
    state = make(players=3, draw=["K6"] + MORE, row=["N5", "K3"], characters=[None, None, "davy_jones_locker"],
                 locker=[None, None, 0])
    play(state, ("draw", "draw"))
    assert bank(state, 2) == {"K": ["K6", "K3"], "N": ["N5"]} and discard(state) == []
    assert events(state, "bust")[0]["locker"] == 2


def test_davy_jones_locker_with_an_anchor_protected_bust():
    state = make(draw=["K6"] + MORE, row=["N5", "A4", "K3"], characters=chars(None, "davy_jones_locker"),
                 locker=[None, 0])
    play(state, ("draw", "draw"))
    assert bank(state, 0) == {"N": ["N5"]}
    assert bank(state, 1)["A"] == ["A4"] and bank(state, 1)["K"] == ["K6", "K3"] and discard(state) == []


def test_davy_jones_locker_ignores_other_players_busts():
    state = make(players=3, draw=["K6"] + MORE, row=["K3"], characters=[None, None, "davy_jones_locker"],
                 locker=[None, None, 1])
    play(state, ("draw", "draw"))
    assert bank(state, 2) == {} and Counter(discard(state)) == Counter(["K3", "K6"])


def test_vulture_hit_by_misfire_discards_its_own_card():
    state = make(draw=["C3"] + MORE, row=["N5"], banks=[["K5", "K4"], ["S6"]], characters=chars("vulture", "misfire"))
    play(state, ("draw", "draw"))
    assert bank(state, 0) == {"K": ["K4"]} and discard(state) == ["K5"]


def test_fisherman_in_an_opponents_turn_does_nothing():
    state = make(draw=["X3", "K4", "T5"] + MORE, row=["A3"], characters=chars(None, "fisherman"))
    play(state, ("draw", "draw"))
    assert row(state) == ["A3", "X3", "K4", "T5"] and bank(state, 1) == {}


def test_captain_hook_collecting_after_a_hooked_oracle_takes_no_second_card():
    # Resolution: collecting ends the turn at once; the second card stays in the bank.
    state = make(draw=["H3"] + MORE, row=["N5"], banks=[["O4", "K4"]], characters=chars("captain_hook"))
    play(state, ("draw", "draw"), ("hook", "O"))
    assert deciding(state) == (0, "oracle", ["place", "collect"])
    play(state, ("oracle", "collect"))
    assert bank(state, 0) == {"H": ["H3"], "K": ["K4"], "N": ["N5"], "O": ["O4"]} and state.turn == 1
