"""What a seat observes: public table state plus its own secrets, as msgpack-able values.

Public: banks, row (with protected flags), the discard pile as a sorted multiset, the draw
pile's size, revealed characters, Locker targets, the Kraken requirement left, whose turn it
is, the open decision with its legal actions and public details, pending follow-up effects.
Private to the seat: its two dealt characters while choosing, and the top cards of the draw
pile it knows (an Oracle's public reveal, or its own Seer look).
"""

from __future__ import annotations

from typing import Any

from ._cards import CARD_NAME, LETTERS, names


def options_of(state) -> dict[str, bool]:
    """The options in effect (``party`` is implied for 5-8 players)."""
    return {
        "characters": state.options["characters"],
        "strange_waters": state.strange_waters,
        "mermaid_effect": state.mermaid_effect,
        "party": state.party,
    }


def pending_view(state) -> dict[str, Any] | None:
    if state.pending is None:
        return None
    player, kind, legal, info = state.pending
    view = {"seat": player, "kind": kind, "legal": list(legal)}
    for key, value in info.items():
        view[key] = names(value) if key == "cards" else value
    return view


def observation(state, seat: int) -> dict[str, Any]:
    """The observation of ``seat`` (see ``protocol/games/dead-mans-draw.md``)."""
    draw = state.draw
    known = state.known[seat]
    obs = {
        "seat": seat,
        "players": state.num_players,
        "options": options_of(state),
        "phase": state.phase,
        "turn": state.turn,
        "draw_size": len(draw),
        "draw_known": [CARD_NAME[card] for card in reversed(draw[len(draw) - known:])] if known else [],
        "discard": [CARD_NAME[card] for card in sorted(state.discard)],
        "row": names(state.row),
        "protected": list(state.prot),
        "kraken": state.kraken,
        "harbour": state.harbour,
        "banks": [{LETTERS[suit]: [CARD_NAME[card] for card in reversed(stack)]
                   for suit, stack in enumerate(stacks) if stack} for stacks in state.banks],
        "characters": list(state.chars),
        "locker": list(state.locker),
        "scores": state.scores(),
        "pending": pending_view(state),
        "tasks": [list(task) for task in state.tasks],
    }
    if state.dealt is not None:
        obs["dealt"] = list(state.dealt[seat])
    return obs
