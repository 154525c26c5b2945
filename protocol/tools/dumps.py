"""The example frames of ``protocol/SPEC.md``: each message as JSON and as a hex dump.

Every example is built with the package's own builders (arena → bot) or checked with its
parsers (bot → arena), then framed with :func:`protocol.encode`, so the bytes in the spec
are bytes the arena really sends or accepts. Requests come from real games
(:func:`protocol.tools.sample.real_request`: a seeded engine played by seeded random choices).
``tests/protocol/test_spec.py`` regenerates them and fails if SPEC.md holds anything else;
the game pages' examples are checked the same way (:mod:`protocol.tools.sample`).

Usage::

    python -m protocol.tools.dumps            # print every example
    python -m protocol.tools.dumps --write    # replace the dump blocks in protocol/SPEC.md
    python -m protocol.tools.dumps --check    # exit 1 if SPEC.md is out of date

In SPEC.md an example is the fenced block right after a marker line
``<!-- dump: NAME -->``; ``--write`` replaces that block and leaves all other text alone.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import engines
import protocol

from .sample import real_request, without_static

SPEC = Path(__file__).resolve().parent.parent / "SPEC.md"
#: A marker line and the fenced block that follows it.
BLOCK = re.compile(r"^<!-- dump: (?P<name>[a-z0-9-]+) -->\n```text\n(?P<body>.*?)```\n", re.S | re.M)

#: An example bot seed: a uint64 above 2**63, so the frame shows msgpack's 0xcf encoding.
EXAMPLE_BOT_SEED = 0xC3A5C85C97CB3127


def _start() -> dict[str, Any]:
    return protocol.start("opito-bay", seat=1, players=2, options={"target": 50000, "deals": 0},
                          move_ms=1000, reserve_ms=5000, bot_seed=EXAMPLE_BOT_SEED)


def _request() -> dict[str, Any]:
    # Seat 1's first request, a "play" with a Joker in hand, after seat 0's first card.
    kind, observation, events, legal = real_request(
        "opito-bay", 2, seed=1, options={"deals": 1},
        wanted=lambda kind, observation, legal: observation["seat"] == 1)
    return protocol.request(7, kind, observation, events, legal=legal, time_left_ms=5980, move_ms=1000)


def _karibik_bribe() -> tuple[str, dict[str, Any], list[Any], list[Any] | None]:
    # A decision whose actions are not enumerated: the first Karibik bribe, seat 0 of 2.
    return real_request("karibik", 2, seed=1, wanted=lambda kind, observation, legal: kind == "bribe")


def _start_static() -> dict[str, Any]:
    # Karibik's start for a 1.1 bot: the board comes here, once per game.
    observation = _karibik_bribe()[1]
    game = engines.get_game("karibik")
    return protocol.start("karibik", seat=0, players=2, options=game.resolve_options({}), move_ms=1000,
                          reserve_ms=0, bot_seed=EXAMPLE_BOT_SEED,
                          static={key: observation[key] for key in game.static_fields})


def _request_unenumerated(version: str = protocol.PROTOCOL_VERSION_STRING) -> dict[str, Any]:
    kind, observation, events, legal = _karibik_bribe()
    if version != "1.0":
        observation = without_static("karibik", observation)
    return protocol.request(12, kind, observation, events, legal=legal, time_left_ms=1000, move_ms=1000)


def request_sizes() -> tuple[int, int]:
    """The frame sizes in bytes (header included) of the example Karibik bribe request as a
    1.0 bot gets it (with the board) and as a 1.1 bot gets it (without)."""
    return (len(protocol.encode(_request_unenumerated("1.0"))),
            len(protocol.encode(_request_unenumerated("1.1"))))


def _bot_hello() -> dict[str, Any]:
    # What the Python SDK answers (the starter kits in other languages still say "1.0").
    message = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION_STRING, "name": "py-random",
               "version": "1.0", "games": ["dead-mans-draw", "opito-bay", "karibik"]}
    protocol.parse_hello(message)
    return message


def _action() -> dict[str, Any]:
    message = {"type": "action", "id": 7, "action": "X3"}
    protocol.parse_action(message)
    return message


def examples() -> dict[str, dict[str, Any]]:
    """Every example message by its name in SPEC.md, in the order the spec shows them."""
    return {
        "hello-arena": protocol.hello("pirate-arena 0.1"),
        "hello-bot": _bot_hello(),
        "start": _start(),
        "start-static": _start_static(),
        "request": _request(),
        "request-unenumerated": _request_unenumerated(),
        "action": _action(),
        "end": protocol.end([2, 1], [41000, 57500],
                            [{"type": "end", "totals": [41000, 57500], "ranks": [2, 1]}], "normal"),
        "bye": protocol.bye(),
    }


def hexdump(data: bytes) -> str:
    """``hexdump -C`` style: offset, 16 bytes in two groups of 8, printable ASCII."""
    lines = []
    for offset in range(0, len(data), 16):
        chunk = data[offset:offset + 16]
        left = " ".join(f"{byte:02x}" for byte in chunk[:8])
        right = " ".join(f"{byte:02x}" for byte in chunk[8:])
        text = "".join(chr(byte) if 0x20 <= byte < 0x7F else "." for byte in chunk)
        lines.append(f"{offset:08x}  {left:<23}  {right:<23}  |{text}|")
    return "\n".join(lines)


def render(message: dict[str, Any]) -> str:
    """The body of one SPEC.md example block: the message as JSON, then its frame."""
    frame = protocol.encode(message)
    return (f"{json.dumps(message)}\n\n"
            f"frame: 4-byte length {len(frame) - protocol.HEADER_SIZE}, then the msgpack map\n"
            f"{hexdump(frame)}\n")


def rendered() -> dict[str, str]:
    return {name: render(message) for name, message in examples().items()}


def blocks_in(text: str) -> dict[str, str]:
    """The dump blocks of a SPEC.md text, by name."""
    return {match["name"]: match["body"] for match in BLOCK.finditer(text)}


def rewrite(text: str) -> str:
    """``text`` with every dump block replaced by its freshly generated body."""
    bodies = rendered()

    def replace(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in bodies:
            raise SystemExit(f"SPEC.md has a dump block {name!r} that no example generates; "
                             f"known: {', '.join(bodies)}")
        return f"<!-- dump: {name} -->\n```text\n{bodies[name]}```\n"

    return BLOCK.sub(replace, text)


def main(argv: list[str]) -> int:
    if "--write" in argv:
        SPEC.write_text(rewrite(SPEC.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    if "--check" in argv:
        text = SPEC.read_text(encoding="utf-8")
        if rewrite(text) != text or set(blocks_in(text)) != set(rendered()):
            print("protocol/SPEC.md is out of date: run python -m protocol.tools.dumps --write",
                  file=sys.stderr)
            return 1
        return 0
    for name, body in rendered().items():
        print(f"<!-- dump: {name} -->\n```text\n{body}```\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
