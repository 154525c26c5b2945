"""Replay files: writing a match's replay, reading it back, and describing it turn by turn."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import engines
from engines import Replay

from ._match import MatchResult


class ReplayFileError(ValueError):
    """A replay file is unreadable or not a replay; the message names the file."""


def save_replay_file(path: Path, result: MatchResult) -> None:
    data = {"result": result.as_dict(), "replay": result.replay.as_dict()}
    try:
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise ReplayFileError(f"{path}: cannot write replay ({error.strerror or error})") from None


def load_replay_file(path: Path) -> tuple[Replay, dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Replay.from_dict(data["replay"]), data.get("result", {})
    except OSError as error:
        raise ReplayFileError(f"{path}: cannot read ({error.strerror or error})") from None
    except (ValueError, KeyError, TypeError) as error:
        raise ReplayFileError(f"{path}: not a replay file ({type(error).__name__}: {error})") from None


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=False)


def describe_replay(loaded: tuple[Replay, dict[str, Any]]) -> Iterator[str]:
    """Re-run the game and yield readable lines: each step's actions and public events."""
    replay, result = loaded
    bots = result.get("bots") or [f"seat {seat}" for seat in range(replay.num_players)]
    state = engines.get_game(replay.game).new_state(replay.num_players, replay.seed, replay.options)
    yield f"{replay.game}, {replay.num_players} players, seed {replay.seed}, options {_compact(replay.options)}"
    yield from (f"  seat {seat}: {bot}" for seat, bot in enumerate(bots))
    for event in state.log:
        if event.audience is None:
            yield f"        {_compact(event.data)}"
    for number, step in enumerate(replay.steps, 1):
        kinds = {seat: state.decision(seat) for seat in step}
        cursor = len(state.log)
        try:
            state.apply(step)
        except engines.IllegalAction as error:
            yield f"{number:5}. replay diverges: {error}"
            return
        for seat, action in step.items():
            yield f"{number:5}. {bots[seat]} ({kinds[seat]}): {_compact(action)}"
        for event in state.log[cursor:]:
            if event.audience is None:
                yield f"        {_compact(event.data)}"
    if state.is_terminal():
        outcome = state.outcome()
        yield f"end: ranks {list(outcome.ranks)}, scores {list(outcome.scores)}"
    if result.get("faults"):
        for fault in result["faults"]:
            yield f"fault: seat {fault['seat']} {fault['kind']} at step {fault['step']}: {fault['detail']}"
