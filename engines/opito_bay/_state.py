"""The state of a game of Opito Bay: seats, deals, turns and every rank's play.

A turn is one to three small decisions of the player whose turn it is:

- ``play``: a card from the hand (a Joker with the rank it is played as), or ``discard``
  when no card in the hand has a legal play;
- then, if the card needs one, its target: ``target`` (a table card for a 3, 7 or King),
  ``player`` (a seat for a Queen or a Jack), ``swap`` then ``swap_with`` (two treasures for
  a 9), or ``spyglass`` (the new order of the library's top cards for a 5).

After the play the player draws one card, unless the library is empty; play passes clockwise
(North, East, South, West) to the next player holding cards. When every hand is empty the
deal is scored and the next deal starts, until the game ends (see ``_end_deal``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import permutations
from typing import Any

from engines import Event, IllegalAction, Outcome, State

from ._cards import DECK, JOKER, JOKER_RANKS, SUITS, TREASURE_RANKS
from ._knowledge import Knowledge
from ._luck import luck_features
from ._observation import observe, resample, resample_chance
from ._table import Table

HAND_SIZE = 5
SPYGLASS = 5
KRAKEN_MIN_LIBRARY = 5
#: [R] a game stops after at most this many deals whatever the totals
MAX_DEALS = 40


class OpitoState(State):
    """One game of Opito Bay. Build a start position with ``game.new_state`` or :meth:`from_setup`."""

    #: the most deals a game lasts (every observation says it)
    max_deals = MAX_DEALS

    def __init__(self, num_players: int, rng: random.Random, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, rng, options)
        self._seat(rng.sample(SUITS, num_players))
        self.deal = 0
        self.emit({"type": "seats", "aces": ["A" + suit for suit in self.aces], "order": list(self.order)})
        self._start_deal()

    # -- setup ----------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        self.deal += 1
        if self._rng_shared:
            rng, self.rng = self.rng, random.Random()
            self.rng.setstate(rng.getstate())
            self._rng_shared = False
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.hands = [deck[seat * HAND_SIZE:(seat + 1) * HAND_SIZE] for seat in range(self.num_players)]
        self.library = deck[self.num_players * HAND_SIZE:]
        self.graveyard: list[str] = []
        self.table = Table()
        self.know.clear()
        self.emit({"type": "deal", "deal": self.deal, "library": len(self.library)})
        for seat, hand in enumerate(self.hands):
            self.emit({"type": "hand", "seat": seat, "cards": list(hand)}, self._audiences[seat])
        self._begin_turn(self.order[0])

    @classmethod
    def from_setup(cls, aces: Sequence[str], hands: Sequence[Sequence[str]], library: Sequence[str] = (),
                   graveyard: Sequence[str] = (), table: Sequence[tuple] = (), turn: int | None = None,
                   totals: Sequence[int] | None = None, deal: int = 1, options: Mapping[str, Any] | None = None,
                   seed: int = 0) -> OpitoState:
        """A position from explicit contents, for tests and puzzles.

        ``aces``: the suit of each seat's Ace (``"D"``, ``"S"``, ``"C"``, ``"H"``); ``library``
        top card first; ``table``: ``(card, rank, on, owner)`` tuples in id order, ``on`` the
        id of the card it lies on (or ``None``), ``owner`` the seat of a treasure or Queen
        (``None`` for a card lying on another). ``turn`` defaults to the first seat clockwise
        from North. The card multiset is not checked. The result is at a ``play``/``discard``
        decision.
        """
        state = cls.blank(aces, options, random.Random(seed))
        state.totals = list(totals or [0] * len(aces))
        state.deal = deal
        state.hands = [list(hand) for hand in hands]
        state.library = list(reversed(library))
        state.graveyard = list(graveyard)
        state.table = Table()
        for card, rank, on, owner in table:
            if on is None:
                state.table.place(card, rank, owner)
            else:
                state.table.lay(card, rank, on)
        state._begin_turn(state.order[0] if turn is None else turn)
        return state

    @classmethod
    def blank(cls, aces: Sequence[str], options: Mapping[str, Any] | None, rng: random.Random) -> OpitoState:
        """A state with seats and options but no deal: the caller fills in every field."""
        state = cls.__new__(cls)
        State.__init__(state, len(aces), rng, cls.game.resolve_options(options))
        state._seat(aces)
        return state

    def _seat(self, aces: Sequence[str]) -> None:
        """Seat the players by their Aces; play order follows the compass (N, E, S, W)."""
        self._audiences = tuple(frozenset((seat,)) for seat in range(len(aces)))
        #: each seat's Ace suit
        self.aces: list[str] = list(aces)
        self.order: tuple[int, ...] = tuple(sorted(range(len(aces)), key=lambda seat: SUITS.index(aces[seat])))
        self.totals = [0] * len(aces)
        self.deal_history: list[list[int]] = []
        self.deal = 1
        self.know = Knowledge(len(aces))
        #: True while ``rng`` is shared with a clone; copied before its first use
        self._rng_shared = False

    def clone(self) -> OpitoState:
        other = OpitoState.__new__(OpitoState)
        other.num_players = self.num_players
        # copy-on-write: copying a Random costs ~50 us and it is only used when a deal starts
        other.rng = self.rng
        self._rng_shared = other._rng_shared = True
        other.options = self.options
        other.acting = self.acting
        other.history = self.history.copy()
        other.log = self.log.copy()
        other._audiences = self._audiences
        other.aces = self.aces
        other.order = self.order
        other.totals = self.totals.copy()
        other.deal_history = self.deal_history.copy()
        other.deal = self.deal
        other.know = self.know.copy()
        other.hands = [hand.copy() for hand in self.hands]
        other.library = self.library.copy()
        other.graveyard = self.graveyard.copy()
        other.table = self.table.copy()
        other.turn = self.turn
        other.phase = self.phase
        other.pending = self.pending
        other.swap_from = self.swap_from
        other.window = self.window
        return other

    # -- decisions ------------------------------------------------------------------------------

    def decision(self, player: int) -> str:
        return self.phase

    def _playable_ranks(self, seat: int) -> str:
        """[R]4: the ranks ``seat`` may play now (even ranks, 5, J, Q and Jokers always)."""
        table = self.table
        ranks = "24568TJQX"
        if table.treasures:
            ranks += "37K9" if table.can_swap(seat) else "37K"
        elif table.nodes:
            ranks += "K"
        return ranks

    def _plays(self, seat: int) -> list[str]:
        ranks = self._playable_ranks(seat)
        plays = []
        joker = False
        for card in self.hands[seat]:
            if card == JOKER:
                if not joker:
                    joker = True
                    plays.extend(JOKER + rank for rank in JOKER_RANKS if rank in ranks)
            elif card[0] in ranks:
                plays.append(card)
        return plays

    def legal_actions(self, player: int) -> list[Any]:
        phase = self.phase
        if phase == "play":
            return self._plays(player)
        if phase == "discard":
            return list(dict.fromkeys(self.hands[player]))
        table = self.table
        if phase == "target":
            return table.treasures.copy() if self.pending[1] != "K" else list(range(len(table.nodes)))
        if phase == "player":
            return list(range(self.num_players))
        if phase == "swap":
            return [node for node in table.treasures if table.owner[node] == player]
        if phase == "swap_with":
            return [node for node in table.treasures if table.owner[node] != player]
        return [list(order) for order in dict.fromkeys(permutations(self.looking()))]

    def looking(self) -> list[str]:
        """The cards under the pending 5's look, top first."""
        return self.library[:-self.window - 1:-1] if self.window else []

    def _check(self, player: int, action: Any) -> None:
        if self.phase == "spyglass":
            looking = self.looking()
            if type(action) is not list or any(type(card) is not str for card in action) \
                    or sorted(action) != sorted(looking):
                raise IllegalAction(player, f"{action!r} is not an order of the cards you look at; "
                                            f"give a list holding exactly {looking!r} (top first) in any order")
            return
        super()._check(player, action)  # the listed actions, compared strictly (engines.same_value)

    def random_action(self, player: int, rng: random.Random) -> Any:
        if self.phase == "spyglass":
            order = self.looking()
            rng.shuffle(order)
            return order
        legal = self.legal_actions(player)
        return legal[rng.randrange(len(legal))]

    # -- applying -------------------------------------------------------------------------------

    def _apply(self, actions: Mapping[int, Any]) -> None:
        self.advance(actions[self.turn])

    def advance(self, action: Any) -> None:
        """Apply a legal action of the player to move without checking it or recording history.

        For search, whose actions come from ``legal_actions`` or ``random_action``; an illegal
        action here corrupts the state. Everyone else uses ``apply``.
        """
        getattr(self, "_on_" + self.phase)(self.turn, action)

    def _on_play(self, seat: int, action: str) -> None:
        card, rank = (JOKER, action[1]) if action[0] == JOKER else (action, action[0])
        self.hands[seat].remove(card)
        self.know.left_hand(seat, card)
        self.pending = (card, rank)
        if rank in TREASURE_RANKS:
            return self._end_turn(self._played(id=self.table.place(card, rank, seat), owner=seat))
        if rank in "37K":
            self.phase = "target"
        elif rank == "Q":
            self.phase = "player"
        elif rank == "9":
            self.phase = "swap"
        elif rank == "J":
            if len(self.library) >= KRAKEN_MIN_LIBRARY:
                self.phase = "player"
            else:
                self._kraken(None)
        else:
            self._spyglass(seat)

    def _played(self, **fields: Any) -> dict[str, Any]:
        """The public event of the pending card's play."""
        card, rank = self.pending
        return {"type": "play", "seat": self.turn, "card": card, "as": rank, **fields}

    def _on_discard(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.know.left_hand(seat, card)
        self.graveyard.append(card)
        self._end_turn({"type": "discard", "seat": seat, "card": card})

    def _on_target(self, seat: int, on: int) -> None:
        card, rank = self.pending
        self._end_turn(self._played(id=self.table.lay(card, rank, on), on=on))

    def _on_player(self, seat: int, target: int) -> None:
        card, rank = self.pending
        if rank == "J":
            return self._kraken(target)
        self._end_turn(self._played(id=self.table.place(card, rank, target), owner=target))

    def _on_swap(self, seat: int, mine: int) -> None:
        self.swap_from = mine
        self.phase = "swap_with"

    def _on_swap_with(self, seat: int, theirs: int) -> None:
        self.graveyard.append(self.pending[0])
        other = self.table.owner[theirs]
        self.table.swap(self.swap_from, theirs)
        self._end_turn(self._played(swap=[self.swap_from, theirs], other=other))

    def _kraken(self, target: int | None) -> None:
        """A Jack: ``target`` puts their hand under the library and draws 5 (``None``: no effect)."""
        self.graveyard.append(self.pending[0])
        if target is None:
            return self._end_turn(self._played(target=None, returned=0))
        hand = self.hands[target]
        self.library[:0] = hand[::-1]  # under the library, the hand's first card uppermost
        self.hands[target] = []
        self.know.hand_gone(target)
        for _ in range(KRAKEN_MIN_LIBRARY):
            self._draw(target)
        private = {"type": "hand", "seat": target, "cards": list(self.hands[target])}
        self._end_turn(self._played(target=target, returned=len(hand)), (target, private))

    def _spyglass(self, seat: int) -> None:
        """A 5: look at up to 5 top cards; reorder them if more than one order exists."""
        self.window = min(SPYGLASS, len(self.library))
        looking = self.looking()
        self.emit({"type": "seen", "seat": seat, "cards": looking}, self._audiences[seat])
        if len(set(looking)) > 1:
            self.phase = "spyglass"
        else:
            self._on_spyglass(seat, looking)

    def _on_spyglass(self, seat: int, order: list[str]) -> None:
        order = list(order)
        window = self.window
        if window:
            self.library[-window:] = order[::-1]
        self.know.looked(seat, order)
        self.graveyard.append(self.pending[0])
        self.window = 0
        self._end_turn(self._played(look=window))

    def _draw(self, seat: int) -> str:
        card = self.library.pop()
        self.hands[seat].append(card)
        self.know.drew(seat)
        return card

    def _end_turn(self, event: dict[str, Any], private: tuple[int, dict[str, Any]] | None = None) -> None:
        """Announce the turn's play, draw a card if the library has one, pass to the next player."""
        seat = self.turn
        event["drew"] = bool(self.library)
        self.emit(event)
        if private is not None:
            self.emit(private[1], self._audiences[private[0]])
        if self.library:
            self.emit({"type": "drew", "seat": seat, "card": self._draw(seat)}, self._audiences[seat])
        order = self.order
        start = order.index(seat)
        for step in range(1, len(order) + 1):
            following = order[(start + step) % len(order)]
            if self.hands[following]:
                return self._begin_turn(following)
        self._end_deal()

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.pending = None
        self.swap_from = None
        self.window = 0
        self.acting = (seat,)
        ranks = self._playable_ranks(seat)
        self.phase = "play" if any(card[0] in ranks for card in self.hands[seat]) else "discard"

    def _end_deal(self) -> None:
        points = self.table.points(self.aces)
        self.deal_history.append(points)
        self.totals = [total + gained for total, gained in zip(self.totals, points)]
        self.emit({"type": "score", "deal": self.deal, "points": points, "totals": list(self.totals)})
        if self._game_over():
            self.acting = ()
            self.phase = "over"
            self.emit({"type": "end", "totals": list(self.totals), "ranks": list(self.outcome().ranks)})
        else:
            self._start_deal()

    def _game_over(self) -> bool:
        deals = self.options["deals"]
        if deals:
            return self.deal >= deals
        return self.deal >= MAX_DEALS or any(total > self.options["target"] for total in self.totals)

    # -- results --------------------------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the log as plain pairs: three times faster than pickling Event objects."""
        fields = self.__dict__.copy()
        fields["log"] = [(event.data, event.audience) for event in self.log]
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        fields["log"] = [Event(data, audience) for data, audience in fields["log"]]
        self.__dict__.update(fields)

    def deal_scores(self) -> list[Fraction]:
        """The exact score every seat would get for this deal if it were scored now."""
        return self.table.scores(self.aces)

    def outcome(self) -> Outcome:
        return Outcome.from_keys(self.totals)

    def luck_features(self, viewer: int | None = None) -> list[float]:
        """Per seat, the running standing the arena's chance correction values a state by
        (arena/ratings/_chance.py; the arena reads ``outcome().scores`` of games without this
        hook): the total so far, what the table would score now, and the worth of the hand
        (treasures at face value, doubled in the seat's Ace suit; others a fixed worth). With a
        ``viewer``, only its own hand card by card and the others at an average worth per card
        (their size is public). Without the hands a card drawn would change nothing until it
        is played, and the luck of the draw would go uncounted."""
        return luck_features(self.totals, self.table.points(self.aces), self.aces, self.hands, viewer)

    def resample_chance(self, rng: random.Random) -> OpitoState:
        """A copy in which only what no seat knows is drawn again: the library's order, but the
        positions some seat has seen (a 5's look); hands stay. For the arena's chance correction:
        the real next state and a copy's are then draws of the same chance from the same state."""
        return resample_chance(self, rng)

    def observation(self, player: int) -> dict[str, Any]:
        return observe(self, player)

    def resample(self, player: int, rng: random.Random) -> OpitoState:
        return resample(self, player, rng)
