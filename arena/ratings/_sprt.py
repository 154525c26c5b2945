"""Sequential probability ratio test between two entrants (fishtest's GSPRT).

Implements the generalized SPRT of fishtest (Michel Van den Bergh,
``server/fishtest/stats/LLRcalc.py``, function ``LLR_logistic``) in the
logistic Elo model: H0 "the candidate's expected score against the baseline
is L(elo0)", H1 "... is L(elo1)", ``L(x) = 1 / (1 + 10 ** (-x / 400))``. The
LLR is the log ratio of the two multinomial maximum likelihoods of the
observed outcome frequencies under each constraint on the expected score
(trinomial: loss/draw/win per game; pentanomial: the score 0, 1/2, 1, 3/2, 2
of a game pair). Zero counts are replaced by 1e-3 first, as in fishtest.
Bounds are Wald's: ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.
fishtest's dynamic overshoot correction is not applied.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ._results import GameRecord

_REGULARIZE = 1e-3


class SprtDecision(enum.Enum):
    """What the test says so far."""

    ACCEPT_H0 = "accept_h0"  # LLR <= lower bound: not better than elo0
    ACCEPT_H1 = "accept_h1"  # LLR >= upper bound: at least elo1
    CONTINUE = "continue"


@dataclass(frozen=True)
class SprtResult:
    """The state of an SPRT.

    Attributes:
        llr: log-likelihood ratio of H1 over H0.
        lower, upper: the stopping bounds.
        decision: ACCEPT_H0, ACCEPT_H1 or CONTINUE.
        model: ``"trinomial"`` or ``"pentanomial"``.
        counts: the outcome frequencies the LLR was computed from, worst
            first: (L, D, W), or (LL, LD+DL, LW+DD+WL, DW+WD, WW).
        elo0, elo1, alpha, beta: the test's parameters.
    """

    llr: float
    lower: float
    upper: float
    decision: SprtDecision
    model: str
    counts: tuple[int, ...]
    elo0: float
    elo1: float
    alpha: float
    beta: float

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dict; the decision as its string value."""
        return {
            "llr": self.llr,
            "lower": self.lower,
            "upper": self.upper,
            "decision": self.decision.value,
            "model": self.model,
            "counts": list(self.counts),
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
        }


