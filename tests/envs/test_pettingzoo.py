"""The PettingZoo environments: PettingZoo's own API and seed tests on every game, the deal of
``reset(seed=...)``, what an agent observes, simultaneous decisions, and bad input."""

import random
import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="pip install -e '.[pettingzoo]'")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from engines import get_game  # noqa: E402
from envs.pettingzoo import env, raw_env  # noqa: E402

CASES = [("dead_mans_draw", 2, {}), ("dead_mans_draw", 3, {"mermaid_effect": True}),
         ("dead_mans_draw", 4, {}), ("dead_mans_draw", 8, {}),
         ("opito_bay", 2, {"deals": 2}), ("opito_bay", 3, {"deals": 1}), ("opito_bay", 4, {"deals": 1}),
         ("karibik", 2, {}), ("karibik", 3, {"max_rounds": 5}), ("karibik", 4, {"max_rounds": 5})]


@pytest.mark.parametrize("game,players,options", CASES)
def test_pettingzoo_api_and_seed_tests(game, players, options):
    with warnings.catch_warnings():
        # The two warnings every classic environment with a Dict observation (observation +
        # action_mask) gets from api_test; nothing else may warn.
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        api_test(env(game, players=players, **options), num_cycles=1000)
        seed_test(lambda: env(game, players=players, **options), num_cycles=200)


def random_step(environment, rng):
    observation, _, termination, truncation, _ = environment.last()
    if termination or truncation:
        environment.step(None)
    else:
        environment.step(rng.choice(np.flatnonzero(observation["action_mask"])))


@pytest.mark.parametrize("game,players", [("dead-mans-draw", 3), ("opito-bay", 2), ("karibik", 4)])
def test_reset_seed_deals_as_arena_match_and_observations_are_the_codecs(game, players):
    environment = raw_env(game, players=players)
    environment.reset(seed=2 ** 62 + 5)
    engine = get_game(game).new_state(players, 2 ** 62 + 5, {})
    rng = random.Random(1)
    for _ in range(30):
        state = environment.engine
        for seat, agent in enumerate(environment.possible_agents):
            observed = environment.observe(agent)
            assert np.array_equal(observed["observation"], environment.codec.tensor(state.observation(seat)))
            assert observed["observation"] in environment.observation_space(agent)["observation"]
        if engine is not None:
            for seat in range(players):
                assert state.observation(seat) == engine.observation(seat)
            engine = None
        random_step(environment, rng)


def test_simultaneous_choices_stay_hidden_until_every_seat_chose():
    environment = raw_env("karibik", players=3)
    environment.reset(seed=4)
    assert environment.agent_selection == "player_0"
    before = {agent: environment.observe(agent)["observation"] for agent in environment.possible_agents}
    environment.step(int(np.flatnonzero(environment.observe("player_0")["action_mask"])[100]))
    assert environment.agent_selection == "player_1"
    for agent in ("player_1", "player_2"):
        assert np.array_equal(environment.observe(agent)["observation"], before[agent])
    assert environment.engine.observation(1)["revealed"] == [None, None, None]
    environment.step(int(np.flatnonzero(environment.observe("player_1")["action_mask"])[7]))
    environment.step(int(np.flatnonzero(environment.observe("player_2")["action_mask"])[3000]))
    assert environment.engine.observation(0)["my_bids"] is not None  # applied once all three chose


def test_rewards_at_the_end_are_the_pairwise_rank_score():
    environment = env("dead_mans_draw", players=3)
    environment.reset(seed=9)
    rng = random.Random(2)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        totals[agent] += reward
        environment.step(None if termination or truncation else
                         int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    ranks = environment.unwrapped.engine.outcome().ranks
    expected = [sum((o > r) - (o < r) for o in ranks) / 2 for r in ranks]
    assert [totals[a] for a in environment.possible_agents] == expected


def test_render_ansi_is_the_seat_free_view():
    environment = raw_env("opito_bay", players=2, render_mode="ansi", deals=1)
    environment.reset(seed=1)
    text = environment.render()
    assert "hand_sizes: [5,5]" in text and "hand:" not in text and "library_top" not in text
    karibik = raw_env("karibik", players=2, render_mode="ansi")
    karibik.reset(seed=1)
    assert "Board 'caribbean'" in karibik.render() and "my_bids" not in karibik.render()
    assert raw_env("karibik").render() is None


@pytest.mark.parametrize("call,message", [
    (lambda: env("pirates"), "unknown game 'pirates'; known games: 'dead_mans_draw'"),
    (lambda: env("karibik", players=5), "karibik is for 2-4 players, not 5"),
    (lambda: env("karibik", players="3"), "players must be an integer"),
    (lambda: env("karibik", board="atlantic"), "option 'board' of karibik must be one of"),
    (lambda: env("dead_mans_draw", colour="red"), "unknown option 'colour' for dead-mans-draw"),
    (lambda: env("opito_bay", render_mode="human"), "render_mode must be None or 'ansi'"),
    (lambda: env("opito_bay").reset(seed=-1), "seed must be a non-negative integer"),
])
def test_bad_input_is_a_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_an_illegal_action_ends_the_game_with_minus_one():
    environment = env("opito_bay", players=2, deals=1)
    environment.reset(seed=3)
    mask = environment.last()[0]["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        environment.step(int(np.flatnonzero(mask == 0)[0]))
    agent = environment.agent_selection
    assert environment.terminations[agent]
    assert sorted(environment.rewards.values()) == [-1, 0]
