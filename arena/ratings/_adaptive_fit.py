"""Plackett-Luce on entrant indices: the fit the adaptive schedule looks at.

:func:`fit_plackett_luce` takes :class:`GameRecord` values and names; the
adaptive schedule refits after every round of a simulated or real tournament,
so here games are a plain ``(G, k)`` integer array of finishing orders (row =
one game, entrant indices best first) and the fit is Newton's method on
log-worths, vectorised over games, warm-started from the last look.

Every entrant also plays ``prior_draws`` virtual drawn two-player games
against a virtual entrant of log-worth 0 (as ``prior_draws`` in
:func:`fit_plackett_luce`): the fit exists from the first game, the scale is
pinned without a sum-to-zero constraint, and the covariance is the plain
inverse of the Hessian.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class IndexFit:
    """Log-worths (natural units) and their covariance from the inverse Hessian."""

    strength: np.ndarray
    covariance: np.ndarray

    def difference(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Estimates and standard errors of ``strength[a] - strength[b]`` (elementwise)."""
        cov = self.covariance
        var = cov[a, a] + cov[b, b] - 2.0 * cov[a, b]
        return self.strength[a] - self.strength[b], np.sqrt(np.maximum(var, 0.0))


def _gradient_hessian(n: int, orders: np.ndarray, counts: np.ndarray, theta: np.ndarray,
                      prior: float) -> tuple[np.ndarray, np.ndarray]:
    """Gradient and negative Hessian of the log-likelihood plus prior."""
    grad = np.zeros(n)
    hess = np.zeros(n * n)
    k = orders.shape[1] if len(orders) else 0
    for stage in range(k - 1):
        rest = orders[:, stage:]
        logits = theta[rest]
        logits = logits - logits.max(axis=1, keepdims=True)
        prob = np.exp(logits)
        prob /= prob.sum(axis=1, keepdims=True)
        grad += np.bincount(orders[:, stage], weights=counts, minlength=n)
        grad -= np.bincount(rest.ravel(), weights=(prob * counts[:, None]).ravel(), minlength=n)
        # diag(p) - p p^T per choice, scattered by flat (row * n + column)
        block = -prob[:, :, None] * prob[:, None, :]
        idx = np.arange(rest.shape[1])
        block[:, idx, idx] += prob
        flat = (rest[:, :, None] * n + rest[:, None, :]).ravel()
        hess += np.bincount(flat, weights=(block * counts[:, None, None]).ravel(), minlength=n * n)
    hess = hess.reshape(n, n)
    sig = 1.0 / (1.0 + np.exp(-theta))
    grad += prior * (0.5 - sig)
    hess[np.diag_indices(n)] += prior * sig * (1.0 - sig)
    return grad, hess


def fit_indices(n: int, orders: np.ndarray, counts: np.ndarray | None = None, *,
                prior_draws: float = 1.0,
                start: np.ndarray | None = None, tolerance: float = 1e-7,
                max_iterations: int = 50) -> IndexFit:
    """Fit Plackett-Luce log-worths of ``n`` entrants to finishing orders.

    Args:
        n: number of entrants (indices ``0..n-1``).
        orders: ``(G, k)`` integer array, each row a game's finishing order.
        counts: how many times each row was played (default: once each).
        prior_draws: virtual drawn games per entrant against log-worth 0 (> 0).
        start: log-worths to start Newton's method from (the previous look's).

    Raises:
        ValueError: ``prior_draws`` not positive, or an index out of range.
    """
    if prior_draws <= 0:
        raise ValueError("prior_draws must be positive: it keeps the fit finite")
    orders = np.asarray(orders, dtype=np.int64)
    if orders.ndim != 2:
        raise ValueError("orders must be a (games, table size) array of entrant indices")
    if orders.size and (orders.min() < 0 or orders.max() >= n):
        raise ValueError(f"entrant index out of range 0..{n - 1}")
    counts = np.ones(len(orders)) if counts is None else np.asarray(counts, dtype=float)
    theta = np.zeros(n) if start is None else np.array(start, dtype=float)
    hess = np.eye(n)
    for _ in range(max_iterations):
        grad, hess = _gradient_hessian(n, orders, counts, theta, prior_draws)
        step = np.linalg.solve(hess, grad)
        # Newton on a concave likelihood; damp only the rare huge first steps
        scale = min(1.0, 2.0 / max(1e-12, float(np.abs(step).max())))
        theta = theta + scale * step
        if float(np.abs(step).max()) < tolerance:
            break
    _, hess = _gradient_hessian(n, orders, counts, theta, prior_draws)
    return IndexFit(strength=theta, covariance=np.linalg.inv(hess))
