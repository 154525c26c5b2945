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
  checkpoints and its top K taken, judged by the same rule as adaptive (wrong =
  an entrant named more than the margin below the true K-th best), on the same
  fields (the first ``--uniform-runs`` of adaptive's) with its own random stream
  (so its games do not depend on how many draws adaptive or Swiss used). The
  checkpoints are a factor sqrt(2) apart, 2^(1/6) while the error is between
  half and twice the target; the sweep stops once the error is at or below
  ``--uniform-until`` at two checkpoints in a row. The games at which uniform
  reaches an error: the error curve over the fields made monotone (isotonic,
  non-increasing: more games of a uniform sample do not raise the expected
  error), first crossing, linear in log games between checkpoints; its 95 %
  interval and that of the ratio to adaptive's mean games from a paired
  bootstrap over the fields (adaptive and uniform on the same resampled
  fields). The raw "stays at or below from here on" point is printed beside it;
- uniform stopped by the judge (``--judged-runs``): uniform tables in adaptive's rounds
  (two random partitions, then a quarter more tables a round), the same judge after each
  round: the same guarantee as adaptive for every field, only the tables differ; the ratio
  of mean games on the same fields with a paired bootstrap interval.

``--goal order`` asks for the whole order instead (every reported neighbour ahead of, or
within the margin of, the next). ``--field hard`` plays one field in every run, the one a
fixed budget finds hard: three entrants 1 Elo beyond the margin below the K-th best.

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


def right(strength: np.ndarray, answer, goal) -> tuple[bool, bool]:
    """(the answer holds within the margin, and exactly).

    ``top K``: every entrant named no worse than the true K-th best by more than the margin;
    exactly the true top K. ``order``: every reported neighbour ahead of, or within the margin
    of, the next; exactly the true order.
    """
    margin = goal.margin / ELO_PER_NAT
    if goal.kind == "order":
        s = strength[list(answer)]
        return bool(np.all(s[:-1] >= s[1:] - margin)), list(answer) == np.argsort(-strength).tolist()
    kth = np.sort(strength)[-goal.k]
    within = all(strength[i] >= kth - margin for i in answer)
    return within, set(answer) == set(np.argsort(-strength)[:goal.k].tolist())


def hard_field(n: int, k: int, margin: float, spread: float, rng: np.random.Generator) -> np.ndarray:
    """A field built to be hard for a fixed budget at ``top k``: the k-th best at 0 Elo, three
    entrants 1 Elo beyond the margin below it (naming one is wrong), the best k - 1 spread
    above (100 Elo apart) and the rest at least that far below, ``spread`` wide."""
    top = 100.0 * np.arange(k - 1, 0, -1)
    near = np.full(3, -margin - 1.0)
    rest = -margin - 1.0 - np.abs(rng.normal(0.0, spread, n - k - 3))
    return np.concatenate([top, [0.0], near, rest]) / ELO_PER_NAT


def judged_rounds(strength, k_table, goal, error, tables, next_tables, rng):
    """Play ``tables``, judge every game so far, and go on with ``next_tables(verdict, played)``
    until the verdict is decided or its looks are spent: (last verdict, games)."""
    n = len(strength)
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
        tables = next_tables(verdict, played)


def adaptive(strength, k_table, goal, error, seed, rng):
    return judged_rounds(strength, k_table, goal, error, first_round(len(strength), k_table, seed),
                         lambda verdict, played: next_round(verdict, k_table, seed, played), rng)


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


def uniform_judged(strength, k_table, goal, error, rng):
    """Uniform tables stopped by the same judge at the same looks: games used and the verdict.

    The first round is two random partitions of the field (as adaptive's), then each round
    adds ``GROWTH`` of the tables so far, drawn uniformly among all k-subsets, and the judge
    looks after every round: adaptive's looks and error split exactly, only the tables differ.
    """
    n = len(strength)
    tables = np.concatenate([rng.permutation(n)[: n - n % k_table].reshape(-1, k_table)
                             for _ in range(2)])

    def uniform_tables(verdict, played):
        extra = max(1, math.ceil(GROWTH * played))
        return np.argsort(rng.random((extra, n)), axis=1)[:, :k_table]

    return judged_rounds(strength, k_table, goal, error, tables, uniform_tables, rng)


def uniform(fields, k_table, goal, first, target, until, cap, rng):
    """Wrong answers of the uniform sample per field and checkpoint, swept over all fields at once.

    Returns ``(checkpoints, wrong)``, ``wrong`` a (fields, checkpoints) boolean array judged
    as adaptive is (beyond the margin). Checkpoints start at ``first`` games and grow by
    sqrt(2), by 2^(1/6) while the error is within a factor 2 of ``target``; the sweep stops
    once the error is at or below ``until`` at two checkpoints in a row, or past ``cap`` games.
    """
    n = len(fields[0])
    orders = [np.zeros((0, k_table), dtype=np.int16) for _ in fields]
    starts = [None] * len(fields)
    checkpoints, columns, done, games = [], [], 0, first
    while games <= cap:
        wrong = np.zeros(len(fields), dtype=bool)
        for f, strength in enumerate(fields):
            extra = (games - len(orders[f])) // k_table
            tables = np.argsort(rng.random((extra, n)), axis=1)[:, :k_table]
            orders[f] = np.concatenate([orders[f], play(strength, tables, rng).astype(np.int16)])
            fit = fit_indices(n, orders[f], start=starts[f], tolerance=1e-5)
            starts[f] = fit.strength
            answer = np.argsort(-fit.strength)
            wrong[f] = not right(strength, answer if goal.kind == 'order' else answer[:goal.k], goal)[0]
        checkpoints.append(games)
        columns.append(wrong)
        error = wrong.mean()
        print(f"  uniform {games} games: error {error:.3f}", flush=True)
        done = done + 1 if error <= until else 0
        if done == 2:
            break
        step = 2 ** (1 / 6) if target / 2 <= error <= 2 * target else 2 ** 0.5
        games = max(games + k_table, int(games * step) // k_table * k_table)
    return checkpoints, np.array(columns).T


def monotone(errors: np.ndarray) -> np.ndarray:
    """Least-squares non-increasing fit to ``errors`` (pool adjacent violators, equal weights)."""
    blocks: list[list[float]] = []  # [mean, size]
    for e in errors:
        blocks.append([float(e), 1.0])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            m2, w2 = blocks.pop()
            m1, w1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2])
    return np.concatenate([np.full(int(w), m) for m, w in blocks])


