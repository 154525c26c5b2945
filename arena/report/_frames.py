"""A recorded game as viewer frames: every step's views, delta-encoded and compressed.

The engine re-plays the game (``Replay.states`` semantics); for every state the frame holds

- ``p``: the *public* part of the observations: the keys on which every seat's observation
  agrees;
- ``s``: per seat, the rest of that seat's observation, so ``p | s[seat]`` is *exactly*
  ``state.observation(seat)``;
- ``h``: the engine's ``omniscient_view(state)``, the facts no observation shows;
- ``w``: the acting seats, ``a``: the actions that led here as ``[seat, decision, action]``,
  ``e``: the events they emitted as ``[data, audience]`` (``None`` = everyone).

``p``, ``h`` and each ``s[seat]`` are stored as deltas against the previous frame (see
:func:`delta`); :mod:`._chunks` packs many games' frames together for the page. Only what
a viewer needs travels: a 10,000-game report stays small (``BENCHMARKS.md``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import Any

import engines
from engines import Replay


class ViewError(ValueError):
    """A replay cannot be turned into frames (it diverges from the rules, or the engine's
    omniscient view reuses an observation key); the message says which step."""


def delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The patch that turns dict ``old`` into dict ``new``.

    Per changed key: ``[value]`` sets it, ``[]`` deletes it, and a dict patches a nested
    dict by key, or a nested list either by decimal index, with ``"#": [length]`` when the
    list's length changes (it is cut or padded before the indices apply), or by splices,
    ``"~": [[start, removed, *inserted], ...]`` in ascending order of the old list's indices
    (so applied last first): whichever is shorter. Unchanged keys are absent, so an unchanged
    value costs nothing, a pile that grows or shrinks at its end costs one entry, and a card
    put into the middle of a sorted pile costs one splice. Inverse: :func:`patch` (and the
    viewer's ``ArenaView.patch``).
    """
    out: dict[str, Any] = {}
    for key in old.keys() - new.keys():
        out[key] = []
    for key, value in new.items():
        change = [value] if key not in old else _change(old[key], value)
        if change is not None:
            out[key] = change
    return out


def _change(before: Any, value: Any) -> Any:
    """The patch entry from ``before`` to ``value``; ``None`` when they are the same."""
    if before == value and type(before) is type(value):
        # == takes 1 for True (and 1.0) inside lists and dicts too; repr does not, in C. (A dict
        # with its keys in another order then goes the long way, to an empty patch.)
        if not isinstance(value, (list, tuple, dict)) or repr(before) == repr(value):
            return None
    if isinstance(before, dict) and isinstance(value, dict):
        return delta(before, value)
    if isinstance(before, (list, tuple)) and isinstance(value, (list, tuple)) and before and value:
        out: dict[str, Any] = {} if len(before) == len(value) else {"#": [len(value)]}
        for index, item in enumerate(value):
            change = [item] if index >= len(before) else _change(before[index], item)
            if change is not None:
                out[str(index)] = change
        if len(out) <= 1 + (len(before) != len(value)):
            return out  # one item changed, or a pile grew or shrank at its end: nothing is shorter
        return min((out, _splices(before, value), [value]), key=lambda form: len(_dumps(form)))
    return [value]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _key(item: Any) -> Any:
    """What tells list items apart for the splices: a scalar with its type (``1`` is not
    ``True``), anything else its JSON."""
    if item is None or isinstance(item, (str, int, float)):
        return type(item), item
    return _dumps(item)


def _splices(before: Sequence[Any], value: Sequence[Any]) -> dict[str, Any]:
    """The list patch ``{"~": [[start, removed, *inserted], ...]}`` from ``before`` to ``value``."""
    matcher = SequenceMatcher(None, [_key(item) for item in before], [_key(item) for item in value], autojunk=False)
    return {"~": [[start, stop - start, *value[first:last]]
                  for tag, start, stop, first, last in matcher.get_opcodes() if tag != "equal"]}


def patch(old: Any, change: dict[str, Any]) -> Any:
    """Apply a :func:`delta` patch to ``old`` (a dict or a list), returning a new value."""
    if isinstance(old, (list, tuple)) and "~" in change:
        spliced = list(old)
        for start, removed, *inserted in reversed(change["~"]):
            spliced[start:start + removed] = inserted
        return spliced
    if isinstance(old, (list, tuple)):
        length = change["#"][0] if "#" in change else len(old)
        new: Any = list(old[:length]) + [None] * (length - len(old))
    else:
        new = dict(old)
    for key, op in change.items():
        if key == "#" and isinstance(new, list):
            continue
        index: Any = int(key) if isinstance(new, list) else key
        if isinstance(op, list):
            if op:
                new[index] = op[0]
            else:
                del new[index]
        else:
            new[index] = patch(new[index], op)
    return new


def _split(observations: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    first = observations[0]
    public = {key: value for key, value in first.items()
              if all(key in other and other[key] == value for other in observations[1:])}
    private = [{key: value for key, value in obs.items() if key not in public} for obs in observations]
    return public, private


def game_frames(replay: Replay) -> list[dict[str, Any]]:
    """Re-play ``replay`` and return one frame per state (initial state first), delta-encoded.

    Raises :class:`ViewError` if an action is illegal (the replay is not of these rules) or
    if the omniscient view shares a key with an observation.
    """
    game = engines.get_game(replay.game)
    omniscient = engines.game_package(replay.game).omniscient_view
    state = game.new_state(replay.num_players, replay.seed, replay.options)
    seats = range(replay.num_players)
    last_public: dict[str, Any] = {}
    last_hidden: dict[str, Any] = {}
    last_private: list[dict[str, Any]] = [{} for _ in seats]
    frames = []
    cursor = 0
    actions: list[list[Any]] = []
    for number in range(len(replay.steps) + 1):
        # Values go out as they are (no copy): observations and omniscient views are fresh
        # data by contract, and json.dumps treats tuples as the lists they become.
        observations = [state.observation(seat) for seat in seats]
        public, private = _split(observations)
        hidden = omniscient(state)
        clash = hidden.keys() & observations[0].keys()
        if clash:
            raise ViewError(f"{replay.game}: omniscient_view reuses observation keys {sorted(clash)}")
        events = [[event.data, None if event.audience is None else sorted(event.audience)]
                  for event in state.log[cursor:]]
        cursor = len(state.log)
        frames.append({
            "p": delta(last_public, public), "h": delta(last_hidden, hidden),
            "s": [delta(before, now) for before, now in zip(last_private, private)],
            "w": list(state.acting), "a": actions, "e": events,
        })
        last_public, last_hidden, last_private = public, hidden, private
        if number == len(replay.steps):
            break
        step = replay.steps[number]
        actions = [[seat, state.decision(seat), action] for seat, action in step.items()]
        try:
            state.apply(step)
        except engines.IllegalAction as error:
            raise ViewError(f"replay diverges at step {number + 1}: {error}") from None
    return frames


def views_at(frames: list[dict[str, Any]], index: int) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """Decode frames up to ``index``: ``(public, hidden, private per seat)`` of that state.

    The Python twin of the viewer's decoder, used to check the encoding against the engine.
    """
    public: dict[str, Any] = {}
    hidden: dict[str, Any] = {}
    private: list[dict[str, Any]] = [{} for _ in frames[0]["s"]]
    for frame in frames[:index + 1]:
        public, hidden = patch(public, frame["p"]), patch(hidden, frame["h"])
        private = [patch(mine, change) for mine, change in zip(private, frame["s"])]
    return public, hidden, private

