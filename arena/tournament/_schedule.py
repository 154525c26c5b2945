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

Schedule versions (:attr:`ScheduleSpec.version`, kept in the database): in version 2 (since
``arena tournament extend``) a game's key, seat order and seeds derive from the table's
*content* (the variant, the round, the names at the table, the rotation), never from its
place in the schedule, so a tournament can grow (:func:`extension_problem`) and every stored
game keeps its key and seed. Version 1 numbered the tables (``r0t3s1``): adding an entrant
renumbers them, so its databases can only take more rounds.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import itertools
import json
import math
import random
import secrets
from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass

#: The schedule version of new tournaments (see the module's docstring).
SCHEDULE_VERSION = 2
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


def bot_seeds_of(key: bytes, game_key: str, seats: tuple[str, ...]) -> tuple[int, ...]:
    """The seats' ``start.bot_seed`` values of game ``game_key`` under ``key``: each seat's own,
    so no bot learns another's (or the deal's) from its own."""
    return tuple(keyed_seed(key, "bot", game_key, seat, name) for seat, name in enumerate(seats))


class Format(enum.Enum):
    ROUND_ROBIN = "round-robin"
    GAUNTLET = "gauntlet"
    #: rounds chosen from the results so far toward a question (:mod:`arena.tournament._adaptive`)
    ADAPTIVE = "adaptive"


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
    #: the game and its options that differ from their defaults (canonical JSON): part of
    #: every version-2 key and seed, so games of two variants never share one
    variant: str = ""
    #: 1: keys and seeds by table number; 2: by table content (see the module's docstring)
    version: int = SCHEDULE_VERSION


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


def _tables_by_content(spec: ScheduleSpec, rng: random.Random) -> Iterator[tuple[int, tuple[str, ...]]]:
    """The tables of one round in version 2, each with its number: the colex rank of its
    members' places in the entrant list. Entrants are only ever appended, so a table keeps its
    number (and the tables of the first n entrants come first) however the tournament grows."""
    k = spec.players
    place = {name: index for index, name in enumerate(spec.entrants)}
    if spec.format is Format.ROUND_ROBIN:
        groups: Iterator[tuple[tuple[int, ...], tuple[int, ...]]] = (
            ((), combination) for combination in _some_colex(len(spec.entrants), k, spec.max_tables, rng))
    else:
        field = [place[name] for name in spec.entrants if name not in spec.candidates]
        groups = (((place[candidate],), tuple(field[i] for i in rest))
                  for candidate in spec.candidates
                  for rest in _some_colex(len(field), k - 1, spec.max_tables, rng))
    for head, rest in groups:
        members = sorted(head + rest)
        number = sum(math.comb(index, position + 1) for position, index in enumerate(members))
        yield number, tuple(spec.entrants[index] for index in members)


def _some_colex(n: int, k: int, limit: int, rng: random.Random) -> Iterator[tuple[int, ...]]:
    """Every k-subset of ``range(n)`` in colex order (those of the first m come first), or a
    seeded sample of ``limit`` of them."""
    count = math.comb(n, k)
    if limit and count > limit:
        for index in sorted(rng.sample(range(count), limit)):
            yield _nth_colex(k, index)
    else:
        yield from _colex(n, k)


def _colex(n: int, k: int) -> Iterator[tuple[int, ...]]:
    if k == 0:
        yield ()
        return
    for last in range(k - 1, n):
        for rest in _colex(last, k - 1):
            yield (*rest, last)


