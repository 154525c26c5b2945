"""The heuristic policy: push your luck while the expected gain beats the expected loss.

Draw or collect: draw when (1 - p) * (mean gain of a safe card + a little for its ability)
exceeds p * (what a bust would cost: the unprotected row's gain). Targets: take what raises
my score most, hit what lowers the leader's most, never bring a card that busts when another
choice does not.
"""

from __future__ import annotations

import random
from typing import Any

from bots.sdk import Request

from ._evaluate import busts, draw_odds, gain, loss, row_gain, tops

#: the characters, best first, for 2 players: by the share of points each one's owner scored
#: in 200,000 2-player games of the playout policy (``benchmarks/dmd_characters.py``: Misfire
#: 64 %, Davy Jones' Locker 62 %, ... Captain Hook 42 %); Siren by 60,000 of the Mermaid variant
CHARACTER_RANK = (
    "misfire", "davy_jones_locker", "plunderer", "golden_scales", "living_shield", "vulture", "siren",
    "fisherman", "safe_harbour", "casanova", "swordswoman", "beast_master", "greedy", "master_gunner",
    "seer", "navigator", "miser", "captain_hook",
)
#: the same for 3 players or more, measured in 40,000 4-player games: Misfire and the
#: Plunderer are worth less at a larger table (a Cannon is aimed at one of several), the
#: Living Shield, the Fisherman and Safe Harbour more; Siren (unmeasured there) in the middle
CHARACTER_RANK_MANY = (
    "davy_jones_locker", "living_shield", "fisherman", "safe_harbour", "misfire", "casanova", "siren",
    "golden_scales", "vulture", "beast_master", "greedy", "seer", "plunderer", "miser", "master_gunner",
    "swordswoman", "navigator", "captain_hook",
)


def character_rank(players: int) -> tuple[str, ...]:
    """The characters, best first, at a table of ``players``."""
    return CHARACTER_RANK if players == 2 else CHARACTER_RANK_MANY


#: what a safe card's ability adds on average, beyond its own value
ABILITY_BONUS = 0.8
#: what moving a card to the end is worth (Mermaid effect), by suit letter
MOVE_VALUE = {"A": 5, "C": 3, "S": 2, "M": 2, "H": 1, "O": 1, "K": 0, "T": 0, "N": 0, "X": -3}


def _leader(obs: dict) -> int:
    """The opponent with the highest score (the first in seat order on a tie)."""
    me = obs["seat"]
    others = [seat for seat in range(obs["players"]) if seat != me]
    return max(others, key=lambda seat: obs["scores"][seat])


def _row_value(obs: dict) -> tuple[float, float]:
    """(gain of collecting the row now, the part of it a bust would lose)."""
    me = obs["seat"]
    top = tops(obs["banks"][me])
    row = obs["row"]
    kept = [card for card, safe in zip(row, obs["protected"]) if safe]
    value = row_gain(top, row)
    suits = {card[0] for card in row}
    if "K" in suits and "T" in suits:
        value += 1.5 * len(row)
    return value, value - row_gain(top, kept)


def draw_or_collect(obs: dict, legal: list[str]) -> str:
    if len(legal) == 1:
        return legal[0]
    p_bust, mean = draw_odds(obs)
    _, at_risk = _row_value(obs)
    return "draw" if (1 - p_bust) * (mean + ABILITY_BONUS) > p_bust * at_risk else "collect"


def _safe_first(obs: dict, legal: list, card_of) -> list:
    """``legal`` without the choices whose card busts, unless every choice busts."""
    safe = [action for action in legal if not busts(obs, card_of(action))]
    return safe or legal


def choose(obs: dict, kind: str, legal: list) -> Any:
    me = obs["seat"]
    banks = obs["banks"]
    mine = banks[me]
    top = tops(mine)
    if kind == "hook":
        options = _safe_first(obs, legal, lambda letter: mine[letter][0])
        return min(options, key=lambda letter: (loss(mine, letter), letter))
    if kind == "sword":
        options = _safe_first(obs, legal, lambda target: banks[target[0]][target[1]][0])
        return max(options, key=lambda t: gain(top, banks[t[0]][t[1]][0]) + loss(banks[t[0]], t[1]))
    if kind == "map":
        options = _safe_first(obs, legal, lambda card: card)
        return max(options, key=lambda card: gain(top, card))
    if kind == "cannon":
        leader = _leader(obs)
        whole = "master_gunner" in (obs["characters"][me] or "")

        def hurt(target):
            seat, letter = target
            damage = loss(banks[seat], letter, whole)
            if seat == me:
                return -damage
            return damage + (1 if seat == leader else 0) + (gain(top, banks[seat][letter][0]) if obs["characters"][me] == "vulture" else 0)
        return max(legal, key=hurt)
    if kind == "plunder":
        return max(legal, key=lambda t: gain(top, banks[t[0]][t[1]][0]) + loss(banks[t[0]], t[1]))
    if kind == "oracle":
        known = obs["draw_known"]
        if "collect" in legal and known and busts(obs, known[0]):
            return "collect"
        return "place"
    if kind == "mermaid":
        row = obs["row"]
        return max(legal, key=lambda action: (gain(top, row[action[1]]) + 2) if action[0] == "bank"
                   else MOVE_VALUE.get(row[action[1]][0], 0))
    if kind == "locker":
        return max(legal, key=lambda seat: obs["scores"][seat])
    if kind == "character":
        order = character_rank(obs["players"])
        return min(legal, key=lambda name: order.index(name) if name in order else 99)
    return legal[0]


def heuristic(request: Request, rng: random.Random) -> Any:
    """Sensible play from the visible state only."""
    obs, kind, legal = request.observation, request.kind, request.legal
    if kind == "draw":
        return draw_or_collect(obs, legal)
    return choose(obs, kind, legal)
