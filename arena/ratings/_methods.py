"""Rating methods beside Bradley-Terry: each a small value with a name, a fit and intervals.

Bradley-Terry on pairwise results is the standings' own method: their order, error bars,
likelihood of superiority and groups come from it (``_standings``). Every other way of rating
the same games is a :class:`RatingMethod`, listed once in :data:`METHODS`; the standings carry
each one's rating per entrant (``StandingsRow.ratings``), and the text, CSV, JSON and HTML
standings show one column (and one chart) per method. A third method is one module and one
line in :data:`METHODS` (fastchess's ``EloBase`` has two implementations the same way).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ._encode import Encoded, ml_exists, pair_scores
from ._fit import place, resolve_prior
from ._plackett_luce import solve_plackett_luce
from ._results import GameRecord


class RatingMethod(Protocol):
    """One way to rate entrants from their games, on the Elo scale.

    ``key``: its name in a standings row's ``ratings``, the JSON and the CSV; ``column``: its
    column's in a text table, ``heading`` on a page; ``title``: its chart's."""

    key: str
    column: str
    heading: str
    title: str

    def applies(self, players: int) -> bool:
        """Whether it says more than Bradley-Terry for games of ``players`` seats."""

    def fit(self, enc: Encoded, bradley_terry: np.ndarray, anchor: tuple[str, float] | None,
            prior_draws: float | None) -> np.ndarray:
        """One rating per entrant of ``enc`` (its order), anchored as Bradley-Terry's
        (``bradley_terry``: that fit, for a method that equals it in some cases)."""

    def intervals(self, records: Sequence[GameRecord]) -> dict[str, float]:
        """The half-width of each entrant's 95% interval, by name."""


@dataclass(frozen=True)
class PlackettLuce:
    """Plackett-Luce on full finishing orders: with two players it is Bradley-Terry."""

    key: str = "pl_elo"
    column: str = "PL elo"
    heading: str = "PL Elo"
    title: str = "Plackett-Luce Elo (full finishing orders, 95% interval)"

    def applies(self, players: int) -> bool:
        return players > 2

    def fit(self, enc: Encoded, bradley_terry: np.ndarray, anchor: tuple[str, float] | None,
            prior_draws: float | None) -> np.ndarray:
        if all(group.players.shape[1] == 2 for group in enc.groups):
            return bradley_terry  # one pairwise result per game: the same model (tested)
        prior = resolve_prior(prior_draws, ml_exists(pair_scores(enc)))
        return place(enc, solve_plackett_luce(enc, prior)[0], anchor)

    def intervals(self, records: Sequence[GameRecord]) -> dict[str, float]:
        from ._pl_intervals import plackett_luce_intervals

        names, _, half = plackett_luce_intervals(records)
        return dict(zip(names, half.tolist()))


#: every method beside Bradley-Terry, in the order their columns show
METHODS: tuple[RatingMethod, ...] = (PlackettLuce(),)
