"""Each engine's omniscient view (for replay viewers): exactly what no seat knows, under
keys no observation uses."""

import random

import pytest

import engines
from engines.dead_mans_draw import DeadMansDrawState
from engines.karibik import KaribikState
from engines.opito_bay import OpitoState


def test_dead_mans_draw_shows_the_draw_pile_bottom_first():
    # The turn starts with its mandatory draw: A5 (the top) is in the play area.
    state = DeadMansDrawState.from_setup(2, draw=["A5", "K3", "S9"], characters=["seer", "miser"])
    assert state.row == [5]
    assert engines.game_package("dead-mans-draw").omniscient_view(state) == {"draw_pile": ["S9", "K3"]}


def test_opito_bay_shows_the_library_bottom_first():
    state = OpitoState.from_setup(aces=["D", "S"], hands=[["2D", "X"], ["KS"]], library=["5C", "9H", "QD"])
    assert engines.game_package("opito-bay").omniscient_view(state) == {"library_order": ["QD", "9H", "5C"]}


def test_karibik_shows_the_reserve_order():
    board = engines.get_game("karibik").new_state(2, 1, {}).board
    reserve = [board.ports[3], board.ports[1]]
    state = KaribikState.from_setup(2, ships=list(board.starts), reserve=reserve)
    assert engines.game_package("karibik").omniscient_view(state) == {"reserve_order": reserve}


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
