"""Running a tournament: the schedule's missing games, played concurrently, each stored
the moment it ends.

Before the first game every entrant is started once (:meth:`BotPool.preflight`): one that
cannot start stops the tournament, unless it is run with ``skip_broken``. ``concurrency``
slots then play games, taking them from a :class:`~arena.tournament._handout.GameSource` (rotation-major
windows of duplicate blocks) and their bot processes from one :class:`BotPool`, which reuses
processes game after game under its rules (no process that saw a deal is alive when another
rotation of it starts; failed processes are replaced; misbehaviour between games is charged
to the entrant's next game). An entrant whose faults between games reach the tournament's
``faults.withdraw_after`` is withdrawn: its remaining seats are forfeited without starting it
again. Because every game is deterministic (seeds) and stored by its schedule key, an
interrupted tournament resumes by playing only the games that are not in the store.

An adaptive tournament (``format = "adaptive"``) is played a round at a time: when every game
of a round is stored, :class:`~arena.tournament._adaptive.AdaptivePlan` looks at the results
and hands the source the next round's games, until the question is decided or a bound is
reached (:attr:`TournamentRunner.adaptive` says which).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import trio

from engines import get_game

from ..match import MatchResult
from ..players import between_games, BotPool, open_bot_pool
from ..sandbox import Sandbox
from ._config import TournamentConfig
from ._handout import GameSource, WindowPlan
from ._play import play_scheduled
from ._schedule import ScheduledGame, build_schedule
from ._store import ResultsStore, StoreError
from ._workers import default_workers

if TYPE_CHECKING:
    from ..ratings import WatchTally
    from ._adaptive import AdaptivePlan


def log_dir_of(database: Path) -> Path:
    """Where a tournament keeps its bots' stderr logs: beside the database."""
    return database.with_name(database.name + ".logs")


@dataclass(frozen=True)
class Progress:
    """A snapshot for progress displays."""

    done: int
    total: int
    played_now: int
    elapsed_s: float
    leader: str | None
    leader_percent: float
    last: MatchResult | None = None
    #: the duplicate block of ``last`` (its games count as one observation in the error bars)
    block: str | None = None

    @property
    def rate(self) -> float:
        return self.played_now / self.elapsed_s if self.elapsed_s > 0 else 0.0

    @property
    def eta_s(self) -> float | None:
        return (self.total - self.done) / self.rate if self.rate > 0 else None


class _Tally:
    """Pairwise points per entrant, for the "current leader" of the progress display."""

    def __init__(self) -> None:
        self.points: dict[str, float] = {}
        self.games: dict[str, int] = {}

    def add(self, seats: tuple[str, ...], ranks: tuple[int, ...]) -> None:
        for i, (name, rank) in enumerate(zip(seats, ranks)):
            for j, other in enumerate(ranks):
                if i != j:
                    self.points[name] = self.points.get(name, 0.0) + (1.0 if rank < other else 0.5 if rank == other else 0.0)
                    self.games[name] = self.games.get(name, 0) + 1

    def leader(self) -> tuple[str | None, float]:
        if not self.games:
            return None, 0.0
        name = max(sorted(self.games), key=lambda n: self.points.get(n, 0.0) / self.games[n])
        return name, 100.0 * self.points.get(name, 0.0) / self.games[name]


