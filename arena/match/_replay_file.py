"""Replay files: a match's replay and outcome written as JSON (``arena match --replay``), and
read back (:mod:`arena.report._replays` reads replays from results databases too)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engines import Replay

if TYPE_CHECKING:
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
    """A replay file written by :func:`save_replay_file`: the replay and the match's outcome."""
    try:
        if path.is_dir():
            raise ReplayFileError(f"{path}: is a folder, not a replay file")
        if path.exists() and not path.is_file():  # a FIFO or a device: reading could block for ever
            raise ReplayFileError(f"{path}: not a regular file")
        data = json.loads(path.read_text(encoding="utf-8"))
        return Replay.from_dict(data["replay"]), data.get("result", {})
    except OSError as error:
        raise ReplayFileError(f"{path}: cannot read ({error.strerror or error})") from None
    except (ValueError, KeyError, TypeError) as error:
        raise ReplayFileError(f"{path}: not a replay file ({type(error).__name__}: {error})") from None
