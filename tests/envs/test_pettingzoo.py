"""The PettingZoo environments: PettingZoo's own API, seed, parallel API and render tests on
every game, the deal of ``reset(seed=...)``, what an agent observes, simultaneous decisions,
the illegal-move outcome, and bad input."""

import random
import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="pip install -e '.[pettingzoo]'")
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test  # noqa: E402
from pettingzoo.test.seed_test import parallel_seed_test  # noqa: E402

from engines import get_game  # noqa: E402

from ._every_game import others, skip_without_codec  # noqa: E402
from envs.pettingzoo import env, parallel_env, raw_env  # noqa: E402

CASES = [("dead_mans_draw", 2, {}), ("dead_mans_draw", 3, {"mermaid_effect": True}),
         ("dead_mans_draw", 4, {}), ("dead_mans_draw", 8, {}),
         ("opito_bay", 2, {"deals": 2}), ("opito_bay", 3, {"deals": 1}), ("opito_bay", 4, {"deals": 1}),
         ("karibik", 2, {}), ("karibik", 3, {"max_rounds": 5}), ("karibik", 4, {"max_rounds": 5})]
#: any other registered game (the tests' fourth): its fewest players, default options
CASES += [(short, players, {}) for _, short, players in others({name for name, _, _ in CASES})]


@pytest.mark.parametrize("game,players,options", CASES)
def test_pettingzoo_api_and_seed_tests(game, players, options):
    skip_without_codec(game)
    with warnings.catch_warnings():
        # The two warnings every classic environment with a Dict observation (observation +
        # action_mask) gets from api_test; nothing else may warn.
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        api_test(env(game, players=players, **options), num_cycles=1000)
        seed_test(lambda: env(game, players=players, **options), num_cycles=200)


@pytest.mark.parametrize("game,players,options", [("dead_mans_draw", 2, {}), ("dead_mans_draw", 5, {}),
                                                  ("opito_bay", 2, {}), ("opito_bay", 4, {"deals": 1}),
                                                  ("karibik", 2, {}), ("karibik", 4, {"max_rounds": 4})])
def test_pettingzoo_parallel_api_and_seed_tests(game, players, options):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(parallel_env(game, players=players, **options), num_cycles=1000)
        parallel_seed_test(lambda: parallel_env(game, players=players, **options), num_cycles=200)


@pytest.mark.parametrize("game,players,options", [("dead_mans_draw", 3, {}), ("opito_bay", 2, {"deals": 1}),
                                                  ("karibik", 3, {"max_rounds": 4})])
def test_parallel_games_repeat_whole_by_their_seed(game, players, options):
    """PettingZoo's ``parallel_seed_test`` stops after one step (its ``any(terminations)``
    reads the dict's keys), and its unmasked samples end a game at its first illegal action:
    here whole games with masked samples, twice per seed, equal step by step, and another
    seed another game."""
    from gymnasium.utils.env_checker import data_equivalence

    def trajectory(seed):
        e = parallel_env(game, players=players, **options)
        observations, infos = e.reset(seed=seed)
        for i, agent in enumerate(e.possible_agents):
            e.action_space(agent).seed(seed * 100 + i)
        steps = [(observations, infos)]
        while e.agents:
            actions = {a: e.action_space(a).sample(observations[a]["action_mask"]) for a in e.agents}
            out = e.step(actions)
            observations = out[0]
            steps.append((actions, *out))
        return steps

    first, again, other = trajectory(42), trajectory(42), trajectory(43)
    assert len(first) > 20 and len(first) == len(again)
    assert all(data_equivalence(x, y) for x, y in zip(first, again))
    assert not any("illegal_action" in info for info in first[-1][5].values())  # ended by its rules
    assert len(other) != len(first) or not all(data_equivalence(x, y) for x, y in zip(first, other))


