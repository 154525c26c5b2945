"""What a player sees, determinize, resample and clone."""

import random

import msgpack
import pytest

from engines.karibik import GAME, determinize

from ._positions import STARTS, area, arriba_to_seat0, position

SHIPS = ["Cayman Trench"] + STARTS[:5]


def random_states(players, seed, count=40):
    state = GAME.new_state(players, seed)
    rng = random.Random(seed)
    found = []
    while not state.is_terminal():
        if rng.random() < 0.2:
            found.append(state.clone())
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
    found.append(state)
    return found[:count] + found[-3:]


def test_unrevealed_cards_of_others_are_hidden():
    state = arriba_to_seat0(2, players=3, ships=SHIPS, on_ports=["Havana"])
    view = state.observation(1)
    assert view["revealed"] == [[2], [1], [1]]
    assert view["my_bids"] == [1, -1, 0, 2, 3, 4] and view["my_tiebreaker"] == 5
    assert view["tiebreakers"] == [None, None, None]
    assert "reserve" not in view and view["reserve_pairs"] == 0
    assert (view["phase"], view["ship"], view["controller"], view["steps_left"], view["acting"]) == ("move", 0, 0, 2, [0])


def test_revealed_tiebreaker_is_public():
    state = position(bids=[[3, 0, 1, 2, 4, 5], [3, 0, 1, 2, 4, -1]], on_ports=["Havana"])
    state.apply({0: "reveal", 1: "keep"})
    assert state.observation(1)["tiebreakers"] == [-1, None]


def test_observation_is_msgpack_and_shows_the_board():
    view = GAME.new_state(2, seed=1).observation(0)
    msgpack.packb(view)
    assert view["board"]["areas"][area("Havana")][:3] == ["Havana", "port", 8000]
    assert view["my_bids"] is None and view["phase"] == "bribe" and view["acting"] == [0, 1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_gives_the_same_observation(players):
    for state in random_states(players, seed=players):
        for seat in range(players):
            view = state.observation(seat)
            other = determinize(view, random.Random(seat))
            assert other.observation(seat) == view
            if seat in state.acting:
                assert other.legal_actions(seat) == state.legal_actions(seat)


def test_determinize_samples_hidden_cards_consistently():
    state = arriba_to_seat0(2, players=3, ships=SHIPS, on_ports=["Havana"],
                            reserve=["Veracruz", "Trujillo", "Campeche", "Belize"])
    seen = set()
    for seed in range(20):
        other = determinize(state.observation(0), random.Random(seed))
        for seat in (1, 2):
            cards = other.bids[seat] + [other.tiebreaker[seat]]
            assert sorted(cards) == [-1, 0, 1, 2, 3, 4, 5] and other.bids[seat][0] == 1
        assert sorted(other.reserve) == sorted(state.reserve)
        seen.add(tuple(other.bids[1]))
        random_finish(other, seed)
    assert len(seen) > 5


def random_finish(state, seed):
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})


def test_resample_keeps_revealed_cards_and_own_cards():
    state = arriba_to_seat0(2, players=3, ships=SHIPS, on_ports=["Havana"])
    other = state.resample(0, random.Random(4))
    assert other.bids[0] == state.bids[0] and other.tiebreaker[0] == state.tiebreaker[0]
    assert [b[0] for b in other.bids] == [b[0] for b in state.bids]
    assert other.observation(0) == state.observation(0)


def test_clone_is_independent():
    state = arriba_to_seat0(2, ships=SHIPS, on_ports=["Havana"])
    copy = state.clone()
    copy.apply_action(["move", area("Trinidad")])
    assert state.ship_area[0] == area("Cayman Trench") and state.steps_left == 2
    assert len(copy.log) > len(state.log) and len(copy.history) == len(state.history) + 1
    assert copy.rng.random() == state.rng.random()


def test_fork_copies_the_position_without_history():
    state = arriba_to_seat0(2, ships=SHIPS, on_ports=["Havana"])
    fork = state.fork()
    assert fork.history == [] and fork.log == [] and fork.observation(0) == state.observation(0)
    fork.apply_action(["move", area("Trinidad")])
    assert state.ship_area[0] == area("Cayman Trench") and fork.ship_area[0] == area("Trinidad")
