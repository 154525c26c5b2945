"""Setup, the turn (draw, bust, collect), end of game, scoring and tie-break."""

import pytest

from engines import IllegalAction
from engines.dead_mans_draw import GAME

from ._helpers import bank, deciding, discard, events, make, play, row


# -- setup ------------------------------------------------------------------------------------

def test_setup_discard_pile_is_the_lowest_cards_and_draw_pile_the_rest():
    state = GAME.new_state(2, seed=4, options={"characters": False})
    obs = state.observation(0)
    first = events(state, "draw")[0]["card"]
    assert sorted(obs["discard"]) == sorted(["A2", "H2", "C2", "K2", "T2", "M2", "O2", "S2", "X2", "N4"])
    assert obs["draw_size"] == 49  # 50 minus the mandatory first draw
    assert obs["row"] == [first] and obs["draw_known"] == []


def test_starting_player_is_seeded():
    starts = {seed: GAME.new_state(4, seed).turn for seed in range(40)}
    assert set(starts.values()) == {0, 1, 2, 3}
    assert all(GAME.new_state(4, seed).turn == turn for seed, turn in starts.items())
    assert events(GAME.new_state(4, 9), "start")[0]["seat"] == starts[9]


def test_draw_order_is_seeded_and_secret():
    a, b = GAME.new_state(2, 1), GAME.new_state(2, 1)
    assert a.draw == b.draw
    assert GAME.new_state(2, 2).draw != a.draw
    obs = a.observation(0)
    assert "draw" not in obs and obs["draw_known"] == [] and obs["draw_size"] == len(a.draw)


def test_first_draw_is_mandatory_and_an_empty_row_cannot_be_collected():
    state = make(draw=["N5", "K3"], turn=1)
    assert row(state) == ["N5"]
    assert deciding(state) == (1, "draw", ["draw", "collect"])


# -- the turn ---------------------------------------------------------------------------------

def test_collect_banks_the_row_sorted_highest_on_top_and_passes_left():
    state = make(players=3, draw=["N5", "K6", "A3", "N7"], banks=[[], ["K3", "K7"], []], turn=1)
    play(state, ("draw", "draw"), ("draw", "collect"))
    assert bank(state, 1) == {"K": ["K7", "K6", "K3"], "N": ["N5"]}
    assert state.turn == 2 and row(state) == ["A3"]
    assert events(state, "collect")[0] == {"type": "collect", "seat": 1, "cards": ["N5", "K6"]}


def test_turn_order_wraps_around():
    state = make(players=3, draw=["N5", "K6"], turn=2)
    play(state, ("draw", "collect"))
    assert state.turn == 0


def test_bust_discards_row_and_busting_card_without_its_ability():
    # the busting Cannon would have hit the opponent's Key: it must not trigger
    state = make(draw=["C5", "N6", "N7"], row=["C3", "K4"], discard=["A2"], banks=[[], ["K5"]])
    play(state, ("draw", "draw"))
    assert sorted(discard(state)) == sorted(["A2", "C3", "K4", "C5"])
    assert bank(state, 0) == {} and bank(state, 1) == {"K": ["K5"]}
    assert events(state, "bust")[0] == {"type": "bust", "seat": 0, "card": "C5", "kept": [], "lost": ["C3", "K4", "C5"]}
    assert state.turn == 1 and row(state) == ["N6"]


def test_illegal_action_names_the_legal_ones():
    state = make(draw=["N5", "K6"], row=["K3"])
    with pytest.raises(IllegalAction) as error:
        state.apply_action("pass")
    assert "['draw', 'collect']" in error.value.reason
    with pytest.raises(IllegalAction):
        state.apply_action(["draw"])


# -- end and scoring --------------------------------------------------------------------------

def test_who_draws_the_last_card_finishes_the_turn_then_the_game_ends():
    state = make(draw=["N5"], row=["K3"], banks=[["A4"], ["C7"]])
    play(state, ("draw", "draw"))  # the last card is placed; collecting is then the only choice
    assert state.is_terminal()
    assert bank(state, 0) == {"A": ["A4"], "K": ["K3"], "N": ["N5"]}
    assert state.outcome().scores == (12, 7) and state.outcome().ranks == (1, 2)
    assert events(state, "end")[0]["scores"] == [12, 7]


def test_game_ends_when_the_last_card_busts():
    state = make(draw=["K5"], row=["A6", "K3"], banks=[[], ["C7"]])
    play(state, ("draw", "draw"))
    assert state.is_terminal() and state.outcome().scores == (0, 7)


def test_score_counts_only_the_top_card_of_each_stack():
    state = make(draw=["N5"], row=["K3"], banks=[["A4", "A7", "C2"], ["C7"]])
    play(state, ("draw", "draw"))
    assert state.outcome().scores == (7 + 2 + 3 + 5, 7)


def test_tie_on_score_is_won_by_more_cards():
    state = make(players=3, draw=["N5"], row=["K2"], banks=[["A7"], ["C7", "C6", "C5"], ["S7", "S2"]])
    play(state, ("draw", "draw"))
    # scores: 2+5+7=14, 7, 7; seats 1 and 2 tie on score, seat 1 has more cards
    assert state.outcome().scores == (14, 7, 7)
    assert state.outcome().ranks == (1, 2, 3)


def test_full_tie_is_a_shared_rank():
    state = make(draw=["N5"], row=["K2"], banks=[[], ["N5", "K2"]])
    play(state, ("draw", "draw"))
    assert state.outcome().scores == (7, 7) and state.outcome().ranks == (1, 1)
