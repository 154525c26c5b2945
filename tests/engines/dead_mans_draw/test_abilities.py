"""The ten suit abilities, their decisions, and the [R] resolutions of the rules file."""

from collections import Counter

from ._helpers import bank, deciding, discard, events, make, play, row

MORE = ["N7", "N8", "N9"]  # filler so the game goes on after the tested turn


# -- Anchor -----------------------------------------------------------------------------------

def test_seed_anchor_example():
    # Mermaid and Cannon in the row, then an Anchor, then a second Mermaid busts: the first
    # Mermaid and the Cannon are banked, the Anchor and the second Mermaid are discarded.
    state = make(draw=["N5", "C3", "A4", "N6"] + MORE, discard=["K2"])
    play(state, ("draw", "draw"), ("draw", "draw"), ("draw", "draw"))
    assert bank(state, 0) == {"C": ["C3"], "N": ["N5"]}
    assert sorted(discard(state)) == ["A4", "K2", "N6"]
    assert events(state, "bust")[0]["kept"] == ["N5", "C3"]


def test_anchor_protects_only_cards_before_it():
    state = make(draw=["A4", "K5", "K6"] + MORE, row=["N5"])
    play(state, ("draw", "draw"), ("draw", "draw"))
    assert state.observation(0)["protected"] == [True, False, False]
    play(state, ("draw", "draw"))
    assert bank(state, 0) == {"N": ["N5"]} and sorted(discard(state)) == ["A4", "K5", "K6"]


def test_r3_anchor_placed_by_hook_protects_earlier_cards():
    state = make(draw=["H3", "N6"] + MORE, row=["N5"], banks=[["A4"]])
    play(state, ("draw", "draw"))  # Hook: the only stack (Anchor) enters by itself
    assert row(state) == ["N5", "H3", "A4"] and state.observation(0)["protected"] == [True, True, False]
    play(state, ("draw", "draw"))
    assert bank(state, 0) == {"H": ["H3"], "N": ["N5"]} and sorted(discard(state)) == ["A4", "N6"]


# -- Hook -------------------------------------------------------------------------------------

def test_hook_brings_a_chosen_own_card_whose_ability_triggers():
    state = make(draw=["H3"] + MORE, row=["N5"], banks=[["C4", "K5"], ["S6", "S3"]])
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "hook", ["C", "K"])
    play(state, ("hook", "C"))  # the Cannon then hits the opponent's only stack by itself
    assert row(state) == ["N5", "H3", "C4"]
    assert bank(state, 1) == {"S": ["S3"]} and discard(state) == ["S6"]
    assert deciding(state) == (0, "draw", ["draw", "collect"])


def test_hook_with_empty_bank_has_no_effect():
    state = make(draw=["H3"] + MORE, row=["N5"], banks=[[], ["K4"]])
    play(state, ("draw", "draw"))
    assert events(state, "no_effect")[0]["suit"] == "hook"
    assert deciding(state) == (0, "draw", ["draw", "collect"]) and bank(state, 1) == {"K": ["K4"]}


def test_r7_hook_may_choose_a_stack_that_busts_and_the_card_is_lost():
    state = make(draw=["H3"] + MORE, row=["N5"], banks=[["N7", "N6", "K5"]])
    play(state, ("draw", "draw"), ("hook", "N"))
    assert bank(state, 0) == {"K": ["K5"], "N": ["N6"]}
    assert sorted(discard(state)) == ["H3", "N5", "N7"] and state.turn == 1


# -- Cannon -----------------------------------------------------------------------------------

def test_cannon_discards_the_top_card_of_a_chosen_opponent_stack():
    state = make(players=3, draw=["C3"] + MORE, row=["N5"],
                 banks=[["K4"], ["S6", "S3"], ["A7"]])
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "cannon", [[1, "S"], [2, "A"]])  # never one's own stack
    play(state, ("cannon", [1, "S"]))
    assert bank(state, 1) == {"S": ["S3"]} and discard(state) == ["S6"] and bank(state, 0) == {"K": ["K4"]}


def test_cannon_without_opponent_cards_has_no_effect():
    state = make(draw=["C3"] + MORE, row=["N5"], banks=[["K4"], []])
    play(state, ("draw", "draw"))
    assert events(state, "no_effect")[0]["suit"] == "cannon" and bank(state, 0) == {"K": ["K4"]}


# -- Key and Chest ----------------------------------------------------------------------------

