"""Bribes, ship order, highest bid, thief cards and the tie-break round."""

import random

import pytest

from engines import IllegalAction
from engines.karibik import GAME, KaribikState

from ._positions import STARTS, area, events, position


def test_setup_places_six_chests_reserve_and_ships():
    state = GAME.new_state(3, seed=7)
    chests = state.observation(0)["chests"]
    assert chests.count("port") == 6 and chests.count("reserve") == 10
    assert len(state.reserve) == 10 and len(set(state.reserve)) == 10
    assert sorted(state.ship_area) == sorted(state.board.starts)
    assert state.acting == (0, 1, 2) and state.decision(1) == "bribe"
    again = GAME.new_state(3, seed=7)
    assert (again.reserve, again.ship_area) == (state.reserve, state.ship_area)


@pytest.mark.parametrize("action,reason", [
    ([5, 4, 3, 2, 1], "a bribe is a list of 6 card values"),
    ("543210", "a bribe is a list of 6 card values"),
    ([5, 4, 3, 2, 1, 6], "card for Fuego must be one of [-1, 0, 1, 2, 3, 4, 5], got 6"),
    ([True, 4, 3, 2, 1, 0], "card for Arriba must be one of"),
    ([5, 4, 3, 2, "1", 0], "card for Evita must be one of"),
    ([5, 4, 3, 2, 1, 5], "each card can go to one ship only; 5 is used twice"),
])
def test_bribe_is_validated_with_precise_reason(action, reason):
    state = position()
    with pytest.raises(IllegalAction, match=reason.replace("[", r"\[").replace("]", r"\]")) as error:
        state.apply({0: action, 1: [5, 4, 3, 2, 1, 0]})
    assert error.value.player == 0
    assert state.bids == [None, None] and state.history == [] and state.log == []


def test_bribe_is_one_simultaneous_decision_not_enumerated():
    state = position(players=3)
    assert state.acting == (0, 1, 2)
    assert state.legal_actions(0) is None
    rng = random.Random(1)
    for _ in range(50):
        action = state.random_action(2, rng)
        state.check(2, action)
        assert len(action) == 6 and len(set(action)) == 6


def test_the_seventh_card_is_the_tiebreaker():
    state = position()
    state.apply({0: [5, 4, 3, 2, 1, 0], 1: [-1, 0, 1, 2, 3, 4]})
    assert state.tiebreaker == [-1, 5]


def test_ships_are_resolved_in_order_arriba_to_fuego():
    state = position(bids=[[5, 4, 3, 2, 1, 0], [4, 3, 2, 1, 0, -1]], ships=STARTS,
                     on_ports=["Bridgetown"])
    # Seat 0 wins every ship; ending at once each time lets the round run through. Fuego
    # (0 against the thief: 0 steps, nothing to do) ends on its own.
    order = []
    while state.round == 1:
        order.append(state.ship)
        state.apply_action(["end"])
    assert order == [0, 1, 2, 3, 4]
    assert events(state, kind="reveal")[5]["steps"] == 0
    assert [e["ship"] for e in events(state, kind="reveal")] == [0, 1, 2, 3, 4, 5]


def test_highest_bid_controls_and_thieves_reduce_movement():
    # Arriba: seat 0 bids 4, seat 1 bids 2, seat 2 plays the thief card: 4 - 1 = 3 steps.
    state = position(players=3, bids=[[4, 0, 1, 2, 3, 5], [2, 0, 1, 3, 4, 5], [-1, 0, 1, 2, 3, 4]])
    reveal = events(state, kind="reveal")[0]
    assert reveal == {"type": "reveal", "ship": 0, "cards": [4, 2, -1], "winner": 0, "steps": 3,
                      "tied": [], "deciding": []}
    assert (state.phase, state.controller, state.steps_left, state.acting) == ("move", 0, 3, (0,))


def test_movement_never_below_zero_and_zero_bid_still_wins():
    # [R] 6: the highest bid 0 wins; 0 - 1 thief = -1 becomes 0 steps. [R] 1: the player
    # still acts from the ship's area (Arriba stands on Veracruz with a chest there).
    state = position(ships=["Veracruz"] + [s for s in STARTS if s != "Sigsbee Deep"],
                     on_ports=["Veracruz"], bids=[[0, 5, 4, 3, 2, 1], [-1, 5, 4, 3, 2, 1]])
    assert (state.ship, state.controller, state.steps_left) == (0, 0, 0)
    assert state.legal_actions(0) == [["loot"], ["end"]]


