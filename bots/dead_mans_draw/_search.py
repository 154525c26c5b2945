"""The search policy: determinized rollouts of every choice, judged by the chance to win.

Each iteration samples one full state consistent with my observation (one
``engines.dead_mans_draw.determinize``, then a ``resample`` per iteration: the unseen cards
reshuffled under the top cards I know) and plays *every* legal action on a copy of that same
sample (common random numbers: the choices are compared on the same cards, which cancels
most of the luck between them). After the action, every seat plays the heuristic's policy
(``_playout``, which reads the draw pile's composition, never its order) until the end of the
next opponent's turn, so the rollout sees what my bank and the discard pile offer the
opponent. The position is then judged by the estimated chance to win: the score lead against
the best opponent, divided by how much a lead still moves with this many cards left to draw
(measured in heuristic self-play), through the normal distribution. Far from the end, that is
about the lead; near the end it makes the bot gamble when behind and play safe when ahead.

It is anytime: it stops at the budget (40% of the move limit, at most a quarter of the time
left, at most 2 s) and answers with the best mean. The character choice and the Locker
target are left to the heuristic.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from bots._budget import searched
from bots.sdk import Request
from engines.dead_mans_draw import DeadMansDrawState, determinize

from ._heuristic import heuristic
from ._playout import act

#: how many turns to play out after the searched action: mine and the next opponent's
HORIZON_TURNS = 2
#: spread of the final lead with ``n`` cards left to draw: sqrt(SPREAD_END^2 + SPREAD_PER_CARD * n)
SPREAD_END = 8.0
SPREAD_PER_CARD = 12.0


def win_chance(state: DeadMansDrawState, me: int) -> float:
    """My estimated chance to win from ``state`` (exact when the game is over)."""
    if state.is_terminal():
        ranks = state.outcome().ranks
        best = min(rank for seat, rank in enumerate(ranks) if seat != me)
        return 1.0 if ranks[me] < best else 0.5 if ranks[me] == best else 0.0
    scores = state.scores()
    lead = scores[me] - max(score for seat, score in enumerate(scores) if seat != me)
    spread = math.sqrt(SPREAD_END * SPREAD_END + SPREAD_PER_CARD * len(state.draw))
    return 0.5 * (1.0 + math.erf(lead / (spread * math.sqrt(2.0))))


def playout(state: DeadMansDrawState, turns: int, rng: random.Random) -> None:
    """Play the playout policy until ``turns`` more turns have ended (or the game has)."""
    while turns > 0 and state.acting:
        turn = state.turn
        state.apply_checked({state.acting[0]: act(state, rng)})  # chosen from the legal actions
        if state.turn != turn:
            turns -= 1


def search_action(request: Request, rng: random.Random, budget_s: float | None = None,
                  iterations: int | None = None) -> Any:
    """Roll out every legal action until ``budget_s`` seconds pass or ``iterations`` are done.

    Returns the action with the best mean estimated chance to win (the heuristic's choice
    when there is one legal action, no time for a single iteration, or a character or
    Locker decision).
    """
    legal = request.legal
    if len(legal) == 1 or request.kind in ("character", "locker"):
        return heuristic(request, rng)
    me = request.seat
    base = determinize(request.observation, rng)
    base.log, base.history = [], []  # nothing reads them here; copying them costs time
    # ``iterations`` alone never reads the clock, so the same request and rng give the same action.
    deadline = (None if budget_s is None and iterations is not None
                else time.perf_counter() + (budget_s if budget_s is not None else 3600.0))
    totals = [0.0] * len(legal)
    done = 0
    while (iterations is None or done < iterations) and (deadline is None or time.perf_counter() < deadline):
        sample = base.resample(me, rng)
        for index, action in enumerate(legal):
            state = sample.clone()
            turn = state.turn
            state.apply({me: action})
            playout(state, HORIZON_TURNS - (state.turn != turn), rng)
            totals[index] += win_chance(state, me)
        done += 1
    if not done:
        return heuristic(request, rng)
    return legal[max(range(len(legal)), key=totals.__getitem__)]


def search(request: Request, rng: random.Random, nodes: int | None = None) -> Any:
    """Determinized rollouts of every legal action, within the time budget; with ``nodes``, exactly that many
    iterations and no clock (``python -m bots.search --nodes N``: a game replays the same)."""
    return searched(search_action, request, rng, nodes)
