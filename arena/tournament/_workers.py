"""Worker processes: a tournament's games played on several cores.

The coordinator (the process that runs :class:`~arena.tournament._runner.TournamentRunner`) owns
the schedule and is the only writer of the store. It starts ``workers`` copies of this
program (``python -m arena.tournament._worker_process``), each with its own trio loop, its own
:class:`~arena.players._pool.BotPool` (so the pool's rules, among them "no process sees a deal
twice", hold in each) and its own share of the concurrency. Messages are length-prefixed
pickles over the worker's stdin and stdout (pipes; on a Dask cluster one TCP socket, see
:mod:`arena.tournament._dask`): both ends are this arena's own code, and no bot
byte is ever unpickled unchecked (a bot's output reaches a worker through the protocol
decoder, and the worker pickles only the :class:`MatchResult` it built).

coordinator -> worker: ``("setup", Setup)`` once, then ``("game", ScheduledGame, sweep)`` per
game (``sweep``: a game given back by a worker that died; see below) and ``("withdraw",
entrant, detail)`` for an entrant withdrawn during the run (:meth:`BotPool.withdraw`);
closing stdin means stop (the games in flight are dropped: they are not stored).
worker -> coordinator: ``("ready", broken, startup_error, root_bots)`` after its pre-flight,
``("result", key, MatchResult)`` per game, ``("death", entrant, detail)`` for a fault between
games the pool found after the entrant's last game (charged to none),
``("fatal", exception)`` when it cannot go on (the coordinator
raises that exception: a bot that may not run here is the same one-line error as without
workers).

Games are handed out by a :class:`~arena.tournament._handout.GameSource`: every rotation of a block to
one worker, rotation-major over windows of blocks, so that each worker's pool can end a
process before another rotation of a deal it saw starts (the pool's deal rule) at little cost.
A worker that dies (killed, crashed) loses nothing: the coordinator kills what is left of its
bots (its cgroup folder, ``pirate-arena-<pid>``) and then plays its unfinished games, as one
window, on another worker; a game stored twice with the same content is a no-op in the store.
Games given back are sent with ``sweep`` set: the worker that takes them first kills what
arena workers that died left on its own machine (a Dask worker's arena worker dies where the
coordinator cannot reach its cgroups).
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import trio

from ..sandbox import find_cgroups, spawn, enter_own_namespace, kill_descendants, namespace_of
from ._frames import FrameReader, frame
from ._handout import LOOKAHEAD, GameSource
from ._schedule import ScheduledGame
from ._worker_setup import Setup


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class WorkerLost(Exception):
    """Workers keep dying: the tournament stops (its stored games are kept; resume later)."""


@dataclass
class Workers:
    """Plays the games of ``source`` on ``count`` worker processes, started as given by
    ``setup`` (each with ``setup.slots`` games at once).

    ``on_result(scheduled, result)`` runs in the coordinator for every finished game (it
    stores it); ``on_death(entrant, detail)`` for a fault between games that a worker could
    charge to no game; ``on_lost(message)`` for every worker that died (its bots are killed,
    and its games are played again by another worker, started in its place).
    """

    setup: Setup
    count: int
    source: GameSource
    on_result: Any
    on_death: Any
    on_lost: Any
    broken: set[str] = dataclasses.field(default_factory=set)
    root_bots: set[str] = dataclasses.field(default_factory=set)
    startup_error: str | None = None
    lost: int = 0
    #: the worker processes' pids, live ones (for tests)
    pids: set[int] = dataclasses.field(default_factory=set)

    #: why the run stopped early: an entrant cannot start, or workers keep dying
    error: Exception | None = None

    async def run(self) -> None:
        """Play every game of the source; on return, :attr:`error` says if the run stopped early."""
        self.plan_windows()
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            for _ in range(self.count):
                nursery.start_soon(self._keep_one)

    def plan_windows(self) -> None:
        """Size the source's windows for ``count`` workers of ``setup.slots`` games at once."""
        self.source.plan = dataclasses.replace(self.source.plan, share=self.setup.slots, workers=self.count)

    def _stop(self, error: Exception) -> None:
        if self.error is None:
            self.error = error
        self._nursery.cancel_scope.cancel()

    async def _keep_one(self) -> None:
        while await self._serve_one():
            self.lost += 1
            if self.lost > 2 * self.count + 2:
                self._stop(WorkerLost(f"{self.lost} worker processes died; stored games are kept, "
                                      f"resume to play the rest"))
                return

    async def _serve_one(self) -> bool:
        """Run one worker process until the source is empty; ``True`` if it died first."""
        # Its own process group: the terminal's Ctrl-C (SIGINT to the foreground group) reaches
        # the coordinator alone, which stops the worker by closing its stdin. Ignoring SIGINT
        # in main() is too late: Python takes a while to get there, and a Ctrl-C in that window
        # printed a KeyboardInterrupt traceback. The worker's bots have sessions of their own
        # anyway, and it is still ended by pid (process.kill) and its bots by cgroup. Started by
        # _spawn: a coordinator killed with kill -9 takes its workers with it (and they their bots).
        # Without root, in a user namespace of its own, which holds its bots' (see _userns): a
        # worker that dies leaves nothing its coordinator cannot find (kill_worker_bots).
        own = bool((self.setup.sandbox or {}).get("own_namespaces"))
        process = await spawn([sys.executable, "-m", "arena.tournament._worker_process"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, process_group=0,
                              preexec_fn=enter_own_namespace if own else None)
        namespace = namespace_of(process.pid) if own else None
        self.pids.add(process.pid)
        served = self.served(process.stdin, process.stdout)
        try:
            await self.serve(served)
            return served.died
        finally:
            with trio.CancelScope(shield=True):
                await process.stdin.aclose()
                # The worker stops its bots (each with its grace period) once its stdin closes.
                with trio.move_on_after(60):
                    await process.wait()
                if process.returncode is None:
                    process.kill()
                    await process.wait()
                await process.stdout.aclose()
                self.pids.discard(process.pid)
                if served.died:
                    # Before its games go to another worker: no process that saw their deals
                    # may be alive when they start (a worker killed with SIGKILL leaves its bots).
                    await trio.to_thread.run_sync(kill_worker_bots, self.setup, process.pid, namespace)
                games = self.give_back(served)
                if served.died:
                    code = process.returncode
                    how = f"exited with code {code}" if code >= 0 else f"was killed by signal {-code}"
                    self.on_lost(f"worker process {process.pid} {how}; "
                                 f"its {games} unfinished games are played again")

    def served(self, send: trio.abc.SendStream, receive: trio.abc.ReceiveStream) -> _Served:
        # Games ahead of its slots: a slot that finishes finds its next game already there
        # instead of waiting for the result's round trip through this process, and can take
        # one whose entrants have an idle process (arena.tournament._handout.pick). They are of its own
        # window, so sending them early takes nothing from another worker.
        return _Served(send, FrameReader(receive), trio.Semaphore(LOOKAHEAD * self.setup.slots))

    def give_back(self, served: _Served) -> int:
        """Put the games ``served`` did not finish, and the rest of its window, back in the
        source; how many there were (none unless it died or the run was stopped)."""
        games = list(served.outstanding.values())
        served.outstanding.clear()
        return self.source.give_back(served, games)

    async def serve(self, served: _Served, where: str = "") -> None:
        """Set up one worker and play games on it until the source is empty or it dies
        (then ``served.died``). ``where`` is added to a pre-flight error (which worker)."""
        setup = dataclasses.replace(self.setup, withdrawn=dict(self.source.withdrawn))
        served.withdrawn.update(setup.withdrawn)
        try:
            await served.send.send_all(frame(("setup", setup)))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # it died at once: the read below says so
        ready = await served.reader.receive()
        if ready is None:
            served.died = True
            return
        if ready[0] == "fatal":
            self._stop(ready[1])
            return
        _, broken, error, root_bots = ready
        self.broken.update(broken)
        self.root_bots.update(root_bots)
        if error is not None:
            from ..players import StartupError

            self._stop(StartupError(error + where))
            return
        await self.preflight_done()
        async with trio.open_nursery() as nursery:
            served.nursery = nursery
            nursery.start_soon(self._feed, served)
            nursery.start_soon(self._read, served)

    async def preflight_done(self) -> None:
        """Called when a worker's pre-flight passed, before its first game (a Dask run waits
        here for every worker's)."""

    async def _feed(self, served: _Served) -> None:
        while True:
            await served.capacity.acquire()
            scheduled = await self.source.take(served)
            if scheduled is None:
                served.drained = True
                served.stop_if_finished()
                return
            served.outstanding[scheduled.key] = scheduled
            news = [(name, detail) for name, detail in self.source.withdrawn.items() if name not in served.withdrawn]
            served.withdrawn.update(news)
            message = b"".join(frame(("withdraw", name, detail)) for name, detail in news)
            try:
                await served.send.send_all(message + frame(("game", scheduled, scheduled.key in self.source.retried)))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                return  # it died: the reader finds its pipe closed

    async def _read(self, served: _Served) -> None:
        while True:
            message = await served.reader.receive()
            if message is None:
                served.died = True
                served.nursery.cancel_scope.cancel()
                return
            if message[0] == "death":
                self.on_death(message[1], message[2])
                continue
            if message[0] == "fatal":
                self._stop(message[1])
                return
            scheduled = served.outstanding.pop(message[1])
            self.source.done()
            served.capacity.release()
            self.on_result(scheduled, message[2])
            served.stop_if_finished()


@dataclass(eq=False)
class _Served:
    """One worker as the coordinator sees it: the games it was sent and not yet
    answered, and whether it has died."""

    send: trio.abc.SendStream
    reader: FrameReader
    capacity: trio.Semaphore
    outstanding: dict[str, ScheduledGame] = dataclasses.field(default_factory=dict)
    #: the withdrawals it was told of
    withdrawn: dict[str, str] = dataclasses.field(default_factory=dict)
    drained: bool = False
    died: bool = False
    nursery: trio.Nursery | None = None

    def stop_if_finished(self) -> None:
        if self.drained and not self.outstanding:
            self.nursery.cancel_scope.cancel()


def kill_worker_bots(setup: Setup, pid: int, namespace: int | None = None) -> None:
    """Kill every bot process the worker ``pid`` (dead) left: through its cgroup folders (in
    every hierarchy of this machine, removed then) as root; without root, every process of its
    user namespace ``namespace`` and below (its bots', their children's, also those that left
    their session: the parent-death signal reaches a bot's own process only), waiting until
    none is left."""
    if namespace is not None:
        kill_descendants(namespace)
    if not (setup.sandbox or {}).get("cgroups"):
        return
    layout = find_cgroups(f"pirate-arena-{pid}")
    if layout is not None:
        layout.close()
