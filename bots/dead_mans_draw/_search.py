"""The search policy: single-observer information-set MCTS over the rest of my turn.

Within a turn every decision is mine and the only unknown is the draw order, so each
iteration samples a full state consistent with my observation (one
``engines.dead_mans_draw.determinize``, then a ``resample`` per iteration: the unseen cards
reshuffled under the top cards I know),
walks one shared tree of my action sequences with UCB (counting only the actions available in
that sample), adds one node, finishes the turn with a cheap rollout policy (draw while the
bust odds of the draw pile's known *composition* justify it; random targets that do not
bust) and backs up my
score lead after the turn, squashed to [0, 1].

It is anytime: it stops at the budget (40% of the move limit, at most a quarter of the time
left, at most 2 s) and answers with the most visited action. The character choice and the
Locker target are left to the heuristic.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from bots.sdk import Request
from engines.dead_mans_draw import DeadMansDrawState, determinize, parse
from engines.dead_mans_draw._cards import SUIT_OF_LETTER
from engines.dead_mans_draw._rules import busts

from ._heuristic import heuristic

EXPLORATION = 0.7
#: points of lead that make the squashed reward about 0.76
SCALE = 10.0
MAX_BUDGET_S = 2.0
#: the rollout draws while (1 - p) * SAFE_GAIN > p * (points at risk)
SAFE_GAIN = 2.5


class Node:
    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


def _key(action: Any) -> Any:
    return tuple(action) if isinstance(action, list) else action


def _rollout_draw(state: DeadMansDrawState, legal: list[str]) -> str:
    """Draw or collect from the row, my bank and the draw pile's composition (not its order)."""
    if len(legal) == 1:
        return legal[0]
    row = state.row
    strange = state.strange_waters
    taken = {card % 10 if strange else card // 10 for card in row}
    draw = state.draw
    bad = sum(1 for card in draw if (card % 10 if strange else card // 10) in taken)
    p = bad / len(draw)
    stacks = state.banks[state.turn]
    at_risk = 0
    for card, safe in zip(row, state.prot):
        if not safe:
            stack = stacks[card // 10]
            at_risk += max(0, card % 10 - (stack[-1] % 10 if stack else 0))
    return "draw" if (1 - p) * SAFE_GAIN > p * at_risk else "collect"


def _rollout_target(state: DeadMansDrawState, kind: str, legal: list, rng: random.Random) -> Any:
    """A random choice among those that do not bust (an Oracle's known card busting: collect)."""
    me = state.turn
    if kind == "oracle":
        return "collect" if "collect" in legal and busts(state, state.draw[-1]) else "place"
    if kind == "hook":
        card_of = lambda letter: state.banks[me][SUIT_OF_LETTER[letter]][-1]  # noqa: E731
    elif kind == "sword":
        card_of = lambda target: state.banks[target[0]][SUIT_OF_LETTER[target[1]]][-1]  # noqa: E731
    elif kind == "map":
        card_of = parse
    else:
        return legal[rng.randrange(len(legal))]
    safe = [action for action in legal if not busts(state, card_of(action))] or legal
    return safe[rng.randrange(len(safe))]


def _reward(state: DeadMansDrawState, me: int) -> float:
    scores = state.scores()
    margin = scores[me] - max(score for seat, score in enumerate(scores) if seat != me)
    return 0.5 + 0.5 * math.tanh(margin / SCALE)


def _in_my_turn(state: DeadMansDrawState, me: int) -> bool:
    return bool(state.acting) and state.turn == me and state.acting == (me,)


def _iterate(root: Node, base: DeadMansDrawState, me: int, rng: random.Random) -> None:
    state = base.resample(me, rng)
    node, path = root, []
    while _in_my_turn(state, me):
        legal = state.legal_actions(me)
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
            state.apply({me: action})
            path.append(child)
            break
        state.apply({me: best_action})
        path.append(best)
        node = best
    while _in_my_turn(state, me):
        legal = state.legal_actions(me)
        kind = state.decision(me)
        action = _rollout_draw(state, legal) if kind == "draw" else _rollout_target(state, kind, legal, rng)
        state.apply({me: action})
    reward = _reward(state, me)
    for child in path:
        child.visits += 1
        child.reward += reward


def search_action(request: Request, rng: random.Random, budget_s: float | None = None,
                  iterations: int | None = None) -> Any:
    """Search until ``budget_s`` seconds pass or ``iterations`` are done; return the most visited action."""
    legal = request.legal
    if len(legal) == 1 or request.kind in ("character", "locker"):
        return heuristic(request, rng)
    me = request.seat
    base = determinize(request.observation, rng)
    root = Node()
    deadline = time.perf_counter() + (budget_s if budget_s is not None else 3600.0)
    done = 0
    while (iterations is None or done < iterations) and time.perf_counter() < deadline:
        _iterate(root, base, me, rng)
        done += 1
    best, best_visits = None, 0
    for action in legal:
        child = root.children.get(_key(action))
        if child is not None and child.visits > best_visits:
            best, best_visits = action, child.visits
    return best if best is not None else heuristic(request, rng)


def budget(request: Request) -> float:
    """Seconds to search: well inside both the move limit and the time left."""
    return max(0.0, min(0.4 * request.move_ms, 0.25 * request.time_left_ms, 1000 * MAX_BUDGET_S) / 1000)


def search(request: Request, rng: random.Random) -> Any:
    """Determinized ISMCTS over the rest of the turn, within the time budget."""
    return search_action(request, rng, budget_s=budget(request))