def test_tie_asks_only_the_tied_players():
    state = position(players=3, bids=[[3, 0, 1, 2, 4, 5], [3, 0, 1, 2, 4, 5], [2, 0, 1, 3, 4, 5]])
    assert state.phase == "tiebreak" and state.acting == (0, 1)
    assert state.legal_actions(0) == ["reveal", "keep"]
    assert events(state, kind="reveal")[0]["tied"] == [0, 1]


def test_tiebreak_highest_revealed_wins_movement_is_original_bid_minus_thieves():
    # Seat 0 tie-breaker 5, seat 1 tie-breaker -1; seat 2 played the thief on Arriba.
    # Both reveal: seat 0 wins; movement = 3 - 1 (thief bid) - 1 (thief tie-breaker) = 1.
    state = position(players=3, bids=[[3, 0, 1, 2, 4, -1], [3, 0, 1, 2, 4, 5], [-1, 0, 1, 2, 3, 4]])
    state.apply({0: "reveal", 1: "reveal"})
    assert events(state, kind="tiebreak")[0] == {"type": "tiebreak", "ship": 0, "cards": [5, -1, None],
                                                 "winner": 0, "steps": 1}
    assert (state.controller, state.steps_left) == (0, 1)
    assert state.tb_revealed == [True, True, False]


def test_not_revealing_ranks_below_any_revealed_card():
    state = position(bids=[[3, 0, 1, 2, 4, 5], [3, 0, 1, 2, 4, -1]])
    state.apply({0: "reveal", 1: "keep"})
    # Seat 0 revealed its thief card: it wins, movement 3 - 1 = 2.
    assert (state.controller, state.steps_left) == (0, 2)
    assert state.tb_revealed == [True, False]


@pytest.mark.parametrize("choices", [("keep", "keep"), ("reveal", "reveal")])
def test_second_tie_means_no_move(choices):
    # Both tie-breakers are 5 when both reveal; nobody moves Arriba in either case.
    state = position(bids=[[3, 0, 1, 2, 4, -1], [3, 0, 1, 2, 4, -1]])
    before = state.ship_area[0]
    state.apply(dict(enumerate(choices)))
    assert events(state, kind="tiebreak")[0]["winner"] is None
    assert state.ship_area[0] == before and state.ship != 0
    assert state.tb_revealed == [choices[0] == "reveal"] * 2


def test_revealed_tiebreaker_is_used_up_kept_one_stays_available():
    # Ties on Arriba (3) and Bravo (0). On Arriba seat 0 reveals, seat 1 keeps: seat 0 wins.
    # On Bravo only seat 1 still has a tie-breaker, so only seat 1 decides.
    state = position(bids=[[3, 0, 1, 2, 4, 5], [3, 0, 1, 2, 4, -1]])
    state.apply({0: "reveal", 1: "keep"})
    assert (state.ship, state.controller) == (0, 0)
    state.apply_action(["end"])
    assert state.ship == 1 and state.phase == "tiebreak" and state.acting == (1,)
    state.apply({1: "reveal"})
    # Seat 1's 5 wins (seat 0 cannot reveal); movement is the original bid 0.
    assert events(state, kind="tiebreak")[1] == {"type": "tiebreak", "ship": 1, "cards": [None, 5],
                                                 "winner": 1, "steps": 0}


def test_tie_without_any_tiebreaker_left_means_no_move():
    state = position(bids=[[3, 0, 1, 2, 4, 5], [3, 0, 1, 2, 4, -1]], used_tiebreakers=[0, 1])
    reveal = events(state, kind="reveal")[0]
    assert reveal["tied"] == [0, 1] and reveal["deciding"] == [] and reveal["winner"] is None
    assert state.ship > 0


def test_tiebreak_decision_rejects_other_values():
    state = position(bids=[[3, 0, 1, 2, 4, 5], [3, 0, 1, 2, 4, -1]])
    with pytest.raises(IllegalAction, match="legal: \\['reveal', 'keep'\\]"):
        state.check(0, "show")


def test_from_setup_rejects_a_wrong_player_count():
    with pytest.raises(Exception, match="2-4 players"):
        KaribikState.from_setup(5, ships=list(range(6)))
    assert area("Havana") == 1