def test_seed_key_and_chest_example_five_cards_give_five_bonus_cards():
    pile = ["A2", "H2", "C2", "M2", "O2", "S2", "X2", "N4", "K2", "T2"]
    state = make(draw=["C5"] + MORE, row=["K3", "T4", "N5", "A3"], discard=pile, seed=3)
    play(state, ("draw", "draw"), ("draw", "collect"))
    bonus = events(state, "bonus")[0]
    assert bonus["from"] == "discard" and len(bonus["cards"]) == 5
    assert Counter(bonus["cards"]) + Counter(discard(state)) == Counter(pile)
    banked = [card for stack in bank(state, 0).values() for card in stack]
    assert Counter(banked) == Counter(["K3", "T4", "N5", "A3", "C5"] + bonus["cards"])


def test_key_and_chest_bonus_takes_the_whole_discard_pile_when_short():
    state = make(draw=["T4"] + MORE, row=["K3"], discard=["S2", "X2"])
    play(state, ("draw", "draw"), ("draw", "collect"))
    assert sorted(events(state, "bonus")[0]["cards"]) == ["S2", "X2"] and discard(state) == []


def test_key_without_chest_gives_no_bonus():
    state = make(draw=["N4"] + MORE, row=["K3"], discard=["S2"])
    play(state, ("draw", "draw"), ("draw", "collect"))
    assert events(state, "bonus") == [] and discard(state) == ["S2"]


def test_r4_protected_key_and_chest_give_a_bonus_on_a_bust():
    state = make(draw=["K6"] + MORE, row=["K3", "T4", "A5"], discard=["S2", "X2", "O2"], seed=1)
    play(state, ("draw", "draw"))
    bonus = events(state, "bonus")[0]["cards"]
    assert len(bonus) == 2  # as many as protected cards banked
    banked = [card for stack in bank(state, 0).values() for card in stack]
    assert Counter(banked) == Counter(["K3", "T4"] + bonus)
    assert Counter(discard(state)) + Counter(bonus) == Counter(["S2", "X2", "O2", "A5", "K6"])


# -- Map --------------------------------------------------------------------------------------

def test_map_reveals_three_random_discards_places_one_and_returns_the_others():
    pile = ["K2", "T2", "N4", "N5", "A2"]
    state = make(draw=["M3"] + MORE, row=["O5"], discard=pile, seed=2)
    play(state, ("draw", "draw"))
    shown = events(state, "map")[0]["cards"]
    assert len(shown) == 3 and set(shown) <= set(pile)
    seat, kind, legal = deciding(state)
    assert (seat, kind, legal) == (0, "map", sorted(shown))
    assert state.observation(1)["pending"]["cards"] == shown  # the revealed cards are public
    # ...and while the decision is open they are not in the discard pile (documented)
    assert Counter(state.observation(1)["discard"]) == Counter(pile) - Counter(shown)
    choice = next(card for card in legal if card != "A2")
    play(state, ("map", choice))
    assert row(state) == ["O5", "M3", choice]
    assert Counter(discard(state)) == Counter(pile) - Counter([choice])


def test_map_with_fewer_than_three_discards_chooses_among_them_and_may_bust():
    state = make(draw=["M3"] + MORE, row=["N5"], discard=["N4", "K2"])
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "map", ["K2", "N4"])
    play(state, ("map", "N4"))
    assert sorted(discard(state)) == ["K2", "M3", "N4", "N5"] and state.turn == 1


def test_map_card_ability_triggers_and_empty_discard_has_no_effect():
    state = make(draw=["M3"] + MORE, row=["N5"], discard=["C2"], banks=[[], ["S5"]])
    play(state, ("draw", "draw"))  # one card: the Map places it by itself; the Cannon hits S5
    assert row(state) == ["N5", "M3", "C2"] and bank(state, 1) == {} and discard(state) == ["S5"]
    state = make(draw=["M3"] + MORE, row=["N5"], discard=[])
    play(state, ("draw", "draw"))
    assert events(state, "no_effect")[0]["suit"] == "map"


# -- Oracle -----------------------------------------------------------------------------------

def test_oracle_reveals_the_top_card_to_everyone_then_collect_puts_it_back():
    state = make(draw=["O3", "K4", "T5"] + MORE, row=["N5"])
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "oracle", ["place", "collect"])
    assert events(state, "oracle", seat=1)[0]["card"] == "K4"
    assert state.observation(1)["draw_known"] == ["K4"] == state.observation(0)["draw_known"]
    play(state, ("oracle", "collect"))
    assert bank(state, 0) == {"O": ["O3"], "N": ["N5"]}
    assert state.turn == 1 and row(state) == ["K4"]  # r5: the card put back is drawn next


