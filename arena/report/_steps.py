"""A recorded game as its steps alone, for a game whose engine has a JavaScript twin.

An engine package may ship ``rules.js``, its rules in JavaScript (``ArenaRules[gameId]``,
Python's ``random.Random`` from ``assets/pyrandom.js``). For such a game the page carries no
frames (:mod:`._frames`): only the game's header and its steps as small codes, and the browser
re-plays the game with the twin to build the very views the frames would hold. A step is, per
acting seat in order, the index of its action in ``legal_actions(seat)`` (nothing at all when
that list has one action), or the action itself where the decision is not enumerated
(``legal_actions`` is ``None``, e.g. Karibik's bribes). Decoding needs the rules, so
:func:`unpack_steps` re-plays with the Python engine, as the browser does with the twin.

A chunk of such games (``<script type="application/x-steps">``) is

- ``g``: per game, its header (``game``, ``players``, ``seed`` as a string, ``options``
  resolved, ``meta``, and ``static``, the game's ``static_fields``: observation keys the browser
  takes once per seat) with ``n``, its number of steps, ``h``, the check (:func:`final_check`), ``u``,
  how many values it takes from each column, and ``o``, ``[[step, seats], ...]`` for the steps
  whose seats are not the acting seats in order (none in a game the arena recorded);
- ``i``: per decision kind, the indices of every game's steps of that kind, in order;
- ``x``: per decision kind, the actions given as they are (each column :func:`transpose`\\ d).

The check: a twin that drifted from its engine must never show a wrong game silently, so the
header holds the CRC-32 of the canonical JSON (:func:`canonical`) of the final state's
observations, its omniscient view and its whole event log, and the browser compares it with
what its own re-play made (``ArenaView.replay``). CRC-32, not FNV-1a: ``zlib.crc32`` runs in
C, a 32-bit FNV-1a written in Python would cost milliseconds a game of Opito Bay.
"""

from __future__ import annotations

import json
import re
import zlib
from importlib import resources
from typing import Any

import engines
from engines import Replay, State

from ._chunks import deflate, from_text, to_text, transpose, untranspose
from ._frames import ViewError

_INTEGRAL_FLOAT = re.compile(r"(?<=[0-9])\.0(?=[,\]}]|$)")


def rules_script(game_id: str) -> str | None:
    """The game's JavaScript twin, ``rules.js`` beside its engine, or ``None`` if it has none."""
    path = resources.files(engines.game_package(game_id)).joinpath("rules.js")
    return path.read_text(encoding="utf-8") if path.is_file() else None


def canonical(value: Any) -> str:
    """``value`` as JSON the browser writes the same way (``ArenaView.canonical``): keys sorted,
    no spaces, non-ASCII escaped, and a float with an integral value without its ``.0``
    (JavaScript has one number type; a Karibik map holds ``5.0``). The ``.0`` is taken off
    the text, so also inside strings, and the browser does the same to its text. Values the
    two languages write differently anyway (a float of 1e16 or more, an int past 2**53) fail
    the check: the viewer then says so, it never shows a game that may be wrong."""
    return _INTEGRAL_FLOAT.sub("", json.dumps(value, sort_keys=True, separators=(",", ":")))


def final_check(state: State, game_id: str) -> int:
    """CRC-32 of the canonical JSON of ``[observations, omniscient view, event log]`` of ``state``."""
    seats = range(state.num_players)
    log = [[event.data, None if event.audience is None else sorted(event.audience)] for event in state.log]
    text = canonical([[state.observation(seat) for seat in seats],
                      engines.game_package(game_id).omniscient_view(state), log])
    return zlib.crc32(text.encode("ascii"))


def _options(replay: Replay) -> dict[str, Any]:
    try:
        return engines.get_game(replay.game).resolve_options(replay.options)
    except engines.BadOption as error:
        raise ViewError(f"replay does not start a game of these rules: {error}") from None


def _new_state(replay: Replay) -> State:
    try:
        return engines.get_game(replay.game).new_state(replay.num_players, replay.seed, _options(replay))
    except engines.BadOption as error:  # the player count
        raise ViewError(f"replay does not start a game of these rules: {error}") from None


def _index(legal: list[Any], action: Any) -> int | None:
    for number, candidate in enumerate(legal):
        if candidate == action and engines.same_value(candidate, action):
            return number
    return None


