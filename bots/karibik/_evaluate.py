"""Position evaluation, a one-ship move planner and a fast greedy move policy for Karibik.

All work on engine states (``engines.karibik.KaribikState``), usually built from an
observation with ``determinize``; nothing here looks at hidden information.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from engines.karibik._rules import MAX_TRANSFERS, MOVE, ON_PORT

#: How fast a chest's pull towards a hideout fades with distance (steps).
_FADE = [math.exp(-d / 2.5) for d in range(64)]


def hideout_distance(state: Any, seat: int, area: int) -> int:
    """Steps from ``area`` to the nearest hideout of ``seat``."""
    return _home_distances(state.board, state.hideout_owner)[seat][area]


@functools.cache
def _home_distances(board: Any, owners: tuple[int | None, ...]) -> tuple[tuple[int, ...], ...]:
    """Per seat in play, per area: steps to that seat's nearest hideout (a pure memo)."""
    seats = sorted({o for o in owners if o is not None})
    return tuple(tuple(min(board.distance[a][h] for h in board.hideouts if owners[h] == seat)
                       for a in range(len(board.areas))) for seat in seats)


def evaluate(state: Any, me: int, ending: bool = False) -> float:
    """How good the position is for ``me``: score lead plus the pull of chests on ships and
    ports towards my hideouts against the others'. ``ending``: count the forced unload of
    the current ship as if its move ended now."""
    scores = list(state.scores)
    chests = list(state.ship_chest)
    if ending and state.phase == MOVE and 0 <= state.ship < 6:
        ship = state.ship
        owner = state.hideout_owner[state.ship_area[ship]]
        if chests[ship] is not None and owner is not None:
            scores[owner] += state.board.chest_value[chests[ship]]
            chests[ship] = None
    players = state.num_players
    pull = [0.0] * players
    value = state.board.chest_value
    home = _home_distances(state.board, state.hideout_owner)
    for ship, chest in enumerate(chests):
        if chest is not None:
            area = state.ship_area[ship]
            for seat in range(players):
                pull[seat] += 0.45 * value[chest] * _FADE[home[seat][area]]
    status = state.chest_status
    for port in state.board.ports:
        if status[port] == ON_PORT:
            for seat in range(players):
                pull[seat] += 0.12 * value[port] * _FADE[home[seat][port]]
    totals = [scores[s] + pull[s] for s in range(players)]
    others = [totals[s] for s in range(players) if s != me]
    return totals[me] - 0.5 * max(others) - 0.5 * sum(others) / len(others)


def plan(state: Any, me: int, budget: int = 1500) -> tuple[float, Any]:
    """Best (value, first action) for ``me`` moving the current ship, by depth-first search
    over its action sequences (at most ``budget`` positions; transfers limited to 3)."""
    seen: dict[tuple, float] = {}
    nodes = [0]

    def search(node: Any) -> tuple[float, Any]:
        key = (tuple(node.ship_area), tuple(node.ship_chest), node.steps_left, tuple(node.scores))
        best = (evaluate(node, me, ending=True), ["end"])
        if key in seen or nodes[0] >= budget:
            return best
        seen[key] = best[0]
        nodes[0] += 1
        for action in node._move_actions():
            if action[0] == "end" or (action[0] in ("rob", "exchange", "hand")
                                      and node.transfers_left <= MAX_TRANSFERS - 3):
                continue
            child = node.fork()
            child._apply_move(action)
            if child.phase == MOVE and child.ship == node.ship and child.controller == me:
                value = search(child)[0]
            else:  # the move ended by itself: the engine went on to the next ship
                value = evaluate(child, me)
            if value > best[0]:
                best = (value, action)
        return best

    return search(_halted(state))


def _halted(state: Any) -> Any:
    """A fork whose later ships all tie, so that ending the move stops at the next ship
    instead of playing on with (possibly sampled) hidden bids."""
    halted = state.fork()
    halted.bids = [[0] * 6 for _ in range(state.num_players)]
    halted.tb_revealed = [False] * state.num_players
    return halted


def quick_gain(state: Any, ship: int, seat: int, steps: int) -> float:
    """A fast estimate of what ``seat`` gains by moving ``ship`` with ``steps``: bring its
    chest home, or loot a reachable port or rob a reachable ship and head home."""
    board = state.board
    value = board.chest_value
    area = state.ship_area[ship]
    row = board.distance[area]

    def carry(chest: int, start: int, used: int) -> float:
        home = hideout_distance(state, seat, start)
        left = steps - used
        return value[chest] * (1.0 if home <= left else 0.45 * _FADE[home - left])

    chest = state.ship_chest[ship]
    if chest is not None:
        return carry(chest, area, 0)
    best = 0.0
    for port in board.ports:
        if state.chest_status[port] == ON_PORT and row[port] <= steps:
            best = max(best, 2000 + carry(port, port, row[port]))
    for other, cargo in enumerate(state.ship_chest):
        if cargo is not None and other != ship and row[state.ship_area[other]] <= steps + 1:
            reach = max(0, row[state.ship_area[other]] - 1)
            best = max(best, 0.85 * carry(cargo, state.ship_area[other], reach))  # it may move first
    return best


def greedy_move(state: Any) -> list[Any]:
    """A fast, sensible move action for the current controller (used in rollouts)."""
    me = state.controller
    ship = state.ship
    area = state.ship_area[ship]
    carried = state.ship_chest[ship]
    actions = state._move_actions()
    if carried is not None and state.hideout_owner[area] == me:
        return ["deliver"]
    for action in actions:
        if action[0] in ("loot", "rob"):
            return action
    moves = [a for a in actions if a[0] == "move"]
    if not moves:
        return ["end"]
    board = state.board
    if carried is not None:
        targets = [h for h in board.hideouts if state.hideout_owner[h] == me]
    else:
        targets = [p for p in board.ports if state.chest_status[p] == ON_PORT] or list(board.hideouts)
    here = min(board.distance[area][t] for t in targets)
    best = min(moves, key=lambda a: min(board.distance[a[1]][t] for t in targets))
    if min(board.distance[best[1]][t] for t in targets) < here:
        return best
    return ["end"]
