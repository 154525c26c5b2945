"""Adaptive scheduling toward a stated question: which tables next, and when to stop.

Pure numbers (issue 46 part 2). Entrants are indices ``0..n-1``; games are
finishing orders (a ``(G, k)`` array, best first, with optional counts). Each
look refits Plackett-Luce (:func:`fit_indices`) and tests the question with
Wald bounds on rating differences. The error is spent by a weighted union
bound fixed before each look's data (:mod:`._adaptive_error`): a share per
look (:func:`look_share`), and a weight per pair from the previous look's fit
(:func:`pair_weights` for ``top K``, :func:`order_weights` for ``order``), so the rule is
valid under optional stopping and an adaptive schedule. Entrants whose place
is decided are not scheduled again. docs/ratings.md, "Adaptive scheduling",
has the rule, its assumptions and the proof that a stop is right with
probability at least ``1 - error``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from ._adaptive_error import look_share, order_weights, pair_weights
from ._adaptive_fit import IndexFit, fit_indices
from ._fit import ELO_PER_NAT

#: Round size as a share of the tables played so far (geometric rounds).
GROWTH = 0.25


@dataclass(frozen=True)
class Goal:
    """The organiser's question.

    ``kind`` is ``"top"`` (the best ``k``, as a set), ``"order"`` (every
    neighbour in the final order) or ``"elo"`` (every rating to ``±elo``).
    ``margin`` (Elo) is the indifference zone of ``top`` and ``order``: two
    entrants closer than it may come out either way. Without one a near-tie
    at the boundary would cost without limit.
    """

    kind: str
    k: int = 0
    elo: float = 0.0
    margin: float = 20.0


def parse_goal(text: str, *, margin: float = 20.0) -> Goal:
    """``"top 3"``, ``"order"`` or ``"elo 20"`` as a :class:`Goal`.

    Raises:
        ValueError: anything else, saying the three forms.
    """
    words = text.strip().lower().split()
    if len(words) == 2 and words[0] == "top" and re.fullmatch(r"[1-9][0-9]*", words[1]):
        return Goal("top", k=int(words[1]), margin=margin)
    if words == ["order"]:
        return Goal("order", margin=margin)
    if len(words) == 2 and words[0] == "elo" and re.fullmatch(r"[0-9]+(\.[0-9]+)?", words[1]):
        if float(words[1]) <= 0:
            raise ValueError("goal 'elo X' needs X > 0")
        return Goal("elo", elo=float(words[1]), margin=margin)
    raise ValueError(f"goal {text!r}: write 'top K', 'order' or 'elo X' (e.g. 'top 3')")


@dataclass(frozen=True)
class Verdict:
    """What one look found.

    ``inside``/``out``: entrants decided in or out of the top ``k`` (kept from
    look to look); ``undecided``: the entrants still scheduled; ``closeness``:
    per entrant, its tightest standardised distance from the stop (stopped at
    ``z``; for ``top`` the margin counts); ``z``: the critical value of the
    look's nearest bound (for ``top`` each pair has its own, by its weight);
    ``answer``: the top set, or the whole order, by the estimates.
    """

    look: int
    decided: bool
    exhausted: bool
    reason: str
    fit: IndexFit
    z: float
    answer: tuple[int, ...]
    undecided: tuple[int, ...]
    inside: frozenset[int] = frozenset()
    out: frozenset[int] = frozenset()
    closeness: dict[int, float] = field(default_factory=dict)

    @property
    def ratings(self) -> np.ndarray:
        """Ratings on the Elo scale, mean 0."""
        s = self.fit.strength
        return ELO_PER_NAT * (s - s.mean())


def _z(alpha: float) -> float:
    return NormalDist().inv_cdf(1.0 - alpha)


def judge(n: int, orders: np.ndarray, goal: Goal, *, error: float,
          previous: Verdict | None = None, counts: np.ndarray | None = None,
          max_looks: int = 50) -> Verdict:
    """One look at the games so far: is the question decided at ``error``?

    Args:
        n: entrants. orders, counts: the games (see the module docstring).
        previous: the last look's verdict (its decisions are kept, its fit
            starts this one); ``None`` at the first look.
        max_looks: the looks the error is spread over (:func:`look_share`:
            90 % to looks 5 to 60 % of ``max_looks``); a look past it reports
            ``exhausted``.

    Raises:
        ValueError: ``error`` outside (0, 1), or ``top k`` with ``k >= n``.
    """
    if not 0.0 < error < 1.0:
        raise ValueError(f"error must lie in (0, 1), not {error}")
    if goal.kind == "top" and not 0 < goal.k < n:
        raise ValueError(f"top {goal.k} of {n} entrants: k must lie in 1..{n - 1}")
    look = 1 if previous is None else previous.look + 1
    fit = fit_indices(n, orders, counts, start=None if previous is None else previous.fit.strength)
    alpha = error * look_share(look, max_looks)
    if goal.kind == "top":
        verdict = _judge_top(n, fit, goal, alpha, look, previous)
    elif goal.kind == "order":
        verdict = _judge_order(n, fit, goal, alpha, look, previous)
    else:
        verdict = _judge_elo(n, fit, goal, alpha, look)
    if not verdict.decided and look >= max_looks:
        return Verdict(**{**verdict.__dict__, "exhausted": True,
                          "reason": f"not decided after {look} looks: the error is spent"})
    return verdict


def _judge_top(n: int, fit: IndexFit, goal: Goal, alpha: float, look: int,
               previous: Verdict | None) -> Verdict:
    inside = set(previous.inside) if previous else set()
    out = set(previous.out) if previous else set()
    margin = goal.margin / ELO_PER_NAT
    rest = [i for i in range(n) if i not in inside and i not in out]
    weight = pair_weights(rest, goal.k - len(inside), margin, n,
                          *((previous.fit, previous.z) if previous else ()))
    rest.sort(key=lambda i: (-fit.strength[i], i))
    need = goal.k - len(inside)
    top, below = rest[:need], rest[need:]
    z = math.inf
    closeness: dict[int, float] = {}
    met = not top or not below
    if not met:
        a = np.repeat(top, len(below))
        b = np.tile(below, len(top))
        zs = np.array([_z(alpha * weight[i, j]) if weight[i, j] > 0 else math.inf
                       for i, j in zip(a, b)]).reshape(len(top), -1)
        z = float(zs.min())
        diff, se = fit.difference(a, b)
        diff, se = diff.reshape(len(top), -1), se.reshape(len(top), -1)
        lower = diff - zs * se
        inside |= {top[i] for i in np.flatnonzero((lower > 0).all(axis=1))}
        out |= {below[j] for j in np.flatnonzero((lower > 0).all(axis=0))}
        met = bool((lower > -margin).all())
        # distance from the stop, in standard errors, on the scale where z decides
        t = (diff + margin) / np.maximum(se, 1e-12) * (z / zs)
        closeness = {i: float(t[r].min()) for r, i in enumerate(top)}
        closeness |= {j: float(t[:, c].min()) for c, j in enumerate(below)}
    met = met or len(inside) == goal.k or len(out) == n - goal.k
    answer = tuple(sorted(inside, key=lambda i: -fit.strength[i])) + tuple(
        i for i in top if i not in inside)[: goal.k - len(inside)]
    undecided = () if met else tuple(i for i in rest if i not in inside and i not in out)
    reason = (f"top {goal.k} decided at look {look}: {len(inside)} ahead of every other "
              f"contender, the rest ahead of or within {goal.margin:g} Elo of each "
              f"of the {len(below)} still in doubt; {len(out)} out" if met
              else f"top {goal.k} open: {len(undecided)} undecided, {len(inside)} in, {len(out)} out")
    return Verdict(look, met, False, reason, fit, z, answer[: goal.k], undecided,
                   frozenset(inside), frozenset(out),
                   {i: closeness.get(i, 0.0) for i in undecided})


def _judge_order(n: int, fit: IndexFit, goal: Goal, alpha: float, look: int,
                 previous: Verdict | None) -> Verdict:
    order = sorted(range(n), key=lambda i: (-fit.strength[i], i))
    margin = goal.margin / ELO_PER_NAT
    weight = order_weights(n, margin, *((previous.fit, previous.z) if previous else ()))
    ahead, behind = np.array(order[:-1]), np.array(order[1:])
    zs = np.array([_z(alpha * weight[i, j]) for i, j in zip(ahead, behind)])
    z = float(zs.min())
    diff, se = fit.difference(ahead, behind)
    lower = diff - zs * se
    settled = lower > -margin
    # distance from the stop, in standard errors, on the scale where z decides
    t = (diff + margin) / np.maximum(se, 1e-12) * (z / zs)
    open_ = set()
    for p in np.flatnonzero(~settled):
        open_ |= {order[p], order[p + 1]}
    closeness = {}
    for p in range(n - 1):
        for i in (order[p], order[p + 1]):
            closeness[i] = min(closeness.get(i, math.inf), float(t[p]))
    undecided = tuple(i for i in order if i in open_)
    met = not undecided
    reason = (f"order decided at look {look}: each neighbour ahead of or within "
              f"{goal.margin:g} Elo of the next" if met
              else f"order open: {len(undecided)} entrants in {int((~settled).sum())} unsettled pairs")
    return Verdict(look, met, False, reason, fit, z, tuple(order), undecided,
                   closeness={i: closeness[i] for i in undecided})


def _judge_elo(n: int, fit: IndexFit, goal: Goal, alpha: float, look: int) -> Verdict:
    cov = fit.covariance
    centred = np.diag(cov) - 2.0 * cov.mean(axis=1) + cov.mean()
    se = np.sqrt(np.maximum(centred, 0.0)) * ELO_PER_NAT
    z = _z(alpha / (2 * n))
    half = z * se
    order = tuple(sorted(range(n), key=lambda i: (-fit.strength[i], i)))
    undecided = tuple(i for i in order if half[i] > goal.elo)
    met = not undecided
    reason = (f"ratings decided at look {look}: every one to ±{goal.elo:g} Elo (widest "
              f"±{half.max():.1f})" if met
              else f"ratings open: {len(undecided)} wider than ±{goal.elo:g} Elo")
    return Verdict(look, met, False, reason, fit, z, order, undecided,
                   closeness={i: float(z * goal.elo / half[i]) for i in undecided})
