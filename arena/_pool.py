"""Bot processes shared by the games of one trio loop: started once, reused, replaced.

Every rule about which process plays which game lives here, so that any way of spreading
games (concurrent slots in one loop, or worker processes each with their own pool) keeps them:

- **No process plays the same deal twice.** A deal is a game seed; the rotations of a duplicate
  block share one. Each process remembers the deals it was handed out for, and
  :meth:`BotPool.checkout` gives an entrant's idle process that has not seen the deal, or
  starts a new one. Up to ``keep`` idle processes per entrant are kept for later games (the
  least recently used one beyond that is shut down), so a block of k rotations needs k
  processes per entrant, started once and reused for the blocks after it.
- **Only live processes are handed out.** A process that failed in a game (its fault was
  charged there) is replaced; one found dead between games (it exited, or closed its stdout)
  is replaced and reported to ``on_death``: no game is charged for it. A death discovered
  only once the next game had begun (the bot read nothing of that game) is reported by
  :meth:`BotPool.checkin`, so that the caller can play that game again.
- **Start-up check.** :meth:`BotPool.preflight` starts one process of every entrant at once,
  before any game, and raises :class:`StartupError` naming an entrant that cannot start
  (or, asked to, marks it broken: its seats are then forfeited without starting it again).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import trio

from ._faults import FaultKind
from ._manifest import BotSpec
from ._player import Player, open_player
from ._sandbox import Sandbox


class StartupError(Exception):
    """An entrant's bot cannot start (no such program or folder, exits at once, no hello)."""


@dataclass(eq=False)
class _Process:
    """One started bot of the pool, with the deals it has been handed out for."""

    player: Player
    release: trio.Event
    closed: trio.Event
    deals: set[int] = field(default_factory=set)
    games: int = 0


