"""What one game produced, ready to store and rate: :class:`MatchResult`, and why the game
ended (:class:`EndReason`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from engines import Replay

from ..players import Fault


class EndReason(enum.Enum):
    """Why a game ended."""

    NORMAL = "normal"            #: played to the end; no fault
    FORFEIT = "forfeit"          #: played to the end; at least one seat forfeited
    FAULT = "fault"              #: stopped at a fault (``FaultPolicy.END_GAME``)
    #: stopped because the engine failed (``FaultKind.ARENA_ERROR``): no result; not rated
    ARENA_ERROR = "arena-error"


@dataclass(frozen=True)
class MatchResult:
    """The outcome of one game, ready to store and rate.

    ``ranks`` already account for forfeits (a forfeiting seat ranks below every other);
    ``engine_ranks`` are the ranks of the game as played. ``moves`` holds one
    ``(seat, elapsed_ms, by_bot)`` triple per decision; ``reserves_ms``, per decision too, the
    seat's reserve left after it (None for a fallback's move). ``bot_seeds``: each seat's
    ``start.bot_seed``; with ``seed`` and the same deterministic bots they give the same game
    again (``arena match --bot-seeds``), unless a seat is ``clock_bound``.
    """

    game: str
    seed: int
    bots: tuple[str, ...]
    ranks: tuple[int, ...]
    engine_ranks: tuple[int, ...]
    scores: tuple[Any, ...]
    faults: tuple[Fault, ...]
    reason: EndReason
    replay: Replay
    moves: tuple[tuple[int, float, bool], ...]
    duration_s: float
    reserves_ms: tuple[float | None, ...] = ()
    bot_seeds: tuple[int, ...] = ()
    #: per seat, whether its bot's hello said it budgets by the clock (``clock_bound``): such
    #: a seat may play otherwise from the same seeds, so a rerun can depart from the game
    clock_bound: tuple[bool, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "bot_seeds": list(self.bot_seeds),
            "bots": list(self.bots),
            "ranks": list(self.ranks),
            "engine_ranks": list(self.engine_ranks),
            "scores": list(self.scores),
            "faults": [fault.as_dict() for fault in self.faults],
            "reason": self.reason.value,
            "duration_s": round(self.duration_s, 6),
        }
