"""How much of each game's luck one comparison takes out: a coefficient fitted on the
comparison's own blocks, and the intervals of the raw and the corrected mean score.

The stored luck ``L`` of a game (:mod:`arena.ratings._chance`) is the baseline's measured luck
times the gain fitted on self-play between reference bots. Against a much weaker bot that gain
takes out too much (a card priced as between equals moves a lopsided result less), and the
corrected interval came out wider than the raw one (heuristic against random: raw/corrected
variance 0.87). So each comparison fits its own share ``c`` of ``L``: with n units (duplicate
blocks, or games) of raw total ``y_b``, luck total ``l_b`` and ``m_b`` games, ``M`` games in all,

    mean(c) = (sum y_b - c sum l_b) / M

is unbiased for any ``c`` fixed apart from the ``l_b`` (each has expectation zero). ``c`` is
the least-squares slope of ``y_b - m_b ybar`` on ``l_b - m_b lbar`` (``cov(raw, luck) /
var(luck)``, the coefficient that minimises the spread), clipped to [0, 1]: never below 0 (the
luck never counts against a result) nor above the shipped gain (at 20 blocks a slope is noisy;
past 1 the self-play fit is the better guess). With equal units the estimate is the intercept
of the regression of ``y_b`` on ``l_b``; its variance is the residual spread ``R`` (at the
clipped ``c``) over n - 2 degrees of freedom times ``(n + (sum l_b)^2 / sum (l_b - m_b
lbar)^2) / M^2``, the second term the slope's own error times the luck met. That term is taken
at its expectation over draws of the luck, ``n / (n - 3)`` (for equal units with normal luck),
not at the luck these blocks met, so the variance is ``R n / ((n - 3) M^2)`` with a Student t
quantile of n - 2 degrees of freedom (the raw interval: ``S n / ((n - 1) M^2)``, ``S`` the raw
spread, n - 1). Both widths are then functions of the spreads alone, and the fitted share is
used where its width is the smaller, a test on ``R / S`` (how much of the spread the luck
explains): the choice never looks at the luck met nor at either mean, so it does not pick the
raw figures exactly where the luck met moved them most (what the width at the luck met did,
issue 46: 0-1.2 points of coverage lost against this rule). Elsewhere the raw figures are the
corrected ones (``c = 0``), so a corrected interval is never wider than the raw one.
Assumptions, and the coverage and bias measured: docs/ratings.md, "Chance-corrected scores".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ._student import t_quantile

#: Fewest units a coefficient is fitted on (its variance divides by n - 3).
MIN_UNITS = 4


@dataclass(frozen=True)
class Estimate:
    """A mean score per game with its standard error.

    Attributes:
        mean: ``(sum y_b - coefficient * sum l_b) / M``.
        se: its standard error.
        df: degrees of freedom of its t quantile (0: no spread measurable, a single unit).
        coefficient: the share of the stored luck taken out (0 raw, 1 the shipped gain's).
    """

    mean: float
    se: float
    df: int
    coefficient: float = 0.0

    @property
    def quantile(self) -> float:
        """The t quantile of a two-sided 95 % interval (df 0: the normal's)."""
        return t_quantile(0.975, self.df) if self.df > 0 else 1.959963984540054

    @property
    def half_width(self) -> float:
        """The 95 % interval's half-width on the score scale."""
        return self.quantile * self.se


def raw_estimate(units: Sequence[tuple[float, int]]) -> Estimate:
    """The mean of ``(total score, games)`` per unit and its cluster-robust standard error
    (``sqrt(n / (n - 1) sum (y_b - m_b mean)^2) / M``), n - 1 degrees of freedom."""
    games = sum(m for _, m in units)
    mean = sum(y for y, _ in units) / games
    n = len(units)
    if n < 2:
        return Estimate(mean, 0.0, 0)
    spread = sum((y - m * mean) ** 2 for y, m in units)
    return Estimate(mean, math.sqrt(spread * n / (n - 1)) / games, n - 1)


def corrected_estimate(units: Sequence[tuple[float, float, int]]) -> Estimate:
    """The corrected mean of ``(total score, total luck, games)`` per unit, as the module
    docstring says: the fitted share of the luck out, or the raw estimate where the luck explains
    too little of the spread to narrow the interval (also with fewer than :data:`MIN_UNITS`
    units, no spread of luck, or a slope at or below 0)."""
    raw = raw_estimate([(y, m) for y, _, m in units])
    n = len(units)
    if n < MIN_UNITS:
        return raw
    games = sum(m for _, _, m in units)
    y_bar = sum(y for y, _, _ in units) / games
    l_bar = sum(x for _, x, _ in units) / games
    dy = [y - m * y_bar for y, _, m in units]
    dl = [x - m * l_bar for _, x, m in units]
    sll = sum(d * d for d in dl)
    if sll <= 0.0:
        return raw
    slope = sum(a * b for a, b in zip(dy, dl)) / sll
    if slope <= 0.0:
        return raw
    share = min(slope, 1.0)
    residual = sum((a - share * b) ** 2 for a, b in zip(dy, dl))
    var = residual * n / ((n - 3) * games**2)
    best = Estimate(y_bar - share * l_bar, math.sqrt(var), n - 2, share)
    if raw.df and best.half_width >= raw.half_width:
        return raw
    return best
