"""Tournament schedules: a pure, deterministic list of the games to play.

A schedule never looks at results, so it can be recomputed at any time; resuming a
tournament is "the schedule minus the games already stored" (by :attr:`ScheduledGame.key`).

Round-robin over k-player tables: every k-subset of the entrants (or a seeded sample), each
played in all k cyclic seat rotations, so every entrant of a table sits in every seat once.
With duplicate deals the rotations of a table share one game seed: every seat gets the same
cards whoever sits in it, and the rotations form a block whose luck cancels.
Gauntlet: each candidate plays every (k-1)-subset of the field (or a sample), with rotations.
"""

from __future__ import annotations

import enum
import hashlib
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass


class Format(enum.Enum):
    ROUND_ROBIN = "round-robin"
    GAUNTLET = "gauntlet"


@dataclass(frozen=True)
class ScheduledGame:
    """One game to play: who sits where, with which seed; ``block`` groups a duplicate deal."""

    key: str
    round: int
    table: int
    rotation: int
    seats: tuple[str, ...]
    seed: int
    block: str


@dataclass(frozen=True)
class ScheduleSpec:
    """What a schedule is made from (a validated slice of the tournament file)."""

    entrants: tuple[str, ...]
    players: int
    format: Format = Format.ROUND_ROBIN
    rounds: int = 1
    seed: int = 1
    duplicate: bool = True
    max_tables: int = 0
    candidates: tuple[str, ...] = ()


def _seed(base: int, *parts: object) -> int:
    text = ":".join(str(part) for part in (base, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


def _tables(spec: ScheduleSpec, rng: random.Random) -> list[tuple[str, ...]]:
    k = spec.players
    if spec.format is Format.ROUND_ROBIN:
        count = math.comb(len(spec.entrants), k)
        if spec.max_tables and count > spec.max_tables:
            # Sample indices of combinations without materialising all of them.
            picks = sorted(rng.sample(range(count), spec.max_tables))
            return [_nth_combination(spec.entrants, k, index) for index in picks]
        return list(itertools.combinations(spec.entrants, k))
    field = [name for name in spec.entrants if name not in spec.candidates]
    tables = []
    for candidate in spec.candidates:
        others = list(itertools.combinations(field, k - 1))
        if spec.max_tables and len(others) > spec.max_tables:
            others = sorted(rng.sample(others, spec.max_tables))
        tables.extend((candidate, *rest) for rest in others)
    return tables


def _nth_combination(pool: Sequence[str], k: int, index: int) -> tuple[str, ...]:
    """The ``index``-th k-combination of ``pool`` in lexicographic order."""
    n = len(pool)
    result = []
    start = 0
    for remaining in range(k, 0, -1):
        for position in range(start, n):
            count = math.comb(n - position - 1, remaining - 1)
            if index < count:
                result.append(pool[position])
                start = position + 1
                break
            index -= count
    return tuple(result)


def build_schedule(spec: ScheduleSpec) -> list[ScheduledGame]:
    """Every game of the tournament in play order. Same spec, same list."""
    games = []
    for round_index in range(spec.rounds):
        rng = random.Random(_seed(spec.seed, "tables", round_index))
        for table_index, table in enumerate(_tables(spec, rng)):
            # Seat the table in a seeded order first, so seat 0 is not always the first name.
            order = list(table)
            rng.shuffle(order)
            block = f"r{round_index}t{table_index}"
            for rotation in range(spec.players):
                seats = tuple(order[rotation:] + order[:rotation])
                seed = _seed(spec.seed, "deal", round_index, table_index,
                             0 if spec.duplicate else rotation)
                games.append(ScheduledGame(
                    key=f"{block}s{rotation}", round=round_index, table=table_index,
                    rotation=rotation, seats=seats, seed=seed, block=block,
                ))
    return games
