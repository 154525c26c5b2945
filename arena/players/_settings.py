"""A setting a person gives, declared once: its key in a tournament file, its command-line
option, its help, its default and what it may be (a range, a flag, or one of some words).

The time control's fields (:data:`arena.players._timecontrol.TIME_SETTINGS`) and the fault
policy's (:data:`arena.players._faults.FAULT_SETTINGS`) are declared this way; the tournament
file's reader, the ranges of :mod:`arena.tournament._ranges`, the options of ``arena match``,
``check-bot`` and ``play`` and the "same game again" line are derived from them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    """One setting: ``field`` (its key in its tournament-file table and its name in code),
    ``option`` (``""``: none on the command line), ``help``, ``default``, and for a number its
    range ``low``..``high``, for a word its ``choices``; a ``bool`` default makes a flag."""

    field: str
    option: str
    help: str
    default: int | bool | str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()

    @property
    def number(self) -> bool:
        return self.low is not None

    @property
    def flag(self) -> bool:
        return isinstance(self.default, bool)


def again_flags(settings: Iterable[Setting], values: Mapping[str, object]) -> list[str]:
    """The options that give ``values`` (by field) again on a command line: those of the
    settings not at their default."""
    flags: list[str] = []
    for setting in settings:
        value = values[setting.field]
        if setting.option and value != setting.default:
            flags += [setting.option] if setting.flag else [setting.option, str(value)]
    return flags
