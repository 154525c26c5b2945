"""One game between started players: the decision loop, fault policy and the result.

The match owns the engine state and the seats' clocks; players own their processes. It
never raises for a bot's misbehaviour: every fault ends up in :attr:`MatchResult.faults`,
attributed to the seat and bot that caused it.
"""

from __future__ import annotations

import enum
import hashlib
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trio

import protocol
from engines import Game, IllegalAction, Outcome, Replay, State, same_value

from ._faults import BotFault, Fault, FaultKind, FaultPolicy
from ._player import Player
from ._timecontrol import GameClock, TimeControl


class EndReason(enum.Enum):
    """Why a game ended."""

    NORMAL = "normal"            #: played to the end; no fault
    FORFEIT = "forfeit"          #: played to the end; at least one seat forfeited
    FAULT = "fault"              #: stopped at a fault (``FaultPolicy.END_GAME``)


@dataclass(frozen=True)
class MatchSettings:
    """How a match is played, apart from who plays it."""

    time_control: TimeControl = field(default_factory=TimeControl)
    fault_policy: FaultPolicy = FaultPolicy.FORFEIT
    max_substitutions: int = 3


@dataclass(frozen=True)
class MatchResult:
    """The outcome of one game, ready to store and rate.

    ``ranks`` already account for forfeits (a forfeiting seat ranks below every other);
    ``engine_ranks`` are the ranks of the game as played. ``moves`` holds one
    ``(seat, elapsed_ms, by_bot)`` triple per decision.
    """

    game: str
    seed: int
    bots: tuple[str, ...]
    ranks: tuple[int, ...]
    engine_ranks: tuple[int, ...]
    scores: tuple[Any, ...]
    faults: tuple[Fault, ...]
    reason: EndReason
    replay: Replay
    moves: tuple[tuple[int, float, bool], ...]
    duration_s: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "bots": list(self.bots),
            "ranks": list(self.ranks),
            "engine_ranks": list(self.engine_ranks),
            "scores": list(self.scores),
            "faults": [fault.as_dict() for fault in self.faults],
            "reason": self.reason.value,
            "duration_s": round(self.duration_s, 6),
        }


#: Faults after which the bot may go on playing (under ``FaultPolicy.SUBSTITUTE``). After a
#: crash, a bad frame or an oversize header the stream cannot be trusted: those forfeit.
SUBSTITUTABLE = frozenset({FaultKind.TIMEOUT, FaultKind.ILLEGAL})


