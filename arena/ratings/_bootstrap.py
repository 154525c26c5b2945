"""Bootstrap error bars and likelihood of superiority for Bradley-Terry ratings."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._bradley_terry import fit_encoded
from ._encode import Encoded, encode, ml_exists, pair_scores
from ._fit import resolve_prior
from ._results import GameRecord


@dataclass(frozen=True)
class ErrorBar:
    """A confidence interval as offsets: ``[elo - minus, elo + plus]``.

    Both are >= 0 unless the point estimate falls outside the percentile
    interval (possible with very few games).
    """

    minus: float
    plus: float


@dataclass(frozen=True)
class BootstrapResult:
    """Bradley-Terry ratings with bootstrap intervals and LOS.

    Attributes:
        entrants: names, sorted.
        elo: point estimate per entrant (the fit on the real data).
        errors: 95 % (or ``confidence``) percentile interval per entrant.
        los: ``los[i][j]`` = share of replicates in which entrant i is rated
            above entrant j (ties count half; the diagonal is 0.5).
        n_boot: replicates drawn.
        seed: the seed they were drawn with.
        blocked: True if whole blocks were resampled, False if whole games.
        confidence: the interval's coverage.
    """

    entrants: tuple[str, ...]
    elo: tuple[float, ...]
    errors: tuple[ErrorBar, ...]
    los: tuple[tuple[float, ...], ...]
    n_boot: int
    seed: int
    blocked: bool
    confidence: float

    def error(self, name: str) -> ErrorBar:
        """The interval of ``name``; KeyError if it played no game."""
        try:
            return self.errors[self.entrants.index(name)]
        except ValueError:
            raise KeyError(f"{name!r} is not an entrant") from None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dict: per-entrant elo/minus/plus, the LOS matrix by name."""
        return {
            "n_boot": self.n_boot,
            "seed": self.seed,
            "blocked": self.blocked,
            "confidence": self.confidence,
            "entrants": {
                name: {"elo": elo, "minus": err.minus, "plus": err.plus}
                for name, elo, err in zip(self.entrants, self.elo, self.errors)
            },
            "los": {
                a: dict(zip(self.entrants, row)) for a, row in zip(self.entrants, self.los)
            },
        }


def bootstrap_bradley_terry(
    records: Iterable[GameRecord],
    *,
    n_boot: int = 200,
    seed: int = 0,
    anchor: tuple[str, float] | None = None,
    prior_draws: float | None = None,
    confidence: float = 0.95,
) -> BootstrapResult:
    """Bradley-Terry ratings with bootstrap confidence intervals and LOS.

    Each replicate draws as many games as were played, with replacement, and
    refits. If any record has a ``block`` id, whole blocks are drawn instead
    (a game without a block id is a block of its own), so the seat rotations
    of one duplicate deal stay together and the deal's luck, which cancels
    inside a block, is not counted as noise. Replicates are rated like the
    real data: mean 0, or the anchor pinned (the anchor's interval is then
    zero). ``prior_draws`` applies per replicate as in
    :func:`fit_bradley_terry` (``None``: a prior only where that replicate's
    maximum likelihood is infinite).

    The interval is the percentile interval of the replicate ratings; LOS
    (likelihood of superiority) of A over B is the share of replicates that
    rate A above B, so it accounts for the correlation between the two
    ratings (unlike the normal approximation from A's and B's head-to-head
    wins and losses).

    Args:
        records: the games.
        n_boot: number of replicates (>= 1); LOS resolution is 1 / n_boot.
        seed: seed of the resampling; the same seed gives the same result.
        anchor: ``(name, rating)``, as in :func:`fit_bradley_terry`.
        prior_draws: as in :func:`fit_bradley_terry`.
        confidence: coverage of the interval, in (0, 1).

    Raises:
        ValueError: bad ``n_boot`` or ``confidence``, and as
            :func:`fit_bradley_terry`.
    """
    if isinstance(n_boot, bool) or not isinstance(n_boot, int) or n_boot < 1:
        raise ValueError(f"n_boot must be an int >= 1, got {n_boot!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    enc = encode(records)
    point, replicates = replicate_ratings(enc, n_boot, seed, anchor, prior_draws)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(replicates, [tail, 1.0 - tail], axis=0)
    errors = tuple(
        ErrorBar(float(p - lo), float(hi - p)) for p, lo, hi in zip(point, low, high)
    )
    return BootstrapResult(
        entrants=enc.names,
        elo=tuple(point.tolist()),
        errors=errors,
        los=los_matrix(replicates),
        n_boot=n_boot,
        seed=seed,
        blocked=enc.has_blocks,
        confidence=confidence,
    )


def replicate_ratings(
    enc: Encoded, n_boot: int, seed: int, anchor, prior_draws: float | None
) -> tuple[np.ndarray, np.ndarray]:
    """Point estimate (n,) and replicate ratings (n_boot, n)."""
    scores = pair_scores(enc)
    prior = resolve_prior(prior_draws, ml_exists(scores))
    point, strength, _ = fit_encoded(enc, scores, prior, anchor)
    rng = np.random.default_rng(seed)
    out = np.empty((n_boot, enc.n))
    for b in range(n_boot):
        drawn = np.bincount(rng.integers(0, enc.n_blocks, enc.n_blocks), minlength=enc.n_blocks)
        weight = drawn[enc.game_block]
        s = pair_scores(enc, weight)
        p = prior if prior_draws is not None else resolve_prior(None, ml_exists(s))
        out[b], _, _ = fit_encoded(enc, s, p, anchor, start=strength)
    return point, out


def los_matrix(replicates: np.ndarray) -> tuple[tuple[float, ...], ...]:
    """``los[i][j]``: share of replicate rows with column i above column j (ties half)."""
    r = replicates
    above = (r[:, :, None] > r[:, None, :]).mean(axis=0)
    level = (r[:, :, None] == r[:, None, :]).mean(axis=0)
    los = above + 0.5 * level
    return tuple(tuple(row) for row in los.tolist())
