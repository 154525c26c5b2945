"""A gauntlet that stops itself: the ``[sprt]`` table of a tournament file, the tests it
watches (a candidate against one rival, several rivals, or the field, at any table size), and
the multiple-comparison correction that keeps the stated error rates for all of them at once.

A tournament file may hold::

    format = "gauntlet"
    candidates = ["new"]
    [sprt]
    elo0 = 0          # H0: the candidate is at most this much better (required)
    elo1 = 5          # H1: at least this much (required)
    alpha = 0.05      # default 0.05: chance of accepting H1 in any test where H0 holds
    beta = 0.05       # default 0.05: chance of accepting H0 in any test where H1 holds
    model = "normalized"   # or "logistic" (the default)
    baseline = "old"  # one rival; or baselines = ["a", "b"]; or field = true (the whole field)
    correction = "holm"    # or "bonferroni": for more than one test (default holm)

With m tests watched, ``alpha`` and ``beta`` are family-wise: each test runs at
``alpha / m`` and ``beta / m`` (Bonferroni), or, with ``holm``, the step-down of Bartroff
and Song (2014, "Sequential tests of multiple hypotheses controlling type I and II
familywise error rates"): once ``r`` tests have accepted H1, the others' upper bound uses
``alpha / (m - r)``; once ``a`` have accepted H0, their lower bound uses ``beta / (m - a)``.
A decided test stays decided. The tournament stops when every test has decided.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._results import GameRecord
from ._sprt import SprtDecision, SprtResult, check_parameters
from ._sprt_stop import SprtStop, SprtTally

SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model", "baseline", "baselines", "field", "correction")
CORRECTIONS = ("holm", "bonferroni")


@dataclass(frozen=True)
class SprtWatch:
    """The tests of a gauntlet's ``[sprt]`` table and their correction."""

    stops: tuple[SprtStop, ...]
    correction: str = "holm"

    @property
    def alpha(self) -> float:
        return self.stops[0].alpha

    @property
    def beta(self) -> float:
        return self.stops[0].beta

    def results(self, records: Iterable[GameRecord]) -> tuple[SprtResult, ...]:
        """Every test on the games stored so far, corrected as the watch is."""
        tally = WatchTally(self)
        for record in records:
            tally.add(record)
        return tally.results


class WatchTally:
    """A :class:`SprtWatch` kept up to date game by game; decisions are final once made."""

    def __init__(self, watch: SprtWatch) -> None:
        self.watch = watch
        self._tallies = [SprtTally(stop) for stop in watch.stops]
        self._final: list[SprtResult | None] = [None] * len(watch.stops)
        self.results: tuple[SprtResult, ...] = tuple(t.result() for t in self._tallies)
        self._settle()

    @property
    def decided(self) -> bool:
        """True once every test has decided: the tournament may stop."""
        return all(result is not None for result in self._final)

    def add(self, record: GameRecord) -> tuple[SprtResult, ...]:
        """Count one stored game in every undecided test; return every test so far."""
        for i, tally in enumerate(self._tallies):
            if self._final[i] is None:
                tally.add(record)
        self._settle()
        return self.results

    def lines(self) -> list[str]:
        """One line per test: its label and verdict, and the correction if any."""
        m = len(self._tallies)
        note = f" [{self.watch.correction} over {m} tests]" if m > 1 else ""
        return [f"{t.stop.label}: {r.verdict()}{note}" for t, r in zip(self._tallies, self.results)]

    def _settle(self) -> None:
        """Decide the undecided tests at the current corrected levels, the most extreme first,
        until no more decide (a decision loosens the others' levels under Holm)."""
        m = len(self._tallies)
        while True:
            h1 = sum(1 for r in self._final if r is not None and r.decision is SprtDecision.ACCEPT_H1)
            h0 = sum(1 for r in self._final if r is not None and r.decision is SprtDecision.ACCEPT_H0)
            if self.watch.correction == "holm":
                alpha, beta = self.watch.alpha / max(m - h1, 1), self.watch.beta / max(m - h0, 1)
            else:
                alpha, beta = self.watch.alpha / m, self.watch.beta / m
            current = [final if final is not None else tally.result(alpha, beta)
                       for tally, final in zip(self._tallies, self._final)]
            fresh = [i for i, r in enumerate(current) if self._final[i] is None and r.decided]
            self.results = tuple(current)
            if not fresh:
                return
            # One decision at a time, the one furthest past its bound, as the step-down does.
            best = max(fresh, key=lambda i: max(current[i].llr - current[i].upper, current[i].lower - current[i].llr))
            self._final[best] = current[best]