@dataclass
class TournamentRunner:
    """Plays the missing games of ``config`` into ``store``.

    ``skip_broken``: an entrant that cannot start does not stop the tournament; it forfeits
    every game it is seated in (its name is in :attr:`broken` after :meth:`run`).
    """

    config: TournamentConfig
    store: ResultsStore
    on_progress: Callable[[Progress], None] | None = None
    sandbox: Sandbox | None = None
    skip_broken: bool = False
    broken: list[str] = field(default_factory=list)
    _tally: _Tally = field(default_factory=_Tally)
    _error: StoreError | None = None
    #: the gauntlet's SPRTs so far (None without an ``[sprt]`` table); the run stops once all decide
    sprt: WatchTally | None = None
    #: one line per worker process that died during the run (its games were played again)
    lost_workers: list[str] = field(default_factory=list)
    #: entrant -> why, for those withdrawn for their faults between games (before or in this run)
    withdrawn: dict[str, str] = field(default_factory=dict)
    #: faults between games per entrant, in every stored game
    _between: Counter = field(default_factory=Counter)
    _source: GameSource | None = None
    _pool: BotPool | None = None
    #: an adaptive tournament's rounds, made by :meth:`pending` (``None`` in other formats)
    adaptive: AdaptivePlan | None = None

    def pending(self) -> tuple[Iterator[ScheduledGame], int, int]:
        """The games still to play (made as they are consumed), the schedule's total, and how
        many are already stored. Raises :class:`StoreError` if the store has no seed key."""
        if self.config.adaptive is not None:
            return self._adaptive_pending()
        # Keyed the way the store's games are (a database of schedule version 1 stays so).
        spec = dataclasses.replace(self.config.schedule, version=self.store.schedule_version())
        schedule = build_schedule(spec, self.store.seed_key())
        done = self.store.completed_keys()
        return schedule.pending(done), schedule.total, len(done)

    def _adaptive_pending(self) -> tuple[Iterator[ScheduledGame], int, int]:
        """The current round's missing games; as total, the games stored and those."""
        from ._adaptive import plan_of

        stored = list(self.store.games())
        self.adaptive = plan_of(self.config, stored, self.store.seed_key())
        done = {game.key for game in stored}
        games = [game for game in self.adaptive.games() if game.key not in done]
        return iter(games), len(stored) + len(games), len(stored)

    def _next_round(self) -> list[ScheduledGame]:
        """The next round's games once every game of this one is stored (:class:`GameSource`
        asks between two games); none once the question is decided or a bound is reached."""
        plan = self.adaptive
        if plan is None or self._error is not None or not plan.advance():
            return []
        done = self.store.completed_keys()
        games = [game for game in plan.games() if game.key not in done]
        self._total = self._done + len(games)
        return games

    async def run(self) -> int:
        """Play every pending game; return how many were played now.

        Raises :class:`StartupError` before any game if an entrant cannot start (unless
        ``skip_broken``), and :class:`StoreError` if a result cannot be stored (the games
        stored before it are kept; resume later).
        """
        if self.config.sprt is not None:
            from ..ratings import WatchTally

            self.sprt = WatchTally(self.config.sprt)
        for stored in self.store.games():
            self._tally.add(stored.seats, stored.ranks)
            self._sprt_add(stored.seats, stored.ranks, stored.block)
            self._between.update(fault["bot"] for fault in stored.faults if between_games(fault))
        self._withdraw_past_limit()
        if self._error is not None:
            raise self._error
        if self._sprt_decided():
            return 0
        pending, total, done = self.pending()
        self._total = total
        self._done = done
        self._played = 0
        self._started = trio.current_time()
        # An adaptive tournament's later rounds are larger than what is left of this one.
        going_on = self.adaptive is not None and self.adaptive.stop is None
        slots = min(self.config.concurrency, total - done) if not going_on else self.config.concurrency
        processes = min(self.config.workers or default_workers(), slots)
        config = self.config
        plan = WindowPlan(config.schedule.players, len(config.entrants), share=max(slots, 1),
                          sprt=config.sprt is not None)
        self._source = GameSource(pending, plan, remaining=total - done, next_round=self._next_round)
        self._source.withdrawn.update(self.withdrawn)
        if processes > 1 or (self.config.executor == "dask" and slots > 0):
            await self._play_on_workers(self._source, processes, slots)
        elif slots > 0:
            await self._play(self._source, slots)
        if self._error is not None:
            raise self._error
        return self._played

    async def _play(self, source: GameSource, slots: int) -> None:
        config = self.config
        specs = {spec.name: spec for spec in config.entrants}
        # A process per entrant and slot: an entrant plays at most that many games at once.
        async with open_bot_pool(specs, config.settings.time_control.startup_ms / 1000, self.sandbox,
                                 log_dir_of(self.store.path), keep=slots, on_death=self._death) as pool:
            self.broken = await pool.preflight([name for name in specs if name not in self.withdrawn],
                                               skip_broken=self.skip_broken)
            for name, detail in self.withdrawn.items():
                pool.withdraw(name, detail)
            self._pool = pool
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                for _ in range(slots):
                    nursery.start_soon(self._slot, source, pool)

    async def _slot(self, source: GameSource, pool: BotPool) -> None:
        game = get_game(self.config.game)
        def ready(scheduled: ScheduledGame) -> bool:
            return pool.ready(scheduled.seats, scheduled.seed)

        while (scheduled := await source.take(ready=ready)) is not None:
            result = await play_scheduled(game, scheduled, pool, self.config)
            source.done()
            self._stored(scheduled, result)
            if self._nursery.cancel_scope.cancel_called:
                return

    async def _play_on_workers(self, source: GameSource, processes: int, slots: int) -> None:
        """Play on ``processes`` worker processes (:mod:`arena.tournament._workers`), or on a Dask
        cluster (:mod:`arena.tournament._dask`), ``slots`` games at once in all; this process stores each
        result as it comes back."""
        from ._worker_setup import Setup, sandbox_fields
        from ._workers import Workers

        # The log folder's absolute path: a Dask worker's process may run in another folder.
        setup = Setup(self.config, log_dir_of(self.store.path).resolve(), self.skip_broken,
                      sandbox_fields(self.sandbox)).spread(slots, processes)
        arguments = (setup, processes, source, self._stored, self._death, self.lost_workers.append)
        if self.config.executor == "dask":
            from ._dask import DaskWorkers

            workers = DaskWorkers(*arguments, scheduler=self.config.scheduler, slots=slots)
        else:
            workers = Workers(*arguments)
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                nursery.start_soon(workers.run)
            if workers.error is not None:
                raise workers.error
        finally:
            self.broken = sorted(workers.broken, key=[spec.name for spec in self.config.entrants].index)
            if self.sandbox is not None:
                self.sandbox.root_bots.update(workers.root_bots)
            if self.sandbox is not None and self.sandbox.cgroups is not None:
                self.sandbox.cgroups.sweep_stale()  # those of workers that were killed

    def _stored(self, scheduled: ScheduledGame, result: MatchResult) -> None:
        """Store a finished game and count it; stop the run if the store fails or the SPRT decides."""
        try:
            stored = self.store.record(scheduled, result)
        except StoreError as error:
            self._fail(error)
            return
        if stored:
            if self.adaptive is not None:
                self.adaptive.add(scheduled.round, scheduled.key, scheduled.seats, result.ranks)
            self._tally.add(scheduled.seats, result.ranks)
            self._done += 1
            self._played += 1
            self._report(result, scheduled.block)
            self._sprt_add(scheduled.seats, result.ranks, scheduled.block)
            if self._sprt_decided():  # the gauntlet's test is over: games in flight are dropped
                self._nursery.cancel_scope.cancel()
            self._between.update(fault.bot for fault in result.faults if fault.between_games)
            self._withdraw_past_limit()

    def _withdraw_past_limit(self) -> None:
        """Withdraw every entrant whose faults between games reached ``faults.withdraw_after``
        (0: never): it is not started again, its remaining seats are forfeited, and the
        database keeps a ``withdrawn`` event saying why (shown with the standings)."""
        limit = self.config.withdraw_after
        if not limit:
            return
        for name, count in self._between.items():
            if count < limit or name in self.withdrawn:
                continue
            detail = f"withdrawn after {count} faults between games (limit {limit})"
            self.withdrawn[name] = detail
            try:
                if (name, "withdrawn") not in {(entrant, kind) for entrant, kind, _ in self.store.entrant_events()}:
                    self.store.record_event(name, "withdrawn", detail)
            except StoreError as error:
                self._fail(error)
            if self._source is not None:
                self._source.withdraw(name, detail)
            if self._pool is not None:
                self._pool.withdraw(name, detail)

    def _sprt_add(self, seats: tuple[str, ...], ranks: tuple[int, ...], block: str) -> None:
        if self.sprt is not None:
            from ..ratings import GameRecord

            self.sprt.add(GameRecord(seats, ranks, block))

    def _sprt_decided(self) -> bool:
        return self.sprt is not None and self.sprt.decided

    def _death(self, name: str, detail: str) -> None:
        """A fault between games that no game could be charged with (the entrant had no game
        after it in that pool): kept as an event, shown with the standings."""
        try:
            self.store.record_event(name, "died-between-games", detail)
        except StoreError as error:
            self._fail(error)

    def _fail(self, error: StoreError) -> None:
        self._error = error
        if hasattr(self, "_nursery"):
            self._nursery.cancel_scope.cancel()

    def _report(self, last: MatchResult | None, block: str | None = None) -> None:
        if self.on_progress is None:
            return
        leader, percent = self._tally.leader()
        self.on_progress(Progress(self._done, self._total, self._played,
                                  trio.current_time() - self._started, leader, percent, last, block))
