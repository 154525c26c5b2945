"""Replays as text (``arena replay``): a game read back from a replay file or from a results
database, the games a database holds, and a game re-run and described step by step.

A file is told apart by its content, not its name: a results database starts with SQLite's
header, a replay file is JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import engines
from engines import Replay

from ..match import NotAReplay, ReplayFileError, load_replay_file, replay_from_dict


_SQLITE_HEADER = b"SQLite format 3\x00"


def is_database(path: Path) -> bool:
    """Whether ``path`` is an SQLite file (a results database), judged by its first bytes."""
    if not path.is_file():  # opening a FIFO would block
        return False
    try:
        with path.open("rb") as file:
            return file.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER
    except OSError:
        return False


def load_replay(path: Path, key: str | None = None) -> tuple[Replay, dict[str, Any]]:
    """The replay in ``path``: a replay file, or the game ``key`` of a results database."""
    if not is_database(path):
        if key is not None:
            raise ReplayFileError(f"{path}: a game key ({key!r}) is only for a results database")
        return load_replay_file(path)
    if key is None:
        raise ReplayFileError(f"{path} is a results database: name a game (`arena replay {path}` lists them)")
    from ..tournament import ResultsStore

    store = ResultsStore.open(path, read_only=True)
    try:
        stored = next((game for game in store.games() if game.key == key), None)
        if stored is None:
            raise ReplayFileError(f"{path}: no game {key!r} (`arena replay {path}` lists the games)")
        try:
            data = store.replay(key)
        except ValueError:  # msgpack's errors
            raise ReplayFileError(f"{path}: the replay of game {key!r} is corrupt (not msgpack)") from None
        try:
            replay = replay_from_dict(data)
        except NotAReplay as error:
            raise ReplayFileError(f"{path}: the replay of game {key!r} is corrupt ({error})") from None
    finally:
        store.close()
    return replay, {"bots": list(stored.seats), "faults": list(stored.faults)}


def list_stored_games(path: Path) -> Iterator[str]:
    """One line per game of a results database: key, seats, ranks, how it ended, steps."""
    from ..tournament import ResultsStore

    store = ResultsStore.open(path, read_only=True)
    try:
        games = list(store.games())
    finally:
        store.close()
    yield f"{path}: {len(games)} games; show one with `arena replay {path} GAME`"
    if games:
        width = max(len(game.key) for game in games)
        yield f"{'GAME':{width}}  seats (rank)  end  steps  faults"
    for game in games:
        seats = ", ".join(f"{name} ({rank})" for name, rank in zip(game.seats, game.ranks))
        yield f"{game.key:{width}}  {seats}  {game.reason}  {game.steps}  {len(game.faults)}"


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
            yield f"fault: seat {fault['seat']} {fault['kind']} at step {fault['step'] + 1}: {fault['detail']}"
