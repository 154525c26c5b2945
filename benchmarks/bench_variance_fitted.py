"""Per matchup: does the chance correction make A's score more precise or less, with the
shipped gain (all of the stored luck out) and with the share fitted per comparison
(arena/ratings/_adjust.py, what `arena compare` and `standings --corrected` use since issue 46)?

On the played blocks of ``bench_variance.py`` (``benchmarks/data/variance_*.json``: the
heuristic A against B, B a share of random moves or random only, each game's luck under the
shipped baseline), per data set:

- the raw/corrected variance ratio of A's mean score over all blocks (above 1: the correction
  helps), for the shipped gain and the fitted share, with bootstrap 95 % intervals (blocks
  resampled, the share fitted again in each replicate);
- the fitted share of the stored luck;
- over ``--tournaments`` tournaments of 20 and of 50 blocks drawn from the blocks with
  replacement: the coverage of 95 % intervals, as `arena compare` prints them (on the Elo
  scale), of the raw mean of all blocks (the truth of the resampling), raw, shipped gain, fitted
  and fitted by the rule before (3e93be2: the slope's error at the luck the tournament met, so
  the raw figures where that luck was most unbalanced), and how often each corrected interval
  was wider than the raw one of the same tournament. Every interval here uses Student's t (n - 1
  degrees of freedom; n - 2 for the fitted share), as `arena compare` does.

The luck is centred first: each game's luck less the data set's mean luck per game. A game's
luck has expectation zero (it is the value a chance event moved, less its expectation); the
mean of a data set's few hundred blocks is a draw off zero (up to 1.1 of its standard errors
here), and resampling those blocks would make that draw the expectation of the resampled
world, so every corrected estimate would be off the raw mean by it, a bias of the resampling
and not of the method (at 50 of 150 blocks about half a standard error: coverage 90 % where
95 % holds with the luck centred). In brackets, the fitted share's coverage with the luck as
stored, to show that effect.
    PYTHONPATH=. python benchmarks/bench_variance_fitted.py variance_dead-mans-draw_random.json ...
    PYTHONPATH=. python benchmarks/bench_variance_fitted.py --all
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.ratings._adjust import Estimate, corrected_estimate, raw_estimate  # noqa: E402

DATA = Path(__file__).with_name("data")


def units_of(data: dict) -> list[tuple[float, float, int]]:
    """(A's score total, A's luck total, games) per block."""
    return [(sum(g[0] for g in block), sum(g[1] for g in block), len(block)) for block in data["pairs"]]


def estimates(units):
    """Raw, shipped gain and fitted estimates of ``units``."""
    raw = raw_estimate([(y, m) for y, _, m in units])
    shipped = raw_estimate([(y - x, m) for y, x, m in units])
    return raw, shipped, corrected_estimate(units)


def ratios(units, rng: np.random.Generator, reps: int):
    """Raw/corrected variance ratios (shipped, fitted) on all blocks, and bootstrap 95 % intervals."""
    def both(u):
        raw, shipped, fitted = estimates(u)
        if raw.se == 0.0:  # a replicate of one score only: no ratio (left out of the percentiles)
            return math.nan, math.nan
        return raw.se**2 / shipped.se**2, raw.se**2 / fitted.se**2
    point = both(units)
    reps_out = np.array([both([units[i] for i in rng.integers(0, len(units), len(units))]) for _ in range(reps)])
    lo, hi = np.nanpercentile(reps_out, [2.5, 97.5], axis=0)
    return point, lo, hi


def centred(units):
    """``units`` with the data set's mean luck per game taken out of every game's luck."""
    mean = sum(x for _, x, _ in units) / sum(m for _, _, m in units)
    return [(y, x - m * mean, m) for y, x, m in units]


def rule_before(units) -> Estimate:
    """The fitted share as 3e93be2 chose it: the slope's variance at the luck these units met,
    and the raw figures wherever that interval was not narrower (for comparison only)."""
    raw = raw_estimate([(y, m) for y, _, m in units])
    n, games = len(units), sum(m for _, _, m in units)
    if n < 3:
        return raw
    y_bar, l_bar = sum(y for y, _, _ in units) / games, sum(x for _, x, _ in units) / games
    dy = [y - m * y_bar for y, _, m in units]
    dl = [x - m * l_bar for _, x, m in units]
    sll = sum(d * d for d in dl)
    slope = sum(a * b for a, b in zip(dy, dl)) / sll if sll > 0.0 else 0.0
    if slope <= 0.0:
        return raw
    share = min(slope, 1.0)
    residual = sum((a - share * b) ** 2 for a, b in zip(dy, dl))
    var = residual / (n - 2) * (n + (l_bar * games) ** 2 / sll) / games**2
    best = Estimate(y_bar - share * l_bar, math.sqrt(var), n - 2, share)
    return raw if raw.df and best.half_width >= raw.half_width else best


def coverage(units, rng: np.random.Generator, tournaments: int, blocks: int):
    """Coverage of raw, shipped, fitted and the rule before's intervals of ``blocks``-block
    tournaments of the centred units, and the fitted one's of the units as stored (the same
    draws), as `arena compare` prints them (symmetric on the Elo scale; a virtual win and loss
    added where the spread is zero or the score 0 or 1); and the share of tournaments where
    shipped, fitted and the rule before were wider than raw."""
    truth = sum(y for y, _, _ in units) / sum(m for _, _, m in units)
    level = centred(units)
    rules = (lambda u: estimates(u)[0], lambda u: estimates(u)[1], corrected_estimate, rule_before)
    held = np.zeros(5)
    wider = np.zeros(3)
    for _ in range(tournaments):
        picks = rng.integers(0, len(units), blocks)
        pick = [level[i] for i in picks]
        out = [rule(pick) for rule in rules]
        wider += [e.half_width > out[0].half_width for e in out[1:]]
        for k, rule in enumerate(rules + (corrected_estimate,)):
            chosen = pick if k < 4 else [units[i] for i in picks]
            held[k] += _covers(rule, chosen, truth)
    return held / tournaments, wider / tournaments


def _covers(rule, pick, truth: float) -> bool:
    e = rule(pick)
    if e.se == 0.0 or not 0.0 < e.mean < 1.0:
        e = rule(pick + [(1.0, 0.0, 1), (0.0, 0.0, 1)])
    mean, se = min(max(e.mean, 1e-6), 1 - 1e-6), max(e.se, 1e-12)
    return abs(_logit(mean) - _logit(truth)) <= e.quantile * se / (mean * (1 - mean))


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def line(name: str, data: dict, tournaments: int, reps: int, seed: int) -> str:
    rng = np.random.default_rng(seed)
    units = units_of(data)
    (r_ship, r_fit), lo, hi = ratios(units, rng, reps)
    raw, shipped, fitted = estimates(units)
    cells = [name, f"{100 * raw.mean:.1f} %", f"{len(units)}",
             f"{r_ship:.2f} [{lo[0]:.2f}, {hi[0]:.2f}]", f"**{r_fit:.2f} [{lo[1]:.2f}, {hi[1]:.2f}]**",
             f"{fitted.coefficient:.2f}", f"{100 * (fitted.mean - raw.mean):+.2f} ({(fitted.mean - raw.mean) / raw.se:+.2f} SE)"]
    for blocks in (20, 50):
        held, wider = coverage(units, rng, tournaments, blocks)
        cells.append(f"{100 * held[0]:.1f} / {100 * held[1]:.1f} / **{100 * held[2]:.1f}** / {100 * held[3]:.1f} "
                     f"({100 * held[4]:.1f})")
        cells.append(f"{100 * wider[0]:.0f} % / {100 * wider[1]:.0f} % / {100 * wider[2]:.0f} %")
    return "| " + " | ".join(cells) + " |"


HEADER = ("| data set | A's score | blocks | raw/corrected variance, shipped gain [95 %] | the same, fitted share "
          "[95 %] | fitted share | fitted - raw mean | coverage at 20 blocks: raw / shipped / fitted / rule before "
          "(fitted, luck not centred) | wider than raw at 20: shipped / fitted / rule before | coverage at 50 | "
          "wider than raw at 50 |\n|---|---:|---:|---:|---:|---:|---:|---:|"
          "---:|---:|---:|")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="data files in benchmarks/data")
    parser.add_argument("--all", action="store_true", help="every variance_*.json with luck (gain > 0)")
    parser.add_argument("--tournaments", type=int, default=4000)
    parser.add_argument("--reps", type=int, default=1000, help="bootstrap replicates of the ratios")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    files = sorted(DATA.glob("variance_*.json")) if args.all else [DATA / f for f in args.files]
    print(HEADER)
    for path in files:
        data = json.loads(path.read_text())
        if data.get("gain", 1.0) == 0.0:
            continue  # Karibik: no luck to take out, every figure the raw one
        name = path.stem.removeprefix("variance_")
        if raw_estimate([(y, m) for y, _, m in units_of(data)]).se == 0.0:
            print(f"| {name} | every block the same score: no spread to compare | | | | | | | | | |")
            continue
        print(line(name, data, args.tournaments, args.reps, args.seed), flush=True)


if __name__ == "__main__":
    main()
