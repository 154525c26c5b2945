"""The JavaScript twin (``engines/opito_bay/rules.js``) in the situations random play rarely reaches.

``tests/engines/test_rules_js.py`` compares uniform random games state by state. Here a
seeded search with a steered player (sevens piled on one treasure, Kings sparing them, so
that scores become fractions) finds single-deal games that between them reach every
situation in :data:`SITUATIONS`; node replays them through the twin, and one 2-player game
runs into the 40-deal cap. The twin must also reject what the engine rejects.
"""

from __future__ import annotations

import hashlib
import math
import random
from typing import Any

import pytest

from engines import IllegalAction
from engines.opito_bay import DECK, GAME, JOKER, MAX_DEALS, OpitoState
from engines.opito_bay._cards import JOKER_RANKS
from engines.opito_bay._table import scaled_scores
from tests.engines.test_rules_js import PYRANDOM, canonical, explain, node, record, run_node, twin

#: every situation the search must reach; each is named by :func:`situations` or :func:`outcomes`
SITUATIONS = frozenset(
    [f"play {card}" for card in dict.fromkeys(DECK) if card != JOKER]
    + [f"play X{rank}" for rank in JOKER_RANKS]
    + ["discard", "3 on a treasure", "7 on a treasure", "3 on a dead treasure", "7 on a dead treasure"]
    + [f"K on {rank}" for rank in "2468T37QK"]
    + [f"{card} on {whom}" for card in ("Kraken", "Queen") for whom in ("oneself", "another")]
    + ["Kraken of a hand of under 5", "Kraken of a hand of over 5", "Kraken without effect",
       "Queen in the receiver's Ace suit", "9 swapping a pile", "spyglass order", "spyglass with repeated cards",
       "5 looking at 0", "5 looking at 1", "seen in a hand", "positive fractional score",
       "negative fractional score", "tied totals"])
SEARCH_LIMIT = 300


def situations(state: OpitoState, seat: int, action: Any) -> set[str]:
    """The situations ``action`` of ``seat`` meets in ``state``, before it is applied."""
    found, phase, table, pending = set(), state.phase, state.table, state.pending
    if phase == "play":
        found.add("play " + action)
    elif phase == "discard":
        found.add("discard")
    elif phase == "target":
        rank = pending[1]
        found.add(f"K on {table.nodes[action][1]}" if rank == "K" else
                  f"{rank} on a treasure" if table.live()[action] else f"{rank} on a dead treasure")
    elif phase == "player":
        found.add(("Kraken" if pending[1] == "J" else "Queen") + (" on oneself" if action == seat else " on another"))
        size = len(state.hands[action])
        if pending[1] == "J" and size != 5:
            found.add(f"Kraken of a hand of {'over' if size > 5 else 'under'} 5")
        if pending[1] == "Q" and pending[0][1:] == state.aces[action]:
            found.add("Queen in the receiver's Ace suit")
    elif phase == "swap_with":
        if any(on is not None and root in (action, state.swap_from) for _card, _rank, on, root in table.nodes):
            found.add("9 swapping a pile")
    elif phase == "spyglass":
        found.add("spyglass order")
        if len(state.legal_actions(seat)) < math.factorial(state.window):
            found.add("spyglass with repeated cards")
    return found


def outcomes(state: OpitoState, events_from: int) -> set[str]:
    """The situations the state reached with the events from ``events_from`` on."""
    found = set()
    for event in state.log[events_from:]:
        data = event.data
        if data["type"] == "play" and data["as"] == "J" and data.get("target", 0) is None:
            found.add("Kraken without effect")
        if data["type"] == "play" and data.get("look", 2) < 2:
            found.add(f"5 looking at {data['look']}")
    if any(any(row) for row in state.know.hands):
        found.add("seen in a hand")
    numerators, shift = scaled_scores(state.table.nodes, state.table.owner, state.aces)
    for numerator in numerators:
        if numerator % (1 << shift):
            found.add("negative fractional score" if numerator < 0 else "positive fractional score")
    if state.is_terminal() and len(set(state.totals)) < state.num_players:
        found.add("tied totals")
    if state.is_terminal() and not state.options["deals"] and state.deal == MAX_DEALS \
            and max(state.totals) <= state.options["target"]:
        found.add("the 40-deal cap")
    return found


def steered(state: OpitoState, seat: int, rng: random.Random) -> Any:
    """A random action, but sevens are played early and piled on one treasure, and Kings spare them."""
    legal = state.legal_actions(seat)
    phase, table = state.phase, state.table
    if phase == "spyglass":
        return state.random_action(seat, rng)
    if phase == "play" and rng.random() < 0.5:
        sevens = [action for action in legal if action[0] == "7" or action == "X7"]
        if sevens:
            return rng.choice(sevens)
    if phase == "target" and state.pending[1] == "7":
        return max(legal, key=lambda node: (sum(on == node and rank == "7" for _c, rank, on, _r in table.nodes), -node))
    if phase == "target" and state.pending[1] == "K" and rng.random() < 0.7:
        spared = [node for node in legal if table.nodes[node][1] != "7"]
        if spared:
            return rng.choice(spared)
    return legal[rng.randrange(len(legal))]


