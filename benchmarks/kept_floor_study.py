"""How close to the bare engine could a PettingZoo step get if the engines said exactly what
changed? (issue 34, point 4: ``env()`` <= 2x the engine's step.)

A kept tensor (``envs/_kept*.py``) finds what changed since a seat last observed by comparing
the engine's fields with what it last wrote, and computes each changed entry's index and value
in Python. This study measures the floor under any such design: a *perfect journal*, the
entries that changed in each observation recorded once (indices and values computed ahead),
replayed as bare ``memoryview`` stores in place of the kept tensor's sync. Nothing a real
journal could do is cheaper: the engine would still have to record each change and the
adapter to turn it into an index.

Three ways, interleaved, on the same recorded random games (2 players, Opito Bay single deals,
as ``bench_envs.py``), each way's fastest block:

- engine: ``random_action`` of every acting seat and ``apply`` of the recorded step;
- ``env()``: ``last()``, the bench's pick (``np.flatnonzero`` of the mask's boolean view),
  ``step`` of the recorded id, as ``bench_envs.py``'s replay;
- perfect journal: the same loop with the kept tensors replaced by the recorded stores.

Printed per game: the engine's step, both ratios, the entries written per observation, and
what the kept sync costs beyond the journal per entry written.

    PYTHONPATH=. python benchmarks/kept_floor_study.py --games 100 --blocks 7

Figures: BENCHMARKS.md, "Environments with kept tensors".
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_envs import GAMES, PLAYERS, record_env_game, replay_engine, replay_env  # noqa: E402
from engines import get_game  # noqa: E402
from envs.pettingzoo import env  # noqa: E402


def record_games(environment, games: int, rng: random.Random) -> list[tuple[int, list[int | None], list]]:
    """Random games through ``environment``: (seed, the id of every step or None for a dead
    step, the engine's steps)."""
    recorded = []
    for _ in range(games):
        seed = rng.getrandbits(32)
        ids = record_env_game(environment, seed, rng)
        recorded.append((seed, ids, list(environment.engine.history)))
    return recorded


def record_writes(environment, games) -> list[tuple[int, list[int], list[float]]]:
    """Every observation of ``games`` in order, as the entries that changed since that seat's
    previous observation in the game: (seat, indices, values)."""
    writes = []
    for seed, ids, _history in games:
        environment.reset(seed=seed)
        previous: dict[int, np.ndarray] = {}
        for agent, number in zip(environment.agent_iter(), ids):
            seat = environment.possible_agents.index(agent)
            tensor = environment.last()[0]["observation"]
            before = previous.get(seat)
            if before is None:
                before = np.zeros_like(tensor)
            changed = np.flatnonzero(tensor != before)
            writes.append((seat, changed.tolist(), tensor[changed].tolist()))
            previous[seat] = tensor
            environment.step(number)
    return writes


class JournalTensors:
    """Stands in for ``envs._kept.KeptTensors`` of one game: each ``tensor(seat)`` applies the
    next recorded observation's stores to that seat's array and returns it (not a copy)."""

    def __init__(self, size: int, players: int, writes) -> None:
        self.arrays = [np.zeros(size, np.float32) for _ in range(players)]
        self.views = [memoryview(array) for array in self.arrays]
        self.writes = writes

    def tensor(self, seat: int) -> np.ndarray:
        recorded_seat, indices, values = next(self.writes)
        if recorded_seat != seat:
            raise AssertionError(f"the journal is out of step: seat {seat} observes, {recorded_seat} was recorded")
        out = self.views[seat]
        for index, value in zip(indices, values):
            out[index] = value
        return self.arrays[seat]


def play_env(environment, games, writes=None) -> float:
    """Seconds of CPU per step of ``games`` through ``environment`` (the kept tensors, or the
    journal of ``writes``)."""
    on_reset = None
    if writes is not None:
        stream = iter(writes)
        size, players = environment.codec.layout.size, environment.num_players

        def on_reset() -> None:
            environment._kept = JournalTensors(size, players, stream)
    start = time.process_time()
    steps = replay_env(environment, [(seed, ids) for seed, ids, _history in games], on_reset)
    return (time.process_time() - start) / steps


def play_engine(game, options, games) -> float:
    """Seconds of CPU per step of the bare engine on the same games."""
    start = time.process_time()
    steps = replay_engine(game, options, [(seed, history) for seed, _ids, history in games], random.Random(1))
    return (time.process_time() - start) / steps


def study(game_id: str, options: dict, games: int, blocks: int) -> dict:
    environment = env(game_id.replace("-", "_"), players=PLAYERS, **options)
    recorded = record_games(environment, games, random.Random(34))
    writes = record_writes(environment, recorded)
    game = get_game(game_id)
    resolved = game.resolve_options(options)
    times: dict[str, list[float]] = {"engine": [], "env": [], "journal": []}
    for _ in range(blocks):
        times["env"].append(play_env(environment, recorded))
        times["journal"].append(play_env(environment, recorded, writes))
        times["engine"].append(play_engine(game, resolved, recorded))
    engine, kept, journal = (min(times[way]) for way in ("engine", "env", "journal"))
    entries = sum(len(indices) for _seat, indices, _values in writes) / len(writes)
    steps = sum(number is not None for _seed, ids, _history in recorded for number in ids)
    return {"game": game_id, "engine_us": engine * 1e6, "env": kept / engine, "journal": journal / engine,
            "entries": entries, "beyond_us": (kept - journal) * 1e6 * steps / len(writes) / entries}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="recorded random games per game")
    parser.add_argument("--blocks", type=int, default=7, help="interleaved blocks (the fastest counts)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.blocks < 1:
        parser.error("--games and --blocks must be at least 1")
    print("| game | engine step | `env()` | perfect journal | entries written an observation | kept sync beyond the journal, per entry |")
    print("|---|---:|---:|---:|---:|---:|")
    for game_id, options in GAMES:
        row = study(game_id, options, args.games, args.blocks)
        print(f"| {game_id} | {row['engine_us']:.2f} µs | {row['env']:.2f}x | {row['journal']:.2f}x | "
              f"{row['entries']:.1f} | {row['beyond_us']:.2f} µs |", flush=True)


if __name__ == "__main__":
    main()
