"""Benchmark of the ratings package: fits and bootstrap on 10^4 .. 10^6 games.

Games among 100 entrants with known ratings (normal, sd 200 Elo): two-player
games drawn from the logistic Elo model (no draws), four-player games from
the Plackett-Luce model (order by log-worth + Gumbel noise). Prints one table
row per size and table size: seconds for fit_bradley_terry (including the
conversion of records to arrays), fit_plackett_luce, and
bootstrap_bradley_terry, and the RMS error of the Bradley-Terry ratings
against the truth.

    PYTHONPATH=. python benchmarks/bench_ratings.py [--sizes 10000 100000 1000000] [--n-boot 200]

``--rate N`` instead times ``arena rate`` end to end (a child process: start-up,
reading, fit, error bars, printing) on a JSON Lines file of N two-player and N
four-player games written to a temporary folder, and prints wall and CPU
seconds and the peak resident memory of the child.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

from arena.ratings import GameRecord, bootstrap_bradley_terry, fit_bradley_terry, fit_plackett_luce

ENTRANTS = 100


def make_games(n_games: int, k: int, rng: np.random.Generator) -> tuple[list[GameRecord], np.ndarray]:
    true_elo = rng.normal(0.0, 200.0, ENTRANTS)
    true_elo -= true_elo.mean()
    worth = true_elo * math.log(10.0) / 400.0
    seats = np.argsort(rng.random((n_games, ENTRANTS)), axis=1)[:, :k]
    noisy = worth[seats] + rng.gumbel(size=(n_games, k))
    ranks = np.argsort(np.argsort(-noisy, axis=1), axis=1) + 1
    names = [f"bot{i:03d}" for i in range(ENTRANTS)]
    records = [
        GameRecord(tuple(names[i] for i in s), tuple(r))
        for s, r in zip(seats.tolist(), ranks.tolist())
    ]
    return records, true_elo


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def bench_rate(n_games: int, players: list[int], rng: np.random.Generator) -> None:
    """Time ``arena rate FILE`` on n_games games of each table size."""
    print(f"{'games':>9} {'k':>2} {'MB':>5} {'wall s':>7} {'CPU s':>6} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for k in players:
            path = os.path.join(folder, f"games{k}.jsonl")
            with open(path, "w") as f:
                # in slices: the child's peak memory (ru_maxrss) counts the parent's pages it forked from
                for lo in range(0, n_games, 50_000):
                    records, _ = make_games(min(50_000, n_games - lo), k, rng)
                    f.writelines(json.dumps({"players": list(r.players), "ranks": list(r.ranks)}) + "\n"
                                 for r in records)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "arena.cli", "rate", path], check=True, stdout=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            print(f"{n_games:>9} {k:>2} {os.path.getsize(path) / 1e6:>5.0f} {wall:>7.2f} {cpu:>6.2f} "
                  f"{after.ru_maxrss / 1024:>8.0f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--n-boot", type=int, default=200)
    parser.add_argument("--rate", type=int, metavar="N", help="time `arena rate` on N games instead")
    args = parser.parse_args()
    rng = np.random.default_rng(12345)
    if args.rate:
        bench_rate(args.rate, args.players, rng)
        return
    header = f"{'games':>9} {'k':>2} {'make s':>7} {'BT fit s':>9} {'PL fit s':>9} {'boot s':>8} {'boot':>5} {'BT rms err':>10}"
    print(header)
    print("-" * len(header))
    for size in args.sizes:
        for k in args.players:
            (records, true_elo), t_make = timed(lambda: make_games(size, k, rng))
            bt, t_bt = timed(lambda: fit_bradley_terry(records))
            _, t_pl = timed(lambda: fit_plackett_luce(records))
            _, t_boot = timed(lambda: bootstrap_bradley_terry(records, n_boot=args.n_boot, seed=1))
            order = np.argsort([f"bot{i:03d}" for i in range(ENTRANTS)])
            rms = float(np.sqrt(np.mean((np.asarray(bt.elo) - true_elo[order]) ** 2)))
            print(
                f"{size:>9} {k:>2} {t_make:>7.2f} {t_bt:>9.2f} {t_pl:>9.2f} {t_boot:>8.2f} "
                f"{args.n_boot:>5} {rms:>10.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
