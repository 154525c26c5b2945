"""Section 10 of ``run.py``: random play through the bare engine, the OpenSpiel adapter and the
PettingZoo environment, in one run (issue 28).

A *step* is one decision of one seat (a simultaneous decision of k seats is k steps, as
PettingZoo asks it). Each way is timed over whole random games, for ``seconds`` per block, the
ways interleaved in blocks so that a machine whose speed drifts slows them alike; figures are
steps (or copies) per second of one core (process CPU time). Ratios are to the bare engine's
random play in the same run:

- engine: ``random_action`` of every acting seat, ``apply`` (what a search's playout does);
- engine + observation: the same plus the deciding seats' observations (what a learner reads);
- engine + observation + tensor: the same plus the codec's tensor of each and its legal ids
  (what a PettingZoo step computed before issue 34, without PettingZoo's API);
- engine + kept tensor: the same with the seat's tensor kept up to date (``envs._kept``)
  instead of the observation and the tensor from it (what a PettingZoo step computes now);
- OpenSpiel: ``legal_actions`` of each deciding player, a uniform pick, ``apply_action`` /
  ``apply_actions``, through pyspiel (simultaneous nodes as such);
- PettingZoo: ``last()`` (the observation tensor and the action mask), a uniform pick among
  the mask's actions, ``step``, on ``env()`` (since issue 34 ``raw_env`` itself); the pick
  reads the int8 mask as booleans (``np.flatnonzero(mask.view(bool))``): numpy's ``nonzero``
  of an int8 array is ~7x slower, 12 us on Karibik's 5,109 ids, an engine step; the way
  "env(), int8 pick" is the same loop with ``np.flatnonzero(mask)``, as before issue 34;
- copies: the engine's ``clone`` and ``resample`` against OpenSpiel's ``clone`` and
  ``resample_from_infostate``, on states sampled along random games.

On a loaded machine the random games of one block and the next differ, and a busy neighbour
slows one block more than another; ``replay`` (issue 34) plays the same recorded random games
in every block and every way (the engine: ``random_action`` of every acting seat and
``apply`` of the recorded step; OpenSpiel: ``legal_actions`` and ``apply_action`` of the
recorded ids; PettingZoo ``env()``: ``last``, the boolean pick, ``step`` of the recorded
ids) and keeps each way's fastest block: steadier ratios of the same work.
"""

from __future__ import annotations

import random
import time

import numpy as np

GAMES = (("dead-mans-draw", {}), ("opito-bay", {"deals": 1}), ("karibik", {}))
PLAYERS = 2


def _timed(run, seconds: float) -> tuple[int, float]:
    """Call ``run()`` (which returns a count of steps) until ``seconds`` of CPU have passed."""
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        count += run()
    return count, time.process_time() - start


def _engine_game(game, options, rng, observe: bool, codec=None, kept: bool = False):
    from envs._kept import KeptTensors

    def run() -> int:
        state = game.new_state(PLAYERS, rng.getrandbits(32), options)
        tensors = KeptTensors(codec, state) if kept else None
        steps = 0
        while state.acting:
            acting = state.acting
            if kept:
                for seat in acting:
                    tensors.tensor(seat).copy()
                    codec.legal(state, seat)
            elif observe:
                for seat in acting:
                    observation = state.observation(seat)
                    if codec is not None:
                        codec.tensor(observation)
                        codec.legal(state, seat)
            state.apply({seat: state.random_action(seat, rng) for seat in acting})
            steps += len(acting)
        return steps
    return run


def _openspiel_game(game, rng):
    import pyspiel

    simultaneous = pyspiel.PlayerId.SIMULTANEOUS
    chance = pyspiel.PlayerId.CHANCE

    def run() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            player = state.current_player()
            if player == chance:  # the deal's seed (not a step: the engine's new_state)
                state.apply_action(rng.randrange(256))
            elif player == simultaneous:
                joint = []
                for seat in range(PLAYERS):
                    legal = state.legal_actions(seat)
                    joint.append(legal[rng.randrange(len(legal))] if legal else 0)
                    steps += bool(legal)
                state.apply_actions(joint)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return steps
    return run


def _pettingzoo_game(environment, rng, int8_pick: bool = False):
    def run() -> int:
        environment.reset(seed=rng.getrandbits(32))
        steps = 0
        for _agent in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            mask = observation["action_mask"]
            legal = np.flatnonzero(mask if int8_pick else mask.view(np.bool_))
            environment.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps
    return run


def _each(function, items):
    def run() -> int:
        for item in items:
            function(item)
        return len(items)
    return run


