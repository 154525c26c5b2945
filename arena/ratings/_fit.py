"""What a rating fit returns, and the Elo scale shared by both models."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._encode import Encoded, check_names

#: Elo points per natural-log unit of strength: rating = ELO_PER_NAT * log(gamma),
#: so that P(i beats j) = 1 / (1 + 10 ** (-(R_i - R_j) / 400)).
ELO_PER_NAT = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class RatingFit:
    """Ratings on the Elo scale from one maximum-likelihood fit.

    Attributes:
        model: ``"bradley-terry"`` or ``"plackett-luce"``.
        entrants: names, sorted.
        elo: rating per entrant, same order as ``entrants``.
        prior_draws: virtual draws per entrant against a rating-0 opponent
            that were added (0.0 = pure maximum likelihood).
        iterations: Newton steps taken.
    """

    model: str
    entrants: tuple[str, ...]
    elo: tuple[float, ...]
    prior_draws: float
    iterations: int

    def rating(self, name: str) -> float:
        """The Elo rating of ``name``; KeyError if it played no game."""
        try:
            return self.elo[self.entrants.index(name)]
        except ValueError:
            raise KeyError(f"{name!r} is not an entrant of this fit") from None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"model", "prior_draws", "iterations", "elo": {name: rating}}``."""
        return {
            "model": self.model,
            "prior_draws": self.prior_draws,
            "iterations": self.iterations,
            "elo": dict(zip(self.entrants, self.elo)),
        }


def place(enc: Encoded, log_strength: np.ndarray, anchor: tuple[str, float] | None) -> np.ndarray:
    """Log-strengths to Elo: mean 0, or ``anchor=(name, value)`` pinned.

    Raises:
        ValueError: the anchor names no entrant.
    """
    elo = ELO_PER_NAT * np.asarray(log_strength, dtype=float)
    if anchor is None:
        return elo - elo.mean()
    name, value = anchor
    (i,) = check_names(enc, [name], "anchor")
    return elo - elo[i] + float(value)


def resolve_prior(prior_draws: float | None, ml_ok: bool) -> float:
    """The prior actually used: ``None`` means 0 if ML exists, else 1.

    Raises:
        ValueError: a negative prior, or ``prior_draws=0`` where maximum
            likelihood ratings are infinite.
    """
    if prior_draws is None:
        return 0.0 if ml_ok else 1.0
    prior = float(prior_draws)
    if not prior >= 0.0:
        raise ValueError(f"prior_draws must be >= 0, got {prior_draws!r}")
    if prior == 0.0 and not ml_ok:
        raise ValueError(
            "maximum-likelihood ratings are infinite here (an entrant won or lost "
            "every game, or the entrants form disconnected groups); pass "
            "prior_draws=None (automatic) or a positive number of virtual draws"
        )
    return prior


def newton(
    objective,
    x0: np.ndarray,
    gauge_free: bool,
    tol: float = 1e-10,
    max_iter: int = 200,
) -> tuple[np.ndarray, int]:
    """Maximise a concave function by damped Newton steps.

    ``objective(x, need_hessian)`` returns ``(value, gradient, hessian)`` of
    the log-likelihood, ``hessian`` being the *negative* second derivative
    (positive semi-definite). When ``gauge_free`` the function is invariant
    under adding a constant to every coordinate; the steps then keep the mean
    of ``x`` fixed.
    """
    x = np.array(x0, dtype=float)
    n = len(x)
    value, grad, hess = objective(x, True)
    for it in range(1, max_iter + 1):
        if gauge_free:
            hess = hess + 1.0 / n
        step = spd_solve(hess, grad)
        t = 1.0
        while True:
            cand = x + t * step
            new_value, _, _ = objective(cand, False)
            if np.isfinite(new_value) and new_value >= value - 1e-12 * abs(value):
                break
            t *= 0.5
            if t < 1e-10:  # no ascent left at working precision: converged
                return x, it
        x = cand
        if np.max(np.abs(t * step)) < tol:
            return x, it
        value, grad, hess = objective(x, True)
    return x, max_iter


def log_sigmoid(x: np.ndarray) -> np.ndarray:
    """log(1 / (1 + exp(-x))), without overflow."""
    return -np.logaddexp(0.0, -x)


def spd_solve(matrix: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """Solve ``matrix @ x = rhs`` for a symmetric positive-definite matrix.

    Cholesky factor plus forward and back substitution. Not
    ``np.linalg.solve``: on small systems multi-threaded OpenBLAS ``gesv``
    was measured 10-100x slower than this on the project's 2-core machines,
    and the bootstrap solves hundreds of such systems. Falls back to least
    squares if the matrix is not numerically positive definite.
    """
    try:
        low = np.linalg.cholesky(matrix)
    except np.linalg.LinAlgError:
        return np.linalg.lstsq(matrix, rhs, rcond=None)[0]
    n = len(rhs)
    y = np.empty(n)
    for i in range(n):
        y[i] = (rhs[i] - low[i, :i] @ y[:i]) / low[i, i]
    x = np.empty(n)
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - low[i + 1 :, i] @ x[i + 1 :]) / low[i, i]
    return x
