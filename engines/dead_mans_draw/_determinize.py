"""Build a full state from one seat's observation, sampling what that seat cannot know."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from .._core import State
from ._cards import SUIT_OF_LETTER, all_cards, character_pool, parse
from ._state import DeadMansDrawState, redeal


def determinize(observation: Mapping[str, Any], rng: random.Random) -> DeadMansDrawState:
    """A state consistent with ``observation``: same public contents and same own secrets.

    The unseen cards are shuffled into the draw pile below the top cards the seat knows;
    while characters are being chosen, the other seats' deals are drawn from the unseen
    characters. The returned state's ``observation(seat)`` equals ``observation``; its
    history and event log are empty.
    """
    obs = observation
    n, seat = obs["players"], obs["seat"]
    state = DeadMansDrawState.__new__(DeadMansDrawState)
    State.__init__(state, n, random.Random(rng.getrandbits(64)), dict(obs["options"]))
    state._init_empty()
    seen: list[int] = []
    state.discard = [parse(name) for name in obs["discard"]]
    state.row = [parse(name) for name in obs["row"]]
    state.prot = list(obs["protected"])
    for player, stacks in enumerate(obs["banks"]):
        for letter, cards in stacks.items():
            state.banks[player][SUIT_OF_LETTER[letter]] = [parse(name) for name in reversed(cards)]
            seen += state.banks[player][SUIT_OF_LETTER[letter]]
    pending = obs["pending"]
    info: dict[str, Any] = {}
    if pending is not None:
        for key, value in pending.items():
            if key not in ("seat", "kind", "legal"):
                info[key] = [parse(name) for name in value] if key == "cards" else value
        state.pending = (pending["seat"], pending["kind"], list(pending["legal"]), info)
    known = [parse(name) for name in obs["draw_known"]]
    seen += state.discard + state.row + info.get("cards", []) + known
    unseen = Counter(all_cards(state.mermaid_effect, state.party))
    unseen.subtract(seen)
    hidden = list(unseen.elements())
    rng.shuffle(hidden)
    if len(hidden) + len(known) != obs["draw_size"]:
        raise ValueError("the observation's cards do not add up to a full deck")
    state.draw = hidden + known[::-1]
    state.known[seat] = len(known)
    state.chars = list(obs["characters"])
    state._index_owners()
    state.locker = list(obs["locker"])
    state.turn, state.kraken, state.harbour = obs["turn"], obs["kraken"], obs["harbour"]
    state.phase = obs["phase"]
    state.tasks = [tuple(task) for task in obs["tasks"]]
    state.in_turn = state.phase == "play" and not any(task[0] == "start" for task in state.tasks)
    if state.phase == "characters":
        pool = character_pool(state.mermaid_effect, state.party)
        state.dealt = redeal(list(obs["dealt"]), seat, n, pool, rng)
        state.acting = tuple(s for s, pair in enumerate(state.dealt) if pair[0] != pair[1])
    elif state.pending is not None:
        state.acting = (state.pending[0],)
    return state