def test_oracle_place_puts_the_revealed_card_into_play():
    state = make(draw=["O3", "K4", "T5"] + MORE, row=["N5"])
    play(state, ("draw", "draw"), ("oracle", "place"))
    assert row(state) == ["N5", "O3", "K4"] and deciding(state)[1] == "draw"
    assert state.observation(1)["draw_known"] == []


def test_oracle_as_last_card_has_no_effect():
    state = make(draw=["O3"], row=["N5"])
    play(state, ("draw", "draw"))
    assert events(state, "no_effect")[0]["suit"] == "oracle" and state.is_terminal()


def test_r5_oracle_with_a_kraken_pending_must_place():
    state = make(draw=["X3", "O4", "K5", "T6"] + MORE, row=["N5"])
    play(state, ("draw", "draw"))  # Kraken; O4 drawn by force; its revealed K5 must be placed
    assert events(state, "oracle")[0]["card"] == "K5"
    assert row(state) == ["N5", "X3", "O4", "K5"] and deciding(state) == (0, "draw", ["draw", "collect"])


# -- Sword ------------------------------------------------------------------------------------

def test_sword_takes_an_opponent_card_of_a_suit_missing_from_own_bank():
    state = make(draw=["S3"] + MORE, row=["K5"], banks=[["C3"], ["C6", "H4", "N7", "N6"]])
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "sword", [[1, "H"], [1, "N"]])  # r6: the row's Key is irrelevant
    play(state, ("sword", [1, "N"]))
    assert row(state) == ["K5", "S3", "N7"] and bank(state, 1) == {"C": ["C6"], "H": ["H4"], "N": ["N6"]}


def test_seed_sword_card_must_be_taken_even_if_it_busts():
    state = make(draw=["S3"] + MORE, row=["K5"], banks=[["C3"], ["C6", "K7"]])
    play(state, ("draw", "draw"))  # the only legal stack is the Key, which busts
    assert sorted(discard(state)) == ["K5", "K7", "S3"] and bank(state, 1) == {"C": ["C6"]}


def test_sword_without_a_legal_stack_has_no_effect():
    state = make(draw=["S3"] + MORE, row=["K5"], banks=[["C3"], ["C6"]])
    play(state, ("draw", "draw"))
    assert events(state, "no_effect")[0]["suit"] == "sword" and bank(state, 1) == {"C": ["C6"]}


# -- Kraken -----------------------------------------------------------------------------------

def test_kraken_forces_two_more_cards_before_collecting():
    state = make(draw=["X3", "K4", "T5"] + MORE, row=["N5"])
    play(state, ("draw", "draw"))
    assert row(state) == ["N5", "X3", "K4", "T5"] and deciding(state) == (0, "draw", ["draw", "collect"])


def test_r1_a_hooked_card_counts_for_the_kraken():
    state = make(draw=["X3", "H4", "A6"] + MORE, row=["N5"], banks=[["K2", "C5"]])
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "hook", ["C", "K"]) and state.observation(0)["kraken"] == 1
    play(state, ("hook", "K"))
    assert deciding(state) == (0, "draw", ["draw", "collect"]) and state.observation(0)["kraken"] == 0


def test_r2_kraken_requirement_lapses_when_the_draw_pile_runs_out():
    state = make(draw=["X3", "K4"], row=["N5"])
    play(state, ("draw", "draw"))
    assert state.is_terminal() and bank(state, 0) == {"K": ["K4"], "X": ["X3"], "N": ["N5"]}


def test_mermaid_has_no_ability_in_the_base_game():
    state = make(draw=["N9"] + MORE, row=["A5", "K4"])
    play(state, ("draw", "draw"))
    assert row(state) == ["A5", "K4", "N9"] and deciding(state) == (0, "draw", ["draw", "collect"])


def test_r8_discarded_cards_are_visible_to_everyone():
    state = make(players=3, draw=["K6"] + MORE, row=["K3", "N4"], discard=["S2"])
    play(state, ("draw", "draw"))
    for seat in range(3):
        assert sorted(state.observation(seat)["discard"]) == ["K3", "K6", "N4", "S2"]
