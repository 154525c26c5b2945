"""The pool's life around its games: :func:`open_bot_pool` opens a
:class:`~arena.players._pool.BotPool` and, on exit, shuts down every process it started."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from ..sandbox import Sandbox
from ._manifest import BotSpec
from ._pool import BotPool
from ._startup import StartupError


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
