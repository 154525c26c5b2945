"""Adaptive scheduling with real bots at small N (issue 46 part 2, the part played for real).

A field of six reference bots of Dead Man's Draw (2 players, ``characters = false``) whose
order is known by construction: ``random``, ``heuristic`` and the search bot at node budgets
1, 4, 16 and 64 (``python -m bots.search --nodes N``; deterministic budgets, four times apart).
The known best is the largest budget.

(a) adaptive: ``format = "adaptive"``, ``goal = "top 1"``, ``error = 0.05``, ``margin = 20``,
    duplicate (the default), one tournament per ``--seeds`` seed; games, rounds and answer
    from ``arena standings DB --format json`` (its ``adaptive`` field).
(b) round-robin: one duplicate round-robin of ``--rr-rounds`` rounds (every pair, both
    rotations of a deal: 30 games a round), then offline its stored games, in schedule order,
    are fed round by round to the same judge (:func:`arena.ratings.judge`, one look per round,
    the error spread over the same :data:`ADAPTIVE_LOOKS` looks, games turned into finishing
    orders as :mod:`arena.tournament._adaptive` does); the first round count at which the
    top 1 is decided is the round-robin's cost of the same decision ("> played" if none is).

    nice -n 10 python benchmarks/bench_adaptive_real.py --seeds 1 2 3 --rr-rounds 8
    python benchmarks/bench_adaptive_real.py --smoke   # no games: the offline judge on made-up games
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.ratings import judge, parse_goal  # noqa: E402
from arena.tournament._adaptive import finishing_orders  # noqa: E402
from arena.tournament._config import ADAPTIVE_LOOKS  # noqa: E402

FIELD = [("random", "python -m bots.random"), ("heuristic", "python -m bots.heuristic")] + [
    (f"search-{n}", f"python -m bots.search --nodes {n}") for n in (1, 4, 16, 64)]
BEST = "search-64"
GOAL, ERROR, MARGIN = "top 1", 0.05, 20.0


def tournament_file(folder: Path, name: str, head: str, seed: int, concurrency: int) -> Path:
    entrants = "".join(f'[[entrants]]\nname = "{n}"\ncommand = "{c}"\n' for n, c in FIELD)
    path = folder / f"{name}.toml"
    path.write_text(f'game = "dead-mans-draw"\nplayers = 2\n{head}\nseed = {seed}\n'
                    f'concurrency = {concurrency}\ndatabase = "{name}.db"\n'
                    "[options]\ncharacters = false\n[time]\nmove_ms = 5000\nreserve_ms = 5000\n" + entrants)
    return path


def arena(*args: str) -> subprocess.CompletedProcess:
    # the arena script beside this Python, its folder first on PATH (the bots' "python")
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run([str(bin_dir / "arena"), *args], cwd=ROOT, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise SystemExit(f"arena {' '.join(args)} failed:\n{result.stderr[-2000:]}")
    return result


def run_adaptive(folder: Path, seed: int, concurrency: int, max_rounds: int) -> dict:
    head = (f'format = "adaptive"\ngoal = "{GOAL}"\nerror = {ERROR}\nmargin = {MARGIN:g}\n'
            f"rounds = {max_rounds}")
    path = tournament_file(folder, f"adaptive-{seed}", head, seed, concurrency)
    start = time.monotonic()
    arena("tournament", "run", str(path), "-q", "--sandbox", "none", "--workers", "1")
    wall = time.monotonic() - start
    standings = json.loads(arena("standings", str(folder / f"adaptive-{seed}.db"), "--format", "json").stdout)
    state = standings["adaptive"]
    return {"seed": seed, "games": state["games"], "rounds": state["rounds"], "state": state["state"],
            "answer": state["answer"], "right": state["state"] == "decided" and state["answer"] == [BEST],
            "wall_s": round(wall, 1)}


def rr_games(db: Path) -> list[tuple[int, tuple[str, ...], tuple[int, ...]]]:
    import sqlite3
    from contextlib import closing
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as connection:
        rows = connection.execute("SELECT round, seats, ranks FROM games ORDER BY round, tbl, rotation").fetchall()
    games = [(r, tuple(json.loads(s)), tuple(json.loads(k))) for r, s, k in rows]
    per_round = len(FIELD) * (len(FIELD) - 1)  # every pair, both rotations
    complete = {r for r in {g[0] for g in games} if sum(g[0] == r for g in games) == per_round}
    return [g for g in games if g[0] in complete]  # a run cut short: its whole rounds only


def first_decision(names: list[str], games: list[tuple[int, tuple[str, ...], tuple[int, ...]]]) -> dict:
    """Feed the games round by round (one look per round) to the judge: the first round count
    at which the top 1 is decided, the games up to it and the answer."""
    index = {name: i for i, name in enumerate(names)}
    goal = parse_goal(GOAL, margin=MARGIN)
    results: Counter = Counter()
    previous = None
    rounds = sorted({g[0] for g in games})
    played = 0
    for round_index in rounds:
        for r, seats, ranks in games:
            if r == round_index:
                played += 1
                for order, weight in finishing_orders([index[s] for s in seats], ranks):
                    results[order] += weight
        rows = sorted(results)
        previous = judge(len(names), np.array(rows, dtype=np.int64), goal, error=ERROR, previous=previous,
                         counts=np.array([results[row] for row in rows], dtype=float), max_looks=ADAPTIVE_LOOKS)
        if previous.decided:
            return {"decided": True, "rounds": round_index + 1, "games": played,
                    "answer": [names[i] for i in previous.answer]}
    return {"decided": False, "rounds": len(rounds), "games": played,
            "answer": [names[i] for i in previous.answer] if previous else [],
            "out": sorted(names[i] for i in previous.out) if previous else [],
            "reason": previous.reason if previous else "no whole round"}


def smoke() -> None:
    """The offline judge on made-up round-robin games of a clear field: seconds, no processes."""
    rng = random.Random(1)
    names = [n for n, _ in FIELD]
    strength = {n: i for i, n in enumerate(names)}
    games = []
    for r in range(12):
        for a in names:
            for b in names:
                if a < b:
                    for seats in ((a, b), (b, a)):
                        pa = 1 / (1 + 10 ** ((strength[seats[1]] - strength[seats[0]]) * 200 / 400))
                        win = rng.random() < pa
                        games.append((r, seats, (0, 1) if win else (1, 0)))
    print("smoke:", first_decision(names, games))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, nargs="*", default=[1, 2, 3])
    parser.add_argument("--rr-rounds", type=int, default=8, help="round-robin rounds (30 games each)")
    parser.add_argument("--max-rounds", type=int, default=50, help="adaptive's rounds bound")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="a folder to keep the databases in")
    parser.add_argument("--rr-from", type=Path, help="judge the whole rounds of this round-robin database only")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        smoke()
        return
    if args.rr_from:
        print("round-robin", json.dumps(first_decision([n for n, _ in FIELD], rr_games(args.rr_from))))
        return
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-adaptive-real-"))
    folder.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    runs = []
    for seed in args.seeds:
        runs.append(run_adaptive(folder, seed, args.concurrency, args.max_rounds))
        print("adaptive", json.dumps(runs[-1]), flush=True)
    rr = None
    if args.rr_rounds:
        path = tournament_file(folder, "round-robin", f'format = "round-robin"\nrounds = {args.rr_rounds}',
                               args.seeds[0] if args.seeds else 1, args.concurrency)
        t = time.monotonic()
        arena("tournament", "run", str(path), "-q", "--sandbox", "none", "--workers", "1")
        rr = first_decision([n for n, _ in FIELD], rr_games(folder / "round-robin.db"))
        rr["wall_s"] = round(time.monotonic() - t, 1)
        print("round-robin", json.dumps(rr), flush=True)
    print("\n| run | games | rounds | answer right? | round-robin games to the same decision | ratio |")
    print("|---|---|---|---|---|---|")
    for run in runs:
        answer = ", ".join(run["answer"]) if run["answer"] else "-"
        right = "yes" if run["right"] else "no"
        if rr is None:
            rr_cell, ratio = "-", "-"
        elif rr["decided"]:
            rr_cell, ratio = f"{rr['games']} ({rr['rounds']} rounds)", f"{rr['games'] / run['games']:.2f}x"
        else:
            rr_cell, ratio = f"> {rr['games']} (undecided after {rr['rounds']} rounds)", f"> {rr['games'] / run['games']:.2f}x"
        print(f"| seed {run['seed']} | {run['games']} | {run['rounds']} | {right} ({run['state']}: {answer}) "
              f"| {rr_cell} | {ratio} |")
    print(f"\ntotal {time.monotonic() - start:.0f} s; databases in {folder}")


if __name__ == "__main__":
    main()
