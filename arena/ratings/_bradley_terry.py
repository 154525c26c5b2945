"""Bradley-Terry maximum likelihood on the pairwise decomposition (the "Elo")."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ._encode import Encoded, encode, ml_exists, pair_scores
from ._fit import RatingFit, log_sigmoid, newton, place, resolve_prior
from ._results import GameRecord


def fit_bradley_terry(
    records: Iterable[GameRecord],
    *,
    anchor: tuple[str, float] | None = None,
    prior_draws: float | None = None,
) -> RatingFit:
    """Fit Bradley-Terry ratings to the pairwise decomposition of the games.

    Each k-player game counts as k(k-1)/2 pairwise games between its
    entrants: the better-ranked one scores 1, the other 0, a tie 1/2 each.
    The ratings maximise ``sum S[i,j] * log P(i beats j)`` with
    ``P = 1 / (1 + 10 ** (-(R_i - R_j) / 400))`` (the logistic Elo model;
    the same fit as ``ordo -z 200.24 -a 0``, see docs/ratings.md).

    Finite ratings always: maximum-likelihood ratings are infinite when an
    entrant won or lost every game, or when the entrants form groups that
    never met. With ``prior_draws=None`` (the default) the plain maximum
    likelihood is used whenever it exists; otherwise every entrant gets one
    virtual draw against a virtual opponent fixed at rating 0 (a weak prior,
    worth half a game of evidence either way), which keeps all ratings finite
    and in the right order and puts the centre of each disconnected group near
    the common virtual opponent. Ratings of groups that never met are not
    comparable in any case.

    Args:
        records: the games.
        anchor: ``(name, rating)`` to pin one entrant; default: mean rating 0.
        prior_draws: virtual draws per entrant; ``None`` = automatic as above,
            ``0`` = pure maximum likelihood (an error where it does not exist).

    Raises:
        ValueError: no games, an unknown anchor, a negative ``prior_draws``,
            or ``prior_draws=0`` where maximum likelihood does not exist.
    """
    enc = encode(records)
    scores = pair_scores(enc)
    prior = resolve_prior(prior_draws, ml_exists(scores))
    strength, iterations = solve_bradley_terry(scores, prior)
    elo = place(enc, strength, anchor)
    return RatingFit("bradley-terry", enc.names, tuple(elo.tolist()), prior, iterations)


def solve_bradley_terry(
    scores: np.ndarray, prior: float, start: np.ndarray | None = None
) -> tuple[np.ndarray, int]:
    """Natural-log strengths maximising the Bradley-Terry likelihood of ``scores``.

    ``scores[i, j]`` = points of i against j. ``prior`` virtual draws per
    entrant against a fixed strength-0 opponent are added.
    """
    n = len(scores)
    met = scores + scores.T
    won = scores.sum(axis=1)

    def objective(x: np.ndarray, need_hessian: bool):
        diff = x[:, None] - x[None, :]
        value = float((scores * log_sigmoid(diff)).sum())
        if prior:
            value += prior * 0.5 * float((log_sigmoid(x) + log_sigmoid(-x)).sum())
        if not need_hessian:
            return value, None, None
        p = 1.0 / (1.0 + np.exp(-diff))
        grad = won - (met * p).sum(axis=1)
        w = met * p * (1.0 - p)
        hess = -w
        hess[np.diag_indices(n)] += w.sum(axis=1)
        if prior:
            q = 1.0 / (1.0 + np.exp(-x))
            grad = grad + prior * (0.5 - q)
            hess[np.diag_indices(n)] += prior * q * (1.0 - q)
        return value, grad, hess

    x0 = np.zeros(n) if start is None else start
    return newton(objective, x0, gauge_free=(prior == 0.0))


def fit_encoded(enc: Encoded, scores: np.ndarray, prior: float, anchor, start=None) -> tuple[np.ndarray, np.ndarray, int]:
    """Fit a score matrix of ``enc``'s entrants: (elo, log-strength, iterations).

    Used by the bootstrap, which refits reweighted score matrices starting
    from the point estimate's log-strengths (``start``).
    """
    strength, iterations = solve_bradley_terry(scores, prior, start)
    return place(enc, strength, anchor), strength, iterations
