"""The play server's web side: a Starlette app behind a token gate.

Routes, under each person's token: ``/TOKEN/`` (the page) and ``/TOKEN/ws`` (a WebSocket: the
server pushes the seat's messages, the page sends the person's answers and "play again");
``/favicon.ico``, the one address without a token (an icon, nothing of the game). Every other
request, and every request without a valid token, gets 403 (the gate answers before any route
is looked at), so another user of the machine cannot act for the player.

The gate also defends against DNS rebinding: a page of another site whose name was made to
point at 127.0.0.1 reaches this server from the person's own browser, with the server's
address but a foreign ``Host`` (and, for a WebSocket, a foreign ``Origin``). Only the local
names (``localhost``, ``127.0.0.1``, ``[::1]``) and the host the server was told to bind, each
with the port, pass; a WebSocket must come from the page's own origin (``http://`` and its
``Host``). Others get 403, a WebSocket is refused, before the token is looked at.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Mapping
from typing import Any

import trio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ._human import HumanSeat
from ._page import play_html
from ._session import PlaySession

#: the largest message a page may send (an answer, or "play again")
MAX_MESSAGE = 16 * 1024
#: the names of this machine a browser may use for the server, besides the one it binds
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
#: the page's icon (a pirate flag), served at /favicon.ico: browsers ask for it
FAVICON = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="2" '
           b'fill="#222"/><circle cx="8" cy="6.5" r="3.5" fill="#fff"/><rect x="6" y="9" width="4" height="2.5" '
           b'fill="#fff"/><circle cx="6.7" cy="6.3" r="1" fill="#222"/><circle cx="9.3" cy="6.3" r="1" fill="#222"/>'
           b'<path d="M2 12l12 3M14 12L2 15" stroke="#fff" stroke-width="1.3"/></svg>')


def local_hosts(bind_host: str, port: int) -> frozenset[str]:
    """The ``Host`` values a browser on this machine sends for the server: each local name and
    ``bind_host``, with ``:port`` (and without it on port 80, where browsers leave it out)."""
    bound = f"[{bind_host}]" if ":" in bind_host and not bind_host.startswith("[") else bind_host
    names = {name.lower() for name in (*LOCAL_NAMES, bound)}
    return frozenset({f"{name}:{port}" for name in names} | (names if port == 80 else set()))


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    values = [value for key, value in scope.get("headers", []) if key.lower() == name]
    return values[0].decode("latin-1") if len(values) == 1 else None  # two Hosts: none


class TokenGate:
    """ASGI middleware: only requests for a local host name (:attr:`hosts`; a WebSocket also
    from the page's own origin) reach anything, and only paths ``/TOKEN/...`` of a known token
    (and ``/favicon.ico``) reach ``app``; others get 403 (a WebSocket is refused before it is
    accepted, which is a 403 too). :attr:`hosts` is empty, refusing all, until the server has
    bound its port (:func:`local_hosts`)."""

    def __init__(self, app: Any, tokens: list[str]) -> None:
        self.app = app
        self.tokens = [token.encode() for token in tokens]
        self.hosts: frozenset[str] = frozenset()

    def local(self, scope: dict[str, Any]) -> bool:
        """Whether the request names this server as a local page would (DNS rebinding)."""
        host = _header(scope, b"host")
        if host is None or host.lower() not in self.hosts:
            return False
        origin = _header(scope, b"origin")
        if origin is None:
            return scope["type"] == "http"  # a browser sends Origin with every WebSocket
        return origin.lower() == f"http://{host.lower()}"

    def allowed(self, path: str) -> bool:
        parts = path.split("/")
        if len(parts) < 3 or parts[0] != "":
            return False
        given = parts[1].encode()
        return any(hmac.compare_digest(given, token) for token in self.tokens)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)  # lifespan
            return
        local = self.local(scope)
        if scope["type"] == "http" and local and scope["path"] == "/favicon.ico":
            await Response(FAVICON, media_type="image/svg+xml",
                           headers={"Cache-Control": "max-age=86400"})(scope, receive, send)
            return
        if local and self.allowed(scope["path"]):
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            why = ("this address needs the token of the URL that `arena play` printed" if local else
                   "this server answers only to the address `arena play` printed (localhost), not to this host name")
            await Response(f"403: {why}\n", status_code=403, media_type="text/plain")(scope, receive, send)
        else:
            await send({"type": "websocket.close", "code": 1008})


def welcome(session: PlaySession, seat: HumanSeat) -> dict[str, Any]:
    """What a page of ``seat`` learns first: the table (public), never the deal."""
    setup = session.setup
    tc = setup.settings.time_control
    return {"type": "welcome", "game": setup.game, "title": session.game.name, "players": setup.players,
            "seat": seat.seat, "random_seat": setup.random_seat, "names": session.names,
            "humans": sorted(session.seats), "options": dict(session.game.resolve_options(setup.options)),
            "human_move_ms": setup.human_move_ms, "bot_limits": [tc.move_ms, tc.reserve_ms],
            "where": session.where()}


def _dumps(message: Mapping[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), default=list)


def build_app(session: PlaySession) -> TokenGate:
    """The ASGI app of ``session``'s seats (each by its token), behind :class:`TokenGate`."""
    by_token = {seat.token: seat for seat in session.seats.values()}
    pages = {game: play_html(game, session.game.name) for game in {session.setup.game}}

    async def page(request: Request) -> Response:
        seat = by_token[request.path_params["token"]]
        return HTMLResponse(pages[session.setup.game], headers={
            "Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
            "X-Seat": str(seat.seat)})

    async def socket(websocket: WebSocket) -> None:
        seat = by_token[websocket.path_params["token"]]
        await websocket.accept()
        await websocket.send_text(_dumps(welcome(session, seat)))

        async def push() -> None:
            async for message in seat.follow():
                await websocket.send_text(_dumps(message))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(push)
            try:
                while True:
                    text = await websocket.receive_text()
                    if len(text) > MAX_MESSAGE:
                        continue
                    _handle(session, seat, text)
            except (WebSocketDisconnect, KeyError, RuntimeError):
                pass
            finally:
                nursery.cancel_scope.cancel()

    routes = [Route("/{token}/", page), WebSocketRoute("/{token}/ws", socket)]
    return TokenGate(Starlette(routes=routes), list(by_token))


def _handle(session: PlaySession, seat: HumanSeat, text: str) -> None:
    """One message of a page: ``{"type": "act", "decision": N, "choice": I}`` (or ``"action"``
    for a decision without a list) or ``{"type": "again", "same": bool}``."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        return
    if not isinstance(message, dict):
        return
    if message.get("type") == "act":
        seat.answer(message.get("decision"), message.get("choice"), message.get("action"))
    elif message.get("type") == "again":
        session.play_again(bool(message.get("same")))