def _sample_states(game, options, count: int, rng):
    """Engine states along random games (not terminal), ``count`` of them."""
    states = []
    while len(states) < count:
        state = game.new_state(PLAYERS, rng.getrandbits(32), options)
        while state.acting:
            if rng.random() < 0.2:
                states.append(state.clone())
            state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
    return states[:count]


def record_env_game(environment, seed: int, rng) -> list[int | None]:
    """One random game through a PettingZoo ``environment`` dealt by ``seed``: the id of every
    step, None for a dead agent's step (the engine's steps are then ``environment.engine.history``)."""
    environment.reset(seed=seed)
    ids: list[int | None] = []
    for _agent in environment.agent_iter():
        observation, _, termination, truncation, _ = environment.last()
        number = None
        if not (termination or truncation):
            legal = np.flatnonzero(observation["action_mask"].view(np.bool_))
            number = int(legal[rng.randrange(len(legal))])
        ids.append(number)
        environment.step(number)
    return ids


def replay_env(environment, games, on_reset=None) -> int:
    """The replay's PettingZoo way: for each recorded ``(seed, ids)``, ``last``, the bench
    agent's pick and ``step`` of the recorded id; ``on_reset()`` after each reset. Returns the
    steps taken (dead agents' steps not counted)."""
    steps = 0
    for seed, ids in games:
        environment.reset(seed=seed)
        if on_reset is not None:
            on_reset()
        numbers = iter(ids)
        for _agent in environment.agent_iter():
            observation, _, _, _, _ = environment.last()
            number = next(numbers)
            if number is not None:
                np.flatnonzero(observation["action_mask"].view(np.bool_))
                steps += 1
            environment.step(number)
    return steps


def replay_engine(game, options: dict, games, rng) -> int:
    """The replay's engine way: for each recorded ``(seed, history)``, ``random_action`` of
    every acting seat and ``apply`` of the recorded step. Returns the steps (seat decisions)."""
    steps = 0
    for seed, history in games:
        state = game.new_state(PLAYERS, seed, options)
        for step in history:
            for seat in state.acting:
                state.random_action(seat, rng)
            state.apply(step)
            steps += len(step)
    return steps


def _record(game_id: str, options: dict, games: int, rng) -> list[tuple[int, list, list, list]]:
    """Random games recorded once: (seed, PettingZoo ids, engine steps, OpenSpiel ids). The
    OpenSpiel game is the same game: the seed's four bytes, then the same ids (both ask a
    simultaneous decision seat by seat in seat order)."""
    import pyspiel

    import envs.openspiel as adapter
    from envs.pettingzoo import env

    from engines import get_game

    environment = env(game_id.replace("-", "_"), players=PLAYERS, **options)
    # every option given: OpenSpiel's own defaults are shorter games (SHORT_DEFAULTS)
    full = {"players": PLAYERS, **get_game(game_id).resolve_options(options)}
    game = pyspiel.load_game(game_id.replace("-", "_"), full)
    recorded = []
    for _ in range(games):
        seed = rng.getrandbits(32)
        ids = record_env_game(environment, seed, rng)
        spiel_ids = list(seed.to_bytes(4, "big")) + [number for number in ids if number is not None]
        state = game.new_initial_state()
        for number in spiel_ids:
            state.apply_action(number)
        if adapter.engine_state(state).history != environment.engine.history:
            raise AssertionError(f"{game_id}: the OpenSpiel replay of seed {seed} is another game")
        recorded.append((seed, ids, list(environment.engine.history), spiel_ids))
    return recorded


def bench_replay(games: int, blocks: int) -> dict:
    """Time per step of the same recorded random games, each way's fastest block, and ratios."""
    import time

    import pyspiel

    from engines import get_game
    from envs.pettingzoo import env

    results = {}
    for game_id, options in GAMES:
        rng = random.Random(34)
        engine_game = get_game(game_id)
        resolved = engine_game.resolve_options(options)
        recorded = _record(game_id, options, games, rng)
        environment = env(game_id.replace("-", "_"), players=PLAYERS, **options)
        spiel_game = pyspiel.load_game(game_id.replace("-", "_"), {"players": PLAYERS, **resolved})

        histories = [(seed, history) for seed, _, history, _ in recorded]
        env_games = [(seed, ids) for seed, ids, _, _ in recorded]

        def engine_way() -> int:
            return replay_engine(engine_game, resolved, histories, rng)

        def openspiel_way() -> int:
            steps = 0
            for _, _, _, ids in recorded:
                state = spiel_game.new_initial_state()
                for number in ids:
                    if state.current_player() >= 0:
                        state.legal_actions()
                        steps += 1
                    state.apply_action(number)
            return steps

        def pettingzoo_way() -> int:
            return replay_env(environment, env_games)

        ways = {"engine": engine_way, "openspiel": openspiel_way, "pettingzoo env()": pettingzoo_way}
        best = dict.fromkeys(ways, float("inf"))
        for _ in range(blocks):
            for name, run in ways.items():
                start = time.process_time()
                steps = run()
                best[name] = min(best[name], (time.process_time() - start) / steps)
        results[game_id] = {"us_per_step": {name: 1e6 * value for name, value in best.items()},
                            "steps": sum(len(history) for _, _, history, _ in recorded)}
    return results


