"""The log-likelihood ratio of the SPRT (:mod:`._sprt`), as fishtest's ``LLRcalc.py`` computes
it: the multinomial maximum likelihood of the observed outcome frequencies under each
hypothesis's constraint (a mean score in the logistic model, a t-value in the normalized
one), zero counts replaced by 1e-3 first."""

from __future__ import annotations

import math

_REGULARIZE = 1e-3
#: Normalized Elo per unit of t-value (fishtest's ``nelo_divided_by_nt``).
NELO_PER_T = 800.0 / math.log(10.0)
#: The largest step of the t-value between two solves of :func:`mle_with_t_value`, where
#: fishtest's single solve has no root.
_T_STEP = 0.25


def _logistic(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def frequencies(counts: tuple[int, ...]) -> tuple[float, list[float], list[float]]:
    """Total, outcome values (0 .. 1) and observed frequencies, zero counts regularised."""
    freq = [c if c > 0 else _REGULARIZE for c in counts]
    total = sum(freq)
    top = len(freq) - 1
    return total, [i / top for i in range(len(freq))], [f / total for f in freq]


def llr_logistic(elo0: float, elo1: float, counts: tuple[int, ...]) -> float:
    total, values, probs = frequencies(counts)
    p0 = _mle_with_mean(values, probs, _logistic(elo0))
    p1 = _mle_with_mean(values, probs, _logistic(elo1))
    return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))


def llr_normalized(nelo0: float, nelo1: float, counts: tuple[int, ...], games: int) -> float:
    total, values, probs = frequencies(counts)
    # A pair's mean score has sqrt(2) times less spread than one game: t-values scale by sqrt 2
    # (by sqrt m for a block of m games).
    scale = math.sqrt(games)
    p0 = mle_with_t_value(values, probs, scale * nelo0 / NELO_PER_T)
    p1 = mle_with_t_value(values, probs, scale * nelo1 / NELO_PER_T)
    return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))


def _mle_with_mean(values: list[float], probs: list[float], s: float) -> list[float]:
    """Most likely distribution on ``values`` with mean ``s``, given frequencies ``probs``.

    The maximiser is ``p_i / (1 + x (a_i - s))`` with x the root of the
    secular equation ``sum p_i (a_i - s) / (1 + x (a_i - s)) = 0`` (Van den
    Bergh, "support_MLE_multinomial", Proposition 1.1).
    """
    shifted = [a - s for a in values]
    x = _secular(shifted, probs)
    return [p / (1.0 + x * a) for p, a in zip(probs, shifted)]


def mle_with_t_value(values: list[float], probs: list[float], t: float, ref: float = 0.5) -> list[float]:
    """Most likely distribution on ``values`` with ``(mean - ref) / sd = t``, given ``probs``.

    Fixed-point iteration of Van den Bergh, "normalized_elo_practical",
    section 4.1 (fishtest's ``MLE_t_value``, fastchess's
    ``getLLR_normalized``): from the uniform distribution, solve the secular
    equation for ``phi_i = a_i - ref - t sd (1 + ((mu - a_i) / sd)^2) / 2``
    with the current mean and sd, until the distribution stops moving.

    From the uniform distribution the ``phi_i`` are all negative once ``|t|``
    nears 1 (a pair's t-value is ``sqrt 2`` times a game's, a block of m
    games' ``sqrt m`` times): the secular equation has no root there, and
    fishtest's iteration ends in a division by zero or the log of a negative
    probability. Where that happens, ``t`` is reached in steps of at most
    :data:`_T_STEP`, each solve starting from the last one's distribution
    (tested at the edges of what :func:`check_parameters` lets through, up
    to ``sqrt 8`` per observation: an 8-player table's blocks). Where
    fishtest's iteration works, its answer is kept: the constraint is not
    convex, and the two may stop at different stationary points.

    Raises:
        ValueError: not even the steps reach ``t`` (not seen within the range
            :func:`check_parameters` allows).
    """
    uniform = [1.0 / len(values)] * len(values)
    p = _t_value_iteration(values, probs, t, ref, uniform)
    if p is not None:
        return p
    steps = math.ceil(abs(t) / _T_STEP)
    p = uniform
    for step in range(1, steps + 1):  # only the last step needs the full precision
        p = _t_value_iteration(values, probs, t * step / steps, ref, p, 1e-13 if step == steps else 1e-6)
        if p is None:
            raise ValueError(f"the normalized test has no solution for a t-value of {t:.3g} per observation")
    return p


def _t_value_iteration(values: list[float], probs: list[float], t: float, ref: float,
                       p: list[float], tolerance: float = 1e-13) -> list[float] | None:
    """The fixed-point iteration of :func:`mle_with_t_value` from the distribution ``p``, until
    no probability moves by ``tolerance``; None once the ``phi_i`` all have one sign (the
    secular equation has no root)."""
    for _ in range(100):
        mu = sum(q * a for q, a in zip(p, values))
        sd = math.sqrt(sum(q * (a - mu) ** 2 for q, a in zip(p, values)))
        if sd <= 0.0:
            return None
        phi = [a - ref - t * sd * (1.0 + ((mu - a) / sd) ** 2) / 2.0 for a in values]
        if not min(phi) < 0.0 < max(phi):
            return None
        x = _secular(phi, probs)
        new = [f / (1.0 + x * a) for f, a in zip(probs, phi)]
        if min(new) <= 0.0:
            return None
        moved = max(abs(a - b) for a, b in zip(new, p))
        p = new
        if moved < tolerance:
            break
    return p


def _secular(shifted: list[float], probs: list[float]) -> float:
    """The root x of ``sum p_i a_i / (1 + x a_i) = 0`` with every ``1 + x a_i > 0``: Newton's
    method kept inside a shrinking bracket, a bisection wherever a step would leave it (the
    function falls from +inf to -inf and is convex there, so it takes a few steps where a
    bisection alone took some 50, each a sum over every outcome)."""
    lo, hi = -1.0 / max(shifted), -1.0 / min(shifted)
    lo, hi = lo + 1e-12 * (hi - lo), hi - 1e-12 * (hi - lo)
    x = 0.0  # inside: lo < 0 < hi, as max(shifted) > 0 > min(shifted)
    for _ in range(200):
        value = slope = 0.0
        for p, a in zip(probs, shifted):
            term = a / (1.0 + x * a)
            value += p * term
            slope -= p * term * term
        if value == 0.0:
            return x
        if value > 0.0:
            lo = x
        else:
            hi = x
        step = x - value / slope
        new = step if lo < step < hi else 0.5 * (lo + hi)
        if abs(new - x) <= 1e-15 * max(1.0, abs(x)) or hi - lo <= 1e-15 * max(1.0, abs(x)):
            return new
        x = new
    return x
