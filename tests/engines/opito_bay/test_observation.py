"""What a player observes; resampling and determinization keep exactly that."""

import random

import pytest

from engines.opito_bay import GAME, determinize
from tests.engines._harness import check_information, pack, play_random

from ._helpers import act, setup

OPTION_SETS = [{"deals": 1}, {"deals": 2, "target": 1}, {"target": 8000}]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTION_SETS)
def test_information_harness(players, options):
    check_information(GAME, players, seed=21, options=options, samples=6)


def test_observation_shows_own_hand_and_only_sizes_of_others():
    state = setup(["D", "S", "H"], [["5C", "2C"], ["4S", "QS"], ["TD"]], library=["6C", "6H", "8H"],
                  graveyard=["JH"], table=[("8D", "8", None, 0), ("7H", "7", 0, None)], totals=[100, -50, 0])
    obs = state.observation(1)
    assert obs["hand"] == ["4S", "QS"] and obs["hand_sizes"] == [2, 2, 1]
    assert obs["library"] == 3 and obs["graveyard"] == ["JH"] and obs["totals"] == [100, -50, 0]
    assert obs["aces"] == ["AD", "AS", "AH"] and obs["order"] == [0, 1, 2]
    assert obs["table"] == [
        {"id": 0, "card": "8D", "as": "8", "on": None, "owner": 0, "live": True},
        {"id": 1, "card": "7H", "as": "7", "on": 0, "owner": 0, "live": True},
    ]
    assert obs["deal_points"] == [800, 0, 0] and obs["turn"] == 0 and obs["decision"] == "play"
    assert "6C" not in repr(obs) and "5C" not in repr(obs) and "TD" not in repr(obs)


def test_private_events_go_only_to_their_player():
    library = ["6C", "6H", "8H", "8C", "TD", "2H"]
    state = setup(["D", "S"], [["5C", "2C"], ["4S", "QS"]], library=library)
    act(state, "5C", library[:5])
    assert state.events_for(1) == [
        {"type": "play", "seat": 0, "card": "5C", "as": "5", "look": 5, "drew": True}]
    assert state.events_for(0)[0] == {"type": "seen", "seat": 0, "cards": library[:5]}
    assert state.events_for(0)[2] == {"type": "drew", "seat": 0, "card": "6C"}


def test_resample_keeps_what_the_player_saw_with_a_five():
    library = ["6C", "6H", "8H", "8C", "TD", "2H", "2D", "2S", "4D"]
    state = setup(["D", "S"], [["5C", "2C"], ["4S", "QS"]], library=library)
    act(state, "5C", library[:5], "4S")
    for seed in range(20):
        other = state.resample(0, random.Random(seed))
        assert other.library[-3:] == ["TD", "8C", "8H"] and "6H" in other.hands[1]
        assert sorted(other.library[:-3] + other.hands[1]) == sorted(state.library[:-3] + state.hands[1])
    assert any(state.resample(0, random.Random(seed)).library != state.library for seed in range(20))
    # seat 1 knows nothing of the library, and in its resample seat 0's look follows the new cards
    other = state.resample(1, random.Random(3))
    assert other.know.top[0] == other.library[:-4:-1]


def sample_positions(players, seed, options, every=7):
    """(state, seat) pairs along a random game."""
    state = GAME.new_state(players, seed, options)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == 0 or state.decision(state.turn) == "spyglass":
            yield state.clone(), rng.randrange(players)
            yield state.clone(), state.turn
        state.apply_action(state.random_action(state.turn, rng))
        step += 1
    yield state, 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinized_state_gives_back_the_same_observation(players):
    rng = random.Random(players)
    for state, seat in sample_positions(players, seed=players, options={"deals": 2}):
        obs = state.observation(seat)
        other = determinize(obs, rng)
        assert pack(other.observation(seat)) == pack(obs)
        if seat in state.acting:
            assert other.decision(seat) == state.decision(seat)
            assert pack(other.legal_actions(seat)) == pack(state.legal_actions(seat))
        assert sorted(other.library + sum(other.hands, [])) == sorted(state.library + sum(state.hands, []))
    play_random(other, rng)


def test_determinize_samples_the_hidden_cards():
    state = GAME.new_state(3, 5)
    obs = state.observation(0)
    libraries = {tuple(determinize(obs, random.Random(seed)).library) for seed in range(5)}
    assert len(libraries) == 5
