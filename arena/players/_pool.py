"""Bot processes shared by the games of one trio loop: started, reused, ended, replaced.

Every rule about which process plays which game lives here, so that any way of spreading
games (concurrent slots in one loop, worker processes each with their own pool, a Dask
cluster, the ladder) keeps them:

- **No deal crosses rotations.** A deal is a game seed; the rotations of a duplicate block
  share one. Before a game of deal D starts, :meth:`BotPool.checkout_game` ends every live
  process of the game's entrants that has seen D (one that is playing another game first
  finishes it) and waits until each is gone, its cgroup and uid emptied; so it does for every
  process let go earlier that saw D (for a fault, the keep limit, a withdrawal) and may still
  be shutting down. So when a rotation of D starts, no process of its entrant that knows
  anything of D is alive: whatever channel two
  processes of one entrant find (a lock, a socket, a shared file's inode), nobody who saw the
  deal is at the other end. Across worker processes this needs every rotation of a block on
  one worker (:mod:`arena.tournament._handout`). Otherwise a process plays game after game; games are
  handed out rotation-major over windows of blocks, so each process is ended about once per
  window, not once per game. An ended process is no fault of its entrant.
- **Misbehaviour between games costs the entrant.** A process is looked at when it is handed
  out, when it comes back after its game, and before the arena ends it for the rule above:
  one that exited, closed its stdout, or wrote anything but a stale reply since its game ended
  (:meth:`Player.idle_fault`) is ended, and the entrant's next game from this pool gets a
  failed player in that seat (the fault, marked ``between_games``, is charged there: the seat
  is forfeited and played by the fallback). A process that turns out to have died before it
  read a byte of the game it was handed out for has that game's crash as its charge
  (:meth:`BotPool.checkin_game` says which seat). A process the arena itself ended (for the
  deal rule, the ``keep`` limit, a withdrawal, the end of the run) is never looked at again.
- **A spare after a fault in a game.** A process that faulted in its game (crashed, timed out,
  broke the protocol) is ended when the game comes back, and a new process of its entrant is
  started at once, in the background, up to ``keep`` idle ones: the entrant's next game takes
  it warm (:meth:`BotPool.ready` says so once it is up) instead of waiting, in its slot, for a
  start and a handshake. A spare has seen no deal, so the deal rule holds; a checkout that needs
  a process while its entrant's spare is starting waits for that spare rather than starting a
  second one (so a bot that faults in every game costs one start a game, as before, just not
  inside the next game's slot). No spare follows a fault between games (its own failed player
  stands in for the next seat), a withdrawal or the end of the run.
- **Withdrawn and broken entrants.** :meth:`BotPool.withdraw` and a failed
  :meth:`BotPool.preflight` (``skip_broken``) make every later seat of the entrant a failed
  player, without starting it again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import trio

import protocol

from ..sandbox import Sandbox
from ._faults import BotFault, FaultKind
from ._manifest import BotSpec
from ._player import Player
from ._pooled_process import PooledProcess, died_between_games, serve_pooled
from ._startup import StartupError, startup_message

#: How long a process charged between games may take to shut down before its game goes on
#: (its last stderr lines go with the fault).
_CHARGED_CLOSE_S = 2.0


@dataclass(frozen=True)
class PoolStatistics:
    """What a pool did so far (for tests and measurements)."""

    #: processes started, the pre-flight's included
    started: int
    #: processes ended because a game of a deal they had seen was about to start
    ended_for_deals: int
    #: faults between games charged to a game (or, at the end, reported to ``on_death``)
    charged: int
    #: processes started in the background after a fault in a game (counted in ``started``)
    spares: int = 0


class BotPool:
    """The bot processes of ``specs`` (keyed by entrant name), run in ``nursery``.

    Each player lives in its own task of ``nursery`` (started with ``nursery.start``), so any
    one of them can be shut down and replaced without disturbing the others. Up to ``keep``
    idle processes per entrant are kept for later games (the least recently used one beyond
    that is shut down). ``on_death(name, detail)`` hears of a fault between games found after
    the entrant's last game from this pool (none left to charge it to).
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
        #: entrants withdrawn (:meth:`withdraw`), with the fault each of their seats gets
        self.withdrawn: dict[str, BotFault] = {}
        self._idle: dict[str, list[PooledProcess]] = {name: [] for name in specs}
        self._busy: dict[int, PooledProcess] = {}
        #: (entrant, deal) of the games being checked out: no other game of the deal may start
        self._claims: set[tuple[str, int]] = set()
        #: processes that misbehaved between games, ended, their fault not yet charged to a
        #: game (each stands in, failed, for its entrant's next seat), per entrant
        self._charges: dict[str, list[PooledProcess]] = {name: [] for name in specs}
        #: processes told to shut down (a fault in a game, the keep limit, a withdrawal, ...)
        #: and perhaps not gone yet: a game of a deal one of them saw waits for it
        self._ending: list[PooledProcess] = []
        #: processes taken from the idle ones for a game, waiting until they have read their
        #: last game's end: neither idle nor busy, yet about to play on
        self._handing: list[PooledProcess] = []
        #: spares being started (:meth:`_start_spare`), per entrant
        self._starting: dict[str, int] = {name: 0 for name in specs}
        #: set by :meth:`release_all`: no spare is started or kept after it
        self._closing = False
        self._changed = trio.Event()
        self.started = 0  # processes started
        self._ended = 0
        self._charged = 0
        self._spares = 0

    def statistics(self) -> PoolStatistics:
        return PoolStatistics(self.started, self._ended, self._charged, self._spares)

    async def preflight(self, names: Iterable[str], skip_broken: bool = False, what: str = "entrant") -> list[str]:
        """Start one process of each entrant in ``names``, all at once, and keep them for the
        first games. Return the names of the entrants that could not start.

        Raises :class:`StartupError` for the first of them (in ``names`` order) that failed,
        naming it (as ``what`` and name), what went wrong and the end of its stderr, unless
        ``skip_broken``: then each is remembered as broken, and its seats get a failed player
        (forfeited from the start, not started again).
        """
        names = list(dict.fromkeys(names))
        started: dict[str, PooledProcess] = {}

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

    async def checkout_game(self, seats: Sequence[str], deal: int) -> list[Player]:
        """Players for one game of ``deal``, one per seat (``seats``: entrant names in seat
        order), to give back with :meth:`checkin_game` after the game.

        First waits until no game of ``deal`` with one of these entrants is being played or
        checked out, then ends (and waits out) every process of theirs that has seen
        ``deal``. Each seat then gets the entrant's most recently used idle process, or the
        spare being started for it (see the module), or a new one; a broken or withdrawn
        entrant, or one with a fault between games to pay, gets a failed player instead (the
        match forfeits that seat at step 0 and records the fault).
        """
        names = [name for name in dict.fromkeys(seats) if name not in self.broken and name not in self.withdrawn]
        while self._blocked(names, deal):
            await self._changed.wait()
        self._claims.update((name, deal) for name in names)
        players: list[Player | None] = [None] * len(seats)

        async def hand_out(seat: int) -> None:
            players[seat] = await self._hand_out(seats[seat], deal)

        try:
            seen = [entry for name in names for entry in self._idle[name] if deal in entry.deals]
            for entry in seen:
                self._idle[entry.name].remove(entry)
            try:
                # Once each has read its last game's `end`: what it does on reading it is still
                # before we end it (a bot that misbehaved right then was charged or not by the
                # race with this look, which a loaded machine made it lose).
                async with trio.open_nursery() as reading:
                    for entry in seen:
                        if entry.player.process.returncode() is None:  # a dead one reads nothing more
                            reading.start_soon(entry.player.wait_input_read, self.startup_s)
            finally:
                for entry in seen:
                    self._end(entry)  # what it did before we end it is still its fault
            self._ended += len(seen)
            # Also those ended earlier (for a fault in a game or between games, the keep limit, a
            # withdrawal) that saw the deal and may not be gone yet.
            self._ending = [entry for entry in self._ending if not entry.closed.is_set()]
            for entry in seen + [entry for entry in self._ending if entry.name in names and deal in entry.deals]:
                await entry.closed.wait()
            # All seats at once: at a pass's first game every seat may need a new process.
            async with trio.open_nursery() as nursery:
                for seat in range(len(seats)):
                    nursery.start_soon(hand_out, seat)
        except BaseException:
            handed = [(name, player) for name, player in zip(seats, players) if player is not None]
            self.checkin_game([name for name, _ in handed], [player for _, player in handed])
            raise
        finally:
            self._claims.difference_update((name, deal) for name in names)
            self._notify()
        return players

    def ready(self, seats: Sequence[str], deal: int) -> bool:
        """Whether a game of ``deal`` could start now without waiting and without starting or
        ending a process: every entrant (broken, withdrawn or charged ones aside) has enough
        idle processes that have not seen ``deal``, and no game of it is in play."""
        names = [name for name in seats if name not in self.broken and name not in self.withdrawn]
        if self._blocked(names, deal):
            return False
        return all(self._charges[name] or sum(deal not in entry.deals for entry in self._idle[name])
                   >= names.count(name) for name in set(names))

    def checkin_game(self, seats: Sequence[str], players: Sequence[Player]) -> dict[int, BotFault]:
        """Take back the players of a finished game (as :meth:`checkout_game` gave them).

        Returns, by seat, the fault between games of a process that died before that game
        reached it (it had played before, crashed, and read not a byte of this game): the
        game's crash at step 0 is that charge (see ``arena.tournament._play.play_scheduled``).
        """
        late: dict[int, BotFault] = {}
        for seat, (name, player) in enumerate(zip(seats, players)):
            entry = self._busy.pop(id(player), None)
            if entry is None:
                continue  # a failed stand-in
            entry.busy = False
            failure = player.failure
            if failure is not None:
                if entry.games > 1 and failure.kind is FaultKind.CRASH and player.read_nothing_of_game():
                    late[seat] = died_between_games(player)
                    self._charged += 1
                elif name not in self.withdrawn:
                    self._start_spare(name)  # a fault in the game: its next game takes a warm one
                self._release(entry)  # its fault was charged in the game
            elif name in self.withdrawn:
                self._release(entry)
            elif self._keep_if_well(entry):
                idle = self._idle[name]
                idle.append(entry)
                while len(idle) > self.keep:
                    self._end(idle.pop(0))
        self._notify()
        return late

    def withdraw(self, name: str, detail: str) -> None:
        """From now on every seat of entrant ``name`` is a failed player (a ``crash`` with
        ``detail``), and none of its processes plays again: idle ones are ended now, busy ones
        when their game ends. Not a fault between games: the arena ends them."""
        if name not in self.specs or name in self.broken:
            return
        self.withdrawn[name] = BotFault(FaultKind.CRASH, f"{detail}; not started again")
        for entry in self._idle[name]:
            self._release(entry)
        self._idle[name].clear()
        self._charges[name].clear()
        self._notify()

    def release_all(self) -> None:
        """Ask every player to shut down; the nursery waits for them (a spare still starting
        is shut down once it is up). A fault between games found but not charged (the entrant
        had no game after it) goes to ``on_death``."""
        self._closing = True
        for idle in self._idle.values():
            for entry in idle:
                self._release(entry)
            idle.clear()
        for entry in self._busy.values():
            self._release(entry)
        self._busy.clear()
        for name, charges in self._charges.items():
            for entry in charges:
                if self.on_death is not None:
                    self.on_death(name, entry.player.failure.detail)
            charges.clear()

    # -- inside ---------------------------------------------------------------------------------

    def _blocked(self, names: Sequence[str], deal: int) -> bool:
        """Whether a game of ``deal`` with one of ``names`` is being checked out or played, or a
        process of theirs that saw ``deal`` is playing (or being handed out for) another game:
        it is ended once that game is over."""
        if any((name, deal) in self._claims for name in names):
            return True
        return any(entry.name in names and deal in entry.deals
                   for entry in [*self._busy.values(), *self._handing])

    def _notify(self) -> None:
        # Wake every waiting checkout (each waits on the event current when it began to wait).
        self._changed.set()
        self._changed = trio.Event()

    async def _hand_out(self, name: str, deal: int) -> Player:
        if name in self.broken:
            return self.broken[name]
        if name in self.withdrawn:
            return self._stand_in(name, self.withdrawn[name])
        charges = self._charges[name]
        idle = self._idle[name]
        while not charges and not idle and self._starting[name]:
            await self._changed.wait()  # its spare is on the way: no second start beside it
        if name in self.withdrawn:  # withdrawn meanwhile
            return self._stand_in(name, self.withdrawn[name])
        while not charges and idle:
            entry = idle.pop()  # the most recently used: the warmest, and the fewest deals tainted
            if not entry.player.usable:
                return self._busy_with(entry, deal)  # a spare that could not start: this game's fault
            if entry.player.process.returncode() is None:
                # Only once it has read the last game's `end`, so that a death right after it
                # is told from a crash in the new game (see `checkin_game`). Meanwhile it is
                # neither idle nor busy: `_blocked` counts it as playing.
                self._handing.append(entry)
                try:
                    await entry.player.wait_input_read(self.startup_s)
                except BaseException:
                    # Cancelled (the coordinator is gone, the game stopped) or failed while
                    # handed out: neither idle nor busy, nobody else would ever end it, and
                    # the pool's nursery would wait for it forever.
                    self._release(entry)
                    raise
                finally:
                    self._handing.remove(entry)
            if self._keep_if_well(entry):
                return self._busy_with(entry, deal)
        if charges:
            # Its own failed player stands in, with its last stderr lines once it is shut down.
            entry = charges.pop(0)
            with trio.move_on_after(_CHARGED_CLOSE_S):
                await entry.closed.wait()
            return entry.player
        return self._busy_with(await self._start(name), deal)

    def _busy_with(self, entry: PooledProcess, deal: int) -> Player:
        entry.deals.add(deal)
        entry.games += 1
        entry.busy = True
        entry.player.begin_game()
        self._busy[id(entry.player)] = entry
        return entry.player

    def _keep_if_well(self, entry: PooledProcess) -> bool:
        """Whether ``entry`` (back from a game) did nothing wrong since; if it did, it is
        ended and its fault waits for the entrant's next game."""
        fault = entry.player.idle_fault()
        if fault is None:
            return True
        entry.player.fail(fault)  # kills its process group now
        self._release(entry)
        self._charges[entry.name].append(entry)
        self._charged += 1
        return False

    def _release(self, entry: PooledProcess) -> None:
        """Tell ``entry``'s process to shut down; until it is gone, no game of a deal it saw starts."""
        entry.release.set()
        if entry.deals:
            self._ending.append(entry)

    def _end(self, entry: PooledProcess) -> None:
        """End an idle process, charging first what it did wrong since its game."""
        if self._keep_if_well(entry):
            self._release(entry)

    def _stand_in(self, name: str, fault: BotFault) -> Player:
        """A failed player for a seat of ``name`` that no process plays: forfeited with ``fault``."""
        player = Player(self.specs[name], None, protocol.DEFAULT_MAX_FRAME)
        player.failure = fault
        return player

    async def _start(self, name: str) -> PooledProcess:
        self.started += 1
        return await self.nursery.start(serve_pooled, name, self.specs[name], self.startup_s, self.sandbox,
                                        self.log_dir)

    def _start_spare(self, name: str) -> None:
        """Start a process of ``name`` in the background, for its next game, unless the pool is
        closing or ``name`` has ``keep`` idle processes or spares starting already."""
        if self._closing or len(self._idle[name]) + self._starting[name] >= self.keep:
            return
        self._starting[name] += 1
        self._spares += 1
        self.nursery.start_soon(self._spare, name)

    async def _spare(self, name: str) -> None:
        try:
            entry = await self._start(name)
            if self._closing or name in self.withdrawn:
                entry.release.set()  # it saw no deal: nothing waits for it to be gone
            else:
                self._idle[name].append(entry)  # one that could not start fails its next game
        finally:
            self._starting[name] -= 1
            self._notify()
