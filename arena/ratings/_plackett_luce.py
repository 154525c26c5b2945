"""Plackett-Luce maximum likelihood on full finishing orders.

The model (Plackett 1975, Luce 1959): entrant i has worth ``gamma_i``; a
finishing order is built from the top, each place going to one of the
entrants still unplaced with probability proportional to its worth. The fit
maximises the likelihood as in Hunter (2004), "MM algorithms for generalized
Bradley-Terry models", here by Newton's method on log-worths (same maximum,
fewer iterations than Hunter's MM).

Ties: a group of m entrants sharing a rank is one choice from the unplaced
set, credited to the group's geometric-mean worth,
``(prod_{i in tie} gamma_i) ** (1/m) / sum_{unplaced} gamma``. This is the
numerator of the Davidson-Luce model (Firth, Kosmidis & Turner 2019) without
its tie-prevalence parameters; for two players it is exactly Bradley-Terry's
half point per tie, so both models agree on two-player results.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ._encode import Encoded, SeatGroup, encode, ml_exists, pair_scores
from ._fit import RatingFit, log_sigmoid, newton, place, resolve_prior
from ._results import GameRecord

_CHUNK = 1 << 17  # games per step of the Hessian's outer products


def fit_plackett_luce(
    records: Iterable[GameRecord],
    *,
    anchor: tuple[str, float] | None = None,
    prior_draws: float | None = None,
) -> RatingFit:
    """Fit Plackett-Luce ratings to full finishing orders, on the Elo scale.

    A log-worth ``w`` becomes the rating ``w * 400 / ln 10``; for two-player
    games the result equals :func:`fit_bradley_terry`. Ties: see the module
    docstring (geometric-mean worth of the tied group).

    Finite ratings: as for :func:`fit_bradley_terry`. Maximum likelihood
    exists iff every split of the entrants in two has someone of each part
    finishing at least level with someone of the other (Hunter's Assumption
    1); where it does not (``prior_draws=None``), or always
    (``prior_draws > 0``), every entrant gets that many virtual drawn
    two-player games against a virtual opponent of rating 0.

    Args:
        records: the games (2 to 8 players each; mixed sizes are fine).
        anchor: ``(name, rating)`` to pin one entrant; default: mean rating 0.
        prior_draws: ``None`` = automatic, ``0`` = pure maximum likelihood.

    Raises:
        ValueError: as :func:`fit_bradley_terry`.
    """
    enc = encode(records)
    prior = resolve_prior(prior_draws, ml_exists(pair_scores(enc)))
    strength, iterations = solve_plackett_luce(enc, prior)
    elo = place(enc, strength, anchor)
    return RatingFit("plackett-luce", enc.names, tuple(elo.tolist()), prior, iterations)


class _Orders:
    """Per-seat-count arrays for the likelihood: who, and where tie groups start/end."""

    def __init__(self, group: SeatGroup, n: int) -> None:
        k = group.k
        self.players = group.players
        ranks = group.ranks
        pos = np.broadcast_to(np.arange(k), ranks.shape)
        starts = np.ones(ranks.shape, dtype=bool)
        starts[:, 1:] = ranks[:, 1:] != ranks[:, :-1]
        # first[g, t]: first position of t's tie group; last[g, t]: its last.
        self.first = np.maximum.accumulate(np.where(starts, pos, 0), axis=1)
        ends = np.ones(ranks.shape, dtype=bool)
        ends[:, :-1] = starts[:, 1:]
        rev = np.where(ends, pos, k - 1)[:, ::-1]
        self.last = np.minimum.accumulate(rev, axis=1)[:, ::-1]
        size = self.last - self.first + 1
        self.weight = 1.0 / size  # each tie group counts as one choice
        self.lower = np.minimum.outer(np.arange(k), np.arange(k))  # (k, k): min(s, u)
        self.first = self.first.astype(np.int32)  # 10^6 four-player games: 16 MB each, not 32
        self.last = self.last.astype(np.int32)


def solve_plackett_luce(enc: Encoded, prior: float, start: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """Natural-log worths maximising the Plackett-Luce likelihood of ``enc``."""
    x0 = np.zeros(enc.n) if start is None else start
    return newton(plackett_luce_objective(enc, prior), x0, gauge_free=(prior == 0.0))


def plackett_luce_objective(enc: Encoded, prior: float):
    """The penalised Plackett-Luce log-likelihood of ``enc`` as ``objective(x, need_hessian)``
    returning ``(value, gradient, information)`` (information: the negative Hessian), the
    form :func:`newton` takes; the ladder's matchmaking reads the information at the fit."""
    n = enc.n
    orders = [_Orders(g, n) for g in enc.groups]
    chosen = np.zeros(n)
    for o in orders:
        chosen += np.bincount(o.players.ravel(), weights=o.weight.ravel(), minlength=n)

    def objective(x: np.ndarray, need_hessian: bool):
        value = float(chosen @ x)
        grad = chosen.copy()
        hess = np.zeros((n, n)) if need_hessian else None
        for o in orders:
            beta = x[o.players]
            shift = beta.max(axis=1, keepdims=True)
            # log of the worth still unplaced at each position, computed stably
            log_tail = np.logaddexp.accumulate((beta - shift)[:, ::-1], axis=1)[:, ::-1]
            log_denom = np.take_along_axis(log_tail, o.first, axis=1)
            value -= float((o.weight * (log_denom + shift)).sum())
            if not need_hessian:
                continue
            e = np.exp(beta - shift)
            inv = np.exp(-log_denom)
            a = np.take_along_axis(np.cumsum(o.weight * inv, axis=1), o.last, axis=1)
            b = np.take_along_axis(np.cumsum(o.weight * inv**2, axis=1), o.last, axis=1)
            expected = e * a
            grad -= np.bincount(o.players.ravel(), weights=expected.ravel(), minlength=n)
            hess[np.diag_indices(n)] += np.bincount(
                o.players.ravel(), weights=expected.ravel(), minlength=n
            )
            for lo in range(0, len(e), _CHUNK):  # (games, k, k) temporaries, a chunk at a time
                pl, ee = o.players[lo:lo + _CHUNK], e[lo:lo + _CHUNK]
                cells = (pl[:, :, None] * n + pl[:, None, :]).ravel()
                outer = ee[:, :, None] * ee[:, None, :] * b[lo:lo + _CHUNK][:, o.lower]
                hess -= np.bincount(cells, weights=outer.ravel(), minlength=n * n).reshape(n, n)
        if prior:
            value += prior * 0.5 * float((log_sigmoid(x) + log_sigmoid(-x)).sum())
            if need_hessian:
                q = 1.0 / (1.0 + np.exp(-x))
                grad += prior * (0.5 - q)
                hess[np.diag_indices(n)] += prior * q * (1.0 - q)
        return value, grad, hess

    return objective
