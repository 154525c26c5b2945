"""One bot process as :class:`~arena.players._pool.BotPool` keeps it: started in a task of its
own, so that it can be ended alone, with the deals it has been handed out for; and the fault of
one found dead between games."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import trio

from ..sandbox import Sandbox
from ._faults import BotFault, FaultKind
from ._manifest import BotSpec
from ._open_player import open_player
from ._player import Player


@dataclass(eq=False)
class PooledProcess:
    """One started bot of the pool, with the deals it has been handed out for."""

    name: str
    player: Player
    release: trio.Event
    closed: trio.Event
    deals: set[int] = field(default_factory=set)
    games: int = 0
    busy: bool = False


async def serve_pooled(name: str, spec: BotSpec, startup_s: float, sandbox: Sandbox | None, log_dir: Path | None,
                       task_status=trio.TASK_STATUS_IGNORED) -> None:
    """The task one pooled process lives in (started with ``nursery.start``): starts the bot,
    hands back its :class:`PooledProcess`, and shuts it down once its ``release`` is set
    (``closed`` is set when it is gone)."""
    release, closed = trio.Event(), trio.Event()
    try:
        async with open_player(spec, startup_s, sandbox=sandbox, log_dir=log_dir) as player:
            task_status.started(PooledProcess(name, player, release, closed))
            await release.wait()
    finally:
        closed.set()


def died_between_games(player: Player) -> BotFault:
    """The fault of a process found dead (or its stdout closed) after its last game."""
    code = player.process.returncode() if player.process is not None else None
    how = ("closed its stdout" if code is None else
           f"exited with code {code}" if code >= 0 else f"was killed by signal {-code}")
    return BotFault(FaultKind.CRASH, f"{how} between games", between_games=True)
