"""The play server's web side: a Starlette app behind a token gate.

Routes, under each person's token: ``/TOKEN/`` (the page) and ``/TOKEN/ws`` (a WebSocket: the
server pushes the seat's messages, the page sends the person's answers and "play again").
Every other request, and every request without a valid token, gets 403 (the gate answers
before any route is looked at), so another user of the machine cannot act for the player.
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


class TokenGate:
    """ASGI middleware: only paths ``/TOKEN/...`` of a known token reach ``app``; others get 403
    (a WebSocket is refused before it is accepted, which is a 403 too)."""

    def __init__(self, app: Any, tokens: list[str]) -> None:
        self.app = app
        self.tokens = [token.encode() for token in tokens]

    def allowed(self, path: str) -> bool:
        parts = path.split("/")
        if len(parts) < 3 or parts[0] != "":
            return False
        given = parts[1].encode()
        return any(hmac.compare_digest(given, token) for token in self.tokens)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not self.allowed(scope["path"]):
            await Response("403: this address needs the token of the URL that `arena play` printed\n",
                           status_code=403, media_type="text/plain")(scope, receive, send)
            return
        if scope["type"] == "websocket" and not self.allowed(scope["path"]):
            await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, send)


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


def build_app(session: PlaySession) -> Any:
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
    except ValueError:
        return
    if not isinstance(message, dict):
        return
    if message.get("type") == "act":
        seat.answer(message.get("decision"), message.get("choice"), message.get("action"))
    elif message.get("type") == "again":
        session.play_again(bool(message.get("same")))
