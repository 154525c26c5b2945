"""The Dead Man's Draw state: setup, the decision loop, copying, resampling, scoring.

Flow: the state holds at most one open decision (``pending``: player, kind, legal actions,
public details) and a stack of follow-up ``tasks``. :meth:`DeadMansDrawState._run` resolves
decisions with a single legal action by itself, runs tasks, and otherwise stops with
``acting`` set to the seat that must choose. The character choice at the start is the one
simultaneous decision (every seat with two different characters acts at once).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .._core import Outcome, State
from ._abilities import RESOLVERS, TASKS, TRIGGERS
from ._cards import ANCHOR, MERMAID, character_pool, deck, parse, suit_of, value_of
from ._observe import observation as _observation
from ._rules import after_card, bank


class DeadMansDrawState(State):
    """A game of Dead Man's Draw; create it with ``GAME.new_state`` or :meth:`from_setup`."""

    def __init__(self, num_players: int, rng: random.Random, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, rng, options)
        self._init_empty()
        discard, draw = deck(self.mermaid_effect, self.party)
        rng.shuffle(draw)
        self.draw, self.discard = draw, discard
        self.turn = rng.randrange(num_players)
        self.emit({"type": "start", "seat": self.turn})
        if self.options["characters"]:
            self._deal()
        else:
            self._begin()

    def _init_empty(self) -> None:
        n, options = self.num_players, self.options
        self.strange_waters: bool = options["strange_waters"]
        self.mermaid_effect: bool = options["mermaid_effect"]
        #: two sets of cards; implied for 5-8 players
        self.party: bool = options["party"] or n > 4
        self.draw: list[int] = []  # top of the pile is the last element
        self.discard: list[int] = []  # unordered
        self.row: list[int] = []
        self.prot: list[bool] = []  # protected flag per row card
        self.banks: list[list[list[int]]] = [[[] for _ in range(10)] for _ in range(n)]
        self.chars: list[str | None] = [None] * n
        self.owners: dict[str, tuple[int, ...]] = {}
        self.dealt: list[list[str]] | None = None
        self.locker: list[int | None] = [None] * n
        self.known: list[int] = [0] * n  # how many top cards of the draw pile each seat knows
        self.turn = 0
        self.in_turn = False
        self.kraken = 0  # placements still required before collecting
        self.harbour = 0  # Safe Harbour placements still protected
        self.tasks: list[tuple] = []
        self.pending: tuple[int, str, list, dict] | None = None
        self.phase = "play"
        self._rng_shared = False  # a clone shares the rng until one of them draws from it

    # -- setup --------------------------------------------------------------------------------

    def _deal(self) -> None:
        pool = character_pool(self.mermaid_effect, self.party)
        self.rng.shuffle(pool)
        self.dealt = [pool[2 * seat:2 * seat + 2] for seat in range(self.num_players)]
        for seat, pair in enumerate(self.dealt):
            self.emit({"type": "dealt", "characters": list(pair)}, frozenset((seat,)))
        self.phase = "characters"
        self.acting = tuple(seat for seat, pair in enumerate(self.dealt) if pair[0] != pair[1])
        if not self.acting:
            self._reveal({})

    def _reveal(self, choices: Mapping[int, str]) -> None:
        dealt = self.dealt
        self.chars = [choices.get(seat, dealt[seat][0]) for seat in range(self.num_players)]
        self.dealt = None
        self._index_owners()
        self.emit({"type": "characters", "characters": list(self.chars)})
        self._begin()

    def _index_owners(self) -> None:
        owners: dict[str, list[int]] = {}
        for seat, name in enumerate(self.chars):
            if name is not None:
                owners.setdefault(name, []).append(seat)
        self.owners = {name: tuple(seats) for name, seats in owners.items()}

    def _begin(self) -> None:
        self.phase = "play"
        self.tasks = [("start",)]
        self.tasks += [("locker", seat) for seat in reversed(range(self.num_players))
                       if self.chars[seat] == "davy_jones_locker"]
        self._run()

    @classmethod
    def from_setup(cls, players: int = 2, *, draw: Sequence[str] = (), discard: Sequence[str] = (),
                   banks: Sequence[Sequence[str]] | None = None, row: Sequence[str] = (),
                   protected: Sequence[bool] | None = None, turn: int = 0,
                   characters: Sequence[str | None] | None = None,
                   locker: Sequence[int | None] | None = None, kraken: int = 0, harbour: int = 0,
                   options: Mapping[str, Any] | None = None, seed: int = 0) -> DeadMansDrawState:
        """A position with explicit contents, for rules tests and puzzles.

        ``draw`` lists the draw pile top first; ``banks`` one list of cards per seat (any
        order); ``row`` the play area in order. With an empty ``row`` the turn of ``turn``
        starts with its mandatory draw; otherwise ``turn`` is deciding whether to draw or
        collect. ``protected`` defaults to the cards before the last Anchor in the row.
        Characters are given as revealed (none are dealt); Locker targets via ``locker``.
        """
        state = cls.__new__(cls)
        State.__init__(state, players, random.Random(seed), cls.game.resolve_options(options))
        state._init_empty()
        state.draw = [parse(name) for name in reversed(draw)]
        state.discard = [parse(name) for name in discard]
        for seat, cards in enumerate(banks or ()):
            for name in cards:
                bank(state, seat, parse(name))
        state.row = [parse(name) for name in row]
        if protected is None:
            anchors = [i for i, card in enumerate(state.row) if suit_of(card) == ANCHOR]
            last = anchors[-1] if anchors else 0
            protected = [i < last for i in range(len(state.row))]
        state.prot = list(protected)
        state.chars = list(characters) if characters is not None else [None] * players
        state._index_owners()
        state.locker = list(locker) if locker is not None else [None] * players
        state.turn, state.kraken, state.harbour = turn, kraken, harbour
        state.in_turn = bool(state.row)
        state.tasks = [] if state.row else [("start",)]
        state._run()
        return state

    # -- the decision loop --------------------------------------------------------------------

    def own_rng(self) -> random.Random:
        """``self.rng``, copied first if a clone still shares it (copy on write).

        Copying a ``random.Random`` costs more than copying the rest of the state, and most
        clones never draw a random number, so :meth:`clone` shares it.
        """
        if self._rng_shared:
            rng = random.Random.__new__(random.Random)
            rng.setstate(self.rng.getstate())
            self.rng = rng
            self._rng_shared = False
        return self.rng

    def _trigger(self, index: int) -> None:
        TRIGGERS[suit_of(self.row[index])](self, index)

    def _run(self) -> None:
        """Resolve forced decisions and tasks until a real choice is open or the game ends."""
        while True:
            pending = self.pending
            if pending is not None:
                player, kind, legal, info = pending
                if len(legal) > 1:
                    self.acting = (player,)
                    return
                self.pending = None
                RESOLVERS[kind](self, player, legal[0], info)
            elif self.tasks:
                task = self.tasks.pop()
                TASKS[task[0]](self, *task[1:])
            elif self.in_turn:
                after_card(self)
            else:
                self.acting = ()
                return

    # -- engine hooks -------------------------------------------------------------------------

    def decision(self, player: int) -> str:
        if self.phase == "characters":
            return "character"
        return self.pending[1]

    def legal_actions(self, player: int) -> list:
        if self.phase == "characters":
            return sorted(set(self.dealt[player]))
        # Copies of the inner lists too (they are flat): the pending decision keeps its own.
        return [action[:] if type(action) is list else action for action in self.pending[2]]

    def _apply(self, actions: Mapping[int, Any]) -> None:
        if self.phase == "characters":
            self._reveal(actions)
            return
        player, kind, legal, info = self.pending
        self.pending = None
        RESOLVERS[kind](self, player, actions[player], info)
        self._run()

    def observation(self, player: int) -> dict[str, Any]:
        return _observation(self, player)

    def scores(self) -> list[int]:
        """Each seat's score now: the sum of its stacks' top cards (Golden Scales: Mermaids +5)."""
        result = []
        for seat, stacks in enumerate(self.banks):
            score = sum(value_of(stack[-1]) for stack in stacks if stack)
            if stacks[MERMAID] and seat in self.owners.get("golden_scales", ()):
                score += 5
            result.append(score)
        return result

    def luck_features(self, viewer: int | None = None) -> list[float]:
        """Per seat, the running standing the arena's chance correction values a state by
        (arena/ratings/_chance.py): the score now, plus, for the seat whose turn it is, what
        banking the cards in play would add (all public: ``viewer`` changes nothing). Without the row a card drawn would count only
        once it is banked, and the draw that busts a long row would look like no luck at all."""
        result = [float(score) for score in self.scores()]
        gain = 0
        for card in self.row:
            stack = self.banks[self.turn][suit_of(card)]
            gain += max(0, value_of(card) - (value_of(stack[-1]) if stack else 0))
        result[self.turn] += gain
        return result

    def outcome(self) -> Outcome:
        scores = self.scores()
        cards = [sum(len(stack) for stack in stacks) for stacks in self.banks]
        return Outcome.from_keys(scores, list(zip(scores, cards)))

    def clone(self) -> DeadMansDrawState:
        new = DeadMansDrawState.__new__(DeadMansDrawState)
        new.__dict__.update(self.__dict__)
        self._rng_shared = new._rng_shared = True
        new.history = self.history[:]
        new.log = self.log[:]
        new.draw = self.draw[:]
        new.discard = self.discard[:]
        new.row = self.row[:]
        new.prot = self.prot[:]
        new.banks = [[stack[:] for stack in stacks] for stacks in self.banks]
        new.chars = self.chars[:]
        new.locker = self.locker[:]
        new.known = self.known[:]
        new.tasks = self.tasks[:]
        return new

    def resample_chance(self, rng: random.Random) -> DeadMansDrawState:
        """A copy in which only what no seat knows is drawn again: the draw pile below the top
        cards some seat has seen; deals stay. For the arena's chance correction: the real next
        state and a copy's are then draws of the same chance from the same state."""
        new = self.clone()
        new.rng = random.Random(rng.getrandbits(64))
        new._rng_shared = False
        cut = len(new.draw) - max(new.known, default=0)
        hidden = new.draw[:cut]
        rng.shuffle(hidden)
        new.draw[:cut] = hidden
        return new

    def resample(self, player: int, rng: random.Random) -> DeadMansDrawState:
        """A copy with the unknown part of the draw pile reshuffled and others' deals redrawn."""
        new = self.clone()
        new.rng = random.Random(rng.getrandbits(64))
        new._rng_shared = False
        cut = len(new.draw) - new.known[player]
        hidden = new.draw[:cut]
        rng.shuffle(hidden)
        new.draw[:cut] = hidden
        if new.dealt is not None:
            new.dealt = redeal(new.dealt[player], player, new.num_players,
                               character_pool(new.mermaid_effect, new.party), rng)
            new.acting = tuple(seat for seat, pair in enumerate(new.dealt) if pair[0] != pair[1])
        return new


def redeal(own: list[str], player: int, num_players: int, pool: list[str],
           rng: random.Random) -> list[list[str]]:
    """Deals consistent with ``player`` holding ``own``: two random cards for every other seat."""
    pool = pool[:]
    for name in own:
        pool.remove(name)
    rng.shuffle(pool)
    dealt = []
    for seat in range(num_players):
        dealt.append(list(own) if seat == player else [pool.pop(), pool.pop()])
    return dealt

