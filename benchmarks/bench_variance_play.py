"""Games between the reference policies in process (no processes, no protocol), for the
variance benchmark and the chance baseline: a policy with a share of random moves, one game
played to the end, and a duplicate block (every rotation of one deal)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from arena.ratings._chance import state_features
from bots._games import policies, random_policy
from bots.sdk import Request
from engines import Replay, get_game

#: Milliseconds a searching policy is told it has per move (kept short: the machine is shared).
MOVE_MS = 5


def request_for(state: Any, seat: int) -> Request:
    """The request the arena would send ``seat`` now (without events)."""
    return Request(id=1, game=state.game.id, seat=seat, players=state.num_players,
                   options=dict(state.options), kind=state.decision(seat),
                   observation=state.observation(seat), events=[], legal=state.legal_actions(seat),
                   time_left_ms=10 * MOVE_MS, move_ms=MOVE_MS)


def mixed_policy(game_id: str, share: float, kind: str = "heuristic", fixed: bool = False):
    """The reference ``kind`` policy, replaced by a random legal move in ``share`` of its decisions.

    ``fixed``: the "random" choice is a function of the observation (a hash of it seeds the
    draw), so the bot is deterministic: what it does depends on the cards only, as the
    heuristic's own choices do, and no part of a result is the bot's own dice.
    """
    base = random_policy if kind == "random" else policies(kind)[game_id]

    def policy(request: Request, rng: random.Random) -> Any:
        if fixed:
            digest = hashlib.sha256(json.dumps([request.seat, request.kind, request.observation], sort_keys=True,
                                               default=str).encode()).digest()
            rng = random.Random(digest)
        if share and rng.random() < share:
            return random_policy(request, rng)
        return base(request, rng)
    return policy


def play(game_id: str, seats: list, seed: int, bot_seed: int | None = None, keep_scores: bool = False):
    """One game; returns the final state and, with ``keep_scores``, the running standing
    (:func:`arena.ratings._chance.state_features`) before every step. ``bot_seed`` seeds the policies' choices (default: ``seed``)."""
    state = get_game(game_id).new_state(len(seats), seed, {})
    rng = random.Random(seed if bot_seed is None else bot_seed)
    scores = []
    while not state.is_terminal():
        if keep_scores:
            scores.append(state_features(state))
        state.apply({seat: seats[seat](request_for(state, seat), rng) for seat in state.acting})
    return state, scores


def duplicate_block(game_id: str, names: list[str], table: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """Every rotation of one deal (seed): per game the seats' names, ranks and replay."""
    out = []
    k = len(names)
    for rotation in range(k):
        seats = names[rotation:] + names[:rotation]
        final, _ = play(game_id, [table[name] for name in seats], seed, bot_seed=seed * 31 + rotation)
        replay = Replay.of(final, game_id, seed).as_dict()
        out.append({"seats": seats, "ranks": list(final.outcome().ranks), "block": f"d{seed}", "replay": replay})
    return out
