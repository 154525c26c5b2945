"""The next round of an adaptive tournament: tables among the undecided.

A round is a number of layers; each layer seats the undecided entrants it
holds at tables of the game's size, neighbours in rating (with jitter of
their own standard error, so tables vary from round to round). Every
undecided entrant sits in at least one layer; those nearest the boundary of
the question (smallest ``closeness``) in up to all of them. Rounds grow
geometrically (``GROWTH`` of the tables so far), so the number of looks stays
small. Decided entrants sit only as fillers when fewer undecided entrants
remain than a table has seats.
"""

from __future__ import annotations

import math

import numpy as np

from ._adaptive import GROWTH, Verdict

#: the weights are scaled so the neediest entrant's is at least this: a round is then at least
#: 0.2 / 0.5 of ``GROWTH`` (at 2 players without it, 7-10 % of tournaments spent their 50 looks)
MIN_TOP_WEIGHT = 0.5


def first_round(n: int, table_size: int, seed: int, *, layers: int = 2) -> list[tuple[int, ...]]:
    """Tables before any game: ``layers`` random partitions of the whole field."""
    rng = np.random.default_rng([seed, 0])
    tables: list[tuple[int, ...]] = []
    for _ in range(layers):
        tables += _seat(list(rng.permutation(n)), table_size, list(range(n)), rng)
    return tables


def next_round(verdict: Verdict, table_size: int, seed: int, tables_so_far: int,
               *, max_layers: int = 256) -> list[tuple[int, ...]]:
    """Tables for the round after ``verdict`` (empty when the question is decided).

    Deterministic given ``seed`` and the verdict (its look number seeds the
    jitter). Raises ValueError if the field is smaller than a table.
    """
    strength = verdict.fit.strength
    n = len(strength)
    if n < table_size:
        raise ValueError(f"{n} entrants cannot fill a table of {table_size}")
    if verdict.decided or verdict.exhausted or not verdict.undecided:
        return []
    rng = np.random.default_rng([seed, verdict.look])
    undecided = list(verdict.undecided)
    layers = max(1, min(max_layers, math.ceil(GROWTH * tables_so_far * table_size / len(undecided))))
    z = verdict.z if math.isfinite(verdict.z) else 3.0
    se = np.sqrt(np.maximum(np.diag(verdict.fit.covariance), 1e-12))
    # weight 1 for a dead heat, down to 0.2 for an entrant nearly decided
    weight = {i: min(1.0, max(0.2, 1.0 - verdict.closeness.get(i, 0.0) / z)) for i in undecided}
    # when every undecided entrant is near the stop (weights all low), scale them up: a round
    # that shrank with them would need more looks than the error is spread over
    top = max(max(weight.values()), MIN_TOP_WEIGHT)
    weight = {i: w / top for i, w in weight.items()}
    share = {i: max(1, round(layers * weight[i])) for i in undecided}
    by_boundary = sorted(range(n), key=lambda i: (i not in verdict.undecided, _gap(verdict, i)))
    tables: list[tuple[int, ...]] = []
    for layer in range(layers):
        members = [i for i in undecided if share[i] > layer]
        key = strength[members] + rng.normal(0.0, 1.0, len(members)) * se[members]
        members = [members[j] for j in np.argsort(-key, kind="stable")]
        tables += _seat(members, table_size, by_boundary, rng)
    return tables


def _gap(verdict: Verdict, i: int) -> float:
    """How far entrant i's rating lies from the undecided entrants' (fillers' order)."""
    s = verdict.fit.strength
    return float(np.abs(s[list(verdict.undecided)] - s[i]).min())


def _seat(members: list[int], size: int, fillers: list[int],
          rng: np.random.Generator) -> list[tuple[int, ...]]:
    """Chunk ``members`` into tables; a short last table is filled from ``fillers`` in order."""
    del rng  # the order of members already carries the round's randomness
    tables = [tuple(members[p:p + size]) for p in range(0, len(members), size)]
    if tables and len(tables[-1]) < size:
        last = list(tables.pop())
        for f in fillers:
            if len(last) == size:
                break
            if f not in last:
                last.append(f)
        tables.append(tuple(last))
    return tables
