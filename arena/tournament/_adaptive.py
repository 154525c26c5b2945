"""Adaptive tournaments (``format = "adaptive"``): rounds of duplicate blocks, each chosen from
the results of the rounds before it, until the question (``goal``) is decided at ``error``.

Round 0 seats two random partitions of the field (:func:`arena.ratings.first_round`). Once
every game of round r is stored, the games of rounds 0..r are fitted and the question judged
(:func:`arena.ratings.judge`, one look per round); if it is not decided, round r + 1 seats the
undecided entrants at the tables :func:`arena.ratings.next_round` chooses (a decided entrant
sits only to fill a table that too few undecided ones remain for). It stops when the question
is decided, when the error is spent (:data:`ADAPTIVE_LOOKS` looks), after ``rounds`` rounds or
once ``max_tables`` tables are played; the last two stop it undecided, and
``arena tournament extend DB --rounds N`` lets it go on (the error is split over
:data:`ADAPTIVE_LOOKS` looks whatever ``rounds`` says, so no earlier look changes).

The tables of round r are a pure function of the tournament file (``seed``, entrants, goal)
and the results of rounds < r in the store: the results of a look enter as a multiset (sorted,
not in the order games ended), so :class:`AdaptivePlan` rebuilt from the store after a
``kill -9`` chooses the very same tables. Each table is a duplicate block as in every
tournament: its rotations share a secret deal (an HMAC under the database's key of the file's
``seed``, the round, the table's place in it and its members), and its games are keyed
``r{round}t{table}s{rotation}`` (two tables of a round may seat the same entrants).
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..ratings import Goal, Verdict, judge, parse_goal, first_round, next_round
from ._config import ADAPTIVE_LOOKS, TournamentConfig
from ._schedule import GAME_SEED_BITS, ScheduledGame, keyed_seed, rotated_game


def finishing_orders(seats: Iterable[int], ranks: Iterable[int]) -> list[tuple[tuple[int, ...], float]]:
    """A game as Plackett-Luce finishing orders (best first) with weights summing to 1: every
    order of its tied seats, equally (ranks: lower is better, equal is a tie)."""
    by_rank: dict[int, list[int]] = {}
    for seat, rank in zip(seats, ranks):
        by_rank.setdefault(rank, []).append(seat)
    groups = [by_rank[rank] for rank in sorted(by_rank)]
    orders = [tuple(itertools.chain.from_iterable(parts))
              for parts in itertools.product(*(itertools.permutations(group) for group in groups))]
    return [(order, 1.0 / len(orders)) for order in orders]


@dataclass(frozen=True)
class Look:
    """What the tournament knows after a look: the verdict, and the line saying why it stopped
    (``None`` while it goes on)."""

    round: int
    games: int
    verdict: Verdict
    stop: str | None


class AdaptivePlan:
    """The rounds of an adaptive tournament, as its results come in.

    Feed it every stored game (:meth:`add`, any order); :meth:`advance` closes each round all
    of whose games are stored (a look) and makes the next; :meth:`games` is the current
    round's games. ``key`` (the database's secret key) is needed for :meth:`games` only.
    """

    def __init__(self, config: TournamentConfig, key: bytes | None = None) -> None:
        if config.adaptive is None:
            raise ValueError(f"{config.path}: not an adaptive tournament")
        self.config = config
        self.names = [spec.name for spec in config.entrants]
        self._index = {name: i for i, name in enumerate(self.names)}
        self.goal: Goal = parse_goal(config.adaptive.goal, margin=config.adaptive.margin)
        self._key = key
        spec = config.schedule
        self.round = 0
        self.tables: list[tuple[int, ...]] = first_round(len(self.names), spec.players, spec.seed)
        self.tables_before = 0  # tables of the rounds before this one
        self.look: Look | None = None
        self._results: dict[int, Counter] = {}
        self._keys: dict[int, set[str]] = {}

    @property
    def stop(self) -> str | None:
        """Why the tournament is over (decided, or a bound reached), or ``None``."""
        return None if self.look is None else self.look.stop

    def add(self, round_index: int, key: str, seats: Iterable[str], ranks: Iterable[int]) -> None:
        """A stored game of round ``round_index`` (once per key)."""
        if key in self._keys.setdefault(round_index, set()):
            return
        self._keys[round_index].add(key)
        counter = self._results.setdefault(round_index, Counter())
        for order, weight in finishing_orders([self._index[name] for name in seats], ranks):
            counter[order] += weight

    def games(self) -> list[ScheduledGame]:
        """The games of the current round (none once the tournament is over)."""
        if self.stop is not None:
            return []
        if self._key is None:
            raise ValueError("the games of an adaptive round need the tournament's key")
        spec, key = self.config.schedule, self._key
        games = []
        for number, table in enumerate(self.tables):
            order = [self.names[i] for i in table]
            content = json.dumps([spec.variant, sorted(order)])
            # The next round lists neighbours in rating order: seat them in a seeded order.
            random.Random(keyed_seed(key, "seats", spec.seed, self.round, number, content)).shuffle(order)
            block = f"r{self.round}t{number}"
            for rotation in range(spec.players):
                seed = keyed_seed(key, "deal", spec.seed, self.round, number, content,
                                  0 if spec.duplicate else rotation, bits=GAME_SEED_BITS)
                games.append(rotated_game(key, self.round, number, rotation, order, seed, block))
        return games

    def advance(self) -> bool:
        """Close every round whose games are all stored, making the next; ``True`` if a round
        was closed."""
        closed = False
        while self.stop is None and self._complete():
            self._close()
            closed = True
        return closed

    def _complete(self) -> bool:
        """Every game of the current round is stored, or a later round's is (the run that
        stored it moved on: a database played by another version, whose rounds count as played)."""
        if any(round_index > self.round and keys for round_index, keys in self._keys.items()):
            return True
        stored = self._keys.get(self.round, set())
        return all(f"r{self.round}t{number}s{rotation}" in stored
                   for number in range(len(self.tables)) for rotation in range(self.config.schedule.players))

    def _close(self) -> None:
        spec, adaptive = self.config.schedule, self.config.adaptive
        assert adaptive is not None
        results: Counter = Counter()
        for round_index in range(self.round + 1):
            results.update(self._results.get(round_index, Counter()))
        rows = sorted(results)  # the multiset of results, not the order games ended in
        played = sum(len(self._keys.get(r, ())) for r in range(self.round + 1))
        verdict = judge(len(self.names), np.array(rows, dtype=np.int64), self.goal, error=adaptive.error,
                        previous=None if self.look is None else self.look.verdict,
                        counts=np.array([results[row] for row in rows], dtype=float), max_looks=ADAPTIVE_LOOKS)
        self.tables_before += len(self.tables)
        rounds = self.round + 1
        stop = None
        if verdict.decided:
            stop = f"decided: {self.answer(verdict)} at error {adaptive.error:g} after {played} games ({rounds} rounds)"
        elif verdict.exhausted or rounds >= spec.rounds or spec.max_tables and self.tables_before >= spec.max_tables:
            bound = ("the error is spent" if verdict.exhausted else f"rounds = {spec.rounds}"
                     if rounds >= spec.rounds else f"max_tables = {spec.max_tables}")
            stop = (f"undecided after {played} games ({rounds} rounds; {bound}): {verdict.reason}; "
                    f"likeliest {self.answer(verdict, decided=False)}")
        else:
            tables = next_round(verdict, spec.players, spec.seed, self.tables_before)
            if spec.max_tables:
                tables = tables[:spec.max_tables - self.tables_before]
            self.tables = tables
            self.round = rounds
        self.look = Look(rounds - 1, played, verdict, stop)

    def answer(self, verdict: Verdict, decided: bool = True) -> str:
        """The verdict's answer in words: ``top 3 = a, b, c``, ``order = a > b > c`` or
        ``every rating to ±20 Elo``."""
        names = [self.names[i] for i in verdict.answer]
        if self.goal.kind == "top":
            return f"top {self.goal.k} = {', '.join(names)}"
        if self.goal.kind == "order":
            return f"order = {' > '.join(names)}"
        return f"every rating to ±{self.goal.elo:g} Elo" if decided else f"order = {' > '.join(names)}"

    def undecided(self) -> list[str]:
        """The entrants the next round is for (every one before the first look, none once the
        question is decided), best first by the last look."""
        if self.look is None:
            return list(self.names)
        ratings = self.look.verdict.ratings
        return [self.names[i] for i in sorted(self.look.verdict.undecided, key=lambda i: -ratings[i])]


def plan_of(config: TournamentConfig, stored: Iterable, key: bytes | None = None) -> AdaptivePlan:
    """The plan of ``config`` with every ``stored`` game (:class:`StoredGame`) fed in and every
    complete round closed: where the tournament stands (the same plan, whatever order the
    games were stored in)."""
    plan = AdaptivePlan(config, key)
    for game in stored:
        plan.add(game.round, game.key, game.seats, game.ranks)
    plan.advance()
    return plan