def game_steps(replay: Replay) -> dict[str, Any]:
    """The codes of ``replay``'s steps: ``{"n", "h", "u", "o"}`` as in a chunk's header (see
    the module) plus its own columns ``i`` and ``x``, by decision kind.

    Raises :class:`ViewError` if an action is illegal (the replay is not of these rules) or
    if the omniscient view shares a key with an observation.
    """
    state = _new_state(replay)
    indices: dict[str, list[int]] = {}
    given: dict[str, list[Any]] = {}
    order: list[list[Any]] = []
    _check_keys(state, replay.game)
    for number, step in enumerate(replay.steps):
        if list(step) != list(state.acting):
            order.append([number, list(step)])
        try:
            if set(step) != set(state.acting):
                state.apply(step)  # raises, naming the seats missing or unexpected
            for seat, action in step.items():
                kind = state.decision(seat)
                legal = state.legal_actions(seat)
                if legal is None:
                    state.check(seat, action)
                    given.setdefault(kind, []).append(action)
                    continue
                index = _index(legal, action)
                if index is None:
                    state.check(seat, action)  # raises with the engine's reason
                    raise engines.IllegalAction(seat, f"{action!r:.200} is not a legal {kind} action")
                if len(legal) > 1:
                    indices.setdefault(kind, []).append(index)
            state.apply_checked(step)  # every action checked just now
        except engines.IllegalAction as error:
            raise ViewError(f"replay diverges at step {number + 1}: {error}") from None
    _check_keys(state, replay.game)
    used = {**{f"i:{kind}": len(values) for kind, values in indices.items()},
            **{f"x:{kind}": len(values) for kind, values in given.items()}}
    codes: dict[str, Any] = {"n": len(replay.steps), "h": final_check(state, replay.game), "u": used}
    if order:
        codes["o"] = order
    return {**codes, "i": indices, "x": given}


def _check_keys(state: State, game_id: str) -> None:
    clash = engines.game_package(game_id).omniscient_view(state).keys() & state.observation(0).keys()
    if clash:
        raise ViewError(f"{game_id}: omniscient_view reuses observation keys {sorted(clash)}")


def steps_payload(replay: Replay, meta: dict[str, Any]) -> dict[str, Any]:
    """One game for the viewer: its header, ``meta`` and ``steps`` (:func:`game_steps`)."""
    options = _options(replay)
    static = list(engines.get_game(replay.game).static_fields)
    return {"game": replay.game, "players": replay.num_players, "seed": str(replay.seed), "options": options,
            "meta": meta, **({"static": static} if static else {}), "steps": game_steps(replay)}


def shred_steps(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Games (:func:`steps_payload`) as one chunk: headers, then each column of every game."""
    headers = []
    columns: dict[str, dict[str, list[Any]]] = {"i": {}, "x": {}}
    for game in games:
        steps = game["steps"]
        header = {key: value for key, value in game.items() if key != "steps"}
        headers.append({**header, **{key: steps[key] for key in ("n", "h", "u", "o") if key in steps}})
        for part in ("i", "x"):
            for kind, values in steps[part].items():
                columns[part].setdefault(kind, []).extend(values)
    return {"g": headers, "i": columns["i"], "x": {kind: transpose(values) for kind, values in columns["x"].items()}}


def pack_steps(games: list[dict[str, Any]]) -> str:
    """Games with their steps as the text of one ``application/x-steps`` element."""
    return to_text(deflate(shred_steps(games)))


def unpack_steps(text: str) -> list[dict[str, Any]]:
    """The games of a chunk's text, each with ``steps`` as in ``Replay.as_dict`` (re-played with
    the Python engine: the Python twin of the browser's ``ArenaView.replay``).

    Raises :class:`ViewError` if a game's codes do not re-play or its check does not match.
    """
    chunk = json.loads(zlib.decompress(from_text(text), 47))
    cursors = {f"i:{kind}": iter(values) for kind, values in chunk["i"].items()}
    cursors.update({f"x:{kind}": iter(untranspose(values)) for kind, values in chunk["x"].items()})
    games = []
    for header in chunk["g"]:
        game = {key: value for key, value in header.items() if key not in ("n", "h", "u", "o", "static")}
        state = engines.get_game(header["game"]).new_state(header["players"], int(header["seed"]), header["options"])
        orders = {number: seats for number, seats in header.get("o", [])}
        taken: dict[str, int] = {}
        steps = []
        for number in range(header["n"]):
            step = {}
            for seat in orders.get(number, state.acting):
                legal = state.legal_actions(seat)
                if legal is not None and len(legal) == 1:
                    step[seat] = legal[0]
                    continue
                column = f"{'x' if legal is None else 'i'}:{state.decision(seat)}"
                taken[column] = taken.get(column, 0) + 1
                value = next(cursors[column])
                step[seat] = value if legal is None else legal[value]
            try:
                state.apply(step)
            except engines.IllegalAction as error:
                raise ViewError(f"codes diverge at step {number + 1}: {error}") from None
            steps.append([[seat, action] for seat, action in step.items()])
        if taken != header["u"] or final_check(state, header["game"]) != header["h"]:
            raise ViewError(f"game {header['meta'].get('key', '?')}: the re-played game does not match its check")
        game["steps"] = steps
        games.append(game)
    return games