@pytest.mark.parametrize("game", ["dead_mans_draw", "opito_bay", "karibik"])
def test_pettingzoo_render_test_in_every_mode(game, capsys):
    """render_test makes the environment in "human" mode and then in every listed mode."""
    def check_image(image):
        # Distinct colours counted as packed 24-bit ints: np.unique(axis=0) on the rows of
        # pixels counts the same, but took 2.8 s of CPU for each of the five Karibik images (14 s of the file's 31).
        colours = (image[..., 0].astype(np.uint32) << 16) | (image[..., 1].astype(np.uint32) << 8) | image[..., 2]
        return image.shape[0] > 200 and image.shape[1] > 800 and len(np.unique(colours)) > 2

    render_test(lambda render_mode=None: env(game, render_mode=render_mode), custom_tests={"rgb_array": check_image})
    assert raw_env.metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    assert f"{game.replace('_', '-')}, 2 players" in capsys.readouterr().out  # "human" printed the view


def test_parallel_steps_apply_every_deciding_seats_action_at_once():
    environment = parallel_env("karibik", players=3, max_rounds=2)
    observations, infos = environment.reset(seed=4)
    assert all(info["acting"] for info in infos.values())  # the bribe: everyone decides
    masks = {agent: observations[agent]["action_mask"] for agent in environment.agents}
    actions = {agent: int(np.flatnonzero(mask)[i * 100]) for i, (agent, mask) in enumerate(masks.items())}
    observations, rewards, terminations, _, infos = environment.step(actions)
    bids = [environment.engine.observation(seat)["my_bids"] for seat in range(3)]
    assert all(bid is not None for bid in bids) and bids[0] != bids[1]
    acting = [agent for agent, info in infos.items() if info["acting"]]
    for agent in environment.possible_agents:
        assert observations[agent]["action_mask"].any() == (agent in acting)
    with pytest.raises(ValueError, match="decides now .* but has no action"):
        environment.step({})
    dmd = parallel_env("dead_mans_draw", players=2)
    observations, _ = dmd.reset(seed=1)
    rng = random.Random(3)
    while dmd.agents:  # other agents' actions are ignored: give everyone a masked sample
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
                   for a, o in observations.items()}
        observations, rewards, terminations, _, _ = dmd.step(actions)
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0]) and all(terminations.values())
    with pytest.raises(AssertionError, match="reset"):
        dmd.step(actions)


def test_parallel_render_rgb_array():
    environment = parallel_env("karibik", players=2, render_mode="rgb_array")
    environment.reset(seed=1)
    image = environment.render()
    assert image.dtype == np.uint8 and image.shape[2] == 3 and image.shape[1] >= 1040


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
    (lambda: env("opito_bay", render_mode="svg"), "render_mode must be None or one of"),
    (lambda: env("opito_bay").reset(seed=-1), "seed must be a non-negative integer"),
])
def test_bad_input_is_a_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_unmasked_loop_ends_with_a_clear_illegal_move_outcome():
    """The documented loop without the mask: the first illegal sample ends the game, -1 for
    its sender, 0 for the others, told in every agent's info and in the render."""
    environment = env("opito_bay", players=3, deals=1, render_mode="ansi")
    environment.reset(seed=3)
    first = environment.agent_selection
    environment.action_space(first).seed(1)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    steps = 0
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, info = environment.last()
        totals[agent] += reward
        steps += 1
        environment.step(None if termination or truncation else environment.action_space(agent).sample())
    assert steps == 4  # one illegal action, then each of the 3 agents sees the end
    assert totals == {agent: -1.0 if agent == first else 0.0 for agent in environment.possible_agents}
    illegal = info["illegal_action"]
    assert illegal["agent"] == first and "not legal for its 'play' decision" in illegal["reason"]
    assert f"illegal move: {first} sent action" in environment.render()
    parallel = parallel_env("karibik", players=2)
    parallel.reset(seed=2)
    _, rewards, terminations, _, infos = parallel.step({"player_0": 5100, "player_1": 0})
    assert rewards == {"player_0": -1.0, "player_1": 0.0} and all(terminations.values())
    assert infos["player_1"]["illegal_action"]["agent"] == "player_0" and parallel.agents == []


def test_actions_outside_the_space_and_steps_before_reset_are_errors():
    environment = env("dead_mans_draw")
    with pytest.raises(AssertionError, match="reset"):
        environment.step(0)
    environment.reset(seed=1)
    for bad in (-1, 194, "3", 1.5, None):
        with pytest.raises(ValueError, match="outside the action space Discrete\\(194\\)"):
            environment.step(bad)
