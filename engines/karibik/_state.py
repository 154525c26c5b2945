"""The state of a Karibik game: setup, bribes, tie-breaks, rounds, end, copies, resampling.

The move phase lives in :mod:`._moves`, the observation in :mod:`._observation`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines import IllegalAction, Outcome, State

from ._board import Board
from ._caribbean import CARIBBEAN
from ._moves import MovePhase
from ._observation import observe
from ._rules import (BRIBE, CARDS, DELIVERED, MAX_TRANSFERS, MOVE, NUM_SHIPS, ON_PORT, ON_SHIP, OVER,
                     RESERVE, SHIPS, TARGETS, THIEF, TIEBREAK)

#: The maps that can be chosen with the ``board`` option.
BOARDS: dict[str, Board] = {"caribbean": CARIBBEAN}

TIEBREAK_ACTIONS = ("reveal", "keep")
_CARD_SET = frozenset(CARDS)


class KaribikState(MovePhase, State):
    """A game of Karibik. Seat i plays colour ``COLOURS[i]`` and owns its hideouts.

    Per-area lists are indexed by area id; chests are named by their home port's area id.
    """

    def __init__(self, num_players: int, rng: random.Random, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, rng, options)
        self._init_fixed(BOARDS[self.options["board"]])
        ports = list(self.board.ports)
        self.rng.shuffle(ports)
        for port in ports[:NUM_SHIPS]:
            self.chest_status[port] = ON_PORT
        self.reserve = ports[NUM_SHIPS:]
        starts = list(self.board.starts)
        self.rng.shuffle(starts)
        self.ship_area = starts
        self._begin_round()

    def _init_fixed(self, board: Board) -> None:
        """Everything but the random setup: empty round, no chests placed, zero scores."""
        n = self.num_players
        self.board = board
        self.target = TARGETS[n]
        self.max_rounds = self.options["max_rounds"]
        self.hideout_owner = tuple(o if o is not None and o < n else None for o in board.owner)
        self.chest_status: list[int | None] = [RESERVE if v else None for v in board.chest_value]
        self.reserve: list[int] = []
        self.ship_area: list[int] = list(board.starts)
        self.ship_chest: list[int | None] = [None] * NUM_SHIPS
        self.scores = [0] * n
        self.round = 1
        self.phase = BRIBE
        self.bids: list[list[int] | None] = [None] * n
        self.tiebreaker: list[int | None] = [None] * n
        self.tb_revealed = [False] * n
        self.ship = -1  # the ship being resolved; cards of ships 0..ship are revealed
        self.tied: tuple[int, ...] = ()
        self.controller: int | None = None
        self.steps_left = 0
        self.transfers_left = 0

    @classmethod
    def from_setup(cls, num_players: int, *, ships: Sequence[int | str], cargo: Mapping[int, int | str] = {},
                   on_ports: Sequence[int | str] = (), reserve: Sequence[int | str] = (),
                   scores: Sequence[int] | None = None, round: int = 1,
                   bids: Sequence[Sequence[int]] | None = None, start_ship: int = 0,
                   used_tiebreakers: Sequence[int] = (), seed: int = 0,
                   options: Mapping[str, Any] | None = None) -> KaribikState:
        """A state from explicit contents, for tests and puzzles.

        Areas may be given by name or id. ``ships``: the six ships' areas; ``cargo``: ship
        index -> port whose chest it carries; ``on_ports``: ports with a face-up chest;
        ``reserve``: the reserve in draw order; every other chest counts as delivered.
        Without ``bids`` the state waits for the bribe decision; with them (one 6-card list
        per seat) the bribes are applied and resolution starts at ship ``start_ship``
        (earlier ships count as done this round; ``used_tiebreakers`` seats have revealed
        their tie-breaker already).
        """
        state = cls.__new__(cls)
        State.__init__(state, num_players, random.Random(seed), cls.game.resolve_options(options))
        cls.game.check_players(num_players)
        board = BOARDS[state.options["board"]]
        state._init_fixed(board)
        area = lambda value: value if isinstance(value, int) else board.area_id(value)  # noqa: E731
        state.ship_area = [area(a) for a in ships]
        for ship, port in cargo.items():
            state.ship_chest[ship] = area(port)
            state.chest_status[area(port)] = ON_SHIP
        for port in on_ports:
            state.chest_status[area(port)] = ON_PORT
        state.reserve = [area(p) for p in reserve]
        for port in state.reserve:
            state.chest_status[port] = RESERVE
        for port in board.ports:
            if port not in state.reserve and state.chest_status[port] == RESERVE:
                state.chest_status[port] = DELIVERED
        state.scores = list(scores) if scores is not None else [0] * num_players
        state.round = round
        state._begin_round()
        if bids is not None:
            for seat in used_tiebreakers:
                state.tb_revealed[seat] = True
            state._set_bids({seat: list(b) for seat, b in enumerate(bids)}, first_ship=start_ship)
        return state

    # -- decisions ---------------------------------------------------------------------------

    def decision(self, player: int) -> str:
        return self.phase

    def legal_actions(self, player: int) -> list[Any] | None:
        if self.phase == BRIBE:
            return None
        if self.phase == TIEBREAK:
            return list(TIEBREAK_ACTIONS)
        return self._move_actions()

    def _check(self, player: int, action: Any) -> None:
        if self.phase == BRIBE:
            reason = bribe_problem(action)
            if reason:
                raise IllegalAction(player, reason)
            return
        super()._check(player, action)  # the listed actions, compared strictly (engines.same_value)

    def random_action(self, player: int, rng: random.Random) -> Any:
        if self.phase == BRIBE:
            return rng.sample(CARDS, NUM_SHIPS)
        legal = self.legal_actions(player)
        return legal[rng.randrange(len(legal))]

    def _apply(self, actions: Mapping[int, Any]) -> None:
        if self.phase == BRIBE:
            self._set_bids(actions)
        elif self.phase == TIEBREAK:
            self._tiebreak(actions)
        else:
            self._apply_move(actions[self.controller])

    # -- a round -----------------------------------------------------------------------------

    def _begin_round(self) -> None:
        n = self.num_players
        self.phase = BRIBE
        self.bids = [None] * n
        self.tiebreaker = [None] * n
        self.tb_revealed = [False] * n
        self.ship = -1
        self.tied = ()
        self.acting = tuple(range(n))

    def _set_bids(self, actions: Mapping[int, Sequence[int]], first_ship: int = 0) -> None:
        for seat, cards in actions.items():
            self.bids[seat] = list(cards)
            self.tiebreaker[seat] = next(c for c in CARDS if c not in cards)
        self.emit({"type": "bribes", "round": self.round})
        self.ship = first_ship - 1
        self._advance()

    def _advance(self) -> None:
        """The current ship is done: resolve the next ships until someone must decide."""
        self.phase = MOVE  # placeholder until a decision or the round's end sets it
        self.ship += 1
        while self.ship < NUM_SHIPS:
            if self._start_ship():
                return
            self.ship += 1
        self._end_round()

    def _start_ship(self) -> bool:
        """Reveal the bids for the current ship; True when a decision is now pending."""
        ship = self.ship
        cards = [bids[ship] for bids in self.bids]
        best = max(cards)
        bidders = [seat for seat, card in enumerate(cards) if card == best]
        event = {"type": "reveal", "ship": ship, "cards": cards, "winner": None, "steps": 0,
                 "tied": [], "deciding": []}
        self.emit(event)
        if len(bidders) == 1:
            return self._begin_move(event, bidders[0], best - cards.count(THIEF))
        self.tied = tuple(seat for seat in bidders if not self.tb_revealed[seat])
        event["tied"], event["deciding"] = bidders, list(self.tied)
        if not self.tied:
            return False
        self.phase = TIEBREAK
        self.acting = self.tied
        return True

    def _tiebreak(self, actions: Mapping[int, str]) -> None:
        ship = self.ship
        shown: list[int | None] = [None] * self.num_players
        for seat in self.tied:
            if actions[seat] == "reveal":
                self.tb_revealed[seat] = True
                shown[seat] = self.tiebreaker[seat]
        event = {"type": "tiebreak", "ship": ship, "cards": shown, "winner": None, "steps": 0}
        self.emit(event)
        self.tied = ()
        revealed = [card for card in shown if card is not None]
        if revealed and revealed.count(max(revealed)) == 1:
            cards = [bids[ship] for bids in self.bids]
            thieves = cards.count(THIEF) + revealed.count(THIEF)
            if self._begin_move(event, shown.index(max(revealed)), max(cards) - thieves):
                return
        self._advance()

    def _begin_move(self, event: dict[str, Any], player: int, steps: int) -> bool:
        """Give ``player`` control (recorded in ``event``); True if they have a choice to make."""
        self.phase = MOVE
        self.controller = player
        self.steps_left = max(0, steps)
        self.transfers_left = MAX_TRANSFERS
        self.acting = (player,)
        event["winner"], event["steps"] = player, self.steps_left
        if self._move_actions() == [["end"]]:
            self._finish_move()
            return False
        return True

    def _end_round(self) -> None:
        self.controller = None
        if self._game_over():
            self.phase = OVER
            self.acting = ()
            self.emit({"type": "game_end", "round": self.round, "scores": list(self.scores)})
            return
        placed, self.reserve = self.reserve[:2], self.reserve[2:]
        for port in placed:
            self.chest_status[port] = ON_PORT
        self.emit({"type": "round_end", "round": self.round, "chests": placed})
        self.round += 1
        self._begin_round()

    def _game_over(self) -> bool:
        if max(self.scores) >= self.target or self.round >= self.max_rounds:
            return True
        # [R] Nothing left to win: no chest in the reserve, on a port or on a ship.
        return not self.reserve and ON_PORT not in self.chest_status and ON_SHIP not in self.chest_status

    def outcome(self) -> Outcome:
        return Outcome.from_keys(self.scores)

    # -- copies ------------------------------------------------------------------------------

    def clone(self) -> KaribikState:
        other = self.fork()
        other.rng = random.Random.__new__(random.Random)
        other.rng.setstate(self.rng.getstate())
        other.history = list(self.history)
        other.log = list(self.log)
        return other

    def fork(self) -> KaribikState:
        """A fast copy for search: the game position only, with empty history and log and the
        rng shared (the rules draw from it only at setup)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = []
        other.log = []
        other.chest_status = list(self.chest_status)
        other.reserve = list(self.reserve)
        other.ship_area = list(self.ship_area)
        other.ship_chest = list(self.ship_chest)
        other.scores = list(self.scores)
        other.bids = [None if b is None else list(b) for b in self.bids]
        other.tiebreaker = list(self.tiebreaker)
        other.tb_revealed = list(self.tb_revealed)
        return other

    def resample_chance(self, rng: random.Random) -> KaribikState:
        """A copy in which only what no seat knows is drawn again: the reserve's order (the
        rounds to come place its chests two at a time from the front); every bid, tie-breaker
        and chest in play stays. For the arena's chance correction: the real next state and a
        copy's are then draws of the same chance from the same state (the rules draw from the
        generator only at setup, so it is kept)."""
        other = self.clone()
        rng.shuffle(other.reserve)
        return other

    def resample(self, player: int, rng: random.Random) -> KaribikState:
        """A copy with the reserve order and the other players' hidden cards redrawn.

        Hidden cards of another seat are its bids for ships not yet revealed and its
        tie-breaker if not revealed; they are shuffled among those slots. ``history`` is
        kept as it was (it is the replay record, not part of any observation).
        """
        other = self.clone()
        other.rng = random.Random(rng.random())
        rng.shuffle(other.reserve)
        for seat, bids in enumerate(other.bids):
            if seat == player or bids is None:
                continue
            slots = list(range(self.ship + 1, NUM_SHIPS))
            cards = [bids[s] for s in slots]
            if not other.tb_revealed[seat]:
                cards.append(other.tiebreaker[seat])
            rng.shuffle(cards)
            for s, card in zip(slots, cards):
                bids[s] = card
            if not other.tb_revealed[seat]:
                other.tiebreaker[seat] = cards[-1]
        return other

    def observation(self, player: int) -> dict[str, Any]:
        return observe(self, player)


def bribe_problem(action: Any) -> str | None:
    """Why ``action`` is not a valid bribe assignment, or None when it is."""
    if not isinstance(action, list) or len(action) != NUM_SHIPS:
        return (f"a bribe is a list of {NUM_SHIPS} card values, one per ship in order {list(SHIPS)}, "
                f"e.g. [5, 4, 3, 2, 1, 0]; got {action!r}")
    for ship, card in enumerate(action):
        if isinstance(card, bool) or not isinstance(card, int) or card not in _CARD_SET:
            return f"card for {SHIPS[ship]} must be one of {list(CARDS)}, got {card!r}"
    if len(set(action)) != NUM_SHIPS:
        twice = next(card for card in action if action.count(card) > 1)
        return f"each card can go to one ship only; {twice} is used twice in {action!r}"
    return None
