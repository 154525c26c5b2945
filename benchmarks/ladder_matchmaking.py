"""How fast the ladder's matchmaking places a new version, against uniform random tables.

Simulation with known Elo, no bot processes: a field of 20 established entrants (true Elo
-380 .. +380, steps of 40) has played ``--history`` games of uniformly drawn tables; a new
version arrives (true Elo uniform in -300 .. +300 per run); tables are then chosen by
``choose_tables`` or uniformly at random among the 21, each played as a duplicate block
(``players`` rotations of one deal), until the new version's 95 % interval is narrower than
100 Elo (full width), the interval being the model's Wald interval of ``LadderFit.elo_interval``
(Bradley-Terry for two players, Plackett-Luce for more; its coverage is in docs/ratings.md).
Not the sandwich interval of ``bootstrap_bradley_terry``: with one or two blocks of a new
version among thousands of blocks that interval is near zero (its one-block floor is 1/B of
the model's variance, B counting all blocks), so it would call a version placed after its
first table.
Games follow the logistic model (two players) or Plackett-Luce (more): Gumbel noise on the
log-strengths, independent per game (no deal luck: the model interval would not see it).

Printed per method: the new version's games (and the ladder's games) until placed, as median
and range over the runs, and the share of games each entrant got meanwhile; then a long run
of the matchmaker (``--long`` tables) for the fair share: each entrant's games over the
uniform share, and the longest wait in games. ``--speed`` times ``fit_ladder`` and
``choose_tables`` on 50 active entrants and 100,000 games.

    nice -n 10 python benchmarks/ladder_matchmaking.py --players 2 --runs 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from arena.ladder._matchmaking import LadderGame, choose_tables, fit_ladder
from arena.ratings._fit import ELO_PER_NAT

FIELD = [f"e{i:02d}" for i in range(20)]
TRUE = {name: -380.0 + 40.0 * i for i, name in enumerate(FIELD)}
NEW = "new"
TARGET = 100.0  # Elo: full width of the 95 % interval


class Ladder:
    """The simulated ladder: true ratings, the games so far (as both record types)."""

    def __init__(self, true: dict[str, float], players: int, seed: int) -> None:
        self.true, self.players = true, players
        self.noise = np.random.default_rng(seed)
        self.games: list[LadderGame] = []

    def play(self, table: tuple[str, ...]) -> None:
        """One duplicate block: every cyclic rotation of ``table``."""
        k = len(table)
        for r in range(k):
            seats = table[r:] + table[:r]
            value = np.array([self.true[s] / ELO_PER_NAT for s in seats]) + self.noise.gumbel(size=k)
            place = np.argsort(-value)
            ranks = [0] * k
            for pos, seat in enumerate(place):
                ranks[seat] = pos + 1
            self.games.append(LadderGame(seats, tuple(ranks)))

    def width(self, name: str) -> float:
        return 2.0 * fit_ladder(self.games).elo_interval(name)


def uniform(rng: random.Random, active: list[str], players: int) -> tuple[str, ...]:
    return tuple(rng.sample(active, players))


def history(players: int, games: int, seed: int) -> Ladder:
    """The field's past: uniformly drawn tables until ``games`` games."""
    true = dict(TRUE)
    ladder = Ladder(true, players, seed)
    rng = random.Random(seed)
    while len(ladder.games) < games:
        ladder.play(uniform(rng, FIELD, players))
    return ladder


def place(method: str, players: int, args, run: int) -> tuple[int, int, dict[str, int]]:
    """Tables until the new version is placed: (its games, ladder games, games per entrant)."""
    ladder = history(players, args.history, args.seed * 1000 + run)
    ladder.true[NEW] = random.Random(args.seed * 7919 + run).uniform(-300.0, 300.0)
    start = len(ladder.games)
    active = FIELD + [NEW]
    rng = random.Random(args.seed * 31 + run)
    new_games = 0
    while new_games < args.cap:
        if method == "matchmaking":
            table = choose_tables(active, ladder.games, players, 1, rng)[0]
        else:
            table = uniform(rng, active, players)
        ladder.play(table)
        if NEW in table:
            new_games += players
            if ladder.width(NEW) < TARGET:
                break
    share = {name: 0 for name in active}
    for game in ladder.games[start:]:
        for name in game.seats:
            share[name] += 1
    return new_games, len(ladder.games) - start, share