class BotPool:
    """The bot processes of ``specs`` (keyed by entrant name), run in ``nursery``.

    Each player lives in its own task of ``nursery`` (started with ``nursery.start``), so any
    one of them can be shut down and replaced without disturbing the others.
    ``on_death(name, detail)`` hears of every process that died between two games.
    """

    def __init__(self, nursery: trio.Nursery, specs: Mapping[str, BotSpec], startup_s: float,
                 sandbox: Sandbox | None = None, log_dir: Path | None = None, keep: int = 1,
                 on_death: Callable[[str, str], None] | None = None) -> None:
        self.nursery = nursery
        self.specs = specs
        self.startup_s = startup_s
        self.sandbox = sandbox
        self.log_dir = log_dir
        self.keep = max(keep, 1)
        self.on_death = on_death
        #: entrants that could not start, with their failed player (``preflight(skip_broken=True)``)
        self.broken: dict[str, Player] = {}
        self._idle: dict[str, list[_Process]] = {name: [] for name in specs}
        self._busy: dict[int, _Process] = {}
        self.started = 0  # processes started, for tests and measurements

    async def preflight(self, names: Iterable[str], skip_broken: bool = False, what: str = "entrant") -> list[str]:
        """Start one process of each entrant in ``names``, all at once, and keep them for the
        first games. Return the names of the entrants that could not start.

        Raises :class:`StartupError` for the first of them (in ``names`` order) that failed,
        naming it (as ``what`` and name), what went wrong and the end of its stderr, unless
        ``skip_broken``: then each is remembered as broken, and its seats get a failed player
        (forfeited from the start, not started again).
        """
        names = list(dict.fromkeys(names))
        started: dict[str, _Process] = {}

        async def start(name: str) -> None:
            started[name] = await self._start(name)

        async with trio.open_nursery() as nursery:
            for name in names:
                nursery.start_soon(start, name)
        broken = [name for name in names if not started[name].player.usable]
        for name in broken:
            entry = started[name]
            entry.release.set()
            await entry.closed.wait()  # its last stderr lines are in once it is shut down
            self.broken[name] = entry.player
        for name in names:
            if name not in self.broken:
                self._idle[name].append(started[name])
        if broken and not skip_broken:
            raise StartupError(startup_message(f"{what} {broken[0]!r}", self.broken[broken[0]]))
        return broken

    async def checkout(self, name: str, deal: int) -> Player:
        """A live player of entrant ``name`` whose process has never been handed ``deal``."""
        if name in self.broken:
            return self.broken[name]
        idle = self._idle[name]
        while True:
            for entry in list(idle):
                if not entry.player.alive():
                    idle.remove(entry)
                    self._died(name, entry.player)
                    entry.release.set()
            eligible = [entry for entry in idle if deal not in entry.deals]
            if not eligible:
                entry = await self._start(name)
                break
            entry = eligible[-1]  # the most recently used: the warmest
            idle.remove(entry)
            # Hand it out only once it has read the last game's `end`, so that a death right
            # after it is told from a crash in the new game (see `checkin`).
            await entry.player.wait_input_read(self.startup_s)
            if entry.player.alive():
                break
            self._died(name, entry.player)
            entry.release.set()
        entry.deals.add(deal)
        entry.games += 1
        entry.player.begin_game()
        self._busy[id(entry.player)] = entry
        return entry.player

    def checkin(self, name: str, player: Player) -> bool:
        """Take ``player`` back after its game. Return ``True`` when its process turns out to
        have died before that game reached it (it had played before, crashed, and read not a
        byte of this game): the death is reported, and the game should be played again.
        """
        entry = self._busy.pop(id(player), None)
        if entry is None:
            return False  # a broken entrant's failed player
        died_before = (entry.games > 1 and player.failure is not None
                       and player.failure.kind is FaultKind.CRASH and player.read_nothing_of_game())
        if died_before:
            self._died(name, player)
        if not player.alive():
            if player.failure is None:
                self._died(name, player)  # exited right after its game's `end`
            entry.release.set()
            return died_before
        idle = self._idle[name]
        idle.append(entry)
        while len(idle) > self.keep:
            idle.pop(0).release.set()
        return False

    def release_all(self) -> None:
        """Ask every player to shut down; the nursery waits for them."""
        for idle in self._idle.values():
            for entry in idle:
                entry.release.set()
            idle.clear()
        for entry in self._busy.values():
            entry.release.set()
        self._busy.clear()

    def _died(self, name: str, player: Player) -> None:
        if self.on_death is None:
            return
        code = player.process.returncode() if player.process is not None else None
        how = "closed its stdout" if code is None else f"exited with code {code}"
        tail = player.stderr_tail().strip().splitlines()
        self.on_death(name, f"{how} between games" + (f"; its stderr ends: {tail[-1]}" if tail else ""))

    async def _start(self, name: str) -> _Process:
        self.started += 1
        return await self.nursery.start(self._serve, self.specs[name])

    async def _serve(self, spec: BotSpec, task_status=trio.TASK_STATUS_IGNORED) -> None:
        release, closed = trio.Event(), trio.Event()
        try:
            async with open_player(spec, self.startup_s, sandbox=self.sandbox, log_dir=self.log_dir) as player:
                task_status.started(_Process(player, release, closed))
                await release.wait()
        finally:
            closed.set()


@asynccontextmanager
async def open_bot_pool(specs: Mapping[str, BotSpec], startup_s: float, sandbox: Sandbox | None = None,
                        log_dir: Path | None = None, keep: int = 1,
                        on_death: Callable[[str, str], None] | None = None) -> AsyncIterator[BotPool]:
    """A :class:`BotPool` (arguments as there) whose processes all shut down on exit.

    A :class:`StartupError` raised in the block comes out as itself, not inside an exception
    group, so that the command line reports it as one line.
    """
    failure = None
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, startup_s, sandbox, log_dir, keep, on_death)
        try:
            yield pool
        except StartupError as error:
            failure = error
        finally:
            pool.release_all()
    if failure is not None:
        raise failure


def startup_message(who: str, player: Player) -> str:
    """One line: who cannot start, why, and the last line of its stderr (call it once the
    process is shut down: then its exit code and its stderr are complete)."""
    detail = player.failure.detail if player.failure is not None else "did not start"
    code = player.process.returncode() if player.process is not None else None
    if player.failure is not None and player.failure.kind is FaultKind.CRASH and player.hello is None \
            and code is not None and code >= 0:
        detail = f"it exited before answering hello (exit code {code})"  # not killed by us
    tail = player.stderr_tail().strip().splitlines()
    return f"{who} cannot start: {detail}" + (f"; its stderr ends: {tail[-1]}" if tail else "")
