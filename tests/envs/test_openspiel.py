"""The OpenSpiel adapter: OpenSpiel's own random simulation test on every game and player
count, state serialization, IS-MCTS and MCTS playing whole games, and bad input."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="pip install -e '.[openspiel]'")
import envs.openspiel as adapter  # noqa: E402
from engines import get_game, same_value  # noqa: E402

# Every player count of every game with default options, and a sample of other option values.
# Opito Bay plays to 50,000 points by default (10-40 deals): at 3 and 4 players a few deals
# (the information-state string of every seat is checked at every step, and grows with the
# game); Karibik's 30 rounds are 1.5-3.5 s a game (5,040 bribe ids checked per bribe).
SIMULATIONS = (
    [("dead_mans_draw", n, {}) for n in range(2, 9)]
    + [("dead_mans_draw", 2, {"characters": False}),
       ("dead_mans_draw", 3, {"strange_waters": True, "mermaid_effect": True}),
       ("dead_mans_draw", 4, {"party": True, "mermaid_effect": True}),
       ("dead_mans_draw", 3, {"turn_based": True}),
       ("opito_bay", 2, {}), ("opito_bay", 3, {"deals": 2}), ("opito_bay", 4, {"deals": 1}),
       ("opito_bay", 3, {"target": 500}), ("opito_bay", 2, {"deals": 1, "seed": 7}),
       ("karibik", 2, {}), ("karibik", 3, {"max_rounds": 10}), ("karibik", 4, {"max_rounds": 8}),
       ("karibik", 3, {"max_rounds": 2, "turn_based": True})]
)


@pytest.mark.parametrize("name,players,params", SIMULATIONS)
def test_random_sim_test(name, players, params):
    game = pyspiel.load_game(name, {"players": players, **params})
    # serialize=False: OpenSpiel serializes a sampled-stochastic game with the game's RNG
    # state, which a Python game cannot provide (Game.GetRNGState has no Python override);
    # state serialization is tested below.
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def play(state, rng, each=None):
    """Random play to the end (simultaneous nodes too), calling ``each(state)`` per state."""
    while not state.is_terminal():
        if each:
            each(state)
        if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in range(state.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name,params", [("dead_mans_draw", {"players": 3}), ("opito_bay", {"deals": 1}),
                                         ("karibik", {"max_rounds": 3, "turn_based": True})])
def test_state_serialization_round_trip(name, params):
    game = pyspiel.load_game(name, params)

    def same_after_round_trip(state):
        copy = game.deserialize_state(state.serialize())
        assert str(copy) == str(state)
        assert copy.history() == state.history()
        assert copy.legal_actions() == state.legal_actions()

    play(game.new_initial_state(), random.Random(1), same_after_round_trip)


@pytest.mark.parametrize("name,players", [("dead_mans_draw", 3), ("opito_bay", 2), ("karibik", 4)])
def test_seed_deals_as_arena_match(name, players):
    """seed >= 0: the initial state is the deal of ``arena match --seed`` (the engine's seed)."""
    game = pyspiel.load_game(name, {"players": players, "seed": 12345})
    state = game.new_initial_state()
    engine = get_game(adapter.SHORT_NAMES[name]).new_state(players, 12345, {})
    for seat in range(players):
        assert same_value(adapter.engine_state(state).observation(seat), engine.observation(seat))
    assert str(game.new_initial_state()) == str(state)


def test_legal_ids_decode_to_the_engines_legal_actions():
    rng = random.Random(3)
    for name, params in [("dead_mans_draw", {"players": 4, "mermaid_effect": True}),
                         ("opito_bay", {"players": 3, "deals": 2}), ("karibik", {"players": 2, "max_rounds": 4})]:
        game = pyspiel.load_game(name, params)

        def decodes(state):
            engine = adapter.engine_state(state)
            for seat in engine.acting:
                ids = state.legal_actions(seat)
                assert ids == sorted(set(ids))
                listed = engine.legal_actions(seat)
                if listed is None:  # Karibik's bribes: every permutation, each one the engine accepts
                    assert len(ids) == 5040
                    for number in rng.sample(ids, 20):
                        engine.check(seat, adapter.action_of(state, seat, number))
                    continue
                decoded = [adapter.action_of(state, seat, number) for number in ids]
                assert len(decoded) == len(ids)
                for action in listed:  # every legal action has its id (a spyglass order's equal cards share one)
                    assert any(same_value(action, other) for other in decoded), (engine.decision(seat), action)
                for action in decoded:
                    engine.check(seat, action)

        play(game.new_initial_state(), rng, decodes)


def test_returns_are_the_pairwise_rank_score():
    assert adapter.returns_of((1, 2)) == [1.0, -1.0]
    assert adapter.returns_of((1, 1)) == [0.0, 0.0]
    assert adapter.returns_of((1, 3, 1, 4)) == [2 / 3, -1 / 3, 2 / 3, -1.0]
    game = pyspiel.load_game("dead_mans_draw", {"players": 3})
    state = play(game.new_initial_state(), random.Random(5))
    assert state.returns() == adapter.returns_of(adapter.engine_state(state).outcome().ranks)
    assert abs(sum(state.returns())) < 1e-9


@pytest.mark.parametrize("name,params", [("dead_mans_draw", {"players": 2}),
                                         ("opito_bay", {"players": 3, "deals": 1}),
                                         ("karibik", {"players": 2, "max_rounds": 2})])
def test_ismcts_plays_whole_games(name, params):
    """OpenSpiel's own IS-MCTS, unchanged, plays every seat of a whole game (turn-based form)."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name, {**params, "turn_based": True})
    numpy_rng = np.random.RandomState(4)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, numpy_rng), 2.0, 8, random_state=numpy_rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert abs(sum(state.returns())) < 1e-9


def test_resample_keeps_the_seats_view_and_redraws_others_pending_choices():
    game = pyspiel.load_game("karibik", {"players": 3, "turn_based": True, "max_rounds": 2, "seed": 3})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[17])  # seat 0's bribe, pending and hidden
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    assert state.current_player() == 1
    redrawn = {str(state.resample_from_infostate(1, sampler)) for _ in range(8)}
    assert len(redrawn) > 1  # seat 0's pending bribe is not kept for seat 1
    for _ in range(4):
        other = state.resample_from_infostate(0, sampler)
        assert other.observation_string(0) == state.observation_string(0)
        assert other.information_state_string(0) == state.information_state_string(0)
        assert "my choice" in other.observation_string(0)


@pytest.mark.parametrize("params,message", [
    ({"players": 9}, "dead-mans-draw is for 2-8 players, not 9"),
    ({"players": 1}, "not 1"),
    ({"party": 3}, "Wrong type for parameter party"),  # OpenSpiel's own check
    ({"seed": -2}, "seed must be an integer >= -1"),
])
def test_bad_parameters_are_spiel_errors(params, message):
    with pytest.raises(pyspiel.SpielError, match=message):
        pyspiel.load_game("dead_mans_draw", params)


def test_bad_names_and_values_are_spiel_errors():
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("karibik", {"colour": "red"})
    with pytest.raises(pyspiel.SpielError, match="must be one of"):
        pyspiel.load_game("karibik", {"board": "atlantic"})
    with pytest.raises(pyspiel.SpielError, match="at most 40"):
        pyspiel.load_game("opito_bay", {"deals": 41})
    with pytest.raises(pyspiel.SpielError, match="pirates"):
        pyspiel.load_game("pirates")
    state = pyspiel.load_game("opito_bay", {"seed": 1}).new_initial_state()
    illegal = next(a for a in range(state.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError, match="not legal for player"):
        state.apply_action(illegal)
    bribes = pyspiel.load_game("karibik", {"seed": 1}).new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="decide at once here: use apply_actions"):
        bribes.apply_action(0)
