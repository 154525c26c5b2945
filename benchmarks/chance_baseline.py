"""Make each game's chance baseline (the file its descriptor's ``chance_baseline`` piece names,
``engines/<game>/chance_baseline.json``): the baseline value of the chance correction, fitted
once on the reference bots' self-play, never on the games it will correct. Every game whose
descriptor names one, at every table size it allows; a game without reference policies
(``policies`` piece) cannot be fitted here.

For each game and number of players: play ``--games`` games in process between the
reference policies (heuristic against heuristic, and heuristic with a share of random moves
against each other, so that leads are made and lost), record every state's running scores
and step number, and fit the two weights of :class:`arena.ratings._baseline.ValueModel` by
logistic regression of the final pairwise result on the score difference (Newton steps, no
intercept: the model is antisymmetric). Seeds 10^6 and up: the benchmark's games use others.

Then each model's gain (the control variate's coefficient): ``--gain-games`` more self-play
games of the same mix (seeds 10^6 + 500,000 and up), each one's luck under the model computed
as the arena does (:func:`arena.ratings._chance.game_luck`), and the coefficient of the
least-squares line of the pairwise results on their luck, ``cov(result, luck) / var(luck)``,
which makes the spread of ``result - gain * luck`` smallest on those games (from 0 to 2).

    PYTHONPATH=. python benchmarks/chance_baseline.py --games 200
    PYTHONPATH=. python benchmarks/chance_baseline.py --only karibik   # one game's file; the others kept
    PYTHONPATH=. python benchmarks/chance_baseline.py --gains-only   # keep the files' weights
    PYTHONPATH=. python benchmarks/chance_baseline.py --missing --games 80   # add table sizes a file lacks
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.ratings._baseline import ValueModel, baseline_path, make_baseline_file  # noqa: E402
from arena.ratings._chance import DEFAULT_SAMPLES, game_luck  # noqa: E402
from benchmarks.bench_variance_play import mixed_policy, play  # noqa: E402
from engines import Replay, game_ids, get_game  # noqa: E402

SEED_BASE = 10**6
GAIN_SEED_BASE = SEED_BASE + 500_000
#: every game that carries a chance baseline, at every table size it is played at (Dead Man's
#: Draw 5-8: the Pirate Party)
TABLES = {game_id: range(get_game(game_id).min_players, get_game(game_id).max_players + 1)
          for game_id in game_ids() if get_game(game_id).pieces.has("chance_baseline")}


def samples_of(game_id: str, players: int, games: int):
    """Rows (step, score difference, final result) of every ordered pair of every state."""
    rows = []
    lengths = []
    scale = []
    for number in range(games):
        rng = random.Random(SEED_BASE + number)
        policies = [mixed_policy(game_id, rng.choice((0.0, 0.1, 0.3))) for _ in range(players)]
        final, states = play(game_id, policies, SEED_BASE + number, keep_scores=True)
        lengths.append(len(states))
        ranks = final.outcome().ranks
        end = final.outcome().scores
        scale.extend(abs(end[i] - end[j]) for i in range(players) for j in range(i + 1, players))
        for t, scores in enumerate(states):
            for i in range(players):
                for j in range(players):
                    if i != j:
                        y = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                        rows.append((t, scores[i] - scores[j], y))
    return np.array(rows, dtype=float), float(np.mean(lengths)), float(np.mean(scale)) or 1.0


def fit(rows: np.ndarray, length: float, scale: float) -> tuple[float, float]:
    """Weights (w, p) of ``sigmoid(d / scale * (w + p t / length))`` by Newton's method."""
    x = np.stack([rows[:, 1] / scale, rows[:, 1] / scale * rows[:, 0] / length], axis=1)
    y = rows[:, 2]
    beta = np.zeros(2)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -50, 50)))
        grad = x.T @ (y - p)
        hess = (x * (p * (1 - p))[:, None]).T @ x + 1e-9 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.abs(step).max() < 1e-10:
            break
    return float(beta[0]), float(beta[1])


def fitted_gain(results: list[float], lucks: list[float]) -> float:
    """``cov(result, luck) / var(luck)`` (the slope of the least-squares line), from 0 to 2; 0
    where the luck never varies (a value no chance moves)."""
    luck = np.asarray(lucks, dtype=float)
    if len(luck) < 2 or luck.var() == 0:
        return 0.0
    slope = float(np.cov(np.asarray(results, dtype=float), luck)[0, 1] / luck.var(ddof=1))
    return min(2.0, max(0.0, slope))


def gain_of(game_id: str, players: int, model: ValueModel, games: int) -> float:
    """The gain of ``model``, fitted on ``games`` self-play games (every pair of seats of each)."""
    results, lucks = [], []
    for number in range(games):
        seed = GAIN_SEED_BASE + number
        rng = random.Random(seed)
        policies = [mixed_policy(game_id, rng.choice((0.0, 0.1, 0.3))) for _ in range(players)]
        final, _ = play(game_id, policies, seed)
        ranks = final.outcome().ranks
        luck = game_luck(Replay.of(final, game_id, seed), model, DEFAULT_SAMPLES, seed=1)
        for i in range(players):
            for j in range(i + 1, players):
                results.append(1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0)
                lucks.append(luck[i][j])
    return fitted_gain(results, lucks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", nargs="*", choices=sorted(TABLES), help="fit these games' files only")
    parser.add_argument("--gain-games", type=int, default=200, help="self-play games to fit each gain on")
    parser.add_argument("--gains-only", action="store_true", help="keep the files' weights, fit the gains")
    parser.add_argument("--missing", action="store_true", help="keep the files' entries, fit the table sizes they lack")
    args = parser.parse_args()
    for game_id, tables in TABLES.items():
        if args.only and game_id not in args.only:
            continue
        if not get_game(game_id).pieces.has("policies"):  # the self-play needs its heuristic
            print(f"skipped {game_id}: no reference policies to fit its baseline on (its policies piece)")
            continue
        out = baseline_path(game_id)  # where the game's descriptor says: its engine folder
        games: dict[str, dict[str, dict[str, float]]] = {}
        if args.gains_only or args.missing:
            games = json.loads(out.read_text())["games"]
        for players in tables:
            if args.missing and str(players) in games.get(game_id, {}):
                continue
            if args.gains_only:
                entry = dict(games[game_id][str(players)])
            else:
                rows, length, scale = samples_of(game_id, players, args.games)
                weight, progress = fit(rows, length, scale)
                entry = {"weight": round(weight, 6), "progress": round(progress, 6),
                         "scale": round(scale, 6), "length": round(length, 3)}
            model = ValueModel(entry["weight"], entry["progress"], entry["scale"], entry["length"])
            entry["gain"] = round(gain_of(game_id, players, model, args.gain_games), 4)
            games.setdefault(game_id, {})[str(players)] = entry
            print(game_id, players, entry, flush=True)
        out.write_text(json.dumps(make_baseline_file(games), indent=1, sort_keys=True) + "\n")
        print("wrote", out, flush=True)


if __name__ == "__main__":
    main()
