"""What the viewer shows beside a game's states: who played, the result, the faults (each with
the last lines its bot wrote to stderr) and, per decision, the time the bot took and the
reserve it had left, or that the fallback made that move.

All of it goes into a game's ``meta`` (:func:`viewer_meta`), which travels in the game's chunk
with its replay (:mod:`._page`). The clock is aligned with the replay's actions here, once, so
the browser reads it by position: the ``n``-th action of the game (steps in order, each step's
actions in the replay's order) has the ``n``-th entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines import Replay

from ..players import TimeControl

#: the most of a fault's stderr the viewer shows: its last lines, a glance (the report's fault
#: table keeps more; the store keeps 16 KiB)
STDERR_LINES = 12
STDERR_CHARS = 1200

#: one decision as the store keeps it: (seat, elapsed_ms, by_bot, reserve_ms left or None)
Move = tuple[int, float, bool, "float | None"]


def stderr_glance(text: str) -> str:
    """The last :data:`STDERR_LINES` lines of ``text``, at most :data:`STDERR_CHARS` characters."""
    lines = text.rstrip("\n").splitlines()[-STDERR_LINES:]
    return "\n".join(lines)[-STDERR_CHARS:]


def fault_meta(fault: Mapping[str, Any]) -> dict[str, Any]:
    """A stored fault (``Fault.as_dict``) for the viewer: its stderr cut to a glance."""
    out = {key: fault[key] for key in ("seat", "bot", "kind", "detail", "step") if key in fault}
    stderr = stderr_glance(fault.get("stderr_tail") or "")
    if stderr:
        out["stderr"] = stderr
    if fault.get("between_games"):
        out["between_games"] = True
    return out


def _ms(value: float) -> float:
    """Milliseconds as the page shows them: 0 below 1 ms (shown as "< 1 ms": finer is noise to a
    reader, and costs a report of fast bots a third more bytes), tenths below 10 ms, whole ones
    above."""
    if value < 1:
        return 0
    return round(value, 1) if value < 10 else round(value)


def clock_meta(replay: Replay, moves: Sequence[Sequence[Any]] | None) -> dict[str, Any] | None:
    """Per action of ``replay`` (in order): ``ms``, the milliseconds its bot took, ``None`` where
    the fallback chose it; ``left``, the reserve in ms its seat had left after it (``None``
    where unknown; absent when nothing is known: a game stored before reserves were recorded).
    ``None`` when ``moves`` (``ResultsStore.moves``) is empty or does not match the replay's
    actions seat by seat (then nothing is shown rather than something wrong).

    The moves of one step are recorded in the order they came in (simultaneous seats in any
    order); a game stopped in the middle of a step has moves after its last step (dropped)."""
    if not moves:
        return None
    ms: list[float | None] = []
    left: list[int | None] = []
    cursor = 0
    for step in replay.steps:
        group = moves[cursor:cursor + len(step)]
        cursor += len(step)
        by_seat = {move[0]: move for move in group}
        if len(group) != len(step) or by_seat.keys() != set(step):
            return None
        for seat in step:
            move = by_seat[seat]
            by_bot = bool(move[2])
            reserve = move[3] if len(move) > 3 else None
            ms.append(_ms(move[1]) if by_bot else None)
            left.append(round(reserve) if by_bot and reserve is not None else None)
    out: dict[str, Any] = {"ms": ms}
    if any(value is not None for value in left):
        out["left"] = left
    return out


def time_limits(config: Mapping[str, Any]) -> list[int]:
    """``[move_ms, reserve_ms]`` of a tournament's raw configuration (its ``[time]`` table)."""
    time = config.get("time") or {}
    defaults = TimeControl()
    return [int(time.get("move_ms", defaults.move_ms)), int(time.get("reserve_ms", defaults.reserve_ms))]


def viewer_meta(replay: Replay, *, bots: Sequence[str], ranks: Sequence[int] | None = None,
                scores: Sequence[Any] | None = None, reason: str | None = None,
                faults: Sequence[Mapping[str, Any]] = (), key: str | None = None,
                moves: Sequence[Sequence[Any]] | None = None, limits: Sequence[int] | None = None,
                ) -> dict[str, Any]:
    """One game's ``meta`` for the viewer: ``bots``, ``ranks``, ``scores``, ``reason``, ``faults``
    (:func:`fault_meta`), ``key`` when given, ``clock`` (:func:`clock_meta`) when known and
    ``limits`` (``[move_ms, reserve_ms]``) with it."""
    meta: dict[str, Any] = {"bots": list(bots), "ranks": None if ranks is None else list(ranks),
                            "scores": None if scores is None else list(scores), "reason": reason,
                            "faults": [fault_meta(fault) for fault in faults]}
    if key is not None:
        meta = {"key": key, **meta}
    clock = clock_meta(replay, moves)
    if clock is not None:
        meta["clock"] = clock
        if limits is not None:
            meta["limits"] = list(limits)
    return meta
