"""One game between started players: the decision loop, fault policy and the result.

The match owns the engine state and the seats' clocks; players own their processes. It
never raises for a bot's misbehaviour: every fault ends up in :attr:`MatchResult.faults`,
attributed to the seat and bot that caused it. Nor does it raise when the engine does (a bug):
an exception while checking a bot's action rejects that action as illegal; one while applying
a step is charged, as illegal, to the bot action that alone causes it (the step is then played
again from a copy of the state); any other stops the game as an arena error charged to no bot,
its traceback kept in the fault's detail (so in the store).
"""

from __future__ import annotations

import hashlib
import random
import secrets
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trio

import protocol
from engines import Game, IllegalAction, Outcome, Replay, State, is_listed

from ..players import BotFault, Fault, FaultKind, FaultPolicy, Player, GameClock, TimeControl
from ._result import EndReason, MatchResult


@dataclass(frozen=True)
class MatchSettings:
    """How a match is played, apart from who plays it."""

    time_control: TimeControl = field(default_factory=TimeControl)
    fault_policy: FaultPolicy = FaultPolicy.FORFEIT
    max_substitutions: int = 3


#: Faults after which the bot may go on playing (under ``FaultPolicy.SUBSTITUTE``). After a
#: crash, a bad frame or an oversize header the stream cannot be trusted: those forfeit.
SUBSTITUTABLE = frozenset({FaultKind.TIMEOUT, FaultKind.ILLEGAL})
#: The most of an engine traceback a fault keeps (the innermost frames, where the bug is).
TRACEBACK_CHARS = 8000


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
    __slots__ = ("index", "player", "clock", "cursor", "forfeited", "substitutions", "static")

    def __init__(self, index: int, player: Player, clock: GameClock) -> None:
        self.index = index
        self.player = player
        self.clock = clock
        self.cursor = 0
        self.forfeited = not player.usable
        self.substitutions = 0
        self.static: tuple[str, ...] = ()  # observation keys its bot got once, in start


async def play_match(game: Game, players: Sequence[Player], seed: int,
                     options: Mapping[str, Any] | None = None,
                     settings: MatchSettings = MatchSettings(),
                     bot_seeds: Sequence[int] | None = None,
                     watch: Callable[[State, Sequence[Fault]], None] | None = None) -> MatchResult:
    """Play one game of ``game`` with ``players`` in seat order.

    ``bot_seeds`` are the seats' ``start.bot_seed`` values (a tournament derives them from its
    secret key); by default each is a fresh random number, so that no bot can work ``seed``
    out of its own. ``watch(state, faults)``, if given, is called once every seat has been
    told ``start`` and after every step, with the live state (to read, never to change) and
    the faults so far (``arena play`` shows a person the game as it goes on). Raises
    :class:`engines.BadOption` for a bad player count or option (before any bot is
    contacted); bot faults never raise.
    """
    state = game.new_state(len(players), seed, options)
    if bot_seeds is None:
        bot_seeds = [secrets.randbits(64) for _ in players]
    elif len(bot_seeds) != len(players):
        raise ValueError(f"{len(bot_seeds)} bot seeds for {len(players)} seats")
    return await _Match(game, state, players, seed, settings, bot_seeds, watch).run()


