"""Requests from real games, for the documentation's examples, and the game pages' examples.

:func:`real_request` plays a seeded game with seeded random choices, as the arena would
run it (each seat's ``events`` are those since its own previous request), and returns the
first request that a predicate accepts. The game pages (``protocol/games/*.md``) hold such
requests after a marker line ``<!-- example: NAME -->``; :data:`GAME_EXAMPLES` generates them
and ``tests/protocol/test_spec.py`` fails if a page holds anything else.

Usage::

    python -m protocol.tools.sample --write   # replace the example blocks in the game pages
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import engines

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
#: A marker line and the fenced JSON block that follows it.
BLOCK = re.compile(r"^<!-- example: (?P<name>[a-z0-9-]+) -->\n```json\n(?P<body>.*?)```\n", re.S | re.M)

Wanted = Callable[[str, dict[str, Any], "list[Any] | None"], bool]


def real_request(game_id: str, players: int, seed: int, wanted: Wanted,
                 options: Mapping[str, Any] | None = None,
                 limit: int = 10_000) -> tuple[str, dict[str, Any], list[Any], list[Any] | None]:
    """``(kind, observation, events, legal)`` of the first request of a random game that
    ``wanted(kind, observation, legal)`` accepts. Raises ``LookupError`` if none comes within
    ``limit`` decisions (so a changed engine fails loudly instead of looping)."""
    game = engines.get_game(game_id)
    state = game.new_state(players, seed, options)
    rng = random.Random(seed)
    cursors = [0] * players
    for _ in range(limit):
        if state.is_terminal():
            break
        actions = {}
        for seat in state.acting:
            events = list(state.events_for(seat, cursors[seat]))
            cursors[seat] = len(state.log)
            kind, observation = state.decision(seat), state.observation(seat)
            legal = state.legal_actions(seat)
            if wanted(kind, observation, legal):
                return kind, observation, events, legal
            actions[seat] = state.random_action(seat, rng)
        state.apply(actions)
    raise LookupError(f"no wanted request in {game_id} (seed {seed})")


def without_static(game_id: str, observation: dict[str, Any]) -> dict[str, Any]:
    """``observation`` as a protocol 1.1 bot gets it: without the game's static fields."""
    static = engines.get_game(game_id).static_fields
    return {key: value for key, value in observation.items() if key not in static}


def _dmd_hook() -> dict[str, Any]:
    kind, observation, events, legal = real_request(
        "dead-mans-draw", 2, seed=5, wanted=lambda kind, observation, legal: kind == "hook")
    return {"kind": kind, "legal": legal, "observation": observation, "events": events}


def _opito_observation() -> dict[str, Any]:
    return real_request("opito-bay", 2, seed=1, options={"deals": 1},
                        wanted=lambda kind, observation, legal: observation["seat"] == 1)[1]


def _karibik_move() -> dict[str, Any]:
    # A controller's move decision, as a 1.1 bot gets it (the board came in start.static).
    kind, observation, events, legal = real_request(
        "karibik", 2, seed=3, wanted=lambda kind, observation, legal: kind == "move" and len(legal) > 3)
    return {"kind": kind, "legal": legal, "observation": without_static("karibik", observation),
            "events": events}


#: Every game-page example: (page, name) → a function making it.
GAME_EXAMPLES: dict[tuple[str, str], Callable[[], Any]] = {
    ("dead-mans-draw.md", "hook"): _dmd_hook,
    ("opito-bay.md", "observation"): _opito_observation,
    ("karibik.md", "move"): _karibik_move,
}


def render(value: Any) -> str:
    """A map with one top-level key a line (readable, and exactly reproducible)."""
    if not isinstance(value, dict):
        return json.dumps(value) + "\n"
    lines = [f"{json.dumps(key)}: {json.dumps(item)}" for key, item in value.items()]
    return "{" + ",\n ".join(lines) + "}\n"


def rewrite(page: str, text: str) -> str:
    """``text`` of the game page ``page`` with every example block regenerated."""
    def replace(match: re.Match[str]) -> str:
        make = GAME_EXAMPLES.get((page, match["name"]))
        if make is None:
            raise SystemExit(f"{page} has an example block {match['name']!r} that nothing generates")
        return f"<!-- example: {match['name']} -->\n```json\n{render(make())}```\n"
    return BLOCK.sub(replace, text)


def main(argv: list[str]) -> int:
    stale = []
    for page in sorted({page for page, _ in GAME_EXAMPLES}):
        path = GAMES_DIR / page
        text = path.read_text(encoding="utf-8")
        fresh = rewrite(page, text)
        if "--write" in argv:
            path.write_text(fresh, encoding="utf-8")
        elif fresh != text:
            stale.append(page)
    for page in stale:
        print(f"protocol/games/{page} is out of date: run python -m protocol.tools.sample --write",
              file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
