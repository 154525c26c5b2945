"""Adaptive scheduling against Swiss and a uniform sample of tables (issue 46 part 2).

Simulated fields of known Plackett-Luce strengths: ``N`` entrants, ratings drawn
from a normal distribution with a standard deviation of ``--spread`` Elo (200 by
default: a class of bots from random-ish to strong, or one program at budgets a
few doublings apart, spans some 600-800 Elo from bottom to top, i.e. about
+-2 SD). A game at a table of ``k`` is one Plackett-Luce finishing order
(Gumbel trick); a block is ``k`` games at the same table (the rotations; there is
no seat effect in the simulation, so rotations are independent games here).

Per field, with the goal ``top K`` at ``--error`` and an indifference margin of
``--margin`` Elo:

- adaptive: ``first_round`` then ``next_round``/``judge`` until the verdict
  says decided (or its looks are spent); games used, and whether the answer is
  right: every entrant named is within the margin of the true K-th best (the
  guarantee), and, stricter, whether it is exactly the true top K;
- swiss: every round seats the whole field by points so far (neighbours in the standing
  at a table), and the same judge looks at the same geometric points until it decides
  (``--swiss-runs`` fields);
- uniform: tables drawn uniformly among all k-subsets (what ``max_tables``
  samples from round-robin), blocks of ``k`` games, Plackett-Luce fitted at
  geometric checkpoints and its top K taken; its error at each checkpoint over
  the fields, and the games at which it first reaches the stated error (and
  1 %), interpolated on a log scale between checkpoints.

    PYTHONPATH=. python benchmarks/bench_adaptive.py --n 64 --k 4 --runs 500 --swiss-runs 100
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from arena.ratings._adaptive import GROWTH, judge, parse_goal
from arena.ratings._adaptive_fit import fit_indices
from arena.ratings._adaptive_round import first_round, next_round
from arena.ratings._fit import ELO_PER_NAT


def play(strength: np.ndarray, tables: list[tuple[int, ...]] | np.ndarray,
         rng: np.random.Generator) -> np.ndarray:
    """Blocks at ``tables``: ``k`` Plackett-Luce finishing orders per table."""
    seats = np.asarray(tables)
    seats = np.repeat(seats, seats.shape[1], axis=0)
    noise = strength[seats] + rng.gumbel(size=seats.shape)
    return np.take_along_axis(seats, np.argsort(-noise, axis=1), axis=1)


def right(strength: np.ndarray, answer, k: int, margin: float) -> tuple[bool, bool]:
    """(within the margin of the true k-th best, exactly the true top k)."""
    kth = np.sort(strength)[-k]
    within = all(strength[i] >= kth - margin / ELO_PER_NAT for i in answer)
    return within, set(answer) == set(np.argsort(-strength)[:k].tolist())


def adaptive(strength, k_table, goal, error, seed, rng):
    n = len(strength)
    tables = first_round(n, k_table, seed)
    counts: dict[tuple[int, ...], int] = {}
    verdict, played = None, 0
    while True:
        for row in map(tuple, play(strength, tables, rng)):
            counts[row] = counts.get(row, 0) + 1
        played += len(tables)
        orders = np.array(list(counts), dtype=np.int64)
        verdict = judge(n, orders, goal, error=error, previous=verdict,
                        counts=np.array(list(counts.values()), dtype=float))
        if verdict.decided or verdict.exhausted:
            return verdict, played * k_table
        tables = next_round(verdict, k_table, seed, played)


def swiss(strength, k_table, goal, error, rng):
    """A Swiss tournament stopped by the same judge: games used and the last verdict.

    Each round seats every entrant: sorted by points so far (a table's last place scores 0,
    its winner ``k - 1``; ties in random order), cut into tables of ``k``, one block per
    table. The judge looks at the same geometric points as the adaptive schedule (after the
    first two rounds, then whenever the tables have grown by ``GROWTH``), so it spends its
    error over as few looks; decided entrants go on playing, as in any Swiss.
    """
    n = len(strength)
    points = np.zeros(n)
    counts: dict[tuple[int, ...], int] = {}
    verdict, played, looked = None, 0, 0
    while True:
        order = np.lexsort((rng.random(n), -points))
        tables = order[: n - n % k_table].reshape(-1, k_table)
        for row in map(tuple, play(strength, tables, rng)):
            counts[row] = counts.get(row, 0) + 1
            points[list(row)] += np.arange(k_table - 1, -1, -1)
        played += len(tables)
        if played < 2 * (n // k_table) or played < (1 + GROWTH) * looked:
            continue
        looked = played
        orders = np.array(list(counts), dtype=np.int64)
        verdict = judge(n, orders, goal, error=error, previous=verdict,
                        counts=np.array(list(counts.values()), dtype=float))
        if verdict.decided or verdict.exhausted:
            return verdict, played * k_table


def uniform(fields, k_table, k, margin, checkpoints, rng):
    """Error of the uniform sample at each checkpoint, swept over all fields at once.

    Stops once the error has been at or below 1 % at two checkpoints in a row
    (later checkpoints are reported as not measured).
    """
    n = len(fields[0])
    orders = [np.zeros((0, k_table), dtype=np.int16) for _ in fields]
    starts = [None] * len(fields)
    errors, done = [], 0
    for games in checkpoints:
        wrong = 0
        for f, strength in enumerate(fields):
            extra = (games - len(orders[f])) // k_table
            tables = np.argsort(rng.random((extra, n)), axis=1)[:, :k_table]
            orders[f] = np.concatenate([orders[f], play(strength, tables, rng).astype(np.int16)])
            fit = fit_indices(n, orders[f], start=starts[f], tolerance=1e-5)
            starts[f] = fit.strength
            wrong += not right(strength, np.argsort(-fit.strength)[:k], k, margin)[0]
        errors.append(wrong / len(fields))
        done = done + 1 if errors[-1] <= 0.01 else 0
        if done == 2:
            break
    return errors


def reach(checkpoints, errors, target):
    """Games from which the uniform error stays at or below ``target`` (log-linear between points)."""
    for j, e in enumerate(errors):
        if all(later <= target for later in errors[j:]):
            if j == 0:
                return float(checkpoints[0])
            g0, g1, e0 = math.log(checkpoints[j - 1]), math.log(checkpoints[j]), errors[j - 1]
            return math.exp(g0 + (g1 - g0) * (e0 - target) / max(e0 - e, 1e-12))
    return math.inf


def tournaments(name, a, fields, run, runs) -> float:
    """Play ``runs`` tournaments (``run(r)`` -> (verdict, games)), print and return the mean games."""
    t0 = time.time()
    games, within, exact, spent = [], 0, 0, 0
    for r in range(runs):
        verdict, used = run(r)
        w, e = right(fields[r], verdict.answer, a.top, a.margin)
        games.append(used)
        within += w
        exact += e
        spent += verdict.exhausted
    g = np.array(games)
    print(f"{name} ({runs} fields, {time.time() - t0:.0f} s): games mean {g.mean():.0f} median "
          f"{np.median(g):.0f} p90 {np.percentile(g, 90):.0f} max {g.max()}; wrong beyond the margin "
          f"{runs - within}/{runs} = {(runs - within) / runs:.3f}; not the exact top {a.top} "
          f"{runs - exact}/{runs}; looks spent {spent}", flush=True)
    return float(g.mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--k", type=int, default=4, help="players per table")
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--error", type=float, default=0.05)
    ap.add_argument("--margin", type=float, default=20.0, help="indifference margin, Elo")
    ap.add_argument("--spread", type=float, default=200.0, help="SD of the field's ratings, Elo")
    ap.add_argument("--runs", type=int, default=500, help="adaptive tournaments")
    ap.add_argument("--uniform-runs", type=int, default=300)
    ap.add_argument("--swiss-runs", type=int, default=500, help="Swiss tournaments (0: none)")
    ap.add_argument("--seed", type=int, default=46)
    a = ap.parse_args()
    goal = parse_goal(f"top {a.top}", margin=a.margin)
    rng = np.random.default_rng(a.seed)
    print(f"N={a.n} k={a.k} top {a.top} error {a.error} margin {a.margin:g} Elo spread {a.spread:g} Elo",
          flush=True)
    fields = [rng.normal(0.0, a.spread, a.n) / ELO_PER_NAT
              for _ in range(max(a.runs, a.uniform_runs, a.swiss_runs))]
    mean_games = tournaments("adaptive", a, fields, lambda r: adaptive(
        fields[r], a.k, goal, a.error, a.seed + r, rng), a.runs)
    if a.swiss_runs:
        swiss_games = tournaments("swiss", a, fields, lambda r: swiss(fields[r], a.k, goal, a.error, rng),
                                  a.swiss_runs)
        print(f"swiss plays {swiss_games / mean_games:.1f}x the games of adaptive")
    per_entrant = a.n * a.k  # games of one block per entrant, roughly
    checkpoints = sorted({int(per_entrant * 2 ** (h / 2)) // a.k * a.k for h in range(0, 25)})
    checkpoints = [c for c in checkpoints if c <= 40 * mean_games] or checkpoints[:1]
    t0 = time.time()
    errors = uniform(fields[: a.uniform_runs], a.k, a.top, a.margin, checkpoints, rng) if a.uniform_runs else []
    t_uniform = time.time() - t0
    u05, u01 = reach(checkpoints, errors, a.error), reach(checkpoints, errors, 0.01)
    if not errors:
        return
    print(f"uniform ({a.uniform_runs} fields, {t_uniform:.0f} s): error by games "
          + ", ".join(f"{c}:{e:.3f}" for c, e in zip(checkpoints, errors)))
    print(f"uniform reaches {a.error} at {u05:.0f} games ({u05 / mean_games:.1f}x adaptive), "
          f"0.01 at {u01:.0f} games ({u01 / mean_games:.1f}x)")


if __name__ == "__main__":
    main()
