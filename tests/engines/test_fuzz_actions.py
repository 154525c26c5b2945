"""Property-based fuzzing of every engine's action validation: any msgpack-able value given
as an action is either accepted (and then applies cleanly) or rejected with IllegalAction,
leaving the state unchanged. Nothing else may escape to the arena."""

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import IllegalAction, game_ids, get_game

from ._harness import play_random

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1), st.floats(allow_nan=True),
                    st.text(max_size=12), st.binary(max_size=8))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=8), st.dictionaries(st.text(max_size=8), inner, max_size=5)), max_leaves=20)


def states_of(game_id: str, count: int = 12):
    """A sample of states along a few random games (seeded)."""
    game = get_game(game_id)
    rng = random.Random(7)
    states = []
    for seed in range(3):
        state = game.new_state(game.min_players, seed, None)
        trail = []
        while not state.is_terminal() and len(trail) < 400:
            trail.append(state.clone())
            state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
        states.extend(rng.sample(trail, min(count // 3, len(trail))))
    return states


@pytest.mark.parametrize("game_id", game_ids())
def test_arbitrary_actions_are_accepted_or_cleanly_rejected(game_id):
    states = states_of(game_id)

    @settings(max_examples=150, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.integers(0, len(states) - 1), VALUES, st.sampled_from(["legal-like", "raw"]))
    def check(index, value, shape):
        state = states[index]
        seat = state.acting[0]
        legal = state.legal_actions(seat)
        action = value
        if shape == "legal-like" and legal:
            # Mutate a legal action: same shape, wrong contents.
            template = legal[hash(repr(value)) % len(legal)]
            action = [value] + list(template[1:]) if isinstance(template, list) and template else value
        before = pickle.dumps(state)
        try:
            state.check(seat, action)
        except IllegalAction as error:
            assert error.player == seat and error.reason
            assert pickle.dumps(state) == before
            return
        copy = state.clone()
        copy.apply({s: action if s == seat else copy.random_action(s, random.Random(0)) for s in copy.acting})
        play_random(copy, random.Random(1))

    check()