def long_run(players: int, args) -> None:
    """Fair share over ``--long`` tables of the matchmaker after the new version arrives."""
    ladder = history(players, args.history, args.seed)
    ladder.true[NEW] = 137.0
    active = FIELD + [NEW]
    rng = random.Random(args.seed)
    start = len(ladder.games)
    last = {name: start for name in active}
    wait = {name: 0 for name in active}
    for _ in range(args.long // args.batch):
        fit = fit_ladder(ladder.games)
        for table in choose_tables(active, ladder.games, players, args.batch, rng, fit=fit):
            ladder.play(table)
            for name in table:
                wait[name] = max(wait[name], len(ladder.games) - players - last[name])
                last[name] = len(ladder.games)
    played = len(ladder.games) - start
    counts = {name: sum(name in g.seats for g in ladder.games[start:]) for name in active}
    fair = played * players / len(active)
    ratio = sorted((counts[n] / fair, n) for n in active)
    print(f"long run: {played} games in batches of {args.batch} tables; games / uniform share: "
          f"min {ratio[0][0]:.2f} ({ratio[0][1]}), max {ratio[-1][0]:.2f} ({ratio[-1][1]}), "
          f"new {counts[NEW] / fair:.2f}; longest wait {max(wait.values())} games "
          f"(starvation limit {2 * len(active)})")


def speed(players: int) -> None:
    """fit_ladder and choose_tables on 50 active entrants (of 100 versions) and 100,000 games."""
    rng = random.Random(5)
    noise = np.random.default_rng(5)
    names = [f"v{i:03d}" for i in range(100)]
    strength = {n: noise.normal(0.0, 1.5) for n in names}
    games = []
    for _ in range(100_000):
        seats = tuple(rng.sample(names, players))
        value = np.array([strength[s] for s in seats]) + noise.gumbel(size=players)
        order = np.argsort(-value)
        ranks = [0] * players
        for pos, seat in enumerate(order):
            ranks[seat] = pos + 1
        games.append(LadderGame(seats, tuple(ranks)))
    active = names[50:]
    t0 = time.process_time()
    fit = fit_ladder(games)
    t1 = time.process_time()
    choose_tables(active, games, players, 10, rng, fit=fit)
    t2 = time.process_time()
    print(f"speed, {players} players, 100,000 games, 100 versions, 50 active: fit_ladder "
          f"{t1 - t0:.2f} s CPU, choose_tables(count=10, fit given) {1000 * (t2 - t1):.0f} ms CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--history", type=int, default=4000, help="games the field played before (default 4000)")
    parser.add_argument("--cap", type=int, default=2000, help="give up after this many games of the new version")
    parser.add_argument("--long", type=int, default=0, help="tables of the fair-share run (0: skip)")
    parser.add_argument("--batch", type=int, default=4, help="tables per choose_tables call in the long run")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--methods", default="matchmaking,uniform")
    args = parser.parse_args()
    if args.speed:
        speed(args.players)
        return
    for method in filter(None, args.methods.split(",")):
        new, total, shares = [], [], []
        for run in range(args.runs):
            n, t, share = place(method, args.players, args, run)
            new.append(n)
            total.append(t)
            fair = t * args.players / 21
            shares.append((min(share[f] for f in FIELD) / fair, max(share[f] for f in FIELD) / fair))
        print(f"{method:12s} {args.players} players: new version placed after "
              f"{statistics.median(new):.0f} of its games ({min(new)}-{max(new)}), "
              f"{statistics.median(total):.0f} ladder games ({min(total)}-{max(total)}); field's games "
              f"/ uniform share meanwhile: min {statistics.median(s[0] for s in shares):.2f}, "
              f"max {statistics.median(s[1] for s in shares):.2f} (medians over {args.runs} runs)")
    if args.long:
        long_run(args.players, args)


if __name__ == "__main__":
    main()
