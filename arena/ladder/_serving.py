"""Serving an ASGI app with Hypercorn on the caller's trio loop (the ladder's pages, and
``arena play``'s): bound, quiet, and an address it cannot listen on as one ``OSError``."""

from __future__ import annotations

from functools import partial
from typing import Any

import trio


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