def _nth_colex(k: int, index: int) -> tuple[int, ...]:
    """The ``index``-th k-subset in colex order: greedily the largest c with C(c, j) <= index."""
    result = []
    top = k - 1
    while math.comb(top + 1, k) <= index:
        top += 1
    for j in range(k, 0, -1):
        while math.comb(top, j) > index:
            top -= 1
        result.append(top)
        index -= math.comb(top, j)
        top -= 1
    return tuple(reversed(result))


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
        if spec.format is Format.ADAPTIVE:
            raise ValueError("an adaptive tournament's rounds depend on its results: arena.tournament._adaptive")
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
            if spec.version == 1:
                yield from self._numbered_round(round_index, rng)
            else:
                yield from self._round(round_index, rng)

    def _round(self, round_index: int, rng: random.Random) -> Iterator[ScheduledGame]:
        """One round in version 2: key, seat order and seeds of a table from its content."""
        spec, key = self.spec, self._key
        for number, table in _tables_by_content(spec, rng):
            content = json.dumps([spec.variant, sorted(table)])
            block = f"r{round_index}-{hashlib.sha256(content.encode()).hexdigest()[:16]}"
            order = list(table)
            random.Random(keyed_seed(key, "seats", spec.seed, round_index, content)).shuffle(order)
            for rotation in range(spec.players):
                seed = keyed_seed(key, "deal", spec.seed, round_index, content,
                                  0 if spec.duplicate else rotation, bits=GAME_SEED_BITS)
                yield self._game(round_index, number, rotation, order, seed, block)

    def _numbered_round(self, round_index: int, rng: random.Random) -> Iterator[ScheduledGame]:
        """One round in version 1 (databases made before version 2): by table number."""
        spec, key = self.spec, self._key
        for table_index, table in enumerate(_tables(spec, rng)):
            # Seat the table in a seeded order first, so seat 0 is not always the first name.
            order = list(table)
            rng.shuffle(order)
            for rotation in range(spec.players):
                # The game seed depends on the position and the file's seed only, so the
                # rotations of a duplicate block share it.
                seed = keyed_seed(key, "deal", spec.seed, round_index, table_index,
                                  0 if spec.duplicate else rotation, bits=GAME_SEED_BITS)
                yield self._game(round_index, table_index, rotation, order, seed, f"r{round_index}t{table_index}")

    def _game(self, round_index: int, table: int, rotation: int, order: list[str], seed: int,
              block: str) -> ScheduledGame:
        return rotated_game(self._key, round_index, table, rotation, order, seed, block)

    def pending(self, done: Container[str]) -> Iterator[ScheduledGame]:
        """The games whose key is not in ``done`` (the stored ones), in play order."""
        return (game for game in self if game.key not in done)


def rotated_game(key: bytes, round_index: int, table: int, rotation: int, order: list[str], seed: int,
                 block: str) -> ScheduledGame:
    """Rotation ``rotation`` of a block seated in ``order``: game key ``{block}s{rotation}``,
    each seat's bot seed under the tournament's ``key``."""
    seats = tuple(order[rotation:] + order[:rotation])
    game_key = f"{block}s{rotation}"
    return ScheduledGame(key=game_key, round=round_index, table=table, rotation=rotation, seats=seats,
                         seed=seed, block=block, bot_seeds=bot_seeds_of(key, game_key, seats))


def _limited(count: int, limit: int) -> int:
    return min(count, limit) if limit else count


def build_schedule(spec: ScheduleSpec, key: bytes) -> Schedule:
    """The tournament's schedule under its secret ``key`` (see :func:`new_key`)."""
    return Schedule(spec, key)


def extension_problem(old: ScheduleSpec, new: ScheduleSpec) -> str | None:
    """Why the schedule of ``new`` would not hold every game of ``old`` unchanged (same key,
    seats and seeds), or ``None`` when ``new`` only grows it: more rounds, entrants and
    candidates appended. Then the new games are exactly ``new``'s keys that ``old`` lacks, and
    a round-robin stays fair: an added entrant meets every other as often as two old ones met.
    """
    for name in ("players", "format", "seed", "duplicate", "max_tables", "variant", "version"):
        if getattr(old, name) != getattr(new, name):
            return f"'{name}' cannot change ({getattr(old, name)!r} -> {getattr(new, name)!r})"
    if new.rounds < old.rounds:
        return f"'rounds' can only grow ({old.rounds} -> {new.rounds})"
    for name in ("entrants", "candidates"):
        before, after = getattr(old, name), getattr(new, name)
        if after[:len(before)] != before:
            return f"'{name}' can only be appended to"
    if set(new.candidates[len(old.candidates):]) & set(old.entrants):
        return "an entrant of the field cannot become a candidate"
    if new.entrants == old.entrants:
        return None
    if old.version == 1:
        return ("made before tournaments could take new entrants (schedule version 1): it can take "
                "more rounds; for new entrants, run the larger tournament into a new database")
    k, limit = new.players, new.max_tables
    field = [name for name in new.entrants if name not in new.candidates]
    old_field = [name for name in old.entrants if name not in old.candidates]
    sampled = (math.comb(len(new.entrants), k) > limit if new.format is Format.ROUND_ROBIN
               else field != old_field and math.comb(len(field), k - 1) > limit)
    if limit and sampled:
        return (f"its tables are a sample (max_tables = {limit}) that new entrants would redraw; "
                f"run the larger tournament into a new database")
    return None
