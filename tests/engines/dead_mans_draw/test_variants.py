"""Variants: Strange Waters, the Mermaid effect (Siren, sir Lovesword), the Pirate Party."""

from collections import Counter

from engines.dead_mans_draw import GAME

from ._helpers import bank, deciding, discard, events, make, play, row

MORE = ["N7", "N8", "N9"]
MERMAIDS = {"mermaid_effect": True}


# -- Strange Waters ---------------------------------------------------------------------------

def test_strange_waters_busts_on_the_same_value_not_suit():
    state = make(draw=["K4", "A3"] + MORE, row=["K3"], options={"strange_waters": True})
    play(state, ("draw", "draw"))
    assert row(state) == ["K3", "K4"]
    play(state, ("draw", "draw"))
    assert sorted(discard(state)) == ["A3", "K3", "K4"] and state.turn == 1


# -- Mermaid effect ---------------------------------------------------------------------------

def test_seed_mermaid_example_moves_the_cannon_and_fires_it_again():
    state = make(draw=["N5"] + MORE, row=["A3", "C4"], banks=[[], ["S6", "S2"]], options=MERMAIDS)
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "mermaid", [["move", 0], ["move", 1]])
    play(state, ("mermaid", ["move", 1]))  # the Cannon's only target is S6
    assert row(state) == ["A3", "N5", "C4"] and bank(state, 1) == {"S": ["S2"]} and discard(state) == ["S6"]


def test_seed_mermaid_example_moving_the_anchor_protects_cannon_and_mermaid():
    state = make(draw=["N5", "C6"] + MORE, row=["A3", "C4"], options=MERMAIDS)
    play(state, ("draw", "draw"), ("mermaid", ["move", 0]))
    assert row(state) == ["C4", "N5", "A3"] and state.observation(0)["protected"] == [True, True, False]
    play(state, ("draw", "draw"))  # C6 busts
    assert bank(state, 0) == {"C": ["C4"], "N": ["N5"]} and sorted(discard(state)) == ["A3", "C6"]


def test_mermaid_first_in_the_row_has_no_effect():
    state = make(draw=["N5", "K3"] + MORE, options=MERMAIDS)
    assert row(state) == ["N5"] and deciding(state) == (0, "draw", ["draw", "collect"])


def test_moving_a_kraken_restarts_its_requirement():
    state = make(draw=["N5", "T6", "A7"] + MORE, row=["X3", "K4"], options=MERMAIDS)
    play(state, ("draw", "draw"), ("mermaid", ["move", 0]))
    assert row(state) == ["K4", "N5", "X3", "T6", "A7"] and deciding(state)[1] == "draw"


def test_moving_a_key_does_nothing():
    state = make(draw=["N5"] + MORE, row=["K3", "T4"], options=MERMAIDS)
    play(state, ("draw", "draw"), ("mermaid", ["move", 0]))
    assert row(state) == ["T4", "N5", "K3"] and deciding(state) == (0, "draw", ["draw", "collect"])


def test_seed_siren_example_takes_the_sword_without_its_effect():
    state = make(draw=["N5"] + MORE, row=["S3"], banks=[[], ["K6"]], characters=[None, "siren"], options=MERMAIDS)
    play(state, ("draw", "draw"))  # the only card before the Mermaid is the Sword
    assert row(state) == ["N5"] and bank(state, 1) == {"K": ["K6"], "S": ["S3"]}
    assert events(state, "siren")[0] == {"type": "siren", "seat": 1, "card": "S3"}


def test_sir_lovesword_may_bank_a_card_instead_of_moving_it():
    state = make(draw=["N5"] + MORE, row=["K3", "C4"], banks=[[], ["S6"]], characters=["casanova", None],
                 options=MERMAIDS)
    play(state, ("draw", "draw"))
    assert deciding(state) == (0, "mermaid", [["move", 0], ["move", 1], ["bank", 0], ["bank", 1]])
    play(state, ("mermaid", ["bank", 1]))
    assert row(state) == ["K3", "N5"] and bank(state, 0) == {"C": ["C4"]} and bank(state, 1) == {"S": ["S6"]}


def test_casanova_in_the_mermaid_variant_does_not_bank_mermaids():
    state = make(draw=["N5"] + MORE, row=["K3"], characters=["casanova", None], options=MERMAIDS)
    play(state, ("draw", "draw"))
    assert row(state) == ["K3", "N5"] and events(state, "banked") == []


def test_an_anchor_banked_by_sir_lovesword_keeps_its_protection():
    state = make(draw=["N5", "K6"] + MORE, row=["K3", "A4"], characters=["casanova", None], options=MERMAIDS)
    play(state, ("draw", "draw"), ("mermaid", ["bank", 1]))
    assert row(state) == ["K3", "N5"] and state.observation(0)["protected"] == [True, False]
    play(state, ("draw", "draw"))
    assert bank(state, 0) == {"A": ["A4"], "K": ["K3"]} and sorted(discard(state)) == ["K6", "N5"]


def test_a_protected_card_moved_behind_the_anchor_stays_protected():
    # Resolution: protection is given when the Anchor is placed and stays with the card.
    state = make(draw=["N5", "K6"] + MORE, row=["K3", "A4"], options=MERMAIDS)
    play(state, ("draw", "draw"), ("mermaid", ["move", 0]))
    assert row(state) == ["A4", "N5", "K3"] and state.observation(0)["protected"] == [False, False, True]
    play(state, ("draw", "draw"))  # K6 busts
    assert bank(state, 0) == {"K": ["K3"]} and sorted(discard(state)) == ["A4", "K6", "N5"]


def test_an_anchor_taken_by_a_siren_keeps_its_protection():
    state = make(draw=["N5", "K6"] + MORE, row=["K3", "A4"], characters=[None, "siren"], options=MERMAIDS)
    play(state, ("draw", "draw"), ("mermaid", ["move", 1]))
    assert bank(state, 1) == {"A": ["A4"]} and state.observation(0)["protected"] == [True, False]


# -- Pirate Party -----------------------------------------------------------------------------

def test_party_is_implied_for_five_to_eight_players_with_two_sets():
    state = GAME.new_state(8, seed=1)
    obs = state.observation(0)
    assert obs["options"]["party"] and len(obs["discard"]) == 20 and obs["draw_size"] == 100
    assert Counter(obs["discard"])["K2"] == 2
    dealt = [state.observation(s)["dealt"] for s in range(8)]
    assert sum(map(len, dealt)) == 16 and max(Counter(sum(dealt, [])).values()) <= 2


def test_party_option_with_four_players_uses_two_sets():
    state = GAME.new_state(4, seed=1, options={"party": True, "characters": False})
    assert len(state.observation(0)["discard"]) == 20 and state.observation(0)["draw_size"] == 99


def test_party_map_offers_duplicate_cards_once():
    state = make(draw=["M5"] + MORE, row=["N5"], discard=["K2", "K2"], options={"party": True})
    play(state, ("draw", "draw"))
    assert row(state) == ["N5", "M5", "K2"] and discard(state) == ["K2"]


def test_a_mermaid_moved_by_a_mermaid_does_not_trigger_again():
    # Strange Waters lets two Mermaids share the row; they would move each other forever
    state = make(draw=["N5"] + MORE, row=["N4"], options={"mermaid_effect": True, "strange_waters": True})
    play(state, ("draw", "draw"))
    assert row(state) == ["N5", "N4"] and deciding(state) == (0, "draw", ["draw", "collect"])