def sprt_from_counts(
    counts: Sequence[int],
    *,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SprtResult:
    """SPRT of outcome counts from the candidate's point of view.

    Args:
        counts: 3 numbers (losses, draws, wins) for the trinomial model, or 5
            (LL, LD+DL, LW+DD+WL, DW+WD, WW) for game pairs (pentanomial).
        elo0, elo1: the hypotheses, logistic Elo, ``elo0 < elo1``.
        alpha, beta: the error rates, each in (0, 1).

    Raises:
        ValueError: wrong number of counts, a negative count, ``elo0 >= elo1``
            or an error rate outside (0, 1).
    """
    counts = tuple(int(c) for c in counts)
    if len(counts) not in (3, 5):
        raise ValueError(f"counts needs 3 (L, D, W) or 5 (pentanomial) numbers, got {len(counts)}")
    if min(counts) < 0:
        raise ValueError(f"counts must be >= 0, got {counts}")
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be below elo1, got elo0={elo0}, elo1={elo1}")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"{name} must be in (0, 1), got {value}")
    lower = math.log(beta / (1.0 - alpha))
    upper = math.log((1.0 - beta) / alpha)
    llr = _llr_logistic(elo0, elo1, counts) if sum(counts) else 0.0
    if llr <= lower:
        decision = SprtDecision.ACCEPT_H0
    elif llr >= upper:
        decision = SprtDecision.ACCEPT_H1
    else:
        decision = SprtDecision.CONTINUE
    model = "trinomial" if len(counts) == 3 else "pentanomial"
    return SprtResult(llr, lower, upper, decision, model, counts, elo0, elo1, alpha, beta)


def sprt(
    records: Iterable[GameRecord],
    candidate: str,
    baseline: str,
    *,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> SprtResult:
    """SPRT of ``candidate`` against ``baseline`` from the games they shared.

    Every record seating both gives one outcome for the candidate: win if it
    ranked better than the baseline, draw if level, loss if worse (in a
    k-player game the other players are ignored). If any such record has a
    ``block`` id the pentanomial model is used: each block must hold exactly
    two of these games (a duplicate pair with seats swapped), whose summed
    score 0 .. 2 is one pentanomial outcome. Otherwise the trinomial model.

    Raises:
        ValueError: as :func:`sprt_from_counts`; ``candidate == baseline``; or,
            for blocked data, a block that does not hold exactly two games of
            the two, or such a game without a block id.
    """
    if candidate == baseline:
        raise ValueError(f"candidate and baseline are both {candidate!r}; name two entrants")
    outcomes: list[tuple[str | None, float]] = []
    for rec in records:
        if candidate in rec.players and baseline in rec.players:
            a = rec.ranks[rec.players.index(candidate)]
            b = rec.ranks[rec.players.index(baseline)]
            outcomes.append((rec.block, 1.0 if a < b else 0.5 if a == b else 0.0))
    if not any(block is not None for block, _ in outcomes):
        counts = [0, 0, 0]
        for _, score in outcomes:
            counts[int(score * 2)] += 1
        return sprt_from_counts(counts, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
    pairs: dict[str, list[float]] = {}
    for block, score in outcomes:
        if block is None:
            raise ValueError(
                f"a game of {candidate!r} against {baseline!r} has no block id while others "
                "do; the pentanomial SPRT needs every game in a pair block"
            )
        pairs.setdefault(block, []).append(score)
    counts = [0, 0, 0, 0, 0]
    for block, scores in pairs.items():
        if len(scores) != 2:
            raise ValueError(
                f"block {block!r} holds {len(scores)} games of {candidate!r} against "
                f"{baseline!r}; the pentanomial SPRT needs exactly 2 per block "
                "(drop unfinished pairs, or remove the block ids for a trinomial SPRT)"
            )
        counts[int(round(2 * sum(scores)))] += 1
    return sprt_from_counts(counts, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)


def _logistic(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _llr_logistic(elo0: float, elo1: float, counts: tuple[int, ...]) -> float:
    freq = [c if c > 0 else _REGULARIZE for c in counts]
    total = sum(freq)
    top = len(freq) - 1
    values = [i / top for i in range(len(freq))]
    probs = [f / total for f in freq]
    p0 = _mle_with_mean(values, probs, _logistic(elo0))
    p1 = _mle_with_mean(values, probs, _logistic(elo1))
    return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))


def _mle_with_mean(values: list[float], probs: list[float], s: float) -> list[float]:
    """Most likely distribution on ``values`` with mean ``s``, given frequencies ``probs``.

    The maximiser is ``p_i / (1 + x (a_i - s))`` with x the root of the
    secular equation ``sum p_i (a_i - s) / (1 + x (a_i - s)) = 0`` (Van den
    Bergh, "support_MLE_multinomial", Proposition 1.1); found by bisection.
    """
    shifted = [a - s for a in values]
    lo, hi = -1.0 / max(shifted), -1.0 / min(shifted)

    def f(x: float) -> float:
        return sum(p * a / (1.0 + x * a) for p, a in zip(probs, shifted))

    lo, hi = lo + 1e-12 * (hi - lo), hi - 1e-12 * (hi - lo)
    for _ in range(200):  # f decreases from +inf to -inf on (lo, hi)
        mid = 0.5 * (lo + hi)
        if f(mid) > 0.0:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * max(1.0, abs(mid)):
            break
    x = 0.5 * (lo + hi)
    return [p / (1.0 + x * a) for p, a in zip(probs, shifted)]
