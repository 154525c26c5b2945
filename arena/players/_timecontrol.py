"""Time control: a per-move limit plus an optional per-game reserve (overage bank).

An optional ``margin_ms`` (like fastchess's timemargin) forgives lateness the arena may have
added: a reply late by at most the margin (after the reserve is spent) is not a timeout, but
the time is still charged (the reserve goes to zero).

:class:`TimeControl` is the configured value; :class:`GameClock` is one seat's clock in one
game. Time a bot spends beyond the per-move limit is taken from its reserve; a move that
needs more than both is a timeout. The clock never reads the time itself: the caller
measures and reports elapsed seconds, which keeps the policy testable with any clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._settings import Setting, again_flags


@dataclass(frozen=True)
class TimeControl:
    """Per-move limit and per-game reserve, in milliseconds; ``startup_ms`` bounds the handshake;
    ``margin_ms``: lateness that is charged but not a timeout; ``ponder``: bots may think while
    others are on move (else, where a cgroup freezer serves, a bot not on move is frozen);
    ``in_turn``: the seats of a simultaneous decision are asked one after another, each with
    the others frozen, instead of all at once (their choices stay secret from each other).

    The field defaults are every command's: a tournament file's ``[time]``, ``arena match``
    and ``arena check-bot`` (a bot checked there meets the clock a default tournament gives it)."""

    move_ms: int = 1000
    reserve_ms: int = 0
    startup_ms: int = 10_000
    margin_ms: int = 0
    ponder: bool = False
    in_turn: bool = False

    def __post_init__(self) -> None:
        if self.move_ms <= 0:
            raise ValueError(f"move_ms must be positive, got {self.move_ms}")
        if self.reserve_ms < 0 or self.startup_ms <= 0:
            raise ValueError("reserve_ms must be >= 0 and startup_ms > 0")
        if self.margin_ms < 0:
            raise ValueError(f"margin_ms must be >= 0, got {self.margin_ms}")

    def new_clock(self) -> GameClock:
        return GameClock(self.move_ms / 1000, self.reserve_ms / 1000, self.margin_ms / 1000, self.ponder)


DAY_MS = 86_400_000


def _default(field: str) -> int | bool:
    return getattr(TimeControl(), field)


#: each field of :class:`TimeControl`: its ``[time]`` key, option, help and range
TIME_SETTINGS: tuple[Setting, ...] = (
    Setting("move_ms", "--move-ms", "Per-move time limit in ms.", _default("move_ms"), 1, DAY_MS),
    Setting("reserve_ms", "--reserve-ms", "Per-game reserve (overage bank) in ms: time beyond --move-ms comes out "
                                          "of it.", _default("reserve_ms"), 0, DAY_MS),
    Setting("startup_ms", "--startup-ms", "Time to start and answer hello, in ms.", _default("startup_ms"), 1, 600_000),
    Setting("margin_ms", "--margin-ms", "Lateness charged but not a timeout (after the reserve), in ms.",
            _default("margin_ms"), 0, DAY_MS),
    Setting("ponder", "--ponder", "Let bots think while others are on move (else, as root, a bot not on move is "
                                  "frozen).", _default("ponder")),
    Setting("in_turn", "--in-turn", "Ask the seats of a simultaneous decision one after another (no two bots run "
                                    "at once).", _default("in_turn")),
)
#: :data:`TIME_SETTINGS` by field
TIME_SETTING = {setting.field: setting for setting in TIME_SETTINGS}


def time_again(control: TimeControl) -> list[str]:
    """The options that give ``control`` again on a command line: those not at their default."""
    return again_flags(TIME_SETTINGS, {setting.field: getattr(control, setting.field) for setting in TIME_SETTINGS})


class GameClock:
    """One seat's clock for one game (``ponder``: its bot is left running after each move)."""

    __slots__ = ("move_limit", "reserve", "margin", "ponder")

    def __init__(self, move_limit: float, reserve: float, margin: float = 0.0, ponder: bool = False) -> None:
        self.move_limit = move_limit
        self.reserve = reserve
        self.margin = margin
        self.ponder = ponder

    def budget(self) -> float:
        """Seconds the bot may use for the next move (what its request tells it)."""
        return self.move_limit + self.reserve

    def deadline(self) -> float:
        """Seconds after which the arena stops waiting: the budget plus the margin."""
        return self.move_limit + self.reserve + self.margin

    def update(self, elapsed: float) -> bool:
        """Charge ``elapsed`` seconds for one move; ``False`` if that was over the budget."""
        overage = elapsed - self.move_limit
        if overage <= 0:
            return True
        if overage > self.reserve:
            late = overage - self.reserve
            self.reserve = 0.0
            return late <= self.margin  # within the margin: charged (reserve spent), not a timeout
        self.reserve -= overage
        return True
