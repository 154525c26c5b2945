"""Dead Man's Draw's kept observation tensor (``envs._kept``): the codec's layout, written
from the engine's own fields as they change.

A step draws a card into the play area or resolves a decision; banks, the discard pile and
the characters change less often, and each bank stack is rewritten only when it changed.
"""

from __future__ import annotations

from itertools import compress
from operator import ne


from engines import State
from engines.dead_mans_draw._cards import MERMAID

from ._codec import Codec
from ._dead_mans_draw import CARDS, CHARACTER_SLOT, LETTERS, PENDING_KINDS, PHASES, TASKS
from ._kept import Kept

#: the engine's card int (suit * 10 + value) -> the codec's slot (suit * 8 + value - 2)
SLOT = {suit * 10 + value: suit * 8 + value - 2 for suit in range(10) for value in range(2, 10)}
_PHASE = {phase: index for index, phase in enumerate(PHASES)}
_PENDING = {kind: index for index, kind in enumerate(PENDING_KINDS)}
_TASK = {task: index for index, task in enumerate(TASKS)}
_LETTER = {letter: index for index, letter in enumerate(LETTERS)}
SUITS = range(10)


class KeptDeadMansDraw(Kept):
    def __init__(self, codec: Codec, seat: int) -> None:
        super().__init__(codec, seat)
        self.total = codec._total
        self.head_hits: list[int] = []
        self.phase = self.turn = None
        self.draw_size = -1
        self.known_hits: list[int] = []
        self.discard: list[int] = []
        #: one box (every card once): the discard pile as a set; two: card -> count
        self.unique = True
        self.discard_set: set[int] = set()
        self.discard_counts: dict[int, int] = {}
        self.row: list[int] = []
        self.row_hits: list[int] = []
        self.prot: list[bool] | None = None
        self.prot_hits: list[int] = []
        self.kraken = self.harbour = 0
        self.banks: list[list[list[int]]] = [[[] for _ in range(10)] for _ in range(codec.num_players)]
        self.scores = [0] * codec.num_players
        #: per seat, the sum of its stacks' top cards
        self.tops = [0] * codec.num_players
        self.chars: list[str | None] | None = None
        self.chars_hits: list[int] = []
        self.locker: list[int | None] | None = None
        self.locker_hits: list[int] = []
        self.dealt: list[str] | None = None
        self.dealt_hits: list[int] = []
        self.pending: object = None
        self.pending_hits: list[int] = []
        #: the one-hot indices of the open decision's seat and kind written (-1: none)
        self.pending_seat = self.pending_kind = -1
        self.left = 0.0
        self.tasks: list[tuple] = []
        self.tasks_hits: list[int] = []

    def _start(self, state: State) -> None:
        out = self.out
        off = self.off
        self.unique = not state.party
        for i, flag in enumerate((state.options["characters"], state.strange_waters, state.mermaid_effect,
                                  state.party)):
            if flag:
                out[off["options"] + i] = 1.0

    def _update(self, state: State) -> None:
        out = self.out
        off = self.off
        me = self.seat
        rel = self.rel
        # the phase and the turn
        if state.phase != self.phase or state.turn != self.turn:
            hits = [off["phase"] + _PHASE[state.phase], off["turn"] + rel[state.turn]]
            self._move(self.head_hits, hits)
            self.head_hits, self.phase, self.turn = hits, state.phase, state.turn
        draw = state.draw
        if len(draw) != self.draw_size:
            self.draw_size = len(draw)
            out[off["draw_size"]] = self.draw_size / self.total
        known = state.known[me]
        if known or self.known_hits:
            base = off["draw_known"]
            hits = [base + i * CARDS + SLOT[card] for i, card in enumerate(reversed(draw[len(draw) - known:]))] \
                if known else []
            if hits != self.known_hits:
                self._move(self.known_hits, hits)
                self.known_hits = hits
        if state.discard != self.discard:
            self._discard(state.discard)
        row = state.row
        if row != self.row:
            base = off["row"]
            done = len(self.row)
            if len(row) > done and row[:done] == self.row:  # a card placed (the common change)
                hits = [base + i * CARDS + SLOT[row[i]] for i in range(done, len(row))]
                for index in hits:
                    out[index] = 1.0
                self.row_hits += hits
            else:
                hits = [base + i * CARDS + SLOT[card] for i, card in enumerate(row)]
                self._move(self.row_hits, hits)
                self.row_hits = hits
            self.row = list(row)
        prot = state.prot
        if (True in prot or self.prot_hits) and prot != self.prot:  # a card is rarely protected
            base = off["protected"]
            hits = [base + i for i, flag in enumerate(prot) if flag]
            self._move(self.prot_hits, hits)
            self.prot, self.prot_hits = list(prot), hits
        if state.kraken != self.kraken:
            self.kraken = state.kraken
            out[off["kraken"]] = self.kraken / 4
        if state.harbour != self.harbour:
            self.harbour = state.harbour
            out[off["harbour"]] = self.harbour / 2
        banks = state.banks
        chars = state.chars
        if chars != self.chars:  # Golden Scales (Mermaids +5) may have changed hands
            self._banks(banks, state, range(len(rel)))
        elif banks != self.banks:
            self._banks(banks, state, [seat for seat, stacks in enumerate(banks) if stacks != self.banks[seat]])
        if chars != self.chars:
            width = len(CHARACTER_SLOT)
            base = off["characters"]
            hits = [base + rel[seat] * width + CHARACTER_SLOT[name] for seat, name in enumerate(chars)
                    if name is not None]
            self._move(self.chars_hits, hits)
            self.chars, self.chars_hits = list(chars), hits
        locker = state.locker
        if locker != self.locker:
            n = len(rel)
            base = off["locker"]
            hits = [base + rel[seat] * n + rel[target] for seat, target in enumerate(locker) if target is not None]
            self._move(self.locker_hits, hits)
            self.locker, self.locker_hits = list(locker), hits
        dealt = state.dealt[me] if state.dealt is not None else None
        if dealt != self.dealt:
            base = off["dealt"]
            hits = [base + CHARACTER_SLOT[name] for name in dealt or ()]
            self._move(self.dealt_hits, hits)
            self.dealt, self.dealt_hits = None if dealt is None else list(dealt), hits
        pending = state.pending
        if pending is not self.pending:  # every decision is a new tuple, never changed in place
            self._pending(pending)
        tasks = state.tasks
        if tasks != self.tasks:
            hits = []
            for task in tasks:
                hits.append(off["tasks"] + _TASK[task[0]])
                if task[0] == "hook2":
                    hits.append(off["task_hook2"] + _LETTER[task[1]])
                elif task[0] == "locker":
                    hits.append(off["task_locker"] + rel[task[1]])
            self._move(self.tasks_hits, hits)
            self.tasks, self.tasks_hits = list(tasks), hits

    def _discard(self, discard: list[int]) -> None:
        """Write the discard pile's counts that changed. With one box every card is unique
        and the pile is a set: the cards that changed are the two sets' symmetric difference,
        found in C (a Map or a bonus takes cards out and reorders the pile, over a third of the
        changes). The Pirate Party's two boxes have pairs: a pile that only grew adds its new
        cards, any other change counts the pile again."""
        out = self.out
        base = self.off["discard"]
        if self.unique:
            new = set(discard)
            for card in new ^ self.discard_set:
                out[base + SLOT[card]] = 1.0 if card in new else 0.0
            self.discard_set = new
            self.discard = discard[:]
            return
        old = self.discard
        done = len(old)
        counts = self.discard_counts
        if len(discard) >= done and discard[:done] == old:
            for card in discard[done:]:
                count = counts[card] = counts.get(card, 0) + 1
                out[base + SLOT[card]] = count
        else:
            new_counts: dict[int, int] = {}
            for card in discard:
                new_counts[card] = new_counts.get(card, 0) + 1
            for card in {card for card, _count in new_counts.items() ^ counts.items()}:
                out[base + SLOT[card]] = new_counts.get(card, 0)
            self.discard_counts = new_counts
        self.discard = discard[:]

    def _banks(self, banks: list[list[list[int]]], state: State, seats) -> None:
        """Rewrite the cards that changed in each bank stack of ``seats`` (cards are added
        in order and popped from the top), and their scores (as ``State.scores``: the sum of
        the stacks' top cards, Golden Scales +5 with a Mermaid)."""
        out = self.out
        kept = self.banks
        golden = state.owners.get("golden_scales", ())
        for seat in seats:
            stacks = banks[seat]
            mine = kept[seat]
            base = self.off["banks"] + self.rel[seat] * CARDS
            score = self.tops[seat]
            for suit in compress(SUITS, map(ne, stacks, mine)):  # the changed stacks, found in C
                stack, old = stacks[suit], mine[suit]
                rest = stack[:]
                for card in old:
                    if card in rest:
                        rest.remove(card)
                    else:
                        out[base + SLOT[card]] -= 1.0
                for card in rest:
                    out[base + SLOT[card]] += 1.0
                score += (stack[-1] % 10 if stack else 0) - (old[-1] % 10 if old else 0)
                mine[suit] = stack[:]
            self.tops[seat] = score
            if stacks[MERMAID] and seat in golden:
                score += 5
            if score != self.scores[seat]:
                out[self.off["scores"] + self.rel[seat]] = score / 100
                self.scores[seat] = score

    def _pending(self, pending: tuple | None) -> None:
        """The open decision: its seat and kind (changed by most steps, so written as two
        one-hot indices), and the rarer details (a Map's cards, a Hook's second card, the
        Plunderer's picks)."""
        out = self.out
        off = self.off
        rel = self.rel
        seat_at = kind_at = -1
        hits = []
        left = 0.0
        if pending is not None:
            player, kind, _legal, info = pending
            seat_at, kind_at = off["pending_seat"] + rel[player], off["pending_kind"] + _PENDING[kind]
            if info:
                if "cards" in info:
                    hits += [off["pending_cards"] + SLOT[card] for card in info["cards"]]
                if info.get("second"):
                    hits.append(off["pending_second"])
                left = info.get("left", 0) / 20
                if info.get("from") is not None:
                    hits.append(off["pending_from"] + rel[info["from"]])
        if seat_at != self.pending_seat:
            self.pending_seat = self._one_hot(self.pending_seat, seat_at)
        if kind_at != self.pending_kind:
            self.pending_kind = self._one_hot(self.pending_kind, kind_at)
        if hits or self.pending_hits:
            self._move(self.pending_hits, hits)
            self.pending_hits = hits
        if left != self.left:
            out[off["pending_left"]] = left
            self.left = left
        self.pending = pending
