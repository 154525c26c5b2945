"""Tournament schedules: a pure, deterministic, lazy sequence of the games to play.

A schedule never looks at results, so it can be recomputed at any time; resuming a
tournament is "the schedule minus the games already stored" (by :attr:`ScheduledGame.key`),
and :meth:`Schedule.pending` computes that without holding the schedule in memory: a
schedule of 10^6 rounds costs no more memory than one of a single round.

Round-robin over k-player tables: every k-subset of the entrants (or a seeded sample), each
played in all k cyclic seat rotations, so every entrant of a table sits in every seat once.
With duplicate deals the rotations of a table share one game seed: every seat gets the same
cards whoever sits in it, and the rotations form a block whose luck cancels.
Gauntlet: each candidate plays every (k-1)-subset of the field (or a sample), with rotations.

Every random choice (table sample, seat order, game seeds, bot seeds) is an HMAC-SHA256 of the
tournament's secret key (:func:`new_key`, kept in the results database and never shown to a
bot), so a bot that sees its ``bot_seed`` cannot work out the game seed, even when the file's
``seed`` is small: without the key every derivation is a guess among 2^256.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import itertools
import math
import random
import secrets
from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass

#: Game seeds are below 2^53, so they stay exact in every JSON reader (JavaScript included).
GAME_SEED_BITS = 53
KEY_BYTES = 32


def new_key() -> bytes:
    """A fresh random 256-bit tournament key."""
    return secrets.token_bytes(KEY_BYTES)


def keyed_seed(key: bytes, *parts: object, bits: int = 64) -> int:
    """A ``bits``-bit seed: HMAC-SHA256 under ``key`` of ``parts`` joined by a separator."""
    message = "\x1f".join(str(part) for part in parts).encode()
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - bits)


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
    #: ``start.bot_seed`` of each seat
    bot_seeds: tuple[int, ...] = ()


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


def _tables(spec: ScheduleSpec, rng: random.Random) -> Iterator[tuple[str, ...]]:
    """The tables of one round, in order, made as they are consumed."""
    k = spec.players
    if spec.format is Format.ROUND_ROBIN:
        yield from _some_combinations(spec.entrants, k, spec.max_tables, rng)
        return
    field = tuple(name for name in spec.entrants if name not in spec.candidates)
    for candidate in spec.candidates:
        for rest in _some_combinations(field, k - 1, spec.max_tables, rng):
            yield (candidate, *rest)


def _some_combinations(pool: Sequence[str], k: int, limit: int, rng: random.Random) -> Iterator[tuple[str, ...]]:
    """Every k-combination of ``pool`` in order, or a seeded sample of ``limit`` of them."""
    count = math.comb(len(pool), k)
    if limit and count > limit:
        # Sample indices (``limit`` is at most 10^6), never the combinations themselves.
        for index in sorted(rng.sample(range(count), limit)):
            yield _nth_combination(pool, k, index)
    else:
        yield from itertools.combinations(pool, k)


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


class Schedule:
    """Every game of a tournament in play order, made lazily: same spec and key, same games.

    Iterate it for the games; :attr:`total` counts them without making them.
    """

    def __init__(self, spec: ScheduleSpec, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("a tournament key has at least 128 bits")
        self.spec = spec
        self._key = key

    def __repr__(self) -> str:
        return f"Schedule({self.spec!r})"  # never the key

    @property
    def total(self) -> int:
        """How many games the schedule holds (computed, not counted)."""
        spec = self.spec
        if spec.format is Format.ROUND_ROBIN:
            tables = _limited(math.comb(len(spec.entrants), spec.players), spec.max_tables)
        else:
            field = len(spec.entrants) - len(spec.candidates)
            tables = len(spec.candidates) * _limited(math.comb(field, spec.players - 1), spec.max_tables)
        return spec.rounds * tables * spec.players

    def __iter__(self) -> Iterator[ScheduledGame]:
        spec, key = self.spec, self._key
        for round_index in range(spec.rounds):
            rng = random.Random(keyed_seed(key, "tables", spec.seed, round_index))
            for table_index, table in enumerate(_tables(spec, rng)):
                # Seat the table in a seeded order first, so seat 0 is not always the first name.
                order = list(table)
                rng.shuffle(order)
                block = f"r{round_index}t{table_index}"
                for rotation in range(spec.players):
                    seats = tuple(order[rotation:] + order[:rotation])
                    # The game seed depends on the position and the file's seed only, so the
                    # rotations of a duplicate block share it.
                    seed = keyed_seed(key, "deal", spec.seed, round_index, table_index,
                                      0 if spec.duplicate else rotation, bits=GAME_SEED_BITS)
                    game_key = f"{block}s{rotation}"
                    yield ScheduledGame(
                        key=game_key, round=round_index, table=table_index, rotation=rotation,
                        seats=seats, seed=seed, block=block,
                        bot_seeds=tuple(keyed_seed(key, "bot", game_key, seat, name)
                                        for seat, name in enumerate(seats)),
                    )

    def pending(self, done: Container[str]) -> Iterator[ScheduledGame]:
        """The games whose key is not in ``done`` (the stored ones), in play order."""
        return (game for game in self if game.key not in done)


def _limited(count: int, limit: int) -> int:
    return min(count, limit) if limit else count


def build_schedule(spec: ScheduleSpec, key: bytes) -> Schedule:
    """The tournament's schedule under its secret ``key`` (see :func:`new_key`)."""
    return Schedule(spec, key)