def crossing(checkpoints, errors, target):
    """Games at which the non-increasing ``errors`` first reach ``target`` (log-linear between points)."""
    for j, e in enumerate(errors):
        if e <= target:
            if j == 0:
                return float(checkpoints[0])
            g0, g1, e0 = math.log(checkpoints[j - 1]), math.log(checkpoints[j]), errors[j - 1]
            return math.exp(g0 + (g1 - g0) * (e0 - target) / max(e0 - e, 1e-12))
    return math.inf


def reach(checkpoints, errors, target):
    """Games from which the raw error stays at or below ``target`` (log-linear between points)."""
    for j, e in enumerate(errors):
        if all(later <= target for later in errors[j:]):
            if j == 0:
                return float(checkpoints[0])
            g0, g1, e0 = math.log(checkpoints[j - 1]), math.log(checkpoints[j]), errors[j - 1]
            return math.exp(g0 + (g1 - g0) * (e0 - target) / max(e0 - e, 1e-12))
    return math.inf


def wilson(wrong: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson interval of a binomial proportion."""
    p = wrong / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def report_uniform(checkpoints, wrong, adaptive_games, target, until, resamples, rng) -> None:
    """The uniform error curve, its crossings of ``target`` and 1 % (when swept that far), with
    paired bootstrap intervals."""
    fields = len(wrong)
    errors = wrong.mean(axis=0)
    print("uniform error by games (95 % Wilson): " + ", ".join(
        f"{c}:{e:.3f} [{lo:.3f}, {hi:.3f}]" for c, e, (lo, hi) in
        zip(checkpoints, errors, (wilson(int(w), fields) for w in wrong.sum(axis=0)))))
    paired = adaptive_games[:fields]
    for level in sorted({target} | ({0.01} if until <= 0.01 else set()), reverse=True):
        point = crossing(checkpoints, monotone(errors), level)
        raw = reach(checkpoints, errors, level)
        boot_u, boot_r = [], []
        for _ in range(resamples):
            idx = rng.integers(0, fields, fields)
            u = crossing(checkpoints, monotone(wrong[idx].mean(axis=0)), level)
            boot_u.append(u)
            boot_r.append(u / paired[idx].mean())
        # "nearest": no interpolation, so a resample that never reached the level (inf) gives
        # an open upper bound, beyond the last checkpoint, instead of nan
        lo_u, hi_u = np.quantile(boot_u, [0.025, 0.975], method="nearest")
        lo_r, hi_r = np.quantile(boot_r, [0.025, 0.975], method="nearest")
        beyond = f"> {checkpoints[-1]}"
        print(f"uniform reaches {level} at {point:.0f} games (95 % CI {lo_u:.0f}-"
              f"{beyond if np.isinf(hi_u) else f'{hi_u:.0f}'}; raw 'stays below' {raw:.0f}); "
              f"adaptive mean on these {fields} fields {paired.mean():.0f}: ratio "
              f"{point / paired.mean():.2f}x (95 % CI {lo_r:.2f}-"
              f"{'open' if np.isinf(hi_r) else f'{hi_r:.2f}'}x); "
              f"bootstrap resamples not reaching it {int(np.isinf(boot_u).sum())}/{resamples}", flush=True)


def report_paired(name, games, adaptive_games, resamples, rng) -> None:
    """The ratio of mean games on the same fields, with a paired bootstrap 95 % interval."""
    ratio = games.mean() / adaptive_games.mean()
    boot = []
    for _ in range(resamples):
        idx = rng.integers(0, len(games), len(games))
        boot.append(games[idx].mean() / adaptive_games[idx].mean())
    lo, hi = np.quantile(boot, [0.025, 0.975])
    print(f"{name}: {games.mean():.0f} games against adaptive's {adaptive_games.mean():.0f} on the "
          f"same {len(games)} fields: {ratio:.2f}x (95 % CI {lo:.2f}-{hi:.2f}x)", flush=True)


def tournaments(name, a, fields, run, runs) -> np.ndarray:
    """Play ``runs`` tournaments (``run(r)`` -> (verdict, games)), print and return the games of each."""
    t0 = time.time()
    games, within, exact, spent = [], 0, 0, 0
    for r in range(runs):
        verdict, used = run(r)
        w, e = right(fields[r], verdict.answer, a.goal)
        games.append(used)
        within += w
        exact += e
        spent += verdict.exhausted
    g = np.array(games)
    print(f"{name} ({runs} fields, {time.time() - t0:.0f} s): games mean {g.mean():.0f} median "
          f"{np.median(g):.0f} p90 {np.percentile(g, 90):.0f} max {g.max()}; wrong beyond the margin "
          f"{runs - within}/{runs} = {(runs - within) / runs:.3f}; not exact "
          f"{runs - exact}/{runs}; looks spent {spent}", flush=True)
    return g


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--k", type=int, default=4, help="players per table")
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--goal", default=None, help="'top K' (default: --top) or 'order'")
    ap.add_argument("--error", type=float, default=0.05)
    ap.add_argument("--margin", type=float, default=20.0, help="indifference margin, Elo")
    ap.add_argument("--spread", type=float, default=200.0, help="SD of the field's ratings, Elo")
    ap.add_argument("--runs", type=int, default=500, help="adaptive tournaments")
    ap.add_argument("--uniform-runs", type=int, default=300,
                    help="fields for the uniform sample (the first of adaptive's; at most --runs)")
    ap.add_argument("--uniform-until", type=float, default=0.01,
                    help="stop the uniform sweep once its error is at or below this twice in a row")
    ap.add_argument("--bootstrap", type=int, default=2000, help="bootstrap resamples over fields")
    ap.add_argument("--swiss-runs", type=int, default=500, help="Swiss tournaments (0: none)")
    ap.add_argument("--judged-runs", type=int, default=0,
                    help="uniform tables stopped by the same judge at the same looks (0: none)")
    ap.add_argument("--field", choices=["random", "hard"], default="random",
                    help="random: a new N(0, spread) field per run; hard: one field, the same for "
                         "every run, with three entrants just beyond the margin below the K-th")
    ap.add_argument("--seed", type=int, default=46)
    a = ap.parse_args()
    if a.uniform_runs > a.runs:
        ap.error("--uniform-runs must not exceed --runs (uniform is paired with adaptive's fields)")
    goal = a.goal = parse_goal(a.goal or f"top {a.top}", margin=a.margin)
    rng = np.random.default_rng(a.seed)
    print(f"N={a.n} k={a.k} goal {a.goal.kind} {a.goal.k or ''} error {a.error} margin {a.margin:g} Elo spread {a.spread:g} Elo",
          flush=True)
    count = max(a.runs, a.uniform_runs, a.swiss_runs, a.judged_runs)
    if a.field == "hard":
        fields = [hard_field(a.n, a.top, a.margin, a.spread, np.random.default_rng([a.seed, 6]))] * count
    else:
        fields = [rng.normal(0.0, a.spread, a.n) / ELO_PER_NAT for _ in range(count)]
    adaptive_games = tournaments("adaptive", a, fields, lambda r: adaptive(
        fields[r], a.k, goal, a.error, a.seed + r, rng), a.runs)
    mean_games = float(adaptive_games.mean())
    if a.swiss_runs:
        swiss_games = tournaments("swiss", a, fields, lambda r: swiss(fields[r], a.k, goal, a.error, rng),
                                  a.swiss_runs).mean()
        print(f"swiss plays {swiss_games / mean_games:.1f}x the games of adaptive")
    if a.judged_runs:
        judged_rng = np.random.default_rng([a.seed, 4])  # its own stream, as uniform's
        judged = tournaments("uniform stopped by the judge", a, fields, lambda r: uniform_judged(
            fields[r], a.k, goal, a.error, judged_rng), a.judged_runs)
        report_paired("uniform stopped by the judge", judged, adaptive_games[: a.judged_runs],
                      a.bootstrap, np.random.default_rng([a.seed, 5]))
    if not a.uniform_runs:
        return
    t0 = time.time()
    uniform_rng = np.random.default_rng([a.seed, 2])  # independent of adaptive's and Swiss's draws
    checkpoints, wrong = uniform(fields[: a.uniform_runs], a.k, goal, first=a.n * a.k,
                                 target=a.error, until=a.uniform_until, cap=40 * mean_games,
                                 rng=uniform_rng)
    print(f"uniform ({a.uniform_runs} fields, {time.time() - t0:.0f} s)")
    report_uniform(checkpoints, wrong, adaptive_games, a.error, a.uniform_until, a.bootstrap,
                   np.random.default_rng([a.seed, 3]))


if __name__ == "__main__":
    main()
