"""Standings: one row per entrant, the crosstable, and the LOS matrix."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._bootstrap import check_n_boot, named_groups, rating_covariance
from ._intervals import Z95, los_from_covariance
from ._encode import encode, pair_scores
from ._methods import METHODS
from ._results import GameRecord


@dataclass(frozen=True)
class StandingsRow:
    """One entrant's line.

    Attributes:
        name: the entrant.
        elo: Bradley-Terry rating (pairwise decomposition).
        minus, plus: bootstrap interval offsets, ``[elo - minus, elo + plus]``.
        ratings: each other method's rating (``_methods.METHODS``, by its key:
            ``pl_elo``, Plackett-Luce from full finishing orders).
        games: games played (a 4-player game counts once).
        points_percent: pairwise score share, 100 * points / pairwise games.
        first_places: games finished with rank 1 (shared firsts included).
        average_rank: mean finishing rank (1 = best).
    """

    name: str
    elo: float
    minus: float
    plus: float
    games: int
    points_percent: float
    first_places: int
    average_rank: float
    ratings: Mapping[str, float] = field(default_factory=dict)

    @property
    def pl_elo(self) -> float:
        """The Plackett-Luce rating (``ratings["pl_elo"]``)."""
        return self.ratings["pl_elo"]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dict of the fields."""
        return {
            "name": self.name,
            "elo": self.elo,
            "minus": self.minus,
            "plus": self.plus,
            **self.ratings,
            "games": self.games,
            "points_percent": self.points_percent,
            "first_places": self.first_places,
            "average_rank": self.average_rank,
        }


@dataclass(frozen=True)
class HeadToHead:
    """Pairwise results of ``player`` against ``opponent``: points out of games."""

    player: str
    opponent: str
    score: float
    games: int


@dataclass(frozen=True)
class Standings:
    """Everything a report needs.

    Attributes:
        rows: one per entrant, best Bradley-Terry rating first (name breaks ties).
        crosstable: one :class:`HeadToHead` per ordered pair that met, in row order.
        los: ``los[i][j]`` = P(rows[i] is stronger than rows[j]); None between
            entrants of different ``groups``.
        n_boot, seed, blocked: how the error bars were drawn (``n_boot`` None:
            analytic, see :func:`bootstrap_bradley_terry`).
        groups: entrants split into groups that played each other; more than
            one means ratings across groups are not comparable.
    """

    rows: tuple[StandingsRow, ...]
    crosstable: tuple[HeadToHead, ...]
    los: tuple[tuple[float | None, ...], ...]
    n_boot: int | None
    seed: int
    blocked: bool
    groups: tuple[tuple[str, ...], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``rows`` list, ``crosstable[a][b] = {score, games}``, ``los[a][b]``."""
        names = [row.name for row in self.rows]
        cross: dict[str, dict[str, dict[str, float]]] = {name: {} for name in names}
        for h in self.crosstable:
            cross[h.player][h.opponent] = {"score": h.score, "games": h.games}
        return {
            "n_boot": self.n_boot,
            "seed": self.seed,
            "blocked": self.blocked,
            "groups": [list(g) for g in self.groups],
            "rows": [row.as_dict() for row in self.rows],
            "crosstable": cross,
            "los": {a: dict(zip(names, row)) for a, row in zip(names, self.los)},
        }


def compute_standings(
    records: Iterable[GameRecord],
    *,
    n_boot: int | None = None,
    seed: int = 0,
    anchor: tuple[str, float] | None = None,
    prior_draws: float | None = None,
) -> Standings:
    """Standings of a set of games: ratings, error bars, counts, crosstable, LOS.

    Ratings, 95 % error bars, LOS and groups are those of
    :func:`bootstrap_bradley_terry` with the same arguments (by default the
    analytic interval, no resampling); each other method of :data:`~._methods.METHODS` (the
    row's ``ratings``: ``pl_elo`` is :func:`fit_plackett_luce`'s) with the same ``anchor`` and
    ``prior_draws``.

    Raises:
        ValueError: as :func:`bootstrap_bradley_terry`.
    """
    check_n_boot(n_boot)
    enc = encode(records)
    point, cov, group = rating_covariance(enc, n_boot, seed, anchor, prior_draws)
    width = Z95 * np.sqrt(np.clip(np.diag(cov), 0.0, None))

    others = {method.key: method.fit(enc, point, anchor, prior_draws) for method in METHODS}

    n = enc.n
    scores = pair_scores(enc)
    met = scores + scores.T
    games = np.zeros(n, dtype=np.int64)
    firsts = np.zeros(n, dtype=np.int64)
    rank_sum = np.zeros(n)
    for g in enc.groups:
        flat = g.players.ravel()
        games += np.bincount(flat, minlength=n)
        firsts += np.bincount(flat, weights=(g.ranks.ravel() == 1), minlength=n).astype(np.int64)
        rank_sum += np.bincount(flat, weights=g.ranks.ravel(), minlength=n)

    order = sorted(range(n), key=lambda i: (-point[i], enc.names[i]))
    rows = tuple(
        StandingsRow(
            name=enc.names[i],
            elo=float(point[i]),
            minus=float(width[i]),
            plus=float(width[i]),
            games=int(games[i]),
            points_percent=float(100.0 * scores[i].sum() / met[i].sum()),
            first_places=int(firsts[i]),
            average_rank=float(rank_sum[i] / games[i]),
            ratings={key: float(rating[i]) for key, rating in others.items()},
        )
        for i in order
    )
    crosstable = tuple(
        HeadToHead(enc.names[i], enc.names[j], float(scores[i, j]), int(round(met[i, j])))
        for i in order
        for j in order
        if i != j and met[i, j] > 0
    )
    los = los_from_covariance(point[order], cov[np.ix_(order, order)], group[order])
    return Standings(rows, crosstable, tuple(tuple(row) for row in los), n_boot, seed, enc.has_blocks,
                     named_groups(enc, group))
