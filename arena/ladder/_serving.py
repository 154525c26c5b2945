"""Serving an ASGI app with Hypercorn on the caller's trio loop (the ladder's pages, and
``arena play``'s): bound, quiet, and an address it cannot listen on as one ``OSError``; and
Ctrl-C as one clean stop of the whole loop (:func:`until_interrupted`)."""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import trio


async def until_interrupted(main: Callable[[], Awaitable[None]]) -> None:
    """Run ``main()`` until it returns, or until SIGINT (Ctrl-C): then cancel it, let it
    unwind (bots stopped, files closed) and raise :class:`KeyboardInterrupt` here, once.

    Why not trio's own Ctrl-C: it raises ``KeyboardInterrupt`` in whichever task is running
    when the signal lands. In a task Hypercorn runs for a page's WebSocket, Hypercorn's ASGI
    guard catches it as the app's error (``Error in ASGI Framework``), closes that socket
    with 1011, and serves on. Here the signal is a message to one task, which cancels the
    whole loop; further Ctrl-Cs while it unwinds are taken and ignored (it is stopping).
    """
    interrupted = False
    with trio.open_signal_receiver(signal.SIGINT) as signals:
        with trio.CancelScope() as scope:
            watching = trio.CancelScope()
            watched = trio.Event()

            async def watch() -> None:
                nonlocal interrupted
                try:
                    with watching:
                        async for _ in signals:
                            interrupted = True
                            scope.cancel()
                            return
                finally:
                    watched.set()

            # A system task: it is no child of ``main``'s nurseries, so its cancellation
            # cannot come out of them in an exception group. It ends before the receiver
            # closes, however ``main`` ends (reading a closed one is trio's internal error).
            trio.lowlevel.spawn_system_task(watch)
            try:
                await main()
            finally:
                watching.cancel()
                with trio.CancelScope(shield=True):
                    await watched.wait()
    if interrupted:
        raise KeyboardInterrupt


async def start_serving(nursery: trio.Nursery, app: Any, host: str, port: int) -> str:
    """Serve ``app`` on ``host:port`` in ``nursery`` until it is cancelled; the server's URL
    once the port is bound. Raises the :class:`OSError` of an address it cannot listen on
    (taken, not this machine's), not Hypercorn's exception groups."""
    from hypercorn.config import Config
    from hypercorn.trio import serve

    web = Config()
    web.bind = [f"{host}:{port}"]
    web.accesslog = None
    web.loglevel = "WARNING"  # the caller's own line says where it listens
    # Not ``except* OSError``: Python before 3.11.4 (Debian 12 has 3.11.2) wraps an exception
    # raised in such a block in a group again.
    try:
        urls = await nursery.start(partial(serve, app, web, shutdown_trigger=trio.sleep_forever))
    except BaseExceptionGroup as group:
        matched, _ = group.split(OSError)
        if matched is None:
            raise
        error: BaseException = matched
        while isinstance(error, BaseExceptionGroup):
            error = error.exceptions[0]
        raise error from None
    return urls[0]