def bench_envs(seconds: float, blocks: int) -> dict:
    """Steps/s per core of each way of playing each game, and copies/s."""
    try:
        import pyspiel

        import envs.openspiel as adapter
        from envs.pettingzoo import env
    except ImportError as error:
        return {"skipped": f"{error.name} is not installed: pip install -e '.[openspiel,pettingzoo]'"}
    from engines import get_game
    from envs._games import codec

    results = {}
    for game_id, options in GAMES:
        game = get_game(game_id)
        rng = random.Random(10)
        short = game_id.replace("-", "_")
        os_game = pyspiel.load_game(short, {"players": PLAYERS, **options})
        shared = codec(game_id, PLAYERS, game.resolve_options(options))
        ways = {
            "engine": _engine_game(game, options, rng, observe=False),
            "engine + observation": _engine_game(game, options, rng, observe=True),
            "engine + observation + tensor": _engine_game(game, options, rng, observe=True, codec=shared),
            "engine + kept tensor": _engine_game(game, options, rng, observe=True, codec=shared, kept=True),
            "openspiel": _openspiel_game(os_game, rng),
            "pettingzoo env()": _pettingzoo_game(env(short, players=PLAYERS, **options), rng),
            "pettingzoo env(), int8 pick": _pettingzoo_game(env(short, players=PLAYERS, **options), rng,
                                                            int8_pick=True),
        }
        totals = {name: [0, 0.0] for name in ways}
        for _ in range(blocks):
            for name, run in ways.items():
                count, cpu = _timed(run, seconds)
                totals[name][0] += count
                totals[name][1] += cpu
        rates = {name: count / cpu for name, (count, cpu) in totals.items()}
        states = _sample_states(game, options, 200, rng)
        wrapped = [adapter.state_from_engine(os_game, state) for state in states]
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        copies = {
            "engine clone": _each(lambda state: state.clone(), states),
            "engine resample": _each(lambda state: state.resample(state.acting[0], rng), states),
            "openspiel clone": _each(lambda state: state.clone(), wrapped),
            "openspiel resample_from_infostate": _each(lambda state: state.resample_from_infostate(
                adapter.engine_state(state).acting[0], sampler), wrapped),
        }
        copy_rates = {}
        for name, run in copies.items():
            count, cpu = _timed(run, seconds * blocks / 2)
            copy_rates[name] = count / cpu
        results[game_id] = {"steps_per_s": rates, "copies_per_s": copy_rates}
    results["replay"] = bench_replay(games=max(3, int(10 * seconds)), blocks=max(2, 2 * blocks + 1))
    return results


def report_envs(results: dict) -> list[str]:
    from tabulate import tabulate

    out = ["\n10. environments: random play, steps/s per core (a step: one seat's decision), "
           "ratios to the bare engine's"]
    if "skipped" in results:
        return out + [f"   skipped: {results['skipped']}"]
    rows = []
    replay = results.get("replay", {})
    for game_id, r in results.items():
        if game_id == "replay":
            continue
        steps = r["steps_per_s"]
        base = steps["engine"]
        for name, rate in steps.items():
            rows.append([game_id, name, f"{rate:,.0f}", f"{base / rate:.2f}x"])
        copies = r["copies_per_s"]
        for ours, theirs in (("engine clone", "openspiel clone"), ("engine resample", "openspiel resample_from_infostate")):
            rows.append([game_id, theirs + " (per s)", f"{copies[theirs]:,.0f}",
                         f"{copies[ours] / copies[theirs]:.2f}x of {ours} ({copies[ours]:,.0f})"])
    out.append(tabulate(rows, headers=["game", "way", "steps/s", "time per step vs engine"]))
    if replay:
        out.append("\n   replay: the same recorded random games in every block, each way's fastest block")
        rows = []
        for game_id, r in replay.items():
            times = r["us_per_step"]
            rows += [[game_id, name, f"{value:.2f}", f"{value / times['engine']:.2f}x"] for name, value in times.items()]
        out.append(tabulate(rows, headers=["game", "way", "us per step", "vs engine"]))
    return out
