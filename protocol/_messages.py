"""The messages of protocol v1: builders for what the arena sends, parsers for what bots send.

Every parser takes a decoded map and either returns a typed value or raises
:class:`~protocol.BadMessage` / :class:`~protocol.VersionMismatch` with a reason that names the
field and what was expected. See ``protocol/SPEC.md`` for the contract in prose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._errors import BadMessage, VersionMismatch

#: The protocol version this package speaks, as (major, minor).
PROTOCOL_VERSION = (1, 1)
PROTOCOL_VERSION_STRING = f"{PROTOCOL_VERSION[0]}.{PROTOCOL_VERSION[1]}"
#: The first version whose bots get a game's static observation fields once, in ``start.static``,
#: and requests whose observations leave them out (SPEC.md §5.3). Older bots get full observations.
STATIC_SINCE = (1, 1)


# -- arena -> bot ------------------------------------------------------------------------------

def hello(arena: str) -> dict[str, Any]:
    return {"type": "hello", "protocol": PROTOCOL_VERSION_STRING, "arena": arena}


def start(game: str, seat: int, players: int, options: Mapping[str, Any],
          move_ms: int, reserve_ms: int, bot_seed: int = 0,
          static: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The ``start`` message. ``static`` (the game's static observation fields, for a bot that
    speaks :data:`STATIC_SINCE` or later) is added last; ``None`` leaves the field out, so a
    1.0 bot's frame is byte for byte what it was in protocol 1.0."""
    message = {
        "type": "start",
        "game": game,
        "seat": seat,
        "players": players,
        "options": dict(options),
        "move_ms": move_ms,
        "reserve_ms": reserve_ms,
        "bot_seed": bot_seed,
    }
    if static is not None:
        message["static"] = dict(static)
    return message


def request(request_id: int, kind: str, observation: Mapping[str, Any], events: Sequence[Any],
            legal: Sequence[Any] | None, time_left_ms: int, move_ms: int) -> dict[str, Any]:
    return {
        "type": "request",
        "id": request_id,
        "kind": kind,
        "observation": observation,
        "events": events,
        "legal": legal,
        "time_left_ms": time_left_ms,
        "move_ms": move_ms,
    }


def end(ranks: Sequence[int], scores: Sequence[Any], events: Sequence[Any], reason: str) -> dict[str, Any]:
    return {"type": "end", "ranks": list(ranks), "scores": list(scores), "events": events, "reason": reason}


def bye(reason: str = "done") -> dict[str, Any]:
    return {"type": "bye", "reason": reason}


# -- bot -> arena ------------------------------------------------------------------------------

@dataclass(frozen=True)
class BotHello:
    """A bot's answer to ``hello``."""

    name: str
    version: str
    games: tuple[str, ...]
    protocol: str
    #: the bot said its choices depend on the clock (``clock_bound``, optional, §5.2)
    clock_bound: bool = False

    def speaks(self, version: tuple[int, int]) -> bool:
        """Whether the bot's protocol is ``version`` or a later minor of the same major (a
        minor version only adds, so a 1.3 bot understands everything 1.1 sends)."""
        major, minor = parse_version(self.protocol)
        return major == version[0] and minor >= version[1]


@dataclass(frozen=True, slots=True)
class ActionReply:
    """A bot's answer to a ``request``."""

    id: int
    action: Any


def _field(message: Mapping[str, Any], name: str, kind: type | tuple[type, ...], what: str) -> Any:
    if name not in message:
        raise BadMessage(f"{message.get('type')!r} message has no {name!r} field (expected {what})")
    value = message[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadMessage(f"field {name!r} must be {what}, got {value!r}"[:300])
    return value


def _expect_type(message: Mapping[str, Any], expected: str) -> None:
    kind = message.get("type")
    if kind != expected:
        raise BadMessage(f"expected a {expected!r} message, got type {kind!r}"[:300])


def parse_version(text: str) -> tuple[int, int]:
    try:
        major, minor = (int(part) for part in text.split("."))
    except ValueError:
        raise BadMessage(f"protocol version must look like '1.0', got {text!r}"[:300]) from None
    return major, minor


def parse_hello(message: Mapping[str, Any]) -> BotHello:
    """Validate a bot's ``hello``; raise :class:`VersionMismatch` on another major version."""
    _expect_type(message, "hello")
    protocol = _field(message, "protocol", str, "a version string like '1.0'")
    major, _minor = parse_version(protocol)
    if major != PROTOCOL_VERSION[0]:
        raise VersionMismatch(
            f"bot speaks protocol {protocol}, the arena speaks {PROTOCOL_VERSION_STRING}; "
            f"major versions must match"
        )
    name = _field(message, "name", str, "a string")
    if not name.strip():
        raise BadMessage("field 'name' must not be empty")
    version = _field(message, "version", str, "a string")
    games = _field(message, "games", list, "a list of game id strings")
    if not all(isinstance(game, str) for game in games):
        raise BadMessage(f"field 'games' must list game id strings, got {games!r}"[:300])
    clock_bound = message.get("clock_bound", False)
    if not isinstance(clock_bound, bool):
        raise BadMessage(f"field 'clock_bound' must be true or false, got {clock_bound!r}"[:300])
    return BotHello(name=name, version=version, games=tuple(games), protocol=protocol, clock_bound=clock_bound)


def parse_action(message: Mapping[str, Any]) -> ActionReply:
    """Validate a bot's ``action`` reply (its id is checked by the caller)."""
    request_id = message.get("id")
    if type(request_id) is int and message.get("type") == "action" and "action" in message:
        return ActionReply(request_id, message["action"])  # the usual reply, checked once
    _expect_type(message, "action")
    request_id = _field(message, "id", int, "the integer id of the request")
    if "action" not in message:
        raise BadMessage("'action' message has no 'action' field")
    return ActionReply(id=request_id, action=message["action"])
