"""The worker process: ``python -m arena.tournament._worker_process``, started by
:class:`~arena.tournament._workers.Workers` (or by :mod:`arena.tournament._dask` on a Dask worker).

It reads a :class:`~arena.tournament._worker_setup.Setup`, runs its pool's pre-flight, then plays
the games it is sent, ``setup.slots`` at once, and sends back each result; the messages are
described in :mod:`arena.tournament._workers`. Closing its stdin stops it.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from collections import deque

import trio

from ..sandbox import Sandbox
from ._frames import FrameReader, frame
from ._handout import LOOKAHEAD, pick
from ._schedule import ScheduledGame
from ._worker_setup import Setup, worker_sandbox


def _sweep_dead_workers(sandbox: Sandbox | None) -> None:
    """Kill what arena processes that died (those of other workers included) left on this
    machine: a game given back by a dead worker may be one of theirs."""
    if sandbox is not None and sandbox.cgroups is not None:
        sandbox.cgroups.sweep_stale()



async def _worker_main() -> None:
    stdin = trio.lowlevel.FdStream(os.dup(0))
    stdout = trio.lowlevel.FdStream(os.dup(1))
    reader = FrameReader(stdin)
    write_lock = trio.Lock()

    async def send(message: tuple) -> None:
        async with write_lock:
            await stdout.send_all(frame(message))

    first = await reader.receive()
    if first is None:
        return
    try:
        await _play_games(first[1], reader, send)
    except (Exception, BaseExceptionGroup) as error:
        # A bot that may not run here (SandboxError), an unusable log folder...: the
        # coordinator raises it as its own, so the user sees the same one line as without workers.
        await send(("fatal", _picklable(_first_leaf(error))))


def _first_leaf(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


def _picklable(error: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        return RuntimeError(f"worker process: {type(error).__name__}: {error}")


async def _play_games(setup: Setup, reader: FrameReader, send) -> None:
    """Pre-flight, then play the games ``reader`` brings until it ends."""
    from ..players import open_bot_pool, StartupError
    from ._play import play_scheduled

    config = setup.config
    # On a Dask worker of another machine the coordinator's log folder may not exist yet.
    setup.log_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    sandbox = worker_sandbox(setup.sandbox)
    specs = {spec.name: spec for spec in config.entrants}
    deaths: list[tuple[str, str]] = []
    # The games sent and not begun (the coordinator sends at most twice the slots ahead): each
    # slot takes the first that can start at once on the pool's idle processes (pick).
    queue: deque[ScheduledGame] = deque()
    arrived = trio.Event()
    try:
        async with open_bot_pool(specs, config.settings.time_control.startup_ms / 1000, sandbox, setup.log_dir,
                                 keep=setup.keep, on_death=lambda name, detail: deaths.append((name, detail))) as pool:
            try:
                broken = await pool.preflight([name for name in specs if name not in setup.withdrawn],
                                              skip_broken=setup.skip_broken)
            except StartupError as error:
                await send(("ready", [], str(error), sorted(sandbox.root_bots) if sandbox else []))
                return
            for name, detail in setup.withdrawn.items():
                pool.withdraw(name, detail)
            await send(("ready", broken, None, sorted(sandbox.root_bots) if sandbox else []))
            from engines import get_game

            game = get_game(config.game)

            async def slot() -> None:
                while True:
                    while not queue:
                        await arrived.wait()
                    scheduled = pick(queue, lambda next_game: pool.ready(next_game.seats, next_game.seed),
                                     LOOKAHEAD * setup.slots)
                    result = await play_scheduled(game, scheduled, pool, config)
                    while deaths:
                        await send(("death", *deaths.pop(0)))
                    await send(("result", scheduled.key, result))

            async with trio.open_nursery() as nursery:
                for _ in range(setup.slots):
                    nursery.start_soon(slot)
                while (message := await reader.receive()) is not None:
                    if message[0] == "withdraw":
                        pool.withdraw(message[1], message[2])
                        continue
                    _, scheduled, sweep = message
                    if sweep:
                        _sweep_dead_workers(sandbox)
                    queue.append(scheduled)
                    arrived.set()
                    arrived = trio.Event()
                # stdin closed: the coordinator is done with us (or gone); games in flight are dropped
                nursery.cancel_scope.cancel()
    finally:
        if sandbox is not None:
            sandbox.close()


def main() -> None:
    # Ctrl-C is the coordinator's to handle: it closes our stdin, and we stop our bots then.
    # (The terminal's does not reach us: we run in a process group of our own. This is for a
    # SIGINT sent to us alone.)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Nothing but frames may reach the coordinator's pipe: stray prints go to stderr.
    sys.stdout = sys.stderr
    try:
        trio.run(_worker_main)
    except (BrokenPipeError, trio.BrokenResourceError):
        pass  # the coordinator is gone


if __name__ == "__main__":
    main()
