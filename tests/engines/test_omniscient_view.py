"""Each engine's omniscient view (for replay viewers): exactly the hidden facts, under keys
no observation uses."""

import random

import pytest

import engines
from engines.dead_mans_draw import DeadMansDrawState
from engines.karibik import KaribikState
from engines.opito_bay import OpitoState


def test_dead_mans_draw_shows_the_draw_pile_bottom_first_and_every_dealt_pair():
    # The turn starts with its mandatory draw: A5 (the top) is in the play area.
    state = DeadMansDrawState.from_setup(2, draw=["A5", "K3", "S9"], characters=["seer", "miser"])
    assert state.row == [5]
    assert engines.game_package("dead-mans-draw").omniscient_view(state) == {
        "draw_pile": ["S9", "K3"], "dealt_all": None}
    dealt = engines.get_game("dead-mans-draw").new_state(3, 5, {})
    view = engines.game_package("dead-mans-draw").omniscient_view(dealt)
    assert view["dealt_all"] == [dealt.observation(seat)["dealt"] for seat in range(3)]


def test_opito_bay_shows_every_hand_and_the_library_bottom_first():
    state = OpitoState.from_setup(aces=["D", "S"], hands=[["2D", "X"], ["KS"]], library=["5C", "9H", "QD"])
    assert engines.game_package("opito-bay").omniscient_view(state) == {
        "hands": [["2D", "X"], ["KS"]], "library_order": ["QD", "9H", "5C"]}


def test_karibik_shows_every_bribe_tiebreaker_and_the_reserve_order():
    state = KaribikState.from_setup(2, ships=[28, 29, 30, 31, 32, 33], reserve=["Havana", "Nassau"],
                                    bids=[[5, 4, 3, 2, 1, 0], [-1, 0, 1, 2, 3, 4]])
    view = engines.game_package("karibik").omniscient_view(state)
    assert view["bids_all"] == [[5, 4, 3, 2, 1, 0], [-1, 0, 1, 2, 3, 4]]
    assert view["tiebreakers_all"] == [-1, 5]
    assert view["reserve_order"] == [3, 4]


@pytest.mark.parametrize("game_id", engines.game_ids())
def test_omniscient_keys_never_collide_with_observation_keys(game_id):
    game = engines.get_game(game_id)
    state = game.new_state(game.min_players, 11, {})
    rng = random.Random(2)
    omniscient = engines.game_package(game_id).omniscient_view
    for _ in range(60):
        if state.is_terminal():
            break
        assert not omniscient(state).keys() & state.observation(0).keys()
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
