"""Two entrants side by side: results of the games they shared, the Elo difference
with its 95 % interval, LOS, and the pentanomial counts of duplicate pairs.

The numbers are those a chess engine author reads in cutechess or fastchess
("Elo difference: 12.3 +/- 8.1, LOS: 99.8 %"), computed from the shared games
only. Each shared game gives A a score: 1 if A finished ahead of B, 1/2 level,
0 behind (in a k-player game the other players are ignored). With ``block``
ids, the games of one block (a duplicate deal: all k rotations of a k-player
table, for 2 to 8 players) are one observation, so the deal's luck, which
cancels inside the block, is not counted as noise; the output says how many
independent observations there were and how many independent games they are
worth. With each game's ``luck`` (the chance correction), the headline is the
chance-corrected score and the raw one is shown beside it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ._adjust import Estimate, corrected_estimate, raw_estimate
from ._results import GameRecord
from ._student import t_cdf

PENTANOMIAL = ("LL", "LD", "WL+DD", "WD", "WW")


def head_to_head(records: Iterable[GameRecord], a: str, b: str) -> list[tuple[GameRecord, float]]:
    """The records seating both ``a`` and ``b``, each with A's score (1, 1/2, 0) against B.

    Raises:
        ValueError: ``a == b``.
    """
    if a == b:
        raise ValueError(f"both entrants are {a!r}; name two different ones")
    out = []
    for rec in records:
        if a in rec.players and b in rec.players:
            ra, rb = rec.ranks[rec.players.index(a)], rec.ranks[rec.players.index(b)]
            out.append((rec, 1.0 if ra < rb else 0.5 if ra == rb else 0.0))
    return out


def pentanomial(shared: list[tuple[GameRecord, float]]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Pentanomial counts (LL, LD, WL+DD, WD, WW) of the blocks holding exactly two shared
    games, and the ids of the blocks holding another number (unfinished pairs)."""
    blocks: dict[str, list[float]] = {}
    for rec, score in shared:
        if rec.block is not None:
            blocks.setdefault(rec.block, []).append(score)
    counts = [0] * 5
    odd = []
    for block, scores in blocks.items():
        if len(scores) == 2:
            counts[int(round(2 * sum(scores)))] += 1
        else:
            odd.append(block)
    return tuple(counts), tuple(odd)