def sprt_watch_from_table(table: Any, candidates: Sequence[str], field: Sequence[str],
                          players: int = 2) -> SprtWatch:
    """Read the ``[sprt]`` table of a gauntlet with tables of ``players`` seats.

    Raises:
        ValueError: ``[sprt] ...``: not a table, an unknown key, a missing or non-numeric
            ``elo0``/``elo1``, a bad ``alpha``/``beta``/``model`` (the rules of
            :func:`arena.ratings.sprt_from_counts`), not exactly one candidate, a rival
            not in the field, more than one of ``baseline``/``baselines``/``field``, or an
            unknown ``correction``.
    """
    if not isinstance(table, Mapping):
        raise ValueError(f"[sprt] must be a table, got {type(table).__name__}")
    unknown = sorted(set(table) - set(SPRT_KEYS))
    if unknown:
        raise ValueError(f"[sprt] key {unknown[0]!r} is unknown; known keys: {', '.join(SPRT_KEYS)}")
    values: dict[str, float] = {}
    for key, default in (("elo0", None), ("elo1", None), ("alpha", 0.05), ("beta", 0.05)):
        value = table.get(key, default)
        if value is None:
            raise ValueError(f"[sprt] needs {key} (an Elo difference)")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"[sprt] {key} must be a number, got {value!r}")
        values[key] = float(value)
    model = table.get("model", "logistic")
    try:
        check_parameters(values["elo0"], values["elo1"], values["alpha"], values["beta"], model)
    except ValueError as error:
        raise ValueError(f"[sprt] {str(error).replace('elo_model', 'model')}") from None
    correction = table.get("correction", "holm")
    if correction not in CORRECTIONS:
        raise ValueError(f"[sprt] correction must be one of {', '.join(CORRECTIONS)}, got {correction!r}")
    if len(candidates) != 1:
        raise ValueError(f"[sprt] needs a gauntlet with exactly one candidate, got {len(candidates)}")
    rivals = _rivals(table, field)
    stops = tuple(SprtStop(candidates[0], rival, values["elo0"], values["elo1"], values["alpha"], values["beta"],
                           model, players) for rival in rivals)
    return SprtWatch(stops, correction)


def _rivals(table: Mapping[str, Any], field: Sequence[str]) -> list[str | None]:
    """The rivals named by ``baseline``, ``baselines`` or ``field`` (None: the field)."""
    given = [key for key in ("baseline", "baselines", "field") if key in table]
    if len(given) > 1:
        raise ValueError(f"[sprt] give one of baseline, baselines, field; got {' and '.join(given)}")
    if "field" in table:
        if table["field"] is not True:
            raise ValueError(f"[sprt] field must be true (the candidate against the whole field), "
                             f"got {table['field']!r}")
        return [None]
    if "baselines" in table:
        names = table["baselines"]
        if not isinstance(names, list) or not names or len(set(map(str, names))) != len(names):
            raise ValueError(f"[sprt] baselines must be a list of distinct entrant names, got {names!r}")
    elif "baseline" in table:
        names = [table["baseline"]]
    else:
        if len(field) != 1:
            raise ValueError(f"[sprt] baseline must name the entrant to test against, one of: {', '.join(field)}")
        names = [field[0]]
    for name in names:
        if name not in field:
            raise ValueError(f"[sprt] baseline {name!r} is not in the field: {', '.join(field)}")
    return list(names)
