"""The OpenSpiel adapter: OpenSpiel's own random simulation test (with serialization) on
every game and player count, the defaults OpenSpiel's algorithms take, serialization and
pickling, chance, the information state, IS-MCTS and MCTS playing whole games, bad input."""

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="pip install -e '.[openspiel]'")
import envs.openspiel as adapter  # noqa: E402
from engines import get_game, same_value  # noqa: E402

from ._every_game import others, skip_without_codec  # noqa: E402

# Every player count of every game with default options, and a sample of other option values.
# The defaults are short (Opito Bay one deal, Karibik 5 rounds); the full games (Opito Bay to
# 50,000 points, 10-40 deals; Karibik 30 rounds) at 2 players, and a few deals or rounds at 3
# and 4 (the information-state string of every seat is checked at every step, and grows with
# the game).
SIMULATIONS = (
    [("dead_mans_draw", n, {}) for n in range(2, 9)]
    + [("dead_mans_draw", 2, {"characters": False}),
       ("dead_mans_draw", 3, {"strange_waters": True, "mermaid_effect": True}),
       ("dead_mans_draw", 4, {"party": True, "mermaid_effect": True}),
       ("dead_mans_draw", 3, {"turn_based": False}), ("dead_mans_draw", 5, {"turn_based": False}),
       ("opito_bay", 2, {}), ("opito_bay", 2, {"deals": 0}), ("opito_bay", 3, {"deals": 2}), ("opito_bay", 4, {}),
       ("opito_bay", 3, {"deals": 0, "target": 500}), ("opito_bay", 2, {"seed": 7}),
       ("karibik", 2, {}), ("karibik", 2, {"max_rounds": 30}), ("karibik", 3, {"max_rounds": 3}),
       ("karibik", 4, {"max_rounds": 3}), ("karibik", 3, {"max_rounds": 2, "turn_based": False})]
)
#: any other registered game (the tests' fourth): its fewest players, OpenSpiel's defaults
SIMULATIONS += [(short, players, {}) for _, short, players in others({name for name, _, _ in SIMULATIONS})]


@pytest.mark.parametrize("name,players,params", SIMULATIONS)
def test_random_sim_test(name, players, params):
    """OpenSpiel's own test, serialization included (``serialize_game_and_state`` and back,
    and pickling, every power-of-2 step)."""
    skip_without_codec(name)
    game = pyspiel.load_game(name, {"players": players, **params})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_defaults_are_turn_based_and_short():
    """As loaded, every game is sequential (simultaneous on request) and short."""
    for name in ("dead_mans_draw", "opito_bay", "karibik"):
        game = pyspiel.load_game(name)
        assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert game.get_parameters()["turn_based"] is True
    assert pyspiel.load_game("opito_bay").get_parameters()["deals"] == 1
    assert pyspiel.load_game("karibik").get_parameters()["max_rounds"] == 5
    for name in ("dead_mans_draw", "karibik"):
        assert (pyspiel.load_game(name, {"turn_based": False}).get_type().dynamics
                == pyspiel.GameType.Dynamics.SIMULTANEOUS)
    assert (pyspiel.load_game("opito_bay", {"turn_based": False}).get_type().dynamics
            == pyspiel.GameType.Dynamics.SEQUENTIAL)  # it has no simultaneous decision


def test_chance_draws_the_seed_of_arena_match():
    """A random deal is four chance nodes, the bytes of the seed (big-endian) of the deal
    that ``arena match --seed`` plays; a game with ``seed >= 0`` has no chance node."""
    game = pyspiel.load_game("dead_mans_draw", {"players": 3})
    state = game.new_initial_state()
    for byte in (0, 1, 2, 3):
        assert state.is_chance_node()
        assert state.chance_outcomes() == [(o, 1 / 256) for o in range(256)]
        assert state.legal_actions() == list(range(256))
        assert state.information_state_string(0) == "before the deal"
        state.apply_action(byte + 10)
    assert not state.is_chance_node()
    engine = get_game("dead-mans-draw").new_state(3, 0x0A0B0C0D, {})
    assert adapter.engine_state(state).observation(1) == engine.observation(1)
    assert state.history() == [10, 11, 12, 13]
    with pytest.raises(pyspiel.SpielError, match="chance outcome 256"):
        game.new_initial_state().apply_action(256)
    assert not pyspiel.load_game("karibik", {"seed": 4}).new_initial_state().is_chance_node()


def deal(state, rng):
    while state.is_chance_node():
        state.apply_action(rng.randrange(256))
    return state


def play(state, rng, each=None):
    """Random play to the end (chance and simultaneous nodes too), calling ``each(state)``
    per state after the deal."""
    while not state.is_terminal():
        if each and not state.is_chance_node():
            each(state)
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
        elif state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in range(state.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name,params", [("dead_mans_draw", {"players": 3, "turn_based": False}), ("opito_bay", {}),
                                         ("karibik", {"max_rounds": 3})])
