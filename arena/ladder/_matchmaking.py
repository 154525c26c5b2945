"""Matchmaking for the ladder: which tables to play next so ratings settle fastest.

The rule, in order:

1. **Fair share first.** An active entrant that has sat out the last ``2 x active``
   finished games (twice the gap it would see if every table were drawn uniformly:
   with n entrants at k-player tables of k rotations, uniform drawing seats each entrant
   once every n games on average) is seated before anything else, the longest waiting
   first, as many at one table as it seats. So nobody starves: each entrant gets at least about half of the uniform share,
   whatever the ratings say. Games of the tables chosen in the same call (and of
   ``pending`` ones) count as played.
2. **Then the most informative table.** The ratings are modelled as a Gaussian around
   the fit (Bradley-Terry for two players, Plackett-Luce for more, with one virtual draw
   per entrant against a rating-0 opponent so every rating is finite): covariance = the
   inverse of the fit's information, taken relative to the field's mean, as the
   leaderboard's intervals are. A pair at a table adds ``k x r_k x p (1 - p)`` of
   information on the difference of its two ratings (k games per duplicate block; ``p``
   the expected score between them, so close ratings teach most; ``r_k`` the share of
   its pairwise information a Plackett-Luce game carries: 1 for two players, 0.78 for
   three, 0.64 for four). A table is worth the sum over its pairs of how much that
   information shrinks the *log*-variances of the pair's two ratings: a relative measure,
   so an entrant with a wide interval gains most from a game, and one whose games teach
   nothing (it loses every game) stops drawing tables once its few bits are in, where an
   absolute one (sum of variances) would feed it for ever. A new version has no games
   and the prior's variance (+-680 Elo), so it plays first, against the entrants closest
   to its current rating, until its interval is about as narrow as the field's (about
   half the games of a field entrant); then the entrants with the widest intervals come
   first. Each chosen table updates the covariance (rank-one updates of its pairs), so
   the next table of the same call looks elsewhere. Seats are filled greedily: the best
   pair, then the entrant adding most to the seated ones. A choice is drawn (``rng``)
   among those within 10 % of the best, which spreads a new version's opponents over the
   field near its rating instead of one neighbour.
3. **A cap.** An entrant with more than twice the median active entrant's games (plus
   the starvation window) is seated only by rule 1 or to fill a table, a backstop
   against anyone absorbing the ladder. So is a *benched* one (the runner benches a
   version that faults in its games, :mod:`arena.ladder._faulting`): its forfeits make
   its rating look worth learning, and must not decide whom the others play.
   A benched entrant with a table still in flight (``resting``) is not seated at all
   until that table's games are in: each of its games may need a new process started
   (its last one faulted), and so many of them at once would leave the others' games
   waiting for starts (BENCHMARKS.md, issue 47).

The runner plays each table as one duplicate block (the same deal in every rotation of
the seats), so the luck of the deal cancels; seat order within a table is shuffled.

Pure: no I/O, no clock; the same inputs and ``rng`` state give the same tables. With
50 active entrants and 100,000 games the fit takes well under a second (numbers in
BENCHMARKS.md); a runner that asks often can keep a :class:`LadderFit` between calls.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..ratings import solve_bradley_terry, from_columns, pair_scores, ELO_PER_NAT, information
from ..ratings import plackett_luce_objective, solve_plackett_luce

#: Virtual draws per entrant against a rating-0 opponent: keeps every rating finite and
#: gives a version without games a variance of 1 / (PRIOR_DRAWS / 4) nats^2 (sd 347 Elo).
PRIOR_DRAWS = 1.0
#: An active entrant absent from the last STARVE_FACTOR x len(active) games is seated first.
STARVE_FACTOR = 2
#: An entrant with more than MAX_LEAD x the median active entrant's games (plus the
#: starvation window) gets no table for information, only its fair share.
MAX_LEAD = 2
#: A table is drawn among those whose worth is within this fraction of the best one.
SLACK = 0.1


@dataclass(frozen=True)
class LadderGame:
    """One finished ladder game.

    Attributes:
        seats: entrant names (one per bot version) in seat order.
        ranks: final rank per seat, 1 = first; ties share a rank.

    Raises:
        ValueError: fewer than two seats, ``ranks`` of another length, a name seated
            twice, or a rank that is not an int >= 1.
    """

    seats: tuple[str, ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        seats, ranks = tuple(self.seats), tuple(self.ranks)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "ranks", ranks)
        if len(seats) < 2 or len(ranks) != len(seats):
            raise ValueError(f"a game needs 2 or more seats and one rank per seat, got {seats!r} / {ranks!r}")
        if len(set(seats)) != len(seats):
            raise ValueError(f"an entrant is seated twice in {seats!r}")
        if any(isinstance(r, bool) or not isinstance(r, int) or r < 1 for r in ranks):
            raise ValueError(f"ranks must be ints >= 1 (1 = first), got {ranks!r}")


@dataclass(frozen=True, eq=False)
class LadderFit:
    """What matchmaking needs from the games so far (:func:`fit_ladder`).

    Attributes:
        entrants: everyone who played, sorted by name.
        strength: fitted log-strength per entrant (natural log; Elo = 173.7 x this),
            with :data:`PRIOR_DRAWS` virtual draws each against strength 0.
        covariance: inverse of the fit's information (n x n, nats^2), before
            centring on the field's mean.
        games: games played per entrant.
        since: games finished after each entrant's last game (0: it played the last one).
        n_games: games fitted.
    """

    entrants: tuple[str, ...]
    strength: np.ndarray
    covariance: np.ndarray
    games: tuple[int, ...]
    since: tuple[int, ...]
    n_games: int

    def elo_interval(self, name: str) -> float:
        """Half-width (Elo) of ``name``'s 95 % interval as matchmaking sees it (the model's,
        relative to the field's mean); the prior's for a name without games."""
        if name not in self.entrants:
            return 1.96 * ELO_PER_NAT * math.sqrt(4.0 / PRIOR_DRAWS)
        centred = _centre(self.covariance)
        i = self.entrants.index(name)
        return 1.96 * ELO_PER_NAT * math.sqrt(max(centred[i, i], 0.0))


def fit_ladder(games: Sequence[LadderGame]) -> LadderFit:
    """Fit the games (in the order they finished) for :func:`choose_tables`.

    Bradley-Terry when every game has two seats, else Plackett-Luce (started from the
    Bradley-Terry fit of the pairwise decomposition, whose ratings it shares in
    expectation), always with :data:`PRIOR_DRAWS`.
    """
    if not games:
        empty = np.zeros((0, 0))
        return LadderFit((), np.zeros(0), empty, (), (), 0)
    index: dict[str, int] = {}
    seats = np.fromiter((index.setdefault(s, len(index)) for g in games for s in g.seats), dtype=np.int64)
    ranks = np.fromiter((r for g in games for r in g.ranks), dtype=np.int64, count=len(seats))
    lengths = np.fromiter((len(g.seats) for g in games), dtype=np.int64, count=len(games))
    enc = from_columns(list(index), lengths, seats, ranks, None)
    order = np.argsort(np.asarray(list(index), dtype=object))  # from_columns sorts the names
    rename = np.empty(len(index), dtype=np.int64)
    rename[order] = np.arange(len(index))
    seats = rename[seats]
    scores = pair_scores(enc)
    strength, _ = solve_bradley_terry(scores, PRIOR_DRAWS)
    if lengths.max() == 2:
        info = information(scores, PRIOR_DRAWS, strength)
    else:
        strength, _ = solve_plackett_luce(enc, PRIOR_DRAWS, strength)
        _, _, info = plackett_luce_objective(enc, PRIOR_DRAWS)(strength, True)
    last = np.full(enc.n, -1, dtype=np.int64)
    np.maximum.at(last, seats, np.repeat(np.arange(len(games)), lengths))
    return LadderFit(
        entrants=enc.names,
        strength=strength,
        covariance=np.linalg.inv(info),
        games=tuple(np.bincount(seats, minlength=enc.n).tolist()),
        since=tuple((len(games) - 1 - last).tolist()),
        n_games=len(games),
    )


def choose_tables(
    active: Sequence[str],
    games: Sequence[LadderGame],
    players: int,
    count: int,
    rng: random.Random,
    *,
    fit: LadderFit | None = None,
    pending: Sequence[Sequence[str]] = (),
    benched: frozenset[str] = frozenset(),
    resting: frozenset[str] = frozenset(),
) -> list[tuple[str, ...]]:
    """The next ``count`` tables to play, each a tuple of ``players`` distinct active entrant
    names in seat order.

    The runner plays each table as one duplicate block (the same deal, every rotation of
    the seats), so luck cancels. How tables are chosen (fair share first, then the table
    that shrinks the active entrants' rating variances most): see the module docstring.

    Args:
        active: the entrants that may be seated (one name per bot version).
        games: every finished game, in the order they finished (older versions'
            games included: they tie the field together). Not read when ``fit`` is given.
        players: seats per table (2 to 8; the ratings model is Plackett-Luce above 2).
        count: tables wanted (0 gives ``[]``).
        rng: the only source of randomness (ties, seat order).
        fit: :func:`fit_ladder` of ``games``, or of an earlier part of them with the
            tables played since passed as ``pending``; None: computed here. Fitting
            100,000 games takes about a second (BENCHMARKS.md), so a runner that asks
            for a table at a time keeps a fit (refitted in a thread now and then) and
            passes it with the tables chosen since.
        pending: tables chosen earlier whose games ``fit`` does not hold (still in
            flight, or finished after the fit); they count as played, with the
            information they are expected to bring, so the same table is not chosen
            again while the first is in flight, and the fair share stays right.
        benched: entrants seated only for their fair share or to fill a table (rule 3).
        resting: entrants not seated at all in this call (rule 3's benched entrants with a
            table in flight), unless fewer than ``players`` others are active; their
            fair-share wait goes on meanwhile.

    Pure: no I/O, no clock; same inputs and rng state, same tables.

    Raises:
        ValueError: ``players`` < 2, ``count`` < 0, a name listed twice in ``active``,
            fewer active entrants than ``players``, or a pending table naming an entrant
            that is not active.
    """
    if players < 2:
        raise ValueError(f"a table needs at least 2 players, got {players}")
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    if len(set(active)) != len(active):
        raise ValueError("an entrant is listed twice in active")
    if len(active) < players:
        raise ValueError(f"{len(active)} active entrants cannot fill a {players}-player table")
    if count == 0:
        return []
    field = _Field(active, fit if fit is not None else fit_ladder(games), players, benched, resting)
    for table in pending:
        field.play(table)
    tables = []
    for _ in range(count):
        table = field.best_table(rng)
        field.play(table)
        tables.append(table)
    return tables


def pairwise_share(k: int) -> float:
    """``r_k``: Fisher information of one k-player Plackett-Luce game among equals about an
    entrant, over that of its k - 1 pairwise Bradley-Terry games (1 for k = 2).

    At stage m of the finishing order (m entrants left, each present with probability
    m / k) the choice among equals carries ``(1/m)(1 - 1/m)`` about each one present;
    a pairwise game between equals carries 1/4."""
    per_game = sum((m / k) * (1.0 / m) * (1.0 - 1.0 / m) for m in range(2, k + 1))
    return per_game / ((k - 1) / 4.0)


def _centre(cov: np.ndarray) -> np.ndarray:
    """Covariance of the ratings relative to their mean (the leaderboard's gauge)."""
    return cov - cov.mean(axis=0) - cov.mean(axis=1)[:, None] + cov.mean()


class _Field:
    """The active entrants' Gaussian rating state, updated as tables are chosen."""

    def __init__(self, active: Sequence[str], fit: LadderFit, players: int,
                 benched: frozenset[str] = frozenset(), resting: frozenset[str] = frozenset()) -> None:
        self.names = list(active)
        self.benched = np.array([name in benched for name in self.names], dtype=bool)
        self.resting = np.array([name in resting for name in self.names], dtype=bool)
        if (~self.resting).sum() < players:
            self.resting[:] = False  # the table could not be filled without them
        self.players = players
        self.position = {name: i for i, name in enumerate(self.names)}
        known = {name: i for i, name in enumerate(fit.entrants)}
        new = [name for name in self.names if name not in known]
        # Everyone (inactive versions too) is centred together; new versions carry the prior only.
        n_all = len(fit.entrants) + len(new)
        cov = np.zeros((n_all, n_all))
        cov[: len(fit.entrants), : len(fit.entrants)] = fit.covariance
        cov[len(fit.entrants):, len(fit.entrants):] = np.eye(len(new)) * (4.0 / PRIOR_DRAWS)
        where = {**known, **{name: len(fit.entrants) + j for j, name in enumerate(new)}}
        pick = np.array([where[name] for name in self.names])
        self.cov = _centre(cov)[np.ix_(pick, pick)]
        strength = np.concatenate([fit.strength, np.zeros(len(new))])
        self.strength = strength[pick]
        self.since: list[int | None] = [fit.since[known[n]] if n in known else None for n in self.names]
        self.games = np.array([fit.games[known[n]] if n in known else 0 for n in self.names])
        self.starve_after = STARVE_FACTOR * len(self.names)
        self.weight = players * pairwise_share(players)

    def play(self, table: Sequence[str]) -> None:
        """Count ``table`` as played: its pairs' information, and its games for the fair share."""
        try:
            seats = [self.position[name] for name in table]
        except KeyError as e:
            raise ValueError(f"pending table {tuple(table)!r} names {e.args[0]!r}, which is not active") from None
        for a, i in enumerate(seats):
            for j in seats[a + 1:]:
                self.cov = _update(self.cov, self._pair_weight(i, j), i, j)
        for i, since in enumerate(self.since):
            self.since[i] = 0 if i in seats else (None if since is None else since + len(table))
        self.games[seats] += len(table)

    def best_table(self, rng: random.Random) -> tuple[str, ...]:
        """The table of the module docstring's rule, seat order shuffled by ``rng``."""
        cov = self.cov
        # Past the cap an entrant is seated only for its fair share (or to fill a table): a
        # backstop, so that no one absorbs the ladder whatever the model makes of its games.
        capped = self.games > MAX_LEAD * np.median(self.games) + STARVE_FACTOR * len(self.names)
        capped |= self.benched | self.resting
        if (~capped).sum() < self.players:
            capped = self.resting.copy()
        waiting = [i for i, s in enumerate(self.since)
                   if s is not None and s >= self.starve_after and not self.resting[i]]
        rng.shuffle(waiting)  # ties in waiting time: drawn
        waiting.sort(key=lambda i: -self.since[i])
        seats = waiting[: self.players]
        for a, i in enumerate(seats):
            for j in seats[a + 1:]:
                cov = _update(cov, self._pair_weight(i, j), i, j)
        if not seats:
            gains = self._pair_gains(cov)
            gains[capped, :] = gains[:, capped] = -np.inf
            best = gains.max()
            i, j = np.nonzero(np.triu(gains >= best - SLACK * abs(best), 1))
            a = rng.randrange(len(i))
            seats = [int(i[a]), int(j[a])]
            cov = _update(cov, self._pair_weight(seats[0], seats[1]), seats[0], seats[1])
        while len(seats) < self.players:
            gains = self._pair_gains(cov)[:, seats].sum(axis=1)
            gains[seats] = -np.inf
            gains[self.resting] = -np.inf
            if np.isfinite(gains[~capped]).any():
                gains[capped] = -np.inf
            best = gains.max()
            choice = _draw(rng, np.nonzero(gains >= best - SLACK * abs(best))[0].tolist())
            for t in seats:
                cov = _update(cov, self._pair_weight(choice, t), choice, t)
            seats.append(choice)
        rng.shuffle(seats)
        return tuple(self.names[i] for i in seats)

    def _pair_weight(self, i: int, j: int) -> float:
        p = 1.0 / (1.0 + math.exp(self.strength[j] - self.strength[i]))
        return self.weight * p * (1.0 - p)

    def _pair_gains(self, cov: np.ndarray) -> np.ndarray:
        """``gain[i, j]``: how much one table of i and j would shrink the log-variances of
        their two ratings (rank-one update along e_i - e_j); -inf on the diagonal."""
        d = np.diag(cov)
        spread = d[:, None] + d[None, :] - 2.0 * cov  # var(R_i - R_j)
        diff = self.strength[:, None] - self.strength[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        w = self.weight * p * (1.0 - p)
        shrink = w / (1.0 + w * spread)
        own = d[:, None] - cov  # cov(R_i, R_i - R_j)
        with np.errstate(divide="ignore", invalid="ignore"):
            drop_i = np.clip(shrink * own**2 / d[:, None], 0.0, 1.0 - 1e-12)
        gains = np.nan_to_num(-np.log1p(-drop_i) - np.log1p(-drop_i.T), nan=0.0)
        np.fill_diagonal(gains, -np.inf)
        return gains


def _update(cov: np.ndarray, w: float, i: int, j: int) -> np.ndarray:
    """Covariance after ``w`` more information on R_i - R_j (Sherman-Morrison)."""
    u = cov[:, i] - cov[:, j]
    spread = u[i] - u[j]
    return cov - np.outer(u, u) * (w / (1.0 + w * spread))


def _draw(rng: random.Random, options: list[int]) -> int:
    return options[rng.randrange(len(options))] if len(options) > 1 else options[0]
