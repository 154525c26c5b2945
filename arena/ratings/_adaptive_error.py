"""How an adaptive tournament spends its error: over looks, and over the pairs of a look.

Pure rules (issue 46 part 2), each fixed by earlier looks before the data they are used
on, so the union bound in docs/ratings.md ("Adaptive scheduling", "The error split") holds
however the schedule and the stop depend on earlier results, up to the approximation every
Wald bound here makes (a look's statistic, given what earlier looks chose, close to normal):

- :func:`look_share`: the share of the error a look may spend, a fixed sequence over
  ``1..max_looks`` summing to at most 1. Few looks ever stop a tournament in the first
  four (the field is still wide) or after the first 60 % of ``max_looks`` (rounds grow
  geometrically), so those get little and the looks between get 90 %.
- :func:`pair_weights`: the share of a look's error each pair of undecided entrants gets,
  from the *previous* look's fit: pairs that look was not sure of share the weight, pairs
  far apart in standard errors get a hundredth each (a bound at that level still decides
  them). Weighted Bonferroni; the weights are normalised so that, whichever entrants are
  truly the best, the pairs that could produce a wrong answer carry at most 1.
- :func:`order_weights`: the same for ``order``, over every pair of entrants (a wrong
  order needs one of them), normalised to sum to 1.
"""

from __future__ import annotations

import math
import numpy as np

from ._adaptive_fit import IndexFit

#: looks at the start that get a small share each (the field is wide: nothing stops there)
EARLY_LOOKS = 4
EARLY_SHARE = 0.01
#: the share of the looks up to ``MAIN_END * max_looks`` (after the early ones)
MAIN_SHARE = 0.9
MAIN_END = 0.6
#: a pair whose previous standardised distance from the stop exceeds the previous z by more
#: than this is "far": weight ``FAR_WEIGHT`` against 1 for a near one
FAR_BEYOND = 1.0
FAR_WEIGHT = 0.01


def look_share(look: int, max_looks: int) -> float:
    """The share of the error that look ``look`` (1-based) of at most ``max_looks`` spends.

    The shares of looks ``1..max_looks`` sum to at most 1; a look past ``max_looks`` gets 0.
    """
    if not 1 <= look <= max_looks:
        return 0.0
    early = min(EARLY_LOOKS, max_looks // 10)
    main_end = max(early + 1, math.ceil(MAIN_END * max_looks))
    tail = max_looks - main_end
    tail_share = 0.0 if tail == 0 else 1.0 - MAIN_SHARE - EARLY_SHARE * early
    if look <= early:
        return EARLY_SHARE
    if look <= main_end:
        return (1.0 - EARLY_SHARE * early - tail_share) / (main_end - early)
    return tail_share / tail


def pair_weights(rest: list[int], need: int, margin: float, n: int,
                 previous: IndexFit | None = None, z: float = math.inf) -> np.ndarray:
    """Bonferroni weights of the pairs among ``rest`` (the entrants neither in nor out), for
    ``top K`` with ``need`` places still open: an ``(n, n)`` symmetric array, 0 off ``rest``.
    ``previous`` and ``z``: the previous look's fit and the critical value of its nearest
    bound (``None`` at the first look: equal weights).

    A wrong claim at a look needs a pair of one entrant of the true top K and one outside it,
    both in ``rest``: ``need`` of them are in the top K. Normalised so that the weights of the
    pairs across any split of ``rest`` into ``need`` and the others sum to at most 1: by the
    smaller of the sum of all weights and the ``need`` largest sums per entrant (the exact
    ``need * (len(rest) - need)`` when the weights are equal, the first look's case).
    """
    weight = np.zeros((n, n))
    r = len(rest)
    if r < 2 or need <= 0 or need >= r:
        return weight
    idx = np.array(rest)
    if previous is None:
        w = np.ones((r, r))
        np.fill_diagonal(w, 0.0)
        weight[np.ix_(idx, idx)] = w / (need * (r - need))
        return weight
    a, b = np.triu_indices(r, 1)
    t = _distance(previous, idx[a], idx[b], margin)
    z = z if math.isfinite(z) else 3.0
    # the previous look's split of rest: only pairs across it are tested
    ahead = np.argsort(-previous.strength[idx], kind="stable")[:need]
    side = np.zeros(r, dtype=bool)
    side[ahead] = True
    across = side[a] != side[b]
    t = np.where(across, t, np.inf)
    near = np.where(t < z + FAR_BEYOND, 1.0, FAR_WEIGHT)
    w = np.zeros((r, r))
    w[a, b] = near
    w[b, a] = near
    stars = np.sort(w.sum(axis=1))[::-1]
    total = min(float(near.sum()), float(stars[:need].sum()))
    weight[np.ix_(idx, idx)] = w / total
    return weight


def order_weights(n: int, margin: float, previous: IndexFit | None = None,
                  z: float = math.inf) -> np.ndarray:
    """Bonferroni weights of every pair of the ``n`` entrants for ``order``: an ``(n, n)``
    symmetric array whose upper triangle sums to 1. ``previous`` and ``z`` as in
    :func:`pair_weights` (``None``: equal weights, ``1 / (n (n - 1) / 2)`` each).

    A wrong order needs a pair reported as neighbours, the one ahead more than the margin
    behind the other, whose bound fails; the pairs are those of the look's own order, so the
    weights cover every pair, which is what keeps the union bound valid. A pair whose distance
    from the stop at the previous look, ``(|d| + margin) / se``, was within ``FAR_BEYOND`` of
    that look's ``z`` gets 1, any other 1/100.
    """
    weight = np.zeros((n, n))
    if n < 2:
        return weight
    a, b = np.triu_indices(n, 1)
    if previous is None:
        near = np.ones(len(a))
    else:
        t = _distance(previous, a, b, margin)
        near = np.where(t < (z if math.isfinite(z) else 3.0) + FAR_BEYOND, 1.0, FAR_WEIGHT)
    weight[a, b] = weight[b, a] = near / near.sum()
    return weight


def _distance(fit: IndexFit, a: np.ndarray, b: np.ndarray, margin: float) -> np.ndarray:
    """Each pair's distance from the stop at ``fit``, in standard errors: ``(|d| + margin) / se``."""
    diff, se = fit.difference(a, b)
    return (np.abs(diff) + margin) / np.maximum(se, 1e-12)
