"""Replay files: a match's replay and outcome written as JSON (``arena match --replay``), and
read back (:mod:`arena.report._replays` reads replays from results databases too)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engines import Replay

if TYPE_CHECKING:
    from ._result import MatchResult


class ReplayFileError(ValueError):
    """A replay file is unreadable or not a replay; the message names the file."""


def save_replay_file(path: Path, result: MatchResult) -> None:
    # The moves (seat, ms, by the bot?, reserve left) and the time limits let `arena view` show
    # per step who chose (the bot or the fallback) and the time it took.
    moves = [[*move, reserve] for move, reserve in zip(result.moves, result.reserves_ms)] \
        if len(result.reserves_ms) == len(result.moves) else [list(move) for move in result.moves]
    data = {"result": {**result.as_dict(), "moves": moves}, "replay": result.replay.as_dict()}
    try:
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise ReplayFileError(f"{path}: cannot write replay ({error.strerror or error})") from None


def load_replay_file(path: Path) -> tuple[Replay, dict[str, Any]]:
    """A replay file written by :func:`save_replay_file`: the replay and the match's outcome.
    Raises :class:`ReplayFileError` naming the file once and saying what is wrong with it in
    the file's terms (no Python exception names)."""
    if path.is_dir():
        raise ReplayFileError(f"{path}: is a folder, not a replay file")
    if path.exists() and not path.is_file():  # a FIFO or a device: reading could block for ever
        raise ReplayFileError(f"{path}: not a regular file")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ReplayFileError(f"{path}: cannot read ({error.strerror or error})") from None
    except UnicodeDecodeError as error:
        raise ReplayFileError(f"{path}: not a replay file (not UTF-8 text: byte {error.start})") from None
    try:
        data = json.loads(text)
    except ValueError as error:
        where = f": line {error.lineno} column {error.colno}" if isinstance(error, json.JSONDecodeError) else ""
        reason = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
        raise ReplayFileError(f"{path}: not a replay file (not JSON ({reason}{where}))") from None
    try:
        if not isinstance(data, dict):
            raise NotAReplay("not a JSON object")
        if not isinstance(data.get("replay"), dict):
            raise NotAReplay("no 'replay' object")
        result = data.get("result", {})
        return replay_from_dict(data["replay"], "its replay", "its replay's"), result if isinstance(result, dict) else {}
    except NotAReplay as error:
        raise ReplayFileError(f"{path}: not a replay file ({error})") from None


class NotAReplay(ValueError):
    """What makes a value not a replay, in the words of the file or database it came from."""


#: a replay's keys, the type each must have and its name in a message
_REPLAY_KEYS = (("game", str, "a string"), ("players", int, "an integer"), ("seed", int, "an integer"),
                ("options", dict, "an object"), ("steps", list, "a list"))


def replay_from_dict(data: object, subject: str = "it", possessive: str = "its") -> Replay:
    """``data`` (a replay's ``as_dict()``, read back) as a :class:`Replay`. Raises
    :class:`NotAReplay` saying what is missing or of the wrong type, with ``subject`` and
    ``possessive`` naming the replay (``"its replay has no 'steps'"``)."""
    if not isinstance(data, dict):
        raise NotAReplay(f"{subject} is not an object")
    for key, kind, name in _REPLAY_KEYS:
        if key not in data:
            raise NotAReplay(f"{subject} has no {key!r}")
        if not isinstance(data[key], kind) or isinstance(data[key], bool):
            raise NotAReplay(f"{possessive} {key!r} is not {name}")
    try:
        return Replay.from_dict(data)
    except (ValueError, KeyError, TypeError):
        raise NotAReplay(f"{possessive} 'steps' are not lists of [seat, action] pairs") from None