def play(players: int, seed: int, options: dict[str, Any], chooser) -> tuple[dict[str, Any], set[str]]:
    """A game as the runner's request (see ``tests/engines/rules_js_runner.js``) and what it reached."""
    state = GAME.new_state(players, seed, options)
    rng = random.Random(seed)
    steps, digests, reached = [], [], set()
    seen = 0
    while True:
        digests.append(hashlib.sha1(canonical(record(GAME.id, state, seen)).encode()).hexdigest())
        reached |= outcomes(state, seen)
        seen = len(state.log)
        if state.is_terminal():
            break
        seat = state.acting[0]
        action = chooser(state, seat, rng)
        reached |= situations(state, seat, action)
        steps.append([[seat, action]])
        state.apply({seat: action})
    game = {"game": GAME.id, "players": players, "seed": str(seed), "options": GAME.resolve_options(options),
            "steps": steps, "digests": digests, "terminal": True}
    return game, reached


def discarding_seed() -> int:
    """A seed whose 2-player deal opens with a hand of 3s, 7s, 9s and Kings: its first player must discard."""
    return next(seed for seed in range(0, 10_000, 3) if GAME.new_state(2, seed, {"deals": 1}).phase == "discard")


def search() -> list[dict[str, Any]]:
    """Single-deal steered games until every situation is reached; the games that first reached one."""
    games, missing = [], set(SITUATIONS)
    for seed in [discarding_seed(), *range(SEARCH_LIMIT)]:
        game, reached = play(2 + seed % 3, seed, {"deals": 1}, steered)
        if reached & missing:
            games.append(game)
            missing -= reached
        if not missing:
            return games
    raise AssertionError(f"{SEARCH_LIMIT} steered games never reached {sorted(missing)}")


def check(games: list[dict[str, Any]]) -> None:
    answer = run_node({"scripts": [str(PYRANDOM), str(twin(GAME.id))], "games": games})
    failures = [explain(game, failure) for game, failure in zip(games, answer["games"]) if failure is not None]
    assert not failures, f"{len(failures)} of {len(games)} games differ; the first:\n" + "\n".join(failures[:3])


def test_twin_agrees_in_every_rare_situation():
    node()
    check(search())


def test_twin_agrees_up_to_the_40_deal_cap():
    node()
    game, reached = play(2, 4, {"target": 10**9}, lambda state, seat, rng: state.random_action(seat, rng))
    assert "the 40-deal cap" in reached
    check([game])


def illegal(state: OpitoState) -> list[Any]:
    """Actions of wrong value or type for ``state``'s decision (the test checks the engine rejects them)."""
    legal = state.legal_actions(state.acting[0])
    if state.phase == "spyglass":
        looking = state.looking()
        return [looking[:-1], [*looking[:-1], "AD"], "".join(looking), [*looking, looking[0]], [looking]]
    if state.phase in ("play", "discard"):
        return ["AD", "X", "XQ", "XA", [legal[0]], None]
    # JSON has no 0.0 apart from 0: a float that equals a legal int is left out
    return [max(legal) + 1, -1, str(legal[0]), True, False, [legal[0]], None]


def test_twin_rejects_what_the_engine_rejects():
    """Every kind of decision, in a state of a game: each illegal step makes the twin throw there."""
    node()
    games, kinds = [], set()
    for seed in [discarding_seed(), *range(20)]:
        game, _ = play(2 + seed % 3, seed, {"deals": 1}, steered)
        state = GAME.new_state(game["players"], seed, {"deals": 1})
        for at, step in enumerate(game["steps"]):
            if state.phase not in kinds:
                kinds.add(state.phase)
                seat = state.acting[0]
                wrong_seat = [(seat + 1) % state.num_players, state.legal_actions(seat)[0]]
                for bad in [*([[seat, action]] for action in illegal(state)), [wrong_seat], []]:
                    try:
                        state.apply(dict(bad))
                    except IllegalAction:
                        pass
                    else:
                        raise AssertionError(f"the engine accepted {bad} at step {at} of seed {seed}")
                    # a digest no state has after the bad step: a twin that takes it fails there instead
                    digests = [*game["digests"][:at + 1], "accepted"]
                    games.append({**game, "steps": [*game["steps"][:at], bad], "digests": digests})
            state.apply(dict(step))
    assert kinds == set(GAME.decisions)
    answer = run_node({"scripts": [str(PYRANDOM), str(twin(GAME.id))], "games": games})
    for game, failure in zip(games, answer["games"]):
        bad = game["steps"][-1]
        if failure is None or "error" not in failure:
            pytest.fail(f"the twin accepted {bad} after {len(game['steps']) - 1} steps of seed {game['seed']}")
        assert failure["state"] == len(game["steps"]) - 1, explain(game, failure)
