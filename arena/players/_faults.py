"""Fault classes, the record of a fault, and what a fault costs the bot (the policy)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ._settings import Setting


class FaultKind(enum.Enum):
    """Why a bot failed a decision. The arena, not the game, assigns these."""

    TIMEOUT = "timeout"          #: no valid reply within the move limit plus the reserve
    CRASH = "crash"              #: the process could not start, exited, or closed its stdout
    PROTOCOL = "protocol"        #: bad frame, bad msgpack, wrong message or id
    ILLEGAL = "illegal"          #: a well-formed reply with an action the engine rejected
    OVERSIZE = "oversize"        #: a frame header declared more than the frame limit
    #: the kernel killed one of its processes for the bot's memory limit (its memory cgroup)
    MEMORY = "memory"
    #: not the bot's: the engine raised an unexpected exception (a bug); the game stops, no
    #: bot is charged (the fault's ``seat`` and ``bot`` are None), the detail holds the traceback
    ARENA_ERROR = "arena-error"


class FaultPolicy(enum.Enum):
    """What happens to a bot that faults.

    - ``FORFEIT`` (default): the bot is ranked last; a fallback plays its seat with uniformly
      random legal actions, so the others finish a real game.
    - ``END_GAME``: the game stops at once; the faulting bot is last, the others share first.
    - ``SUBSTITUTE``: a random legal action replaces the failed one, up to ``max_substitutions``
      times per game; the next fault forfeits. A crashed bot forfeits at once.
    """

    FORFEIT = "forfeit"
    END_GAME = "end-game"
    SUBSTITUTE = "substitute"


#: the ``[faults]`` table's settings: what a fault costs, and when an entrant is withdrawn
FAULT_SETTINGS: tuple[Setting, ...] = (
    Setting("policy", "--fault-policy", "What a fault costs the faulting bot: forfeit, end-game or substitute.",
            FaultPolicy.FORFEIT.value, choices=tuple(policy.value for policy in FaultPolicy)),
    Setting("max_substitutions", "--substitutions", "Random substitutions before forfeit (substitute policy).", 3,
            0, 10**6),
    Setting("withdraw_after", "", "Faults between games after which an entrant is withdrawn (0 = never).", 5,
            0, 10**6),
)
#: :data:`FAULT_SETTINGS` by field
FAULT_SETTING = {setting.field: setting for setting in FAULT_SETTINGS}


@dataclass(frozen=True)
class Fault:
    """One fault, attributed to a seat and its bot (to none, ``None``, for ``ARENA_ERROR``)."""

    seat: int | None
    bot: str | None
    kind: FaultKind
    detail: str
    step: int
    stderr_tail: str = ""
    #: the bot's process misbehaved between its last game and this one (it exited, closed its
    #: stdout or wrote): charged to this game, and counted towards the tournament's
    #: ``faults.withdraw_after`` (see :mod:`arena.players._pool`)
    between_games: bool = False

    @property
    def step_number(self) -> int:
        """The step of the failed decision as every display numbers steps, from 1 (the viewer,
        ``arena replay``, the report): ``step`` (stored) counts the steps played before it."""
        return self.step + 1

    def as_dict(self) -> dict:
        record = {
            "seat": self.seat,
            "bot": self.bot,
            "kind": self.kind.value,
            "detail": self.detail,
            "step": self.step,
            "stderr_tail": self.stderr_tail,
        }
        if self.between_games:  # only then: the faults of earlier databases read the same
            record["between_games"] = True
        return record


class BotFault(Exception):
    """Raised by the bot connection layer; the match turns it into a :class:`Fault`.
    ``between_games``: found between two games (see :attr:`Fault.between_games`)."""

    def __init__(self, kind: FaultKind, detail: str, between_games: bool = False) -> None:
        super().__init__(f"{kind.value}: {detail}")
        self.kind = kind
        self.detail = detail
        self.between_games = between_games


def between_games(fault: dict) -> bool:
    """Whether a stored fault (:meth:`Fault.as_dict`) was charged for misbehaviour between games."""
    return bool(fault.get("between_games"))
