"""Does the colour decide a Karibik game? Self-play win shares per colour, by bot and player count.

Every seat plays the same policy, in-process (no bot processes, no protocol: the bots'
policies are called with the request the arena would send). Game ``i`` of a line uses seed
``i`` for the deal and the string ``"policies i"`` for the policies' random numbers (one
generator shared by the seats), so a run is reproducible.
Bots: ``random`` (uniform legal actions), ``greedy`` (moves by the engine-backed greedy
planner the search bot uses in its rollouts, bribes and tie-breaks at random), ``heuristic``
and ``search`` (the reference bots; search at ``--search-move-ms`` per decision).

Ties: the engine ranks equal final scores equally, so a game can have several winners
(rank 1). A winner shares the win: with t winners each gets 1/t, so a line's shares add up
to 1 and a colour's share is its expected part of the wins. The table also counts the games
with a tie for first place.

A colour passes when its share is within 3 percentage points of 1/k with at least 2,000
games, or within 2 standard errors (binomial, sqrt(p(1-p)/n) at p = 1/k) with fewer.

    python benchmarks/karibik_fairness.py                       # the full table (long)
    python benchmarks/karibik_fairness.py --games 200 --bots random greedy --jobs 2
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots._games import random_policy  # noqa: E402
from bots.karibik import heuristic, search  # noqa: E402
from bots.karibik._evaluate import greedy_move  # noqa: E402
from bots.sdk import Request  # noqa: E402
from engines.karibik import COLOURS, GAME, determinize  # noqa: E402

#: With at least this many games a colour's share must be within POINTS of 1/k; with
#: fewer, within 2 standard errors.
FULL_SAMPLE = 2000
POINTS = 0.03


def greedy(request: Request, rng: random.Random) -> Any:
    """Greedy moves (deliver, loot or rob when possible, else head for the nearest target),
    random bribes and tie-breaks."""
    if request.kind == "move":
        return greedy_move(determinize(request.observation, rng))
    return random_policy(request, rng)


POLICIES = {"random": random_policy, "greedy": greedy, "heuristic": heuristic, "search": search}


def play(bot: str, players: int, seed: int, move_ms: int = 100) -> tuple[int, ...]:
    """One self-play game of ``bot`` at every seat; the final ranks (1 = won, ties shared)."""
    policy = POLICIES[bot]
    state = GAME.new_state(players, seed)
    # Not random.Random(seed): the engine's own generator is that, and policies drawing the
    # same stream as the deal would correlate seat 0's first choices with the deal.
    rng = random.Random(f"policies {seed}")
    while not state.is_terminal():
        actions = {}
        for seat in state.acting:
            request = Request(id=1, game=GAME.id, seat=seat, players=players, options=dict(state.options),
                              kind=state.decision(seat), observation=state.observation(seat), events=[],
                              legal=state.legal_actions(seat), time_left_ms=10 * move_ms, move_ms=move_ms)
            actions[seat] = policy(request, rng)
        state.apply(actions)
    return state.outcome().ranks


def _play_job(job: tuple[str, int, int, int]) -> tuple[int, ...]:
    return play(*job)


def colour_shares(bot: str, players: int, games: int, jobs: int = 1, move_ms: int = 100,
                  first_seed: int = 0) -> tuple[list[float], int]:
    """Per colour in play: its share of the wins over ``games`` games; and how many games had
    a tie for first place. Seeds ``first_seed`` .. ``first_seed + games - 1``."""
    work = [(bot, players, seed, move_ms) for seed in range(first_seed, first_seed + games)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(_play_job, work, chunksize=max(1, games // (8 * jobs)))
    else:
        results = [_play_job(job) for job in work]
    wins = [0.0] * players
    ties = 0
    for ranks in results:
        winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
        ties += len(winners) > 1
        for seat in winners:
            wins[seat] += 1 / len(winners)
    return [w / games for w in wins], ties


def allowed_deviation(players: int, games: int) -> float:
    """How far a colour's share may be from 1/k (see the module docstring)."""
    p = 1 / players
    return POINTS if games >= FULL_SAMPLE else 2 * math.sqrt(p * (1 - p) / games)


def _row(bot: str, players: int, games: int, shares: list[float], ties: int, seconds: float) -> tuple[str, bool]:
    limit = allowed_deviation(players, games)
    worst = max(abs(s - 1 / players) for s in shares)
    cells = [f"{100 * s:.1f}" for s in shares] + [""] * (len(COLOURS) - players)
    verdict = "ok" if worst <= limit else "FAIL"
    return (f"| {bot} | {players} | {games} | " + " | ".join(cells)
            + f" | {100 * worst:.1f} / {100 * limit:.1f} | {ties} | {verdict} | {seconds:.0f} |"), verdict == "ok"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=FULL_SAMPLE, help="games per line for the fast bots")
    parser.add_argument("--search-games", type=int, default=300, help="games per line for the search bot")
    parser.add_argument("--search-move-ms", type=int, default=100,
                        help="the search bot's move limit (below 50 it answers with its heuristic)")
    parser.add_argument("--bots", nargs="+", choices=tuple(POLICIES), default=list(POLICIES))
    parser.add_argument("--players", nargs="+", type=int, choices=(2, 3, 4), default=[2, 3, 4])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = parser.parse_args(argv)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).parent).stdout.strip() or "unknown"
    print(f"commit {commit}; {platform.machine()}, {os.cpu_count()} cores, {args.jobs} jobs; "
          f"search at {args.search_move_ms} ms per decision")
    print("| bots | players | games | " + " | ".join(f"{c} %" for c in COLOURS)
          + " | worst deviation / allowed (points) | ties for first | verdict | seconds |")
    print("|---|---|---|" + "---|" * len(COLOURS) + "---|---|---|---|")
    passed = True
    for bot in args.bots:
        games = args.search_games if bot == "search" else args.games
        for players in args.players:
            started = time.monotonic()
            shares, ties = colour_shares(bot, players, games, args.jobs, args.search_move_ms)
            line, ok = _row(bot, players, games, shares, ties, time.monotonic() - started)
            passed &= ok
            print(line, flush=True)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
