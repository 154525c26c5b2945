"""A gauntlet that stops itself: the ``[sprt]`` table of a tournament file and the
decision, after each stored game, whether the test is over.

A tournament file may hold::

    format = "gauntlet"
    candidates = ["new"]
    [sprt]
    elo0 = 0          # H0: the candidate is at most this much better (required)
    elo1 = 5          # H1: at least this much (required)
    alpha = 0.05      # default 0.05
    beta = 0.05       # default 0.05
    model = "normalized"   # or "logistic" (the default)
    baseline = "old"  # the field entrant tested against; default: the only one

The test runs on the games of the candidate and the baseline stored so far;
with duplicate deals, a pair counts once both of its games are stored (an
unfinished pair is left out, not an error: the tournament is still running).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._results import GameRecord
from ._sprt import SprtDecision, SprtResult, check_parameters, sprt, sprt_from_counts

SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model", "baseline")


@dataclass(frozen=True)
class SprtStop:
    """When a gauntlet may stop: the SPRT of ``candidate`` against ``baseline`` has decided."""

    candidate: str
    baseline: str
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def result(self, records: Iterable[GameRecord]) -> SprtResult:
        """The test on the games stored so far (unfinished duplicate pairs left out)."""
        return sprt(records, self.candidate, self.baseline, elo0=self.elo0, elo1=self.elo1, alpha=self.alpha,
                    beta=self.beta, elo_model=self.model, unfinished="skip")

    def decided(self, records: Iterable[GameRecord]) -> bool:
        """True once H0 or H1 is accepted: the remaining games need not be played."""
        return self.result(records).decision is not SprtDecision.CONTINUE


class SprtTally:
    """The test of a :class:`SprtStop` kept up to date game by game (a runner calls
    :meth:`add` after storing each game; refitting from all games would cost O(games))."""

    def __init__(self, stop: SprtStop) -> None:
        self.stop = stop
        self._trinomial = [0, 0, 0]
        self._pentanomial = [0, 0, 0, 0, 0]
        self._open: dict[str, float] = {}  # block -> score of its first game, until the second comes
        self._blocked = False

    def add(self, record: GameRecord) -> SprtResult:
        """Count one stored game (ignored unless it seats both) and return the test so far."""
        a, b = self.stop.candidate, self.stop.baseline
        if a in record.players and b in record.players:
            ra, rb = record.ranks[record.players.index(a)], record.ranks[record.players.index(b)]
            score = 1.0 if ra < rb else 0.5 if ra == rb else 0.0
            if record.block is None:
                self._trinomial[int(2 * score)] += 1
            else:
                self._blocked = True
                first = self._open.pop(record.block, None)
                if first is None:
                    self._open[record.block] = score
                else:
                    self._pentanomial[int(round(2 * (first + score)))] += 1
        return self.result()

    def result(self) -> SprtResult:
        """The test on the games added so far (pentanomial once any game had a block)."""
        s = self.stop
        counts = self._pentanomial if self._blocked else self._trinomial
        return sprt_from_counts(counts, elo0=s.elo0, elo1=s.elo1, alpha=s.alpha, beta=s.beta, elo_model=s.model)


def sprt_stop_from_table(table: Any, candidates: Sequence[str], field: Sequence[str]) -> SprtStop:
    """Read the ``[sprt]`` table of a gauntlet.

    Args:
        table: the parsed TOML table.
        candidates: the gauntlet's candidates (exactly one is needed).
        field: the other entrants; ``baseline`` must name one (it may be left
            out when there is only one).

    Raises:
        ValueError: ``[sprt] ...``: not a table, an unknown key, a missing or
            non-numeric ``elo0``/``elo1``, a bad ``alpha``/``beta``/``model``
            (the rules of :func:`sprt_from_counts`), not exactly one candidate,
            or a baseline that is not in the field.
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
    if len(candidates) != 1:
        raise ValueError(f"[sprt] needs a gauntlet with exactly one candidate, got {len(candidates)}")
    baseline = table.get("baseline")
    if baseline is None:
        if len(field) != 1:
            raise ValueError(f"[sprt] baseline must name the entrant to test against, one of: {', '.join(field)}")
        baseline = field[0]
    if baseline not in field:
        raise ValueError(f"[sprt] baseline {baseline!r} is not in the field: {', '.join(field)}")
    return SprtStop(candidates[0], baseline, values["elo0"], values["elo1"], values["alpha"], values["beta"], model)
