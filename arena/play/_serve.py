"""``arena play``'s server: the bots, the games and the web server in one trio loop.

Why one loop: the match runner and the bot pool are trio code, and Hypercorn serves ASGI on
trio natively (as the ladder does, :mod:`arena.ladder._app`), so a person's answer goes from the
WebSocket to the waiting match without a thread or a second event loop. The bots are started
(and checked) before the server listens: a bot that cannot start is an error before any URL is
printed.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit
from collections.abc import Callable

import trio

from ..ladder import start_serving
from ..players import open_bot_pool
from ..sandbox import Sandbox
from ._app import build_app, local_hosts
from ._human import HumanSeat
from ._session import PlaySession, PlaySetup, open_play_store


class PlayError(ValueError):
    """``arena play`` cannot serve (the address is taken...); the message says what to do."""


#: one line per person: (seat, URL)
Announce = Callable[[list[tuple[int, str]]], None]


async def serve_play(setup: PlaySetup, sandbox: Sandbox | None, host: str = "127.0.0.1", port: int = 0,
                     announce: Announce = lambda urls: None,
                     ready: Callable[[PlaySession], None] = lambda session: None) -> None:
    """Start the bots, then serve the pages and play games until cancelled.

    ``announce`` gets each person's seat and URL once the port is bound; ``ready`` the
    session (tests). Raises :class:`arena.players._startup.StartupError` for a bot that cannot
    start and :class:`PlayError` for an address it cannot listen on, before any game;
    :class:`arena.tournament._store.StoreError` for a ``--db`` file that holds other games.
    """
    store = open_play_store(setup) if setup.database is not None else None
    try:
        move_s = None if setup.human_move_ms is None else setup.human_move_ms / 1000
        seats = {seat: HumanSeat(seat, name, secrets.token_urlsafe(24), move_s) for seat, name in setup.humans.items()}
        names = setup.names()
        specs = {names[seat]: spec for seat, spec in setup.bots.items()}
        async with open_bot_pool(specs, setup.settings.time_control.startup_ms / 1000, sandbox) as pool:
            await pool.preflight(list(specs), what="bot")
            session = PlaySession(setup, pool, seats, store)
            async with trio.open_nursery() as nursery:
                app = build_app(session)
                try:
                    url = await start_serving(nursery, app, host, port)
                except OSError as error:
                    raise PlayError(f"cannot listen on {host}:{port} ({error.strerror or error}); "
                                    f"choose another --port (0: any free one)") from None
                base = url.rstrip("/")
                # from now on the pages' requests pass the gate (DNS rebinding: see _app)
                app.hosts = local_hosts(host, urlsplit(base).port or 80)
                ready(session)
                announce([(seat.seat, f"{base}/{seat.token}/") for seat in seats.values()])
                nursery.start_soon(session.run)
    finally:
        if store is not None:
            store.close()
