"""A synthetic results database for the HTML report: real games of random play, stored as
a tournament would store them, with an occasional made-up fault.

    python benchmarks/report_db.py OUT.db --game dead-mans-draw --games 10000 --players 2

Then: ``arena report OUT.db -o report.html`` (``python benchmarks/report_bench.py`` does both
and times the page in Chromium). Games are played in-process by uniformly random players;
bots have different names only, so ratings hover around 0 (the report's size and speed do
not depend on who wins).
"""

from __future__ import annotations

import argparse
import itertools
import random
from pathlib import Path

import engines
from arena.match._result import EndReason, MatchResult
from arena.players._faults import Fault, FaultKind
from arena.tournament._schedule import ScheduledGame
from arena.tournament._store import ResultsStore
from engines import Replay


def play_random(game_id: str, players: int, seed: int, options: dict | None = None) -> Replay:
    """One game of uniformly random legal actions (seeded), as a replay."""
    state = engines.get_game(game_id).new_state(players, seed, options or {})
    rng = random.Random(seed ^ 0x5EED)
    while not state.is_terminal():
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
    return Replay.of(state, game_id, seed)


def make_database(path: Path, game_id: str, games: int, players: int = 2, entrants: int = 4,
                  seed: int = 1, fault_every: int = 97, options: dict | None = None) -> None:
    """Write ``games`` random games among ``entrants`` bots to a new database at ``path``;
    every ``fault_every``-th game gets a recorded (synthetic) timeout of its first seat."""
    names = [f"bot-{chr(ord('a') + i)}" for i in range(entrants)]
    tables = list(itertools.combinations(names, players))
    config = {"game": game_id, "players": players, "name": f"synthetic {game_id}"}
    store = ResultsStore.create(path, f"synthetic-{seed}", config, path, [(n, {"command": ["none"]}) for n in names])
    rng = random.Random(seed)
    try:
        for number in range(games):
            table = tables[number % len(tables)]
            rotation = (number // len(tables)) % players
            seats = table[rotation:] + table[:rotation]
            game_seed = rng.randrange(2**31)
            replay = play_random(game_id, players, game_seed, options)
            outcome = replay.final_state().outcome()
            faults: tuple[Fault, ...] = ()
            ranks = outcome.ranks
            if fault_every and number % fault_every == fault_every - 1:
                faults = (Fault(0, seats[0], FaultKind.TIMEOUT, "no reply within 100 ms + reserve",
                                min(3, len(replay.steps)), "thinking...\nstill thinking\n"),)
                ranks = tuple(players if seat == 0 else min(rank, players - 1) for seat, rank in enumerate(ranks))
            scheduled = ScheduledGame(f"g{number:06d}", number // len(tables), number % len(tables), rotation,
                                      seats, game_seed, f"b{number:06d}")
            result = MatchResult(game_id, game_seed, seats, ranks, outcome.ranks, outcome.scores, faults,
                                 EndReason.FORFEIT if faults else EndReason.NORMAL, replay, (), 0.01)
            store.record(scheduled, result)
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--game", default="dead-mans-draw", choices=engines.game_ids())
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--entrants", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    make_database(args.output, args.game, args.games, args.players, args.entrants, args.seed)


if __name__ == "__main__":
    main()
