"""Dead Man's Draw: action numbering and observation tensor (see ``docs/environments.md``).

A card is one of 80 slots, ``suit * 8 + value - 2`` (suits in the wire's letter order
``AHCKTMOSXN``, values 2..9), whatever the options; counts of equal cards (the Pirate Party's
two sets) go up to 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from engines.dead_mans_draw import CARD_NAME, CHARACTERS, parse

from ._codec import Codec, Layout, Segment, check_size, seats_segment

LETTERS = "AHCKTMOSXN"
CARDS = 80
#: every character id, the Mermaid-effect Siren last
CHARACTER_IDS = tuple(CHARACTERS) + ("siren",)
#: the play area never holds more cards: a second card of a suit (Strange Waters: of a value) busts
ROW = 10
#: an Oracle shows one card, a Seer three
KNOWN = 3
PHASES = ("characters", "play", "over")
PENDING_KINDS = ("locker", "draw", "hook", "cannon", "sword", "map", "oracle", "mermaid", "plunder")
TASKS = ("start", "end", "hook2", "locker")


#: wire name -> slot, and back (Mermaids 8 and 9 exist only without the Mermaid effect, 2 and 3 only with it)
SLOT = {name: (parse(name) // 10) * 8 + parse(name) % 10 - 2 for name in CARD_NAME.values()}
SLOT_NAME = {slot: name for name, slot in SLOT.items()}
CHARACTER_SLOT = {name: index for index, name in enumerate(CHARACTER_IDS)}


def max_game_length(options: Mapping[str, Any], num_players: int) -> int:
    """A bound on decisions per game for OpenSpiel (none is ever near it): every turn draws a
    card and holds at most ~10 placements, each with a few decisions."""
    party = options["party"] or num_players > 4
    return 100 * (100 if party else 50) + 2 * num_players


class DeadMansDrawCodec(Codec):
    game_id = "dead-mans-draw"
    simultaneous = True
    private_keys = ("dealt", "draw_known")

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, options)
        n = num_players
        seats = range(n)
        table: list[tuple[str, Any]] = [("character", name) for name in CHARACTER_IDS]
        table += [("locker", seat) for seat in seats]
        table += [("draw", "draw"), ("draw", "collect")]
        table += [("hook", letter) for letter in LETTERS]
        for kind in ("cannon", "sword", "plunder"):
            table += [(kind, (seat, letter)) for seat in seats for letter in LETTERS]
        table += [("map", SLOT_NAME[slot]) for slot in range(CARDS)]
        table += [("oracle", "place"), ("oracle", "collect")]
        table += [("mermaid", (mode, index)) for mode in ("move", "bank") for index in range(ROW)]
        self.table = table
        self._finish()
        self.copies = 2 if options["party"] or n > 4 else 1
        c = float(self.copies)
        self.layout = Layout([
            Segment("phase", len(PHASES), "one-hot: characters, play, over"),
            Segment("options", 4, "characters, strange_waters, mermaid_effect, party (in effect)"),
            seats_segment("turn", n, "one-hot: the active seat"),
            Segment("draw_size", 1, "cards in the draw pile / cards in the game"),
            Segment("draw_known", KNOWN * CARDS, "one-hot card per known top card of the draw pile, top first"),
            Segment("discard", CARDS, "count of each card in the discard pile", high=c),
            Segment("row", ROW * CARDS, "one-hot card per play-area position, in order of placement"),
            Segment("protected", ROW, "per play-area position: protected"),
            Segment("kraken", 1, "placements still required before collecting / 4"),
            Segment("harbour", 1, "Safe Harbour placements still protected / 2"),
            seats_segment("banks", n, "count of each card in the bank", CARDS, high=c),
            seats_segment("scores", n, "score / 100"),
            seats_segment("characters", n, "one-hot revealed character (Siren last)", len(CHARACTER_IDS)),
            seats_segment("locker", n, "one-hot relative seat targeted by the seat's Locker", n),
            Segment("dealt", len(CHARACTER_IDS), "count of each character dealt to the observer while choosing",
                    high=2.0),
            seats_segment("pending_seat", n, "one-hot: the seat of the open decision"),
            Segment("pending_kind", len(PENDING_KINDS), "one-hot kind of the open decision: "
                    + ", ".join(PENDING_KINDS)),
            Segment("pending_cards", CARDS, "count of each card a Map revealed", high=c),
            Segment("pending_second", 1, "the open Hook is Captain Hook's second card"),
            Segment("pending_left", 1, "Plunderer picks left / 20"),
            seats_segment("pending_from", n, "one-hot: the opponent of the Plunderer's first pick"),
            Segment("tasks", len(TASKS), "count of waiting effects of each kind: " + ", ".join(TASKS), high=9.0),
            Segment("task_hook2", len(LETTERS), "one-hot suit Captain Hook's waiting second card may not use"),
            seats_segment("task_locker", n, "a Locker target choice is waiting for this seat"),
        ])
        self._off = self.layout.offset
        self._total = (60 if self.copies == 1 else 120) - 10 * self.copies

    def text(self, number: int, state=None, seat=None) -> str:
        kind, key = self.table[number]
        if kind in ("cannon", "sword", "plunder"):
            return f"{kind} seat {key[0]}'s {key[1]} stack"
        if kind == "locker":
            return f"locker on seat {key}"
        if kind == "mermaid":
            return f"mermaid {key[0]} row card {key[1]}"
        if kind == "draw":
            return key
        return f"{kind} {key}"

    def write(self, obs: Mapping[str, Any], out: np.ndarray) -> None:
        off = self._off
        n = self.num_players
        me = obs["seat"]
        hits = [off["phase"] + PHASES.index(obs["phase"]), off["turn"] + (obs["turn"] - me) % n]
        options = obs["options"]
        for i, name in enumerate(("characters", "strange_waters", "mermaid_effect", "party")):
            if options[name]:
                hits.append(off["options"] + i)
        out[off["draw_size"]] = obs["draw_size"] / self._total
        known = obs["draw_known"]
        check_size("draw_known", known, KNOWN)
        base = off["draw_known"]
        hits += [base + i * CARDS + SLOT[name] for i, name in enumerate(known)]
        base = off["discard"]
        hits += [base + SLOT[name] for name in obs["discard"]]
        row = obs["row"]
        check_size("row", row, ROW)
        base = off["row"]
        hits += [base + i * CARDS + SLOT[name] for i, name in enumerate(row)]
        base = off["protected"]
        hits += [base + i for i, flag in enumerate(obs["protected"]) if flag]
        out[off["kraken"]] = obs["kraken"] / 4
        out[off["harbour"]] = obs["harbour"] / 2
        for seat, stacks in enumerate(obs["banks"]):
            base = off["banks"] + (seat - me) % n * CARDS
            for cards in stacks.values():
                hits += [base + SLOT[name] for name in cards]
        for seat, score in enumerate(obs["scores"]):
            out[off["scores"] + (seat - me) % n] = score / 100
        width = len(CHARACTER_IDS)
        for seat, name in enumerate(obs["characters"]):
            if name is not None:
                hits.append(off["characters"] + (seat - me) % n * width + CHARACTER_SLOT[name])
        for seat, target in enumerate(obs["locker"]):
            if target is not None:
                hits.append(off["locker"] + (seat - me) % n * n + (target - me) % n)
        hits += [off["dealt"] + CHARACTER_SLOT[name] for name in obs.get("dealt", ())]
        pending = obs["pending"]
        if pending is not None:
            hits.append(off["pending_seat"] + (pending["seat"] - me) % n)
            hits.append(off["pending_kind"] + PENDING_KINDS.index(pending["kind"]))
            if "cards" in pending:
                hits += [off["pending_cards"] + SLOT[name] for name in pending["cards"]]
            if pending.get("second"):
                hits.append(off["pending_second"])
            out[off["pending_left"]] = pending.get("left", 0) / 20
            if pending.get("from") is not None:
                hits.append(off["pending_from"] + (pending["from"] - me) % n)
        for task in obs["tasks"]:
            hits.append(off["tasks"] + TASKS.index(task[0]))
            if task[0] == "hook2":
                hits.append(off["task_hook2"] + LETTERS.index(task[1]))
            elif task[0] == "locker":
                hits.append(off["task_locker"] + (task[1] - me) % n)
        self.add_hits(out, hits)