def test_state_serialization_round_trip(name, params):
    """``serialize``/``deserialize_state``, ``serialize_game_and_state`` and pickling give the
    same state at every step; the state is stored as its seed and actions (the engine is
    replayed), so the string stays small."""
    game = pyspiel.load_game(name, params)
    sizes = []

    def same_after_round_trip(state):
        text = state.serialize()
        sizes.append(len(text))
        for copy in (game.deserialize_state(text), pickle.loads(pickle.dumps(state)),
                     pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]):
            assert str(copy) == str(state)
            assert copy.history() == state.history()
            assert copy.legal_actions() == state.legal_actions()
            for seat in range(game.num_players()):
                assert copy.information_state_string(seat) == state.information_state_string(seat)

    play(game.new_initial_state(), random.Random(1), same_after_round_trip)
    assert max(sizes) < 40_000  # a pickled engine would be larger (Karibik's board alone)


def test_games_pickle_and_states_copy_before_the_deal():
    for name in ("dead_mans_draw", "opito_bay", "karibik"):
        game = pyspiel.load_game(name, {"players": 3})
        again = pickle.loads(pickle.dumps(game))
        assert str(again) == str(game) and type(again) is type(game)
        state = game.new_initial_state()
        for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
            assert copy.is_chance_node() and copy.observation_tensor(0) == [0.0] * game.observation_tensor_size()


def test_a_determinized_state_serializes_as_its_engine():
    """A state holding an engine set from outside (a resampled one) is not its history's
    replay: it serializes the engine itself."""
    game = pyspiel.load_game("opito_bay", {"seed": 5})
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    other = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(other) != str(state)  # seat 0's hand was redrawn
    assert str(game.deserialize_state(other.serialize())) == str(other)
    assert str(pickle.loads(pickle.dumps(other))) == str(other)


def test_information_state_tensor_holds_the_observation_and_the_pending_choice():
    game = pyspiel.load_game("karibik", {"players": 3, "seed": 2})
    state = game.new_initial_state()
    size = len(state.observation_tensor(0))
    assert game.information_state_tensor_size() == size + game.num_distinct_actions()
    before = np.array(state.information_state_tensor(0))
    assert before[:size].tolist() == state.observation_tensor(0)
    assert before[:size].any() and not before[size:].any()
    state.apply_action(state.legal_actions()[17])  # seat 0's bribe, pending and hidden
    mine = np.array(state.information_state_tensor(0))
    assert np.flatnonzero(mine[size:]).tolist() == [state.legal_actions(1)[17]]
    assert not np.array(state.information_state_tensor(1))[size:].any()


@pytest.mark.parametrize("name,players", [("dead_mans_draw", 3), ("opito_bay", 2), ("karibik", 4)])
def test_seed_deals_as_arena_match(name, players):
    """seed >= 0: the initial state is the deal of ``arena match --seed`` (the engine's seed)."""
    game = pyspiel.load_game(name, {"players": players, "seed": 12345})
    state = game.new_initial_state()
    options = {key: game.get_parameters()[key] for key in ("deals", "max_rounds") if key in game.get_parameters()}
    engine = get_game(adapter.SHORT_NAMES[name]).new_state(players, 12345, options)
    for seat in range(players):
        assert same_value(adapter.engine_state(state).observation(seat), engine.observation(seat))
    assert str(game.new_initial_state()) == str(state)


def test_legal_ids_decode_to_the_engines_legal_actions():
    rng = random.Random(3)
    for name, params in [("dead_mans_draw", {"players": 4, "mermaid_effect": True, "turn_based": False}),
                         ("opito_bay", {"players": 3, "deals": 2}), ("karibik", {"players": 2, "max_rounds": 4, "turn_based": False})]:
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
                assert len(decoded) == len(ids) == len(listed)  # a spyglass's ids: not from the list
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


@pytest.mark.parametrize("algorithm", ["ismcts", "mcts"])
@pytest.mark.parametrize("name", ["dead_mans_draw", "opito_bay", "karibik"])
def test_openspiel_search_plays_a_whole_default_game(name, algorithm):
    """OpenSpiel's own IS-MCTS and MCTS, unchanged, at 10 simulations a move, play every seat
    of a whole 2-player game of each game as loaded. Every simulation calls what a search needs
    of a state (clone, resample or chance outcomes, legal actions, a random rollout to the end,
    returns), whatever the budget: 30 a move tripled the time (70 s of CPU for the six) and
    called nothing more."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name)
    numpy_rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(1, numpy_rng)
    if algorithm == "ismcts":
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=numpy_rng)
    else:
        bot = mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=numpy_rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(numpy_rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(bot.step(state))
            moves += 1
    assert moves > 20
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


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
    bribes = pyspiel.load_game("karibik", {"seed": 1, "turn_based": False}).new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="decide at once here: use apply_actions"):
        bribes.apply_action(0)