def derived_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed derived from ``seed`` by a public formula (for the fallback's moves).

    Never a ``bot_seed``: a bot could try every small ``seed`` until one gives its own."""
    text = ":".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def rank_with_forfeits(outcome: Outcome, forfeited: set[int]) -> tuple[int, ...]:
    """Seats that forfeited rank below all others; the rest keep their order from the game."""
    keys = [(seat not in forfeited, -rank) for seat, rank in enumerate(outcome.ranks)]
    return Outcome.from_keys(outcome.scores, keys).ranks


class _Seat:
    __slots__ = ("index", "player", "clock", "cursor", "forfeited", "substitutions")

    def __init__(self, index: int, player: Player, clock: GameClock) -> None:
        self.index = index
        self.player = player
        self.clock = clock
        self.cursor = 0
        self.forfeited = not player.usable
        self.substitutions = 0


async def play_match(game: Game, players: Sequence[Player], seed: int,
                     options: Mapping[str, Any] | None = None,
                     settings: MatchSettings = MatchSettings(),
                     bot_seeds: Sequence[int] | None = None) -> MatchResult:
    """Play one game of ``game`` with ``players`` in seat order.

    ``bot_seeds`` are the seats' ``start.bot_seed`` values (a tournament derives them from its
    secret key); by default each is a fresh random number, so that no bot can work ``seed``
    out of its own. Raises :class:`engines.BadOption` for a bad player count or option
    (before any bot is contacted); bot faults never raise.
    """
    state = game.new_state(len(players), seed, options)
    if bot_seeds is None:
        bot_seeds = [secrets.randbits(64) for _ in players]
    return await _Match(game, state, players, seed, settings, bot_seeds).run()


class _Match:
    def __init__(self, game: Game, state: State, players: Sequence[Player], seed: int,
                 settings: MatchSettings, bot_seeds: Sequence[int]) -> None:
        self.game = game
        self.state = state
        self.seed = seed
        self.bot_seeds = bot_seeds
        self.settings = settings
        self.seats = [_Seat(i, p, settings.time_control.new_clock()) for i, p in enumerate(players)]
        self.faults: list[Fault] = []
        self.moves: list[tuple[int, float, bool]] = []
        self.fallback = random.Random(derived_seed(seed, "fallback"))
        self.stopped = False
        for seat in self.seats:
            if seat.forfeited:
                self._record(seat, seat.player.failure)

    async def run(self) -> MatchResult:
        started = trio.current_time()
        tc = self.settings.time_control
        for seat in self.seats:
            if not seat.forfeited:
                hello = seat.player.hello
                if hello is not None and hello.games and self.game.id not in hello.games:
                    self._fault(seat, BotFault(FaultKind.PROTOCOL, f"bot does not play {self.game.id} "
                                                                   f"(its hello lists {list(hello.games)})"))
                    continue
                await self._send(seat, protocol.start(
                    self.game.id, seat.index, len(self.seats), self.state.options, tc.move_ms, tc.reserve_ms,
                    bot_seed=self.bot_seeds[seat.index]))
        state = self.state
        while state.acting and not self.stopped:
            acting = state.acting
            if len(acting) == 1:
                seat = self.seats[acting[0]]
                actions = {seat.index: await self._action_of(seat)}
            else:
                actions = {}
                async with trio.open_nursery() as nursery:
                    for index in acting:
                        nursery.start_soon(self._collect, self.seats[index], actions)
            if not self.stopped:
                state.apply_checked(actions)  # each action passed state.check as it came in
        return await self._finish(trio.current_time() - started)

    async def _collect(self, seat: _Seat, actions: dict[int, Any]) -> None:
        actions[seat.index] = await self._action_of(seat)

    async def _action_of(self, seat: _Seat) -> Any:
        """The seat's legal action: from its bot, or from the fallback after a fault."""
        state = self.state
        if not seat.forfeited:
            player = seat.player
            events = state.events_for(seat.index, seat.cursor)
            seat.cursor = len(state.log)
            legal = state.legal_actions(seat.index)
            try:
                action, elapsed = await player.decide(
                    state.decision(seat.index), state.observation(seat.index), events, legal, seat.clock,
                )
                # The listed legal actions are exactly the legal ones: a listed action needs no
                # second validation; anything else goes to the engine for its verdict and reason.
                if legal is None or not any(same_value(action, candidate) for candidate in legal):
                    state.check(seat.index, action)
            except BotFault as fault:
                self._fault(seat, fault)
            except IllegalAction as error:
                self._fault(seat, BotFault(FaultKind.ILLEGAL, f"{action!r:.200}: {error.reason}"))
            else:
                self.moves.append((seat.index, elapsed * 1000, True))
                return action
        action = state.random_action(seat.index, self.fallback)
        self.moves.append((seat.index, 0.0, False))
        return action

    def _fault(self, seat: _Seat, fault: BotFault) -> None:
        self._record(seat, fault)
        policy = self.settings.fault_policy
        if policy is FaultPolicy.SUBSTITUTE and fault.kind in SUBSTITUTABLE \
                and seat.substitutions < self.settings.max_substitutions:
            seat.substitutions += 1
            return
        seat.forfeited = True
        seat.player.fail(fault)
        if policy is FaultPolicy.END_GAME:
            self.stopped = True

    def _record(self, seat: _Seat, fault: BotFault) -> None:
        self.faults.append(Fault(
            seat=seat.index, bot=seat.player.name, kind=fault.kind, detail=fault.detail,
            step=len(self.state.history), stderr_tail=seat.player.stderr_tail(),
        ))

    async def _send(self, seat: _Seat, message: dict[str, Any]) -> None:
        try:
            await seat.player.send(message, seat.clock.budget())
        except BotFault as fault:
            self._fault(seat, fault)

    async def _finish(self, duration: float) -> MatchResult:
        state = self.state
        forfeited = {seat.index for seat in self.seats if seat.forfeited}
        if self.stopped:
            outcome = Outcome(tuple(1 for _ in self.seats), tuple(0 for _ in self.seats))
            reason = EndReason.FAULT
        else:
            outcome = state.outcome()
            reason = EndReason.FORFEIT if forfeited else EndReason.NORMAL
        ranks = rank_with_forfeits(outcome, forfeited)
        for seat in self.seats:
            if not seat.forfeited:
                events = state.events_for(seat.index, seat.cursor)
                await self._send(seat, protocol.end(ranks, outcome.scores, events, reason.value))
        return MatchResult(
            game=self.game.id,
            seed=self.seed,
            bots=tuple(seat.player.name for seat in self.seats),
            ranks=ranks,
            engine_ranks=outcome.ranks,
            scores=outcome.scores,
            faults=tuple(self.faults),
            reason=reason,
            replay=Replay.of(state, self.game.id, self.seed),
            moves=tuple(self.moves),
            duration_s=duration,
        )
