"""The Karibik search bot: determinized flat Monte Carlo over a few strong candidates.

For each decision it builds candidates (bribe: the heuristic assignment and variations of it;
tiebreak: reveal or keep; move: the planner's best action sequences, one per first action),
then, until its time budget is spent, samples a full state consistent with its observation
(``determinize``: the others' hidden cards and the reserve order), plays the candidate and
the rest of the round — the other seats' simultaneous bribes sampled from a noisy heuristic,
tie-breaks at random, every move by a fast greedy policy — and scores the round's end with
the heuristic evaluation. The candidate with the best mean wins. Time: 40% of the smaller of
the move limit and the time left, at most 1.5 s, checked before every sample; or, with
``nodes`` (``python -m bots.search --nodes N``), exactly N samples and no clock, so a game
replays the same from its seeds.
"""

from __future__ import annotations

import random
import time
from typing import Any

from engines.karibik import determinize
from engines.karibik._rules import MOVE

from ._evaluate import evaluate, greedy_move, plan
from ._heuristic import BID_ORDER, heuristic, ship_importance

BUDGET_SHARE = 0.4
MAX_BUDGET_S = 1.5
MIN_BUDGET_S = 0.02  # below this, answer with the heuristic at once
MOVE_CANDIDATES = 4


def search(request: Any, rng: random.Random, nodes: int | None = None) -> Any:
    """The search within the time budget, or, with ``nodes``, exactly that many samples (no
    clock read: the same request and ``rng`` give the same action however fast the machine)."""
    if nodes is None:
        budget = min(request.move_ms, request.time_left_ms) / 1000 * BUDGET_SHARE
        if budget < MIN_BUDGET_S:
            return heuristic(request, rng)
        deadline = time.perf_counter() + min(budget, MAX_BUDGET_S)
    else:
        deadline = None  # never read the clock: the same request and rng give the same action
    observation = request.observation
    me = request.seat
    base = determinize(observation, rng)
    if request.kind == "bribe":
        candidates = _bribe_candidates(base, me, rng)
        importance = [ship_importance(base, seat) if seat != me else None for seat in range(base.num_players)]
        first = lambda state, option: _bribe_step(state, me, option, importance, rng)  # noqa: E731
    elif request.kind == "tiebreak":
        candidates = ["reveal", "keep"]
        first = lambda state, option: state.apply(  # noqa: E731
            {seat: option if seat == me else rng.choice(("reveal", "keep")) for seat in state.acting})
    else:
        candidates = _move_candidates(base, me, deadline)
        if len(candidates) == 1:
            return candidates[0][0]
        first = _replay
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    turn = 0
    while turn < nodes if nodes is not None else time.perf_counter() < deadline:
        index = turn % len(candidates)
        turn += 1
        state = determinize(observation, rng)
        first(state, candidates[index])
        totals[index] += _rollout_round(state, me, observation["round"], rng)
        counts[index] += 1
    if not all(counts):
        best = 0
    else:
        best = max(range(len(candidates)), key=lambda i: totals[i] / counts[i])
    choice = candidates[best]
    return choice[0] if request.kind == "move" else choice


def _bribe_candidates(state: Any, me: int, rng: random.Random) -> list[list[int]]:
    importance = ship_importance(state, me)
    order = sorted(range(6), key=lambda s: importance[s], reverse=True)
    found = []
    orders = [order, order[:1] + order[2:3] + order[1:2] + order[3:], order[1:2] + order[:1] + order[2:]]
    for _ in range(5):
        shuffled = list(order)
        i, j = rng.sample(range(6), 2)
        shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        orders.append(shuffled)
    for ships in orders:
        for cards in (BID_ORDER, (5, 4, 3, 2, 0, -1)):
            bid = [0] * 6
            for card, ship in zip(cards, ships):
                bid[ship] = card
            if bid not in found:
                found.append(bid)
    return found


def _bribe_step(state: Any, me: int, option: list[int], importance: list, rng: random.Random) -> None:
    actions = {}
    for seat in state.acting:
        if seat == me:
            actions[seat] = option
            continue
        order = sorted(range(6), key=lambda s: importance[seat][s] + 1500 * rng.random(), reverse=True)
        bid = [0] * 6
        for card, ship in zip(BID_ORDER, order):
            bid[ship] = card
        actions[seat] = bid
    state.apply(actions)


def _move_candidates(state: Any, me: int, deadline: float | None) -> list[list[Any]]:
    """Action sequences for the current move: for each promising first action, the planner's
    continuation (each ends with ``["end"]`` or where the move ends by itself)."""
    scored = []
    for action in state.legal_actions(me):
        child = state.fork()
        child._apply_move(action)
        still = child.phase == MOVE and child.ship == state.ship and child.controller == me
        value = plan(child, me, budget=150)[0] if still else evaluate(child, me)
        scored.append((value, action))
    scored.sort(key=lambda pair: pair[0], reverse=True)
    sequences = []
    for _, action in scored[:MOVE_CANDIDATES]:
        sequence = [action]
        child = state.fork()
        child._apply_move(action)
        while action[0] != "end" and child.phase == MOVE and child.ship == state.ship and len(sequence) < 30:
            if deadline is not None and time.perf_counter() > deadline:
                break
            action = plan(child, me, budget=150)[1]
            sequence.append(action)
            child._apply_move(action)
        sequences.append(sequence)
    return sequences


def _replay(state: Any, sequence: list[list[Any]]) -> None:
    ship = state.ship
    for action in sequence:
        if state.phase != MOVE or state.ship != ship:
            return
        state._apply_move(action)


def _rollout_round(state: Any, me: int, round_: int, rng: random.Random) -> float:
    """Play the rest of the round fast and evaluate its end for ``me``."""
    while state.acting and state.round == round_:
        if state.phase == MOVE:
            state._apply_move(greedy_move(state))
        elif state.phase == "tiebreak":
            state._apply({seat: rng.choice(("reveal", "keep")) for seat in state.acting})
        else:
            break
    return evaluate(state, me)