@dataclass(frozen=True)
class Comparison:
    """A against B on their shared games.

    Attributes:
        a, b: the entrants.
        games: shared games.
        wins, draws, losses: A finished ahead of, level with, behind B.
        places: for games of more than two players, ``{name: counts}`` with
            ``counts[p]`` = shared games in which that entrant finished in
            place p + 1 (ties share the better place); empty for two players.
        pentanomial: counts (LL, LD, WL+DD, WD, WW) of duplicate pairs (blocks
            with exactly two shared games), or None without blocks.
        unpaired: shared games in blocks that hold another number of them.
        score: A's mean score per shared game.
        elo: Elo difference A - B implied by ``score``.
        error: half-width of its 95 % interval (symmetric on the Elo scale).
        los: likelihood that A is stronger than B.
        virtual: True if one virtual win and one virtual loss were added to
            keep a one-sided or spread-free result finite (see :func:`compare`).
        unit: ``"block"`` (a duplicate block is one observation) or
            ``"game"`` (every game one: the naive figures).
        observations: independent observations (blocks, or games).
        worth: independent games the interval is worth: the spread of one
            game's score over the squared standard error (more than
            ``games`` when the blocks cancel luck).
        corrected: True if ``score``, ``elo``, ``error`` and ``los`` are of the
            chance-corrected scores (each game's score less its luck); the
            raw ones are then in ``raw``.
        raw: ``{score, elo, error, los}`` of the raw scores with the same
            unit, when ``corrected``; else None.
        luck: the mean stored luck per game and its standard error (the
            correction has expectation zero: a mean far from 0 in units of
            its error says something is off), when ``corrected``.
        baseline: which baseline value made the correction, if given.
        coefficient: the share of each game's stored luck taken out, fitted on these
            units (:mod:`arena.ratings._adjust`): 0 (the raw figures: the luck would not
            narrow this interval) to 1 (the baseline's gain), when ``corrected``.
    """

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    places: dict[str, tuple[int, ...]]
    pentanomial: tuple[int, ...] | None
    unpaired: int
    score: float
    elo: float
    error: float
    los: float
    virtual: bool
    unit: str = "block"
    observations: int = 0
    worth: float = 0.0
    corrected: bool = False
    raw: dict[str, float] | None = None
    luck: tuple[float, float] | None = None
    baseline: str | None = None
    coefficient: float | None = None

    def headline(self) -> str:
        """``Elo difference: 12.3 +/- 8.1, LOS: 99.8 %`` (as cutechess prints it)."""
        return f"Elo difference: {self.elo:.1f} +/- {self.error:.1f}, LOS: {100.0 * self.los:.1f} %"

    def lines(self) -> list[str]:
        """The headline and the details, for a person."""
        what = "chance-corrected" if self.corrected else "raw"
        unit = ("duplicate blocks (all rotations of one deal) as the unit" if self.unit == "block"
                else "every game as the unit")
        out = [f"{self.a} vs {self.b}: {self.games} shared games",
               self.headline() + f" ({what}; {unit})",
               f"W/D/L: {self.wins}/{self.draws}/{self.losses} (score {100.0 * self.score:.1f} % for {self.a}; "
               f"95 % interval [{self.elo - self.error:.1f}, {self.elo + self.error:.1f}])",
               f"independent observations: {self.observations} "
               f"{'blocks' if self.unit == 'block' else 'games'}, worth {self.worth:.0f} independent games"]
        if self.corrected and self.raw is not None and self.luck is not None:
            out.append(f"raw: Elo difference: {self.raw['elo']:.1f} +/- {self.raw['error']:.1f}, "
                       f"LOS: {100.0 * self.raw['los']:.1f} % (score {100.0 * self.raw['score']:.1f} %); "
                       f"mean luck {self.luck[0]:+.4f} +/- {self.luck[1]:.4f} per game"
                       + (f" (baseline {self.baseline})" if self.baseline else "")
                       + f", {self.coefficient:.2f} of it taken out (fitted on these "
                       f"{'blocks' if self.unit == 'block' else 'games'})")
        if self.pentanomial is not None:
            counts = ", ".join(f"{n} {c}" for n, c in zip(PENTANOMIAL, self.pentanomial))
            out.append(f"pentanomial ({sum(self.pentanomial)} pairs): {counts}"
                       + (f"; {self.unpaired} games outside complete pairs" if self.unpaired else ""))
        for name, counts in self.places.items():
            shown = ", ".join(f"{p + 1}: {c}" for p, c in enumerate(counts))
            out.append(f"places of {name}: {shown}")
        if self.virtual:
            out.append("note: one-sided or spread-free results; one virtual win and one virtual loss were "
                       "added to keep the Elo difference finite")
        return out

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready dict of the fields."""
        return {
            "a": self.a, "b": self.b, "games": self.games, "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "places": {k: list(v) for k, v in self.places.items()},
            "pentanomial": None if self.pentanomial is None else list(self.pentanomial),
            "unpaired": self.unpaired, "score": self.score, "elo": self.elo, "error": self.error,
            "los": self.los, "virtual": self.virtual, "headline": self.headline(),
            "unit": self.unit, "observations": self.observations, "worth": self.worth,
            "corrected": self.corrected, "raw": self.raw,
            "luck": None if self.luck is None else {"mean": self.luck[0], "error": self.luck[1]},
            "baseline": self.baseline, "coefficient": self.coefficient,
        }


def compare(records: Iterable[GameRecord], a: str, b: str, *, unit: str = "block", correct: bool = True,
            baseline: str | None = None) -> Comparison:
    """Compare ``a`` with ``b`` on the games they shared.

    ``score`` is A's mean score; the Elo difference is
    ``400 log10(score / (1 - score))``. Its standard error comes from the
    spread of the per-unit scores (``unit="block"``: a block is a duplicate
    deal, or a game without one: the cluster-robust variance of the mean;
    ``unit="game"``: every game on its own, the naive figure), carried to the
    Elo scale by the derivative of that curve, so the interval is symmetric
    there and always contains the estimate; the quantile is Student's t with
    the units' degrees of freedom (n - 1; n - 2 with a fitted share of luck).
    LOS is ``T((score - 1/2) / se)``, T that t distribution.

    With ``correct`` and every shared game carrying ``luck``, each game's
    score is first reduced by a share of A's luck against B in it (the chance
    correction), the share fitted on these games and paid for in the interval,
    which is never wider than the raw one (:mod:`arena.ratings._adjust`); the
    raw figures are kept in ``raw``. ``baseline`` names the
    baseline value that made the luck (shown with it).

    Where that spread is zero or the score is 0 or 1 (one game, a 10-0 sweep,
    only draws), one virtual win and one virtual loss are added, each a block
    of its own, and ``virtual`` says so: the result stays finite and keeps an
    honest width instead of showing ``inf`` or ``+/- 0``.

    Raises:
        ValueError: ``a == b``, no shared game, or an unknown ``unit``.
    """
    if unit not in ("block", "game"):
        raise ValueError(f"unit must be 'block' or 'game', got {unit!r}")
    shared = head_to_head(records, a, b)
    if not shared:
        raise ValueError(f"{a!r} and {b!r} never played in the same game")
    scores = [score for _, score in shared]
    k = max(len(rec.players) for rec, _ in shared)
    places: dict[str, tuple[int, ...]] = {}
    if k > 2:
        for name in (a, b):
            counts = [0] * k
            for rec, _ in shared:
                rank = rec.ranks[rec.players.index(name)]
                counts[sum(1 for r in rec.ranks if r < rank)] += 1
            places[name] = tuple(counts)
    blocked = any(rec.block is not None for rec, _ in shared)
    penta, odd = pentanomial(shared) if blocked else (None, ())
    odd_set = set(odd)
    keys = [("block", rec.block) if rec.block is not None and unit == "block" else ("game", g)
            for g, (rec, _) in enumerate(shared)]
    lucks = [0.0] * len(scores)
    corrected = correct and all(rec.luck is not None for rec, _ in shared)
    if corrected:
        lucks = [rec.luck[rec.players.index(a)][rec.players.index(b)] for rec, _ in shared]
    raw = _estimate(keys, scores, lucks, False)
    luck = coefficient = None
    if corrected:
        main = _estimate(keys, scores, lucks, True)
        mean_luck, luck_se = _mean_and_error([(sum(x), len(x)) for x, _ in _totals(keys, lucks, lucks)])
        luck, coefficient = (mean_luck, luck_se), main["coefficient"]
    else:
        main = raw
    return Comparison(
        a=a, b=b, games=len(shared),
        wins=scores.count(1.0), draws=scores.count(0.5), losses=scores.count(0.0),
        places=places, pentanomial=penta,
        unpaired=sum(1 for rec, _ in shared if rec.block in odd_set),
        score=main["score"], elo=main["elo"], error=main["error"], los=main["los"], virtual=bool(main["virtual"]),
        unit=unit, observations=len(set(keys)), worth=main["worth"], corrected=corrected,
        raw={key: raw[key] for key in ("score", "elo", "error", "los")} if corrected else None,
        luck=luck, baseline=baseline if corrected else None, coefficient=coefficient,
    )


def _totals(keys: list[tuple[str, object]], scores: list[float], lucks: list[float]):
    """Per unit, in order of first appearance: (scores, lucks) of its games."""
    units: dict[tuple[str, object], tuple[list[float], list[float]]] = {}
    for key, score, luck in zip(keys, scores, lucks):
        unit = units.setdefault(key, ([], []))
        unit[0].append(score)
        unit[1].append(luck)
    return list(units.values())


def _estimate(keys: list[tuple[str, object]], scores: list[float], lucks: list[float],
              correct: bool) -> dict[str, float]:
    """Score, Elo difference, its 95 % half-width, LOS, worth and the luck's coefficient of
    per-game ``scores`` less a fitted share of ``lucks`` (``correct``; else the raw scores),
    clustered by ``keys`` (:mod:`arena.ratings._adjust`; the virtual win and loss added where
    needed)."""
    units = [(sum(s), sum(x), len(s)) for s, x in _totals(keys, scores, lucks)]
    fit = corrected_estimate if correct else (lambda u: raw_estimate([(y, m) for y, _, m in u]))
    est = fit(units)
    virtual = est.se == 0.0 or not 0.0 < est.mean < 1.0
    if virtual:
        est = fit(units + [(1.0, 0.0, 1), (0.0, 0.0, 1)])
        est = Estimate(min(max(est.mean, 1e-6), 1.0 - 1e-6), max(est.se, 1e-12), est.df, est.coefficient)
    values = [s - est.coefficient * x for s, x in zip(scores, lucks)]
    games = len(values)
    spread = sum((v - sum(values) / games) ** 2 for v in values) / max(games - 1, 1)
    mean, se = est.mean, est.se
    slope = 400.0 / math.log(10.0) / (mean * (1.0 - mean))  # d elo / d score
    return {
        "score": sum(values) / games,
        "elo": 400.0 * math.log10(mean / (1.0 - mean)),
        "error": est.half_width * slope,
        "los": t_cdf((mean - 0.5) / se, est.df) if est.df else 0.5 * math.erfc(-(mean - 0.5) / (se * math.sqrt(2.0))),
        "virtual": float(virtual),
        "worth": spread / se**2 if spread > 0 else float(games),
        "coefficient": est.coefficient,
    }


def _mean_and_error(totals: list[tuple[float, int]]) -> tuple[float, float]:
    """Mean score per game and its cluster-robust standard error, from (score, games) per block."""
    games = sum(n for _, n in totals)
    mean = sum(s for s, _ in totals) / games
    units = len(totals)
    if units < 2:
        return mean, 0.0
    spread = sum((s - n * mean) ** 2 for s, n in totals)
    return mean, math.sqrt(spread * units / (units - 1)) / games
