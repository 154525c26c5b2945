"""The Python bot SDK: write a policy, get a bot process that speaks protocol v1 (1.1).

A bot is an object with ``act(request) -> action`` (and optionally ``start`` and ``end``);
:func:`run` does the framing and the message loop on stdin/stdout. The simplest bot::

    from bots.sdk import PolicyBot, run

    def first_legal(request, rng):
        return request.legal[0]

    run(PolicyBot("first-legal", {"dead-mans-draw": first_legal}))

The loop is deliberately plain blocking I/O: a bot is one process doing one thing at a time.

Since protocol 1.1 the arena sends a game's static observation fields (Karibik's map) once, in
``start.static``, and leaves them out of every request; :func:`run` puts them back, so
``Request.observation`` is the complete observation whichever version the bot speaks. A bot
whose ``protocol`` is ``"1.0"`` gets complete observations on the wire instead.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

import protocol

__all__ = ["Bot", "PolicyBot", "Request", "run"]


@dataclass(frozen=True)
class Request:
    """One decision request, as the arena sent it (see SPEC.md, "request"), with the game's
    static observation fields of ``start.static`` merged back into ``observation`` (shared
    between the requests of a game: do not modify them)."""

    id: int
    game: str
    seat: int
    players: int
    options: Mapping[str, Any]
    kind: str
    observation: Mapping[str, Any]
    events: list[Any]
    legal: list[Any] | None
    time_left_ms: int
    move_ms: int


class Bot:
    """Base class of a bot. Override :meth:`act`; ``start`` and ``end`` are optional."""

    name = "unnamed-bot"
    version = "0"
    games: tuple[str, ...] = ()
    #: the protocol version the bot says in its ``hello``; "1.0" asks for full observations
    protocol = protocol.PROTOCOL_VERSION_STRING
    #: whether the bot budgets its thinking by the clock, so that its choices depend on how
    #: fast it ran: its hello says so (``clock_bound``), and ``arena rerun`` names it as the
    #: likely reason a game played again went otherwise
    clock_bound = False

    def start(self, message: Mapping[str, Any]) -> None:
        """A new game begins (the ``start`` message)."""

    def act(self, request: Request) -> Any:
        raise NotImplementedError

    def end(self, message: Mapping[str, Any]) -> None:
        """The game is over (the ``end`` message: ranks, scores, last events)."""


Policy = Callable[[Request, random.Random], Any]


class PolicyBot(Bot):
    """A bot made of one policy function per game id.

    Each game gets a fresh ``random.Random`` seeded with the ``bot_seed`` of its ``start``
    message, so the bot plays the same game the same way every time.
    """

    def __init__(self, name: str, policies: Mapping[str, Policy], version: str = "1.0",
                 clock_bound: bool = False) -> None:
        self.name = name
        self.clock_bound = clock_bound
        self.version = version
        self.policies = dict(policies)
        self.games = tuple(self.policies)
        self.rng = random.Random(0)

    def start(self, message: Mapping[str, Any]) -> None:
        self.rng = random.Random(message.get("bot_seed", 0))

    def act(self, request: Request) -> Any:
        return self.policies[request.game](request, self.rng)


def _read_exact(stream: BinaryIO, size: int) -> bytes | None:
    data = stream.read(size)
    if not data:
        return None
    while len(data) < size:
        more = stream.read(size - len(data))
        if not more:
            raise EOFError("arena closed the pipe in the middle of a frame")
        data += more
    return data


def read_message(stream: BinaryIO) -> dict[str, Any] | None:
    """Read one framed message; ``None`` at end of input."""
    header = _read_exact(stream, protocol.HEADER_SIZE)
    if header is None:
        return None
    (length,) = protocol.HEADER.unpack(header)
    payload = _read_exact(stream, length) if length else b""
    return protocol.decode_payload(payload or b"")


def write_message(stream: BinaryIO, message: Mapping[str, Any]) -> None:
    stream.write(protocol.encode(dict(message)))
    stream.flush()


def run(bot: Bot, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
    """Serve ``bot`` on stdin/stdout until the arena says ``bye`` or closes the pipe."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    game: Mapping[str, Any] = {}
    static: Mapping[str, Any] = {}
    while True:
        message = read_message(stdin)
        if message is None:
            return
        kind = message.get("type")
        if kind == "hello":
            hello = {
                "type": "hello",
                "protocol": bot.protocol,
                "name": bot.name,
                "version": bot.version,
                "games": list(bot.games),
            }
            if bot.clock_bound:
                hello["clock_bound"] = True
            write_message(stdout, hello)
        elif kind == "start":
            game = message
            static = message.get("static") or {}
            bot.start(message)
        elif kind == "request":
            request = Request(
                id=message["id"],
                game=game.get("game", ""),
                seat=game.get("seat", 0),
                players=game.get("players", 0),
                options=game.get("options", {}),
                kind=message["kind"],
                observation={**static, **message["observation"]} if static else message["observation"],
                events=message["events"],
                legal=message["legal"],
                time_left_ms=message["time_left_ms"],
                move_ms=message["move_ms"],
            )
            write_message(stdout, {"type": "action", "id": request.id, "action": bot.act(request)})
        elif kind == "end":
            bot.end(message)
        elif kind == "bye":
            return
