"""Sequential probability ratio test between two entrants (fishtest's GSPRT).

Implements the generalized SPRT of fishtest (Michel Van den Bergh,
``server/fishtest/stats/LLRcalc.py``) in two Elo models:

- ``logistic`` (``LLR_logistic``): H0 "the candidate's expected score against
  the baseline is L(elo0)", H1 "... is L(elo1)",
  ``L(x) = 1 / (1 + 10 ** (-x / 400))``;
- ``normalized`` (``LLR_normalized``, what fishtest and fastchess use by
  default): H0/H1 "the t-value ``(mu - 1/2) / sigma`` of a game's score is
  ``elo / (800 / ln 10)``", sigma the standard deviation of one game's score
  (of a pair's mean score over ``sqrt 2`` for pentanomial counts). The same
  numbers mean a different test in the two models: normalized Elo does not
  depend on the draw rate.

The LLR is the log ratio of the two multinomial maximum likelihoods of the
observed outcome frequencies under each constraint (trinomial: loss/draw/win
per game; pentanomial: the score 0, 1/2, 1, 3/2, 2 of a game pair; for a
duplicate block of m games, as a k-player table's k rotations are: its
total score 0, 1/2, ..., m, one outcome per block, so the block is the
independent observation for any number of players). Zero
counts are replaced by 1e-3 first, as in fishtest and fastchess. Bounds are
Wald's: ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.
fishtest's dynamic overshoot correction is not applied.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ._compare import head_to_head
from ._results import GameRecord
from ._sprt_llr import llr_logistic, llr_normalized

#: The widest Elo a logistic test takes: an expected score of 1 / (1 + 10^5), one loss in
#: 100,000 games, which no tournament plays enough games to tell from a shade more or less.
#: Further out the hypotheses blur in floating point, and from about +6,400 the expected
#: score rounds to exactly 1, where the maximum likelihood divides by zero.
MAX_LOGISTIC_ELO = 2000.0
#: The widest Elo a normalized test takes: just under ``_sprt_llr.NELO_PER_T`` (347.4), a t-value of 1
#: per game, a mean score one standard deviation of a game's score from 1/2 (0.85 in a game
#: without draws, about 300 logistic Elo). The normalized model is made for small differences
#: (fishtest's are a few Elo); larger ones belong to the logistic model.
MAX_NORMALIZED_ELO = 347.0
ELO_MODELS = ("logistic", "normalized")


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
        model: ``"trinomial"`` (one game per observation), ``"pentanomial"``
            (a pair of games) or ``"blocks of m"`` (a block of m games).
        counts: the outcome frequencies the LLR was computed from, worst
            first: (L, D, W), (LL, LD+DL, LW+DD+WL, DW+WD, WW), or for
            blocks of m games the number of blocks whose total score is
            0, 1/2, 1, ..., m (in units of the outcome's step: see
            ``step``).
        elo0, elo1, alpha, beta: the test's parameters.
        elo_model: ``"logistic"`` or ``"normalized"``: what elo0 and elo1 mean.
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
    elo_model: str = "logistic"

    @property
    def observations(self) -> int:
        """Independent observations the test used: games (trinomial) or blocks."""
        return sum(self.counts)

    @property
    def decided(self) -> bool:
        """True once H0 or H1 is accepted."""
        return self.decision is not SprtDecision.CONTINUE

    def verdict(self) -> str:
        """One line for a person: the decision, the LLR against its bounds, the counts."""
        what = {
            SprtDecision.ACCEPT_H1: f"H1 accepted: the Elo difference is at least {self.elo1:g}",
            SprtDecision.ACCEPT_H0: f"H0 accepted: the Elo difference is at most {self.elo0:g}",
            SprtDecision.CONTINUE: "no decision yet: play more games",
        }[self.decision]
        if self.model == "trinomial":
            counts = ", ".join(f"{n} {c}" for n, c in zip(("L", "D", "W"), self.counts))
            unit = "games"
        elif self.model == "pentanomial":
            counts = ", ".join(f"{n} {c}" for n, c in zip(("LL", "LD", "WL+DD", "WD", "WW"), self.counts))
            unit = "duplicate pairs"
        else:
            top = len(self.counts) - 1
            counts = "block scores " + ", ".join(f"{i}/{top}: {c}" for i, c in enumerate(self.counts) if c)
            unit = f"duplicate {self.model}"
        return (f"{what} ({self.elo_model} Elo [{self.elo0:g}, {self.elo1:g}], alpha {self.alpha:g}, "
                f"beta {self.beta:g}); LLR {self.llr:.2f} in ({self.lower:.2f}, {self.upper:.2f}); "
                f"{self.observations} independent observations ({unit}); {counts}")

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
            "elo_model": self.elo_model,
            "observations": self.observations,
            "verdict": self.verdict(),
        }


def sprt_from_counts(
    counts: Sequence[int],
    *,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    elo_model: str = "logistic",
    games: int | None = None,
) -> SprtResult:
    """SPRT of outcome counts from the candidate's point of view.

    Args:
        counts: 3 numbers (losses, draws, wins) for the trinomial model, 5
            (LL, LD+DL, LW+DD+WL, DW+WD, WW) for game pairs (pentanomial),
            or any number ``c >= 3``: the count of observations whose mean
            score per game is ``i / (c - 1)``, worst first (a block of m
            games scored in half points has ``2 m + 1`` levels).
        games: games per observation (default: ``(len(counts) - 1) / 2``,
            at least 1): only the normalized model uses it, as the t-value of
            a mean of m games is ``sqrt m`` times that of one game.
        elo0, elo1: the hypotheses, ``elo0 < elo1``, in ``elo_model`` Elo:
            within +-2000 logistic, +-347 normalized (:data:`MAX_LOGISTIC_ELO`,
            :data:`MAX_NORMALIZED_ELO`).
        alpha, beta: the error rates, each in (0, 1), ``alpha + beta < 1``.
        elo_model: ``"logistic"`` or ``"normalized"`` (module docstring).

    Raises:
        ValueError: wrong number of counts, a negative count, ``elo0 >= elo1``,
            a non-finite Elo or one beyond the model's range (:func:`check_parameters`),
            an error rate outside (0, 1), ``alpha + beta >= 1`` or an unknown
            ``elo_model``.
    """
    counts = tuple(int(c) for c in counts)
    if len(counts) < 3:
        raise ValueError(f"counts needs 3 (L, D, W), 5 (pentanomial) or more numbers, got {len(counts)}")
    if games is None:
        games = max(1, (len(counts) - 1) // 2)
    if min(counts) < 0:
        raise ValueError(f"counts must be >= 0, got {counts}")
    check_parameters(elo0, elo1, alpha, beta, elo_model)
    lower = math.log(beta / (1.0 - alpha))
    upper = math.log((1.0 - beta) / alpha)
    if not sum(counts):
        llr = 0.0
    elif elo_model == "logistic":
        llr = llr_logistic(elo0, elo1, counts)
    else:
        llr = llr_normalized(elo0, elo1, counts, games)
    if llr <= lower:
        decision = SprtDecision.ACCEPT_H0
    elif llr >= upper:
        decision = SprtDecision.ACCEPT_H1
    else:
        decision = SprtDecision.CONTINUE
    model = {3: "trinomial", 5: "pentanomial"}.get(len(counts), f"blocks of {games}")
    return SprtResult(llr, lower, upper, decision, model, counts, elo0, elo1, alpha, beta, elo_model)


def check_parameters(elo0: float, elo1: float, alpha: float, beta: float, elo_model: str) -> None:
    """ValueError naming the first bad SPRT parameter (see :func:`sprt_from_counts`): an
    unknown model, an Elo that is not finite or lies beyond :data:`MAX_LOGISTIC_ELO` or
    :data:`MAX_NORMALIZED_ELO` (as the model says), ``elo0 >= elo1``, an error rate outside
    (0, 1), ``alpha + beta >= 1``."""
    if elo_model not in ELO_MODELS:
        raise ValueError(f"elo_model must be one of {', '.join(ELO_MODELS)}, got {elo_model!r}")
    if not (math.isfinite(elo0) and math.isfinite(elo1)):
        raise ValueError(f"elo0 and elo1 must be finite, got elo0={elo0}, elo1={elo1}")
    widest, meaning = ((MAX_LOGISTIC_ELO, "logistic Elo (an expected score of 0.00001 .. 0.99999)")
                       if elo_model == "logistic" else
                       (MAX_NORMALIZED_ELO, "normalized Elo (a t-value of at most 1 per game; "
                                            "the logistic model takes larger differences)"))
    for name, value in (("elo0", elo0), ("elo1", elo1)):
        if not -widest <= value <= widest:
            raise ValueError(f"{name} must lie within {-widest:g} .. {widest:g} {meaning}, got {value}")
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be below elo1, got elo0={elo0}, elo1={elo1}")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"{name} must be in (0, 1), got {value}")
    if not alpha + beta < 1.0:
        raise ValueError(f"alpha + beta must be below 1, got {alpha} + {beta}")


def sprt(
    records: Iterable[GameRecord],
    candidate: str,
    baseline: str,
    *,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    elo_model: str = "logistic",
    unfinished: str = "error",
) -> SprtResult:
    """SPRT of ``candidate`` against ``baseline`` from the games they shared.

    Every record seating both gives one outcome for the candidate: win if it
    ranked better than the baseline, draw if level, loss if worse (in a
    k-player game the other players are ignored). If any such record has a
    ``block`` id, the block is the observation: each block must hold the same
    number m of these games (m the most any block holds: 2 for a two-player
    duplicate pair, k for the k rotations of a k-player table), and its
    total score 0, 1/2, ..., m is one outcome of a (2m + 1)-nomial (the
    pentanomial for m = 2). Otherwise the trinomial model, one game per
    observation. ``unfinished="skip"`` leaves out blocks holding fewer games
    (blocks a running tournament has not finished) instead of raising.

    Raises:
        ValueError: as :func:`sprt_from_counts`; ``candidate == baseline``; or,
            for blocked data, a block that holds fewer games of the two than
            another (with ``unfinished="error"``), or such a game without a
            block id.
    """
    if unfinished not in ("error", "skip"):
        raise ValueError(f"unfinished must be 'error' or 'skip', got {unfinished!r}")
    shared = head_to_head(records, candidate, baseline)
    if not any(rec.block is not None for rec, _ in shared):
        counts = [0, 0, 0]
        for _, score in shared:
            counts[int(score * 2)] += 1
        return sprt_from_counts(counts, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, elo_model=elo_model)
    if any(rec.block is None for rec, _ in shared):
        raise ValueError(
            f"a game of {candidate!r} against {baseline!r} has no block id while others "
            "do; the block SPRT needs every game in a duplicate block"
        )
    counts, odd, size = block_counts([(rec.block, score) for rec, score in shared])
    if odd and unfinished == "error":
        held = sum(1 for rec, _ in shared if rec.block == odd[0])
        raise ValueError(
            f"block {odd[0]!r} holds {held} game{'s' if held != 1 else ''} of {candidate!r} against "
            f"{baseline!r}; the block SPRT needs {size} per block, as the fullest block holds "
            "(finish the tournament first, or remove the block ids for a trinomial SPRT)"
        )
    return sprt_from_counts(counts, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, elo_model=elo_model,
                            games=size)


def block_counts(scores: Sequence[tuple[object, float]], size: int | None = None,
                 ) -> tuple[list[int], tuple[object, ...], int]:
    """Counts of the block totals of ``(block, score)`` pairs (scores in half points).

    Returns ``(counts, unfinished, size)``: ``counts[i]`` is the number of
    blocks of ``size`` games (the most any block holds, unless given) whose
    total score is ``i / 2``; ``unfinished`` the blocks holding another number.
    """
    totals: dict[object, list[float]] = {}
    for block, score in scores:
        totals.setdefault(block, []).append(score)
    if size is None:
        size = max((len(v) for v in totals.values()), default=1)
    counts = [0] * (2 * size + 1)
    odd = []
    for block, values in totals.items():
        if len(values) == size:
            counts[int(round(2 * sum(values)))] += 1
        else:
            odd.append(block)
    return counts, tuple(odd), size
