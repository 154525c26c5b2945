"""The allowed range of every number a user gives: tournament-file keys and command-line options.

One table, :data:`RANGES`, serves both: the tournament file's ``time.move_ms`` and
``arena match --move-ms`` accept exactly the same values. The bounds keep every value small
enough to schedule (``rounds``, ``max_tables``: the schedule is lazy, but a tournament of
10^12 games never ends) and to encode (``move_ms`` travels as a msgpack integer; a day in
milliseconds leaves room for sums), and large enough for any real tournament.
``examples/tournament-reference.toml`` documents each range beside its key.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..players import FAULT_SETTINGS, TIME_SETTINGS


@dataclass(frozen=True)
class Range:
    """Integers ``low`` to ``high``, both included."""

    low: int
    high: int

    def __str__(self) -> str:
        return f"{self.low}..{self.high}"


#: Every bounded number, by its tournament-file key (the last part of a dotted key).
RANGES: dict[str, Range] = {
    "players": Range(2, 8),                 # the game narrows this further (`arena games`)
    "rounds": Range(1, 10**6),
    "seed": Range(0, 2**63 - 1),            # SQLite stores signed 64-bit integers
    "max_tables": Range(0, 10**6),          # 0 = every table
    "concurrency": Range(0, 1024),          # 0 = one game per CPU core
    "workers": Range(0, 1024),              # 0 = one worker process per CPU core
    # the time control's numbers, declared with their options (arena.players._timecontrol)
    **{setting.field: Range(setting.low, setting.high) for setting in TIME_SETTINGS if setting.number},
    # the fault policy's numbers, declared with their options (arena.players._faults)
    **{setting.field: Range(setting.low, setting.high) for setting in FAULT_SETTINGS if setting.number},
    "games_per": Range(1, 10_000),          # `arena check-bot --games-per`
}

#: Command-line options and the key of :data:`RANGES` they share.
OPTIONS: dict[str, str] = {
    "--seed": "seed",
    "--rounds": "rounds",
    **{setting.option: setting.field for setting in TIME_SETTINGS if setting.number},
    **{setting.option: setting.field for setting in FAULT_SETTINGS if setting.number and setting.option},
    "--games-per": "games_per",
    "--concurrency": "concurrency",
    "--workers": "workers",
}


#: The numbers that need not be integers (an adaptive tournament's), by key: ``(low, high)``,
#: both included. ``error`` stops above 0 (no finite tournament is never wrong) and at 0.5.
REAL_RANGES: dict[str, tuple[float, float]] = {
    "error": (0.0001, 0.5),
    "margin": (0.0, 1000.0),                # Elo
}


class RangeError(ValueError):
    """A number is missing its type or its range; the message says which range is allowed."""


def check_number(key: str, value: object) -> int:
    """``value`` if it is an integer (not a bool) in the range of ``key``.

    Raises :class:`RangeError` with a message like ``must be an integer in 1..86400000, got 0``
    (the caller adds which file or option it was).
    """
    bounds = RANGES[key]
    if isinstance(value, bool) or not isinstance(value, int) or not bounds.low <= value <= bounds.high:
        shown = value if isinstance(value, int) and not isinstance(value, bool) else repr(value)
        raise RangeError(f"must be an integer in {bounds}, got {shown}")
    return value


def check_real(key: str, value: object) -> float:
    """``value`` as a float if it is a number (an integer or a float, not a bool) in the range
    of ``key`` in :data:`REAL_RANGES`. Raises :class:`RangeError`: ``must be a number in
    0.0001..0.5, got 0.7``."""
    low, high = REAL_RANGES[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        shown = value if isinstance(value, int | float) and not isinstance(value, bool) else repr(value)
        raise RangeError(f"must be a number in {low:g}..{high:g}, got {shown}")
    return float(value)


def parse_option(option: str, text: str) -> int:
    """The value of a numeric command-line ``option`` (e.g. ``--move-ms``), checked.

    Raises :class:`RangeError` naming the option: ``--move-ms must be an integer in
    1..86400000, got 'fast'``.
    """
    try:
        value: object = int(text.strip(), 10)
    except ValueError:
        value = text
    try:
        return check_number(OPTIONS[option], value)
    except RangeError as error:
        raise RangeError(f"{option} {error}") from None
