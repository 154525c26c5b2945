"""The search policy: single-observer information-set MCTS over the engine.

Every iteration samples a full state consistent with what the player knows
(``engines.opito_bay.determinize``: other hands and the library's unseen part are shuffled,
but the cards the player saw with a 5 stay where they are), walks one shared tree of action
sequences with UCB (counting only actions available in that sample), adds one node, plays a
cheap greedy rollout (``_rollout``) for up to 20 turns within the deal, judges each seat's
standing (totals, the table's exact score, half the rough worth of the hand) and backs up
each seat's mean squashed lead over every other seat (``_rewards``). Longer rollouts
measured better (20 turns: 69% of single deals won against the heuristic at 200 iterations;
8 turns: 60%; 3 turns: 51%). The tree holds the player's own follow-up decisions (a 3's
target, a 9's second treasure), so a card is judged with its best target, and the opponents'
replies. Below the root a 5's look is ordered at once as the heuristic would (one order, not
up to 120 branches), and a Joker is never tried as a 2, 4, 6 or 8 (``DOMINATED``).

It is anytime: it stops at the budget (40% of the move limit, at most a quarter of the time
left, at most 2 s) and answers with the most visited action.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from bots._budget import searched
from bots.sdk import Request
from engines.opito_bay import OpitoState, determinize

from ._evaluate import card_worth
from ._heuristic import heuristic
from ._rollout import rollout_action, spyglass_order

EXPLORATION = 0.7
#: points of lead that make the squashed reward about 0.88
SCALE = 3000.0
#: a spyglass with more orders than this is left to the heuristic (a 5 shows up to 120)
MAX_ROOT_ACTIONS = 30
#: a Joker played as a low treasure: as a 10 it is worth more in every use but one (being the
#: treasure a 9 of mine gives away), too rare to spend iterations on
DOMINATED = frozenset(("X2", "X4", "X6", "X8"))
#: rollouts stop after this many turns; the position is then judged by table and hands
ROLLOUT_TURNS = 20
#: how much of a hand's rough worth counts in that judgement
HAND_WEIGHT = 0.5


class Node:
    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


def _key(action: Any) -> Any:
    return tuple(action) if isinstance(action, list) else action


def _rewards(state: OpitoState, deal: int) -> list[float]:
    """Each seat's expected share of its pairwise comparisons, in [0, 1].

    A seat's value is its total, plus the deal so far if unfinished; against each other seat
    the lead is squashed, and the squashed leads are averaged. With two players that is the
    squashed lead; with more, every other seat counts, as it does in the ratings (judging
    only the lead over the best other seat measured weaker: 0.68 against the heuristic in
    4-player deals in-process, 0.78 with this).
    """
    values = [float(total) for total in state.totals]
    if state.acting and state.deal == deal:
        suits = state.aces
        for seat, score in enumerate(state.deal_scores()):
            values[seat] += float(score) + HAND_WEIGHT * sum(card_worth(card, suits[seat])
                                                             for card in state.hands[seat])
    others = len(values) - 1
    return [sum(math.tanh((value - other) / SCALE) for other in values) / (2 * others) + 0.5
            for value in values]


def _iterate(root: Node, obs: dict, rng: random.Random) -> None:
    state = determinize(obs, rng)
    deal = state.deal
    node, path = root, []
    while not state.is_terminal() and state.deal == deal:
        seat = state.turn
        if state.phase == "spyglass" and path:
            state.advance(spyglass_order(state))
            continue
        legal = state.legal_actions(seat)
        if state.phase == "play":
            legal = [action for action in legal if action not in DOMINATED]
        children = node.children
        untried = []
        best, best_score, best_action = None, -1.0, None
        for action in legal:
            child = children.get(_key(action))
            if child is None:
                untried.append(action)
                continue
            child.avail += 1
            if not untried:
                score = child.reward / child.visits + EXPLORATION * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score, best_action = child, score, action
        if untried:
            action = untried[rng.randrange(len(untried))]
            child = children[_key(action)] = Node()
            state.advance(action)
            path.append((child, seat))
            break
        state.advance(best_action)
        path.append((best, seat))
        node = best
    turns = 0
    while state.acting and state.deal == deal and turns < ROLLOUT_TURNS:
        turn = state.turn
        state.advance(rollout_action(state, rng))
        turns += state.turn != turn
    rewards = _rewards(state, deal)
    for child, seat in path:
        child.visits += 1
        child.reward += rewards[seat]


def search_action(request: Request, rng: random.Random, budget_s: float | None = None,
                  iterations: int | None = None) -> Any:
    """Search until ``budget_s`` seconds pass or ``iterations`` are done; return the most visited action."""
    legal = request.legal
    if len(legal) == 1 or (len(legal) > MAX_ROOT_ACTIONS and request.kind == "spyglass"):
        return heuristic(request, rng)
    obs = dict(request.observation)
    root = Node()
    # ``iterations`` alone never reads the clock, so the same request and rng give the same action.
    deadline = (None if budget_s is None and iterations is not None
                else time.perf_counter() + (budget_s if budget_s is not None else 3600.0))
    done = 0
    while (iterations is None or done < iterations) and (deadline is None or time.perf_counter() < deadline):
        _iterate(root, obs, rng)
        done += 1
    best, best_visits = None, 0
    for action in legal:
        child = root.children.get(_key(action))
        if child is not None and child.visits > best_visits:
            best, best_visits = action, child.visits
    return best if best is not None else heuristic(request, rng)


def search(request: Request, rng: random.Random, nodes: int | None = None) -> Any:
    """Determinized ISMCTS within the time budget; with ``nodes``, exactly that many
    iterations and no clock (``python -m bots.search --nodes N``: a game replays the same)."""
    return searched(search_action, request, rng, nodes)