class _Match:
    def __init__(self, game: Game, state: State, players: Sequence[Player], seed: int,
                 settings: MatchSettings, bot_seeds: Sequence[int],
                 watch: Callable[[State, Sequence[Fault]], None] | None = None) -> None:
        self.game = game
        self.watch = watch
        self.state = state
        self.seed = seed
        self.bot_seeds = bot_seeds
        self.settings = settings
        self.seats = [_Seat(i, p, settings.time_control.new_clock()) for i, p in enumerate(players)]
        self.faults: list[Fault] = []
        #: per decision: (seat, elapsed_ms, by_bot, reserve_ms left or None for the fallback)
        self.moves: list[tuple[int, float, bool, float | None]] = []
        # One fallback generator per seat: simultaneous seats draw in task order, which trio
        # randomises, so a shared one would make the same seed give different games.
        self.fallback = [random.Random(derived_seed(seed, "fallback", seat.index)) for seat in self.seats]
        self.stopped = False
        self.broken = False  # the engine failed: the game stops as an arena error
        #: seats of the current step whose action the engine accepted without its being listed
        self.unlisted: set[int] = set()
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
                    bot_seed=self.bot_seeds[seat.index], static=self._static_for(seat)))
        state = self.state
        if self.watch is not None:
            self.watch(state, self.faults)
        while state.acting and not self.stopped:
            acting = state.acting
            if len(acting) == 1 or self.settings.time_control.in_turn:
                # In turn, no two bots of the game ever run at once (the others stay frozen):
                # nothing can pass between them while they decide.
                actions = {}
                for index in acting:
                    actions[index] = await self._action_of(self.seats[index])
            else:
                actions = {}
                async with trio.open_nursery() as nursery:
                    for index in acting:
                        nursery.start_soon(self._collect, self.seats[index], actions)
            if not self.stopped:
                self._apply(actions)
                state = self.state  # a copy of it, where the engine failed in the step
                if self.watch is not None:
                    self.watch(state, self.faults)
        return await self._finish(trio.current_time() - started)

    def _static_for(self, seat: _Seat) -> dict[str, Any] | None:
        """The game's static observation fields for ``start.static`` (None for a 1.0 bot,
        which gets full observations: SPEC §5.3); they are then left out of its requests."""
        hello = seat.player.hello
        if hello is None or not hello.speaks(protocol.STATIC_SINCE):
            return None
        seat.static = self.game.static_fields
        try:
            observation = self.state.observation(seat.index) if seat.static else {}
            return {key: observation[key] for key in seat.static}
        except Exception:  # noqa: BLE001 - an engine bug ends the game, not the tournament
            return self._broken(f"preparing seat {seat.index}'s start") or {}

    async def _collect(self, seat: _Seat, actions: dict[int, Any]) -> None:
        actions[seat.index] = await self._action_of(seat)

    async def _action_of(self, seat: _Seat) -> Any:
        """The seat's legal action: from its bot, or from the fallback after a fault (None
        once the engine has failed)."""
        state = self.state
        if not seat.forfeited:
            try:
                events = state.events_for(seat.index, seat.cursor)
                legal = state.legal_actions(seat.index)
                kind, observation = state.decision(seat.index), state.observation(seat.index)
                if seat.static:
                    observation = {key: value for key, value in observation.items() if key not in seat.static}
            except Exception:  # noqa: BLE001 - an engine bug ends the game, not the tournament
                return self._broken(f"preparing seat {seat.index}'s request")
            seat.cursor = len(state.log)
            try:
                action, elapsed = await seat.player.decide(kind, observation, events, legal, seat.clock)
            except BotFault as fault:
                self._fault(seat, fault)
            else:
                problem = self._judge(seat, action, legal)
                if problem is None:
                    self.moves.append((seat.index, elapsed * 1000, True, seat.clock.reserve * 1000))
                    return action
                self._fault(seat, problem)
        return self._fallback_action(seat.index)

    def _judge(self, seat: _Seat, action: Any, legal: list[Any] | None) -> BotFault | None:
        """Why the bot's ``action`` is illegal now, or None when it is legal.

        The listed legal actions are exactly the legal ones: a listed action (compared
        strictly, ``engines.is_listed``) needs no second validation; anything else goes to the
        engine for its verdict and reason. An engine that raises anything but IllegalAction
        on it has a bug, and the action counts as illegal (the state is unchanged: ``check``
        does not change it).
        """
        if legal is not None and is_listed(action, legal):
            return None
        try:
            self.state.check(seat.index, action)
        except IllegalAction as error:
            return BotFault(FaultKind.ILLEGAL, f"{action!r:.200}: {error.reason}")
        except Exception:  # noqa: BLE001 - an engine bug must not end the tournament
            return BotFault(FaultKind.ILLEGAL, f"{action!r:.200}: the engine failed checking it, so it "
                                               f"counts as illegal\n{_traceback()}")
        self.unlisted.add(seat.index)
        return None

    def _fallback_action(self, index: int) -> Any:
        if self.broken:
            return None
        try:
            action = self.state.random_action(index, self.fallback[index])
        except Exception:  # noqa: BLE001 - an engine bug ends the game, not the tournament
            return self._broken(f"drawing a fallback action for seat {index}")
        self.moves.append((index, 0.0, False, None))
        return action

    def _apply(self, actions: dict[int, Any]) -> None:
        """Apply one step, containing any exception the engine raises.

        When the step holds actions the engine accepted without their being listed, it is
        applied to a copy kept beforehand; if it fails, each such action is tried alone (the
        other unlisted ones replaced by engine-drawn ones): those that fail alone are the
        bots' illegal actions, replaced by fallback actions as the fault policy says, and the
        step is applied again. A failure with listed or fallback actions only is the engine's:
        an arena error.
        """
        state = self.state
        suspects = sorted(self.unlisted & actions.keys())
        self.unlisted.clear()
        before = state.clone() if suspects else None
        steps = len(state.history)
        try:
            state.apply_checked(actions)  # each action passed state.check as it came in
            return
        except Exception:  # noqa: BLE001 - an engine bug ends the game, not the tournament
            if before is None:
                del state.history[steps:]  # the replay ends before the step that failed
                self._broken(f"applying the step {actions!r:.300}")
                return
            problem = _traceback()
        self.state = before
        try:
            culprits = [seat for seat in suspects if _fails(before, actions, seat, suspects)]
        except Exception:  # noqa: BLE001 - an engine bug ends the game, not the tournament
            culprits = []
        if not culprits:
            self._broken(f"applying the step {actions!r:.300}", problem)
            return
        for index in culprits:
            self._fault(self.seats[index], BotFault(FaultKind.ILLEGAL, (
                f"{actions[index]!r:.200}: the engine failed applying it, so it counts as illegal\n{problem}")))
            # The step's moves are the last ones recorded; the bot's becomes the fallback's.
            step_moves = self.moves[-len(actions):]
            step_moves.remove(next(move for move in step_moves if move[0] == index))
            self.moves[-len(actions):] = step_moves
            actions[index] = self._fallback_action(index)
        if self.stopped:
            return
        try:
            self.state.apply_checked(actions)
        except Exception:  # noqa: BLE001 - an engine bug ends the game, not the tournament
            del self.state.history[steps:]
            self._broken(f"applying the step {actions!r:.300} with fallback actions")

    def _broken(self, what: str, problem: str | None = None) -> None:
        """The engine failed ``what`` (the exception being handled, or ``problem``): the game
        stops as an arena error, charged to no bot. Returns None (no action)."""
        if not self.broken:
            self.faults.append(Fault(
                seat=None, bot=None, kind=FaultKind.ARENA_ERROR, step=len(self.state.history),
                detail=f"the engine failed {what}\n{problem or _traceback()}",
            ))
        self.broken = self.stopped = True
        return None

    def _fault(self, seat: _Seat, fault: BotFault) -> None:
        self._record(seat, fault)
        policy = self.settings.fault_policy
        # A player that can no longer play (a request was cut mid-frame) is not substituted.
        if policy is FaultPolicy.SUBSTITUTE and fault.kind in SUBSTITUTABLE \
                and seat.substitutions < self.settings.max_substitutions and seat.player.usable:
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
            between_games=fault.between_games,
        ))

    async def _send(self, seat: _Seat, message: dict[str, Any]) -> None:
        try:
            await seat.player.send(message, seat.clock.budget())
        except BotFault as fault:
            self._fault(seat, fault)

    async def _finish(self, duration: float) -> MatchResult:
        state = self.state
        forfeited = {seat.index for seat in self.seats if seat.forfeited}
        outcome = None
        playing = [seat for seat in self.seats if not seat.forfeited]
        ends: dict[int, list[Any]] = {}
        try:
            if not self.stopped:
                outcome = state.outcome()
            if not self.broken:
                ends = {seat.index: state.events_for(seat.index, seat.cursor) for seat in playing}
        except Exception:  # noqa: BLE001 - an engine bug ends the game, not the tournament
            self._broken("computing the outcome and the last events")
        if self.broken:
            ends = {seat.index: [] for seat in playing}
        if outcome is None:
            outcome = Outcome(tuple(1 for _ in self.seats), tuple(0 for _ in self.seats))
        if self.broken:
            reason = EndReason.ARENA_ERROR
        elif self.stopped:
            reason = EndReason.FAULT
        else:
            reason = EndReason.FORFEIT if forfeited else EndReason.NORMAL
        ranks = rank_with_forfeits(outcome, forfeited)
        for index, events in ends.items():
            await self._send(self.seats[index], protocol.end(ranks, outcome.scores, events, reason.value))
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
            moves=tuple(move[:3] for move in self.moves),
            duration_s=duration,
            reserves_ms=tuple(move[3] for move in self.moves),
            bot_seeds=tuple(self.bot_seeds),
            clock_bound=tuple(seat.player.hello is not None and seat.player.hello.clock_bound
                              for seat in self.seats),
        )


def _traceback() -> str:
    """The exception being handled, as a traceback (its innermost part, if long)."""
    text = traceback.format_exc()
    return text if len(text) <= TRACEBACK_CHARS else "...\n" + text[-TRACEBACK_CHARS:]


def _fails(before: State, actions: Mapping[int, Any], seat: int, suspects: Sequence[int]) -> bool:
    """Whether the step fails with ``seat``'s action and every other suspect's replaced by one
    the engine draws (a fixed generator: this only probes; nothing is kept)."""
    probe = before.clone()
    rng = random.Random(0)
    step = {index: probe.random_action(index, rng) if index in suspects and index != seat else action
            for index, action in actions.items()}
    try:
        probe.apply_checked(step)
    except Exception:  # noqa: BLE001 - this is the question asked
        return True
    return False
