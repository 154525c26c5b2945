"""One sequential test a running tournament watches: a candidate against one rival or against
the whole field, with the duplicate block as the observation, kept up to date game by game.

The observation is a block (all rotations of one deal: the k games of a k-player table), never
a game: the games of one deal share its luck, so counting them as independent would make the
test stop too early. A block counts once all of its ``block_games`` games are stored; an
unfinished block is left out (the tournament is still running), not an error.

The candidate's score in one game, in half points:

- against a rival: 2 if it finished ahead of the rival, 1 level, 0 behind (the other players
  ignored): ``top = 2`` per game;
- against the field (``baseline=None``): the sum of those over every other player at the
  table, ``top = 2 (k - 1)`` per game, i.e. its mean pairwise score against the table.

A block's total (0 .. ``block_games * top``) is one outcome of the multinomial the GSPRT of
:mod:`arena.ratings._sprt` runs on; for two players and duplicate pairs it is the pentanomial.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ._results import GameRecord
from ._sprt import SprtResult, sprt_from_counts


@dataclass(frozen=True)
class SprtStop:
    """One test: ``candidate`` against ``baseline`` (None: against the field).

    Attributes:
        block_games: games per duplicate block (the players per table: one game per rotation).
    """

    candidate: str
    baseline: str | None
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"
    block_games: int = 2

    @property
    def label(self) -> str:
        """``new vs old`` or ``new vs the field``."""
        return f"{self.candidate} vs {self.baseline if self.baseline is not None else 'the field'}"

    def result(self, records: Iterable[GameRecord], alpha: float | None = None,
               beta: float | None = None) -> SprtResult:
        """The test on the games stored so far (unfinished blocks left out); ``alpha`` and
        ``beta`` replace the test's own (a multiple-comparison correction)."""
        tally = SprtTally(self)
        for record in records:
            tally.add(record)
        return tally.result(alpha, beta)

    def decided(self, records: Iterable[GameRecord]) -> bool:
        """True once H0 or H1 is accepted: the remaining games need not be played."""
        return self.result(records).decided


class SprtTally:
    """The test of a :class:`SprtStop` kept up to date game by game (a runner calls
    :meth:`add` after storing each game; refitting from all games would cost O(games))."""

    def __init__(self, stop: SprtStop) -> None:
        self.stop = stop
        self._unit_counts: list[int] = []
        self._single: list[int] = []  # games without a block: one observation each
        self._open: dict[str, tuple[int, int]] = {}  # block -> (half points, games) until complete
        self._top = 0  # half points one game can give (2 against a rival, 2 (k - 1) against the field)
        self._cache: tuple[tuple, SprtResult] | None = None  # most games leave the counts as they were

    def add(self, record: GameRecord, alpha: float | None = None, beta: float | None = None) -> SprtResult:
        """Count one stored game (ignored unless it seats the candidate, and the rival if any)
        and return the test so far."""
        points = game_points(record, self.stop.candidate, self.stop.baseline)
        if points is not None:
            half, top = points
            if self._top and top != self._top:
                raise ValueError(f"{self.stop.label}: a game of {len(record.players)} players among games of "
                                 f"another size; the test needs tables of one size")
            self._top = top
            if record.block is None:
                _bump(self._single, half, top)
            else:
                total, games = self._open.pop(record.block, (0, 0))
                total, games = total + half, games + 1
                if games >= self.stop.block_games:
                    _bump(self._unit_counts, total, top * self.stop.block_games)
                else:
                    self._open[record.block] = (total, games)
        return self.result(alpha, beta)

    def result(self, alpha: float | None = None, beta: float | None = None) -> SprtResult:
        """The test on the games added so far: blocks once any game had one, else single games."""
        s = self.stop
        top = self._top or 2
        if self._unit_counts or (self._open and not self._single):
            counts, games = _padded(self._unit_counts, top * s.block_games + 1), s.block_games
        else:
            counts, games = _padded(self._single, top + 1), 1
        alpha, beta = s.alpha if alpha is None else alpha, s.beta if beta is None else beta
        key = (tuple(counts), games, alpha, beta)
        if self._cache is None or self._cache[0] != key:
            self._cache = key, sprt_from_counts(counts, elo0=s.elo0, elo1=s.elo1, alpha=alpha, beta=beta,
                                                elo_model=s.model, games=games)
        return self._cache[1]


def game_points(record: GameRecord, candidate: str, baseline: str | None) -> tuple[int, int] | None:
    """The candidate's half points in ``record`` against ``baseline`` (None: every other
    player) and the most it could have had; None if the record does not seat them."""
    if candidate not in record.players:
        return None
    mine = record.ranks[record.players.index(candidate)]
    if baseline is None:
        others = [r for p, r in zip(record.players, record.ranks) if p != candidate]
    elif baseline in record.players:
        others = [record.ranks[record.players.index(baseline)]]
    else:
        return None
    return sum(2 if mine < r else 1 if mine == r else 0 for r in others), 2 * len(others)


def _bump(counts: list[int], index: int, top: int) -> None:
    if len(counts) < top + 1:
        counts.extend([0] * (top + 1 - len(counts)))
    counts[index] += 1


def _padded(counts: list[int], size: int) -> list[int]:
    return counts + [0] * (size - len(counts))
