"""Opito Bay: action numbering and observation tensor (see ``docs/environments.md``).

A card is one of 49 slots: the 48 suited cards in the engine's ``DECK`` order, then the Joker
(of which there are three). A table card is a *node* with the id the engine gives it (0, 1,
... in the order played this deal); a deal never lays more nodes than there are cards.

A 5's ``spyglass`` order is numbered as a permutation of the looked-at positions: id
``spyglass p`` puts the card at position ``p[0]`` (0 = top) on top, then ``p[1]``, ...; a
window of ``k < 5`` cards uses the permutations that leave positions ``k..4`` in place. When
equal cards (Jokers) make two permutations the same order, the legal actions list the
smallest permutation only.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from operator import itemgetter
from typing import Any

import numpy as np

from engines.opito_bay import DECK, JOKER

from ._codec import Codec, Layout, Segment, check_size, seats_segment

SUITED = tuple(card for card in DECK if card != JOKER)
CARD_SLOT = {card: slot for slot, card in enumerate(SUITED)} | {JOKER: len(SUITED)}
CARDS = len(SUITED) + 1
RANKS = "23456789TJQK"
JOKER_RANKS = "23456789TJK"
NODES = len(DECK)
WINDOW = 5
PERMUTATIONS = tuple(permutations(range(WINDOW)))
DECISIONS = ("play", "discard", "target", "player", "swap", "swap_with", "spyglass")


def squash(value: float, scale: float) -> float:
    """``value / (|value| + scale)``: any number into (-1, 1), order and sign kept."""
    return value / (abs(value) + scale)


def max_game_length(options: Mapping[str, Any], num_players: int) -> int:
    """A bound on decisions per game for OpenSpiel (none is ever near it): per deal at most 51
    cards plus the hands 7 Krakens send back, 3 decisions a turn."""
    return 300 * (options["deals"] or 40)


class OpitoBayCodec(Codec):
    game_id = "opito-bay"
    contextual = frozenset({"spyglass"})
    self_listed = frozenset({"spyglass"})
    private_keys = ("hand", "looking", "library_top", "seen_in_hands")

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, options)
        n = num_players
        table: list[tuple[str, Any]] = [("play", card) for card in SUITED]
        table += [("play", JOKER + rank) for rank in JOKER_RANKS]
        table += [("discard", card) for card in SUITED] + [("discard", JOKER)]
        table += [("target", node) for node in range(NODES)]
        table += [("player", seat) for seat in range(n)]
        table += [("swap", node) for node in range(NODES)]
        table += [("swap_with", node) for node in range(NODES)]
        table += [("spyglass", perm) for perm in PERMUTATIONS]
        self.table = table
        self._finish()
        self.layout = Layout([
            Segment("deal", 1, "the deal being played / 40 (the engine's cap)"),
            Segment("deals", 1, "the `deals` option / 40 (0: play to the target)"),
            Segment("target", 1, "the `target` option t as t / (t + 50000)"),
            seats_segment("totals", n, "total x as x / (abs(x) + 10000)", low=-1.0),
            seats_segment("deal_points", n, "this deal's points x as x / (abs(x) + 1000)", low=-1.0),
            seats_segment("turn", n, "one-hot: the seat to play"),
            Segment("decision", len(DECISIONS), "one-hot decision kind: " + ", ".join(DECISIONS)),
            seats_segment("aces", n, "one-hot suit of the seat's Ace (D, S, C, H)", 4),
            Segment("hand", CARDS, "count of each card in the observer's hand", high=3.0),
            seats_segment("hand_sizes", n, "cards in hand / 5", high=2.0),
            Segment("library", 1, "cards in the library / 51"),
            Segment("graveyard", CARDS, "count of each card in the graveyard", high=3.0),
            Segment("table_card", NODES * CARDS, "per node id: one-hot card"),
            Segment("table_as", NODES * len(RANKS), "per node id: one-hot rank it was played as (2..K)"),
            Segment("table_owner", NODES * n, "per node id: one-hot seat owning the pile it is in"),
            Segment("table_on", NODES * NODES, "per node id: one-hot id of the node it lies on"),
            Segment("table_live", NODES, "per node id: no live King lies on it"),
            Segment("pending_card", CARDS, "one-hot card being played"),
            Segment("pending_as", len(RANKS), "one-hot rank it is played as"),
            Segment("swap_from", NODES, "one-hot: the treasure a pending 9 swaps"),
            Segment("window", 1, "cards under the pending 5's look / 5"),
            Segment("looking", WINDOW * CARDS, "per looked-at position (top first): one-hot card"),
            Segment("library_top", WINDOW * (CARDS + 1),
                    "per library position (top first) the observer knows: one-hot card, or the last "
                    "flag for a position whose card it does not know"),
            seats_segment("seen_in_hands", n, "count of each card the observer saw go into the hand",
                          CARDS, high=3.0),
        ])
        self._off = self.layout.offset
        #: per window size k >= 2: (itemgetter of a permutation of range(k), its id), in order
        index = self.kind_index["spyglass"]
        self._walks = {k: [(itemgetter(*perm), index[perm + tuple(range(k, WINDOW))]) for perm in permutations(range(k))]
                       for k in range(2, WINDOW + 1)}
        #: per window size k >= 2: ``{id: None}`` of every permutation of k different cards (a
        #: shared dict, as an unlisted kind's: the value None says "decode the id")
        self._every_order = {k: dict.fromkeys(number for _, number in walks) for k, walks in self._walks.items()}

    # -- the spyglass's orders as permutations of positions ------------------------------------

    def key_of(self, state, seat: int, kind: str, action: Any) -> Any:
        return self._permutation(state.looking(), action)  # called for the spyglass only

    def legal_in_context(self, state, seat: int, kind: str, actions: list[Any] | None) -> dict[int, Any]:
        """The spyglass's legal orders by permutation id, walking the window's permutations in
        order (so the first one giving an order is the smallest: the one :meth:`key_of` gives)
        instead of searching each listed order's positions. Every order of the looked-at
        cards is legal (``OpitoState._check``), so the engine's list is not asked for (see
        ``Codec.self_listed``); given one, it must hold exactly the orders found. Without
        equal cards every permutation is an order: then the answer is a shared ``{id: None}``
        (decode the id, as for a kind the engine does not list)."""
        looking = state.looking()
        if actions is None and len(set(looking)) == len(looking):
            return self._every_order[len(looking)]  # no equal cards: every permutation
        orders: dict[tuple[str, ...], int] = {}
        for pick, number in self._walks[len(looking)]:
            order = pick(looking)
            if order not in orders:
                orders[order] = number
        if actions is not None and len(orders) != len(actions):
            raise AssertionError(f"the engine lists {len(actions)} spyglass orders of {looking}, not {len(orders)}")
        return {number: list(order) for order, number in orders.items()}

    def request_key(self, observation, kind: str, action: Any) -> Any:
        if kind != "spyglass":
            return action
        return self._permutation(observation["looking"], action)

    @staticmethod
    def _permutation(looking: list[str], action: list[str]) -> tuple[int, ...]:
        """The smallest permutation of the looked-at positions that gives the order ``action``."""
        used = [False] * len(looking)
        perm = []
        for card in action:
            index = next(i for i, seen in enumerate(looking) if seen == card and not used[i])
            used[index] = True
            perm.append(index)
        return tuple(perm) + tuple(range(len(looking), WINDOW))

    def action_of(self, state, seat: int, kind: str, key: Any) -> Any:
        if kind != "spyglass":
            return key
        looking = state.looking()
        window = len(looking)
        if key[window:] != tuple(range(window, WINDOW)):
            raise ValueError(f"spyglass permutation {list(key)} moves a position beyond the {window} looked-at cards")
        return [looking[index] for index in key[:window]]

    def text(self, number: int, state=None, seat=None) -> str:
        kind, key = self.table[number]
        if kind == "spyglass":
            if state is not None and not state.is_terminal() and state.phase == "spyglass":
                looking = state.looking()
                if key[len(looking):] == tuple(range(len(looking), WINDOW)):
                    return "spyglass order " + " ".join(looking[i] for i in key[:len(looking)])
            return "spyglass positions " + "-".join(map(str, key))
        if kind == "play" and key[0] == JOKER:
            return f"play Joker as {key[1]}"
        if kind in ("target", "swap", "swap_with"):
            return f"{kind} table card {key}"
        if kind == "player":
            return f"player seat {key}"
        return f"{kind} {key}"

    # -- the tensor -----------------------------------------------------------------------------

    def write(self, obs: Mapping[str, Any], out: np.ndarray) -> None:
        off = self._off
        n = self.num_players
        me = obs["seat"]
        slot = CARD_SLOT
        hits = []
        out[off["deal"]] = obs["deal"] / obs["max_deals"]
        out[off["deals"]] = obs["deals"] / obs["max_deals"]
        out[off["target"]] = obs["target"] / (obs["target"] + 50000)
        for seat in range(n):
            rel = (seat - me) % n
            out[off["totals"] + rel] = squash(obs["totals"][seat], 10000)
            out[off["deal_points"] + rel] = squash(obs["deal_points"][seat], 1000)
            hits.append(off["aces"] + rel * 4 + "DSCH".index(obs["aces"][seat][1]))
            out[off["hand_sizes"] + rel] = obs["hand_sizes"][seat] / 5
        if obs["turn"] is not None:
            hits.append(off["turn"] + (obs["turn"] - me) % n)
            hits.append(off["decision"] + DECISIONS.index(obs["decision"]))
        hits += [off["hand"] + slot[card] for card in obs["hand"]]
        out[off["library"]] = obs["library"] / NODES
        hits += [off["graveyard"] + slot[card] for card in obs["graveyard"]]
        table = obs["table"]
        check_size("table", table, NODES)
        card_base, as_base, owner_base, on_base = off["table_card"], off["table_as"], off["table_owner"], off["table_on"]
        live_base, ranks = off["table_live"], len(RANKS)
        for node in table:
            i = node["id"]
            hits.append(card_base + i * CARDS + slot[node["card"]])
            hits.append(as_base + i * ranks + RANKS.index(node["as"]))
            hits.append(owner_base + i * n + (node["owner"] - me) % n)
            if node["on"] is not None:
                hits.append(on_base + i * NODES + node["on"])
            if node["live"]:
                hits.append(live_base + i)
        pending = obs["pending"]
        if pending is not None:
            hits.append(off["pending_card"] + slot[pending["card"]])
            hits.append(off["pending_as"] + RANKS.index(pending["as"]))
        if obs["swap_from"] is not None:
            hits.append(off["swap_from"] + obs["swap_from"])
        out[off["window"]] = obs["window"] / WINDOW
        check_size("looking", obs["looking"], WINDOW)
        hits += [off["looking"] + i * CARDS + slot[card] for i, card in enumerate(obs["looking"])]
        top = obs["library_top"]
        check_size("library_top", top, WINDOW)
        hits += [off["library_top"] + i * (CARDS + 1) + (CARDS if card is None else slot[card])
                 for i, card in enumerate(top)]
        for seat, cards in enumerate(obs["seen_in_hands"]):
            base = off["seen_in_hands"] + (seat - me) % n * CARDS
            hits += [base + slot[card] for card in cards]
        self.add_hits(out, hits)
