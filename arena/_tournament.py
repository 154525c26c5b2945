"""Running a tournament: the schedule's missing games, played concurrently, each stored
the moment it ends.

Each of ``concurrency`` workers keeps its own bot processes (one per entrant it has met)
and reuses them game after game; a bot that faulted fatally is replaced before its next
game. Because every game is deterministic (seeds) and stored by its schedule key, an
interrupted tournament resumes by playing only the games that are not in the store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import trio

from engines import get_game

from ._config import TournamentConfig
from ._manifest import BotSpec
from ._match import MatchResult, play_match
from ._player import Player, open_player
from ._sandbox import Sandbox
from ._schedule import ScheduledGame, build_schedule
from ._store import ResultsStore, StoreError


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


class _BotPool:
    """One worker's bot processes, one per entrant, reused from game to game.

    Each player lives in its own task (started with ``nursery.start``), so any one of them
    can be shut down and replaced without disturbing the others' nurseries.
    """

    def __init__(self, nursery: trio.Nursery, specs: dict[str, BotSpec], startup_s: float,
                 sandbox: Sandbox | None, log_dir: Path | None) -> None:
        self.nursery = nursery
        self.sandbox = sandbox
        self.log_dir = log_dir
        self.specs = specs
        self.startup_s = startup_s
        self._open: dict[str, tuple[Player, trio.Event, trio.Event]] = {}

    async def get(self, name: str) -> Player:
        """The entrant's live player; a failed one is shut down and replaced first."""
        entry = self._open.get(name)
        if entry is not None and entry[0].usable:
            return entry[0]
        if entry is not None:
            await self._close(name)
        self._open[name] = await self.nursery.start(self._serve, self.specs[name])
        return self._open[name][0]

    async def _serve(self, spec: BotSpec, task_status=trio.TASK_STATUS_IGNORED) -> None:
        release, closed = trio.Event(), trio.Event()
        try:
            async with open_player(spec, self.startup_s, sandbox=self.sandbox, log_dir=self.log_dir) as player:
                task_status.started((player, release, closed))
                await release.wait()
        finally:
            closed.set()

    async def _close(self, name: str) -> None:
        _, release, closed = self._open.pop(name)
        release.set()
        await closed.wait()

    def release_all(self) -> None:
        """Ask every player to shut down; the nursery waits for them."""
        for _, release, _ in self._open.values():
            release.set()
        self._open.clear()


@dataclass
class TournamentRunner:
    """Plays the missing games of ``config`` into ``store``."""

    config: TournamentConfig
    store: ResultsStore
    on_progress: Callable[[Progress], None] | None = None
    sandbox: Sandbox | None = None
    _tally: _Tally = field(default_factory=_Tally)
    _error: StoreError | None = None

    def pending(self) -> tuple[Iterator[ScheduledGame], int, int]:
        """The games still to play (made as they are consumed), the schedule's total, and how
        many are already stored. Raises :class:`StoreError` if the store has no seed key."""
        schedule = build_schedule(self.config.schedule, self.store.seed_key())
        done = self.store.completed_keys()
        return schedule.pending(done), schedule.total, len(done)

    async def run(self) -> int:
        """Play every pending game; return how many were played now.

        Raises :class:`StoreError` if a result cannot be stored (the games stored before it
        are kept; resume later).
        """
        for stored in self.store.games():
            self._tally.add(stored.seats, stored.ranks)
        pending, total, done = self.pending()
        self._total = total
        self._done = done
        self._played = 0
        self._started = trio.current_time()
        # Unbuffered: the schedule is made one game at a time, as workers take them.
        send, receive = trio.open_memory_channel(0)
        workers = min(self.config.concurrency, total - done)
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            if workers > 0:
                nursery.start_soon(self._feed, send, pending)
            for _ in range(workers):
                nursery.start_soon(self._worker, receive.clone())
            receive.close()
        if self._error is not None:
            raise self._error
        return self._played

    @staticmethod
    async def _feed(send: trio.MemorySendChannel, pending: Iterator[ScheduledGame]) -> None:
        async with send:
            for scheduled in pending:
                await send.send(scheduled)

    async def _worker(self, games: trio.MemoryReceiveChannel) -> None:
        config = self.config
        game = get_game(config.game)
        specs = {spec.name: spec for spec in config.entrants}
        async with trio.open_nursery() as nursery:
            pool = _BotPool(nursery, specs, config.settings.time_control.startup_ms / 1000, self.sandbox,
                            log_dir_of(self.store.path))
            try:
                async for scheduled in games:
                    players = [await pool.get(name) for name in scheduled.seats]
                    result = await play_match(game, players, scheduled.seed, config.options, config.settings,
                                              bot_seeds=scheduled.bot_seeds)
                    try:
                        stored = self.store.record(scheduled, result)
                    except StoreError as error:
                        self._error = error
                        self._nursery.cancel_scope.cancel()
                        return
                    if stored:
                        self._tally.add(scheduled.seats, result.ranks)
                        self._done += 1
                        self._played += 1
                        self._report(result)
            finally:
                pool.release_all()

    def _report(self, last: MatchResult | None) -> None:
        if self.on_progress is None:
            return
        leader, percent = self._tally.leader()
        self.on_progress(Progress(self._done, self._total, self._played,
                                  trio.current_time() - self._started, leader, percent, last))
