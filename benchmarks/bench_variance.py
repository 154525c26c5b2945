"""Fewer games to a verdict: plain duplicate, the duplicate block as the unit, and the chance
correction, measured on real games between reference bots of known order.

For each game: ``--blocks`` duplicate pairs (both seatings of one deal) between the heuristic
reference bot (A) and the same bot making a random move in ``--share`` of its decisions (B, weaker
by construction; with ``--fixed`` those moves are a function of what B sees, so B is as
deterministic as the heuristic and every difference between two plays of a deal is chance),
played in process; each game's luck computed from its replay under the
shipped baseline (engines/<game>/chance_baseline.json, fitted on other seeds). The games are
played once and kept in ``benchmarks/data/variance_<game>.json``; everything after is
resampling (``--tournaments`` tournaments drawn from the blocks with replacement):

- games to a verdict: each resampled tournament adds one block at a time and stops once the
  95 % interval of A's score excludes 1/2 (at least 8 blocks), under three analyses: *plain*
  (every game an independent observation, the per-game interval), *block* (a duplicate block
  one observation), *corrected* (blocks, each game's score less its luck); the mean games and
  the share of verdicts that named the wrong bot;
- the same from the formula ``n = (1.96 sd / (mean - 1/2))^2`` at the raw mean for all three
  (the correction leaves the expected score as it is, so they differ in spread alone), with
  bootstrap 95 % intervals of it and of its ratio to plain duplicate (the headline figures);
- coverage: the share of 95 % corrected intervals of ``--coverage-blocks``-block tournaments
  that hold the raw mean of all the blocks (the truth of the resampling);
- bias: the corrected mean of all blocks against the raw one, in raw standard errors.

    PYTHONPATH=. python benchmarks/bench_variance.py              # play once, then resample
    PYTHONPATH=. python benchmarks/bench_variance.py --games dead-mans-draw --blocks 400
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.ratings._adjust import corrected_estimate  # noqa: E402
from arena.ratings._baseline import game_baseline  # noqa: E402
from arena.ratings._chance import game_luck  # noqa: E402
from benchmarks.bench_variance_play import duplicate_block, mixed_policy  # noqa: E402

DATA = Path(__file__).with_name("data")
GAMES = ("dead-mans-draw", "opito-bay", "karibik")
Z = 1.959963984540054
MIN_BLOCKS = 8


def dataset(game_id: str, blocks: int, share: float, samples: int, refresh: bool, fixed: bool,
            players: int = 2) -> dict:
    """The played blocks of ``game_id`` (from the file, or played now and written there; B
    playing random moves only, ``share`` 1, has files of its own: ``variance_<game>_random*``).

    At ``players`` > 2 the table is A against a field of ``players - 1`` copies of B, a block
    every rotation of one deal; A's score in a game is its pairwise score against the field
    (1 for each B behind it, 1/2 level, 0 ahead, averaged) and its luck the same average of the
    luck matrix's row, so a block is ``players`` games of one number each, as a pair is two.
    """
    against = "_fixed" if fixed else "_random" if share == 1.0 else ""  # B: deterministic, or random only
    path = DATA / f"variance_{game_id}{against}{f'_{players}p' if players != 2 else ''}.json"
    baseline = game_baseline(game_id)
    model = baseline.model(game_id, players)
    if path.exists() and not refresh:
        data = json.loads(path.read_text())
        if data["blocks"] >= blocks and data["share"] == share and data["samples"] == samples \
                and data["baseline"] == baseline.label:  # another baseline: another luck
            return {"gain": model.gain, **data}
    names = ["A", "B"] if players == 2 else ["A"] + [f"B{i}" for i in range(1, players)]
    table = {"A": mixed_policy(game_id, 0.0), **{name: mixed_policy(game_id, share, fixed=fixed) for name in names[1:]}}
    rows = []
    start = time.process_time()
    for seed in range(blocks):
        block = []
        for game in duplicate_block(game_id, names, table, 7000 + seed):
            a = game["seats"].index("A")
            field = [seat for seat in range(players) if seat != a]
            ranks = game["ranks"]
            score = sum(1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0 for b in field)
            luck = game_luck(game["replay"], model, samples, seed=1)[a]
            block.append([score / len(field), round(sum(luck[b] for b in field) / len(field), 6)])
        rows.append(block)
    data = {"game": game_id, "players": players, "fixed": fixed, "blocks": blocks, "share": share,
            "samples": samples, "baseline": baseline.label, "gain": model.gain,
            "cpu_s": round(time.process_time() - start, 1), "pairs": rows}
    DATA.mkdir(exist_ok=True)
    path.write_text(json.dumps(data) + "\n")
    return data


def block_values(data: dict) -> tuple[np.ndarray, np.ndarray]:
    """(blocks, games of a block) raw scores of A and corrected ones."""
    pairs = np.array(data["pairs"], dtype=float)  # (blocks, games, [score, luck])
    return pairs[:, :, 0], pairs[:, :, 0] - pairs[:, :, 1]


def games_to_verdict(values: np.ndarray, per_game: bool, rng: np.random.Generator, tournaments: int,
                     max_blocks: int) -> tuple[float, float, float]:
    """Mean games to a verdict over resampled tournaments, the share that never decided within
    ``max_blocks``, and the share of verdicts for B (the weaker bot)."""
    g = values.shape[1]  # games a block
    draws = values[rng.integers(0, len(values), size=(tournaments, max_blocks))]  # (T, n, g)
    n = np.arange(1, max_blocks + 1)
    if per_game:
        flat = draws.reshape(tournaments, g * max_blocks)
        s1, s2 = np.cumsum(flat, axis=1), np.cumsum(flat**2, axis=1)
        m = np.arange(1, g * max_blocks + 1)
        mean = s1 / m
        var = np.maximum(s2 / m - mean**2, 0) * m / np.maximum(m - 1, 1)
        se = np.sqrt(var / m)
        mean, se = mean[:, g - 1::g], se[:, g - 1::g]  # checked after each block, as the others
    else:
        totals = draws.sum(axis=2)  # per block, g games
        s1, s2 = np.cumsum(totals, axis=1), np.cumsum(totals**2, axis=1)
        mean = s1 / (g * n)
        spread = np.maximum(s2 - 2 * s1 * g * mean + n * (g * mean) ** 2, 0)  # sum (t - g mean)^2
        se = np.sqrt(spread * n / np.maximum(n - 1, 1)) / (g * n)
    decided = (np.abs(mean - 0.5) > Z * se) & (n >= MIN_BLOCKS) & (se > 0)
    first = np.where(decided.any(axis=1), decided.argmax(axis=1), -1)
    done = first >= 0
    games = g * (first[done] + 1)
    wrong = (mean[done, first[done]] < 0.5).mean() if done.any() else math.nan
    return float(games.mean()) if done.any() else math.nan, float(1 - done.mean()), float(wrong)


def formula_games(values: np.ndarray, per_game: bool, mean: float | None = None) -> float:
    """Games to a 95 % verdict from the spread: ``(1.96 sd / (mean - 1/2))^2``, ``mean`` the
    values' own unless given (the raw mean: the correction does not change the expected score,
    so the three analyses are compared at the same difference and differ only in spread)."""
    mean = values.mean() if mean is None else mean
    if per_game:
        return (Z * values.std(ddof=1) / (mean - 0.5)) ** 2
    return values.shape[1] * (Z * values.mean(axis=1).std(ddof=1) / (mean - 0.5)) ** 2


def formula_interval(values: np.ndarray, raw: np.ndarray, per_game: bool, rng: np.random.Generator,
                     reps: int = 1000):
    """Bootstrap (over blocks) 95 % intervals of :func:`formula_games` at the raw mean, and of
    its ratio to the plain figure (the same replicate blocks)."""
    out, ratio = [], []
    # a replicate whose mean is 1/2 exactly needs infinitely many games (inf), and its ratio is
    # nan: the percentiles leave those out
    with np.errstate(divide="ignore", invalid="ignore"):
        for _ in range(reps):
            pick = rng.integers(0, len(values), len(values))
            mean = raw[pick].mean()
            games = formula_games(values[pick], per_game, mean)
            out.append(games)
            ratio.append(formula_games(raw[pick], True, mean) / games)
    return [float(np.nanpercentile(np.asarray(x, dtype=float), q)) for x in (out, ratio) for q in (2.5, 97.5)]


def coverage(raw: np.ndarray, fixed: np.ndarray, rng: np.random.Generator, tournaments: int, blocks: int):
    """Shares of 95 % intervals holding the truth: corrected (block unit) around the corrected
    mean of all blocks (the truth of the resampling for it), corrected around the raw mean of
    all blocks, raw (block unit) and plain per game around the raw mean."""
    truth = raw.mean()
    g = raw.shape[1]
    idx = rng.integers(0, len(raw), size=(tournaments, blocks))
    out = []
    for values, own in ((fixed, True), (fixed, False), (raw, False)):
        totals = values[idx].sum(axis=2)
        mean = totals.sum(axis=1) / (g * blocks)
        se = np.sqrt(((totals - g * mean[:, None]) ** 2).sum(axis=1) * blocks / (blocks - 1)) / (g * blocks)
        out.append(float((np.abs(mean - (values.mean() if own else truth)) <= Z * se).mean()))
    games = raw[idx].reshape(tournaments, g * blocks)  # the per-game interval of the same tournaments
    se = games.std(axis=1, ddof=1) / math.sqrt(g * blocks)
    out.append(float((np.abs(games.mean(axis=1) - truth) <= Z * se).mean()))
    return out


def report(data: dict, tournaments: int, coverage_blocks: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    raw, fixed = block_values(data)
    n = len(raw)
    max_blocks = 4 * n
    lines = []
    se_raw = raw.std(ddof=1) / math.sqrt(raw.size)
    bias = (fixed.mean() - raw.mean()) / raw.mean(axis=1).std(ddof=1) * math.sqrt(n)
    name = f"{data['game']}{' (fixed B)' if data.get('fixed') else ''}"
    if data.get("players", 2) != 2:
        name += f", {data['players']} players (A against {data['players'] - 1} B)"
    plain = None
    analyses = [("plain duplicate", raw, True), ("duplicate block unit", raw, False),
                ("block unit + corrected", fixed, False)]
    gain = data.get("gain", 1.0)
    if gain not in (0.0, 1.0):  # the same luck taken out whole, as before the baseline had gains
        analyses.append(("block unit + corrected, gain 1", raw - (raw - fixed) / gain, False))
    if gain != 0.0:  # the share arena compare fits on these blocks (issue 46; fitted once, on all)
        share = corrected_estimate([(r.sum(), r.sum() - f.sum(), len(r)) for r, f in zip(raw, fixed)]).coefficient
        analyses.append((f"block unit + corrected, fitted share {share:.2f}", raw - share * (raw - fixed), False))
    for label, values, per_game in analyses:
        games, undecided, wrong = games_to_verdict(values, per_game, rng, tournaments, max_blocks)
        formula = formula_games(values, per_game, raw.mean())
        plain = plain or formula
        lo, hi, rlo, rhi = formula_interval(values, raw, per_game, rng)
        lines.append(f"| {name} | {label} | {formula:.0f} "
                     f"[{lo:.0f}, {hi:.0f}] | {plain / formula:.2f}x [{rlo:.2f}, {rhi:.2f}] | {games:.0f} | "
                     f"{100 * undecided:.1f} % | {100 * wrong:.1f} % |")
    cov_own, cov_fixed, cov_raw, cov_plain = coverage(raw, fixed, rng, tournaments, coverage_blocks)
    lines.append(f"| {name} | A's score {100 * raw.mean():.1f} % raw, {100 * fixed.mean():.1f} % corrected "
                 f"(gain {gain:g}) "
                 f"(difference {bias:+.2f} raw SE of the block mean; per-game SE {100 * se_raw:.1f} %); "
                 f"coverage of 95 % intervals of {coverage_blocks} blocks: corrected {100 * cov_own:.1f} % (of the "
                 f"corrected mean), {100 * cov_fixed:.1f} % (of the raw mean), "
                 f"block unit {100 * cov_raw:.1f} %, plain per game {100 * cov_plain:.1f} %; {n} blocks, {data['cpu_s']} s CPU to play and correct | | | | | |")
    return lines


def policy_noise(game_id: str, share: float, fixed: bool, deals: int) -> str:
    """The share of a result's variance that is the bots' own dice: each deal played twice with
    the same seats and other bot seeds; half the mean squared difference over the variance."""
    from benchmarks.bench_variance_play import play

    seats = [mixed_policy(game_id, 0.0), mixed_policy(game_id, share, fixed=fixed)]
    results = []
    for deal in range(deals):
        row = []
        for bots in (1, 2):
            ranks = play(game_id, seats, 5000 + deal, bot_seed=bots * 100_000 + deal)[0].outcome().ranks
            row.append(1.0 if ranks[0] < ranks[1] else 0.5 if ranks[0] == ranks[1] else 0.0)
        results.append(row)
    r = np.array(results)
    within = ((r[:, 0] - r[:, 1]) ** 2 / 2).mean()
    return (f"{game_id}, B {'fixed' if fixed else 'with its own dice'} ({share:.0%} random moves), {deals} deals "
            f"played twice: {100 * within / r.var():.0f} % of the variance of a result is the bots' own dice")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--players", type=int, default=2,
                        help="table size: A against a field of players - 1 copies of B")
    parser.add_argument("--blocks", type=int, default=200)
    parser.add_argument("--share", type=float, default=0.2, help="B's share of random moves")
    parser.add_argument("--samples", type=int, default=4, help="samples per chance event")
    parser.add_argument("--tournaments", type=int, default=4000)
    parser.add_argument("--coverage-blocks", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--refresh", action="store_true", help="play the games again")
    parser.add_argument("--policy-noise", type=int, default=0, metavar="DEALS",
                        help="only measure the share of a result's variance that is the bots' own dice")
    parser.add_argument("--fixed", action="store_true",
                        help="B's random moves a function of what it sees (a deterministic bot: no result is "
                             "the bot's own dice)")
    args = parser.parse_args()
    if args.policy_noise:
        for game_id in args.games:
            print(policy_noise(game_id, args.share, args.fixed, args.policy_noise), flush=True)
        return
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}")
    print("| game | analysis | games to a 95 % verdict [bootstrap 95 %] | fewer than plain [95 %] | "
          "resampled sequential: mean games | undecided | verdicts for the weaker bot |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for game_id in args.games:
        data = dataset(game_id, args.blocks, args.share, args.samples, args.refresh, args.fixed, args.players)
        for line in report(data, args.tournaments, args.coverage_blocks, args.seed):
            print(line, flush=True)


if __name__ == "__main__":
    main()
