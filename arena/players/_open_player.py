"""A player's life around its games: :func:`open_player` starts its bot, shakes hands, and on
exit says ``bye`` and ends every process it started."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import trio

import protocol

from ..sandbox import Sandbox
from ._faults import BotFault, FaultKind
from ._manifest import BotSpec
from ._player import Player
from ._process import open_bot_process


@asynccontextmanager
async def open_player(spec: BotSpec, startup_s: float = 10.0,
                      max_frame: int = protocol.DEFAULT_MAX_FRAME,
                      sandbox: Sandbox | None = None, log_dir: Path | None = None) -> AsyncIterator[Player]:
    """Start a bot and shake hands; on exit say ``bye`` and kill its process group.

    Never raises for the bot's faults: a bot that cannot start or fails the handshake
    yields a :class:`Player` whose ``failure`` says why.
    """
    async with AsyncExitStack() as stack:
        try:
            if spec.cwd is not None and not Path(spec.cwd).is_dir():
                # Said here, or the failed chdir would be reported as the program missing.
                problem = "is a file, not a folder" if Path(spec.cwd).exists() else "does not exist"
                raise BotFault(FaultKind.CRASH, f"could not start: its folder (cwd) {spec.cwd} {problem}")
            process = await stack.enter_async_context(open_bot_process(spec, sandbox, log_dir=log_dir))
        except BotFault as fault:
            player = Player(spec, None, max_frame)
            player.failure = fault
        else:
            player = Player(spec, process, max_frame)
            if process.cgroup is not None:
                process.cgroup.wake()  # it starts thawed: starting up is on move
            try:
                await player.handshake(startup_s)
            except BotFault as fault:
                player.fail(player.explain(fault))
            finally:
                if process.cgroup is not None:
                    process.cgroup.rest()
        try:
            yield player
        finally:
            if player.usable:
                player.process.release()  # thawed for good: it must read `bye` and exit
                with trio.move_on_after(0.5) as scope:
                    scope.shield = True
                    try:
                        await player.connection.send(protocol.bye())
                    except BotFault:
                        pass
                    await player.process.process.wait()
