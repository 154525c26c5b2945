"""Handing out games: every rotation of a block to one worker, rotation-major over windows.

The pool ends a process before another rotation of a deal it saw starts for its entrant
(:mod:`arena.players._pool`). Two things make that rule hold and cheap, and both are decided where
the coordinator hands games out, not in the schedule (which stays a pure lazy sequence: its
keys and seeds do not depend on the order games are played in):

- **A block stays on one worker.** The pool of one worker cannot see another's processes, so
  all the rotations of a duplicate block go to the same worker (a worker's *window*). When a
  worker dies, its unfinished games go back as one window to a single other worker, once its
  bots are killed (``arena.tournament._workers``; on a Dask cluster the worker that takes them first
  kills what dead arena workers left on its machine).
- **Rotation-major windows.** A worker plays a window of m blocks as rotation 1 of blocks
  1..m, then rotation 2 of them, and so on: an entrant's process plays its games of one pass
  and is ended once, when the next pass reaches a deal it saw, instead of after every game.
  A window is long enough that each process of an entrant plays about
  :data:`GAMES_PER_PASS` games per pass, and at least ``share + 1`` blocks so that a block's
  next rotation never has to wait for its last one (:meth:`WindowPlan.blocks`). With several
  workers the window is also at most the remaining blocks over the workers (guided
  self-scheduling: windows shrink towards the end, so the workers finish together), but not
  below half the blocks over the workers: each window costs the same starts, however short.
- **One process per entrant and pass, where the tables allow.** An entrant in two games at
  once needs a second process, which the next pass ends and replaces too. A window's blocks
  are ordered so that games played at once share no entrant where possible (:func:`spread`),
  and a slot takes, of the next few games, the first that the pool's idle processes can play
  at once (:func:`pick`, :meth:`BotPool.ready`).

Results still come back and are stored game by game, so resuming, the SPRT and the progress
display work as before; a gauntlet with an SPRT gets short windows, because its test counts
complete pairs only.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass

import trio

from ._schedule import ScheduledGame

#: About how many games an entrant's process plays between two ends (one per pass).
GAMES_PER_PASS = 64
#: The same for a gauntlet with an SPRT, whose test waits for each block's second game.
GAMES_PER_PASS_SPRT = 8
#: The most blocks a window holds (it is held in memory: a few hundred bytes a game).
MAX_WINDOW_BLOCKS = 4096
#: How many games per slot :func:`pick` looks ahead (a worker is sent as many ahead).
LOOKAHEAD = 8


@dataclass(frozen=True)
class WindowPlan:
    """How many blocks a worker's window holds, from the table size, the number of entrants,
    the worker's ``share`` of the concurrency and the number of ``workers``."""

    players: int = 2
    entrants: int = 2
    share: int = 1
    workers: int = 1
    #: a gauntlet with an SPRT: short windows, so that pairs complete soon
    sprt: bool = False
    #: about how many games an entrant's process plays per pass (:data:`GAMES_PER_PASS`)
    games_per_pass: int = GAMES_PER_PASS
    #: the blocks to hand out in all, if known (set by :class:`GameSource`)
    total: int | None = None

    def blocks(self, remaining: int | None = None) -> int:
        """The blocks of the next window, with ``remaining`` blocks left to hand out
        (``None``: unknown, as on a ladder)."""
        k, share = self.players, self.share
        # Each pass after the first ends about one process per entrant and slot of the window
        # (max(entrants, share * players) of them at most): a window plays at least twice as
        # many games as it starts processes, unless it is the last; and, since every window
        # costs as many starts however short, a worker gets about two of them at most.
        least = max(share + 1, math.ceil(2 * (k - 1) * max(self.entrants, share * k) / k),
                    math.ceil((self.total or 0) / (2 * self.workers)))
        # An entrant sits at players/entrants of the tables, so its games of a pass number
        # m * players / entrants, spread over about max(1, share * players / entrants)
        # processes at once: each plays about `per_pass` of them when m is this.
        per_pass = min(GAMES_PER_PASS_SPRT, self.games_per_pass) if self.sprt else self.games_per_pass
        most = min(max(least, per_pass * max(share, math.ceil(self.entrants / k))), MAX_WINDOW_BLOCKS)
        if remaining is None or self.workers <= 1:
            return most
        return max(least, min(most, math.ceil(remaining / self.workers)))


def rotation_major(blocks: list[list[ScheduledGame]], share: int = 1) -> list[ScheduledGame]:
    """The games of ``blocks`` (each a block's pending games in rotation order) as the first
    game of every block, then the second of every block, and so on, the blocks in the order of
    :func:`spread` (the same in every pass, so a block's next rotation comes a pass later)."""
    blocks = spread(blocks, share)
    longest = max((len(block) for block in blocks), default=0)
    return [block[i] for i in range(longest) for block in blocks if i < len(block)]


def spread(blocks: list[list[ScheduledGame]], share: int, lookahead: int = 64) -> list[list[ScheduledGame]]:
    """``blocks`` reordered so that, where it can be done, no ``share + 1`` blocks in a row
    seat the same entrant twice: a worker plays ``share`` games at once, and the next one
    starts when any of them ends, so an entrant of the next game may still be playing any of
    the last ``share``; in two games at once it needs a second process, which the next pass
    must end and replace. Greedy: each next block is the first of the following ``lookahead``
    that shares no entrant with the last ``share`` taken (else simply the next)."""
    if share <= 1 or len(blocks) <= 2:
        return blocks
    remaining, order = list(blocks), []
    recent: deque[frozenset[str]] = deque(maxlen=share)
    while remaining:
        busy = frozenset().union(*recent)
        pick = next((i for i, block in enumerate(remaining[:lookahead]) if busy.isdisjoint(block[0].seats)), 0)
        order.append(remaining.pop(pick))
        recent.append(frozenset(order[-1][0].seats))
    return order


def pick(queue: deque[ScheduledGame], ready: Callable[[ScheduledGame], bool] | None,
         lookahead: int) -> ScheduledGame:
    """Take from ``queue`` the first of its first ``lookahead`` games that ``ready`` accepts
    (:meth:`BotPool.ready`: every entrant has an idle process that may play it), else its first.

    The order of a window is planned (:func:`spread`), but which games end first is not: a
    game whose entrant is still playing another would need a second process of it, which the
    next pass has to end and replace again. Taking one a little further on instead keeps an
    entrant on one process per pass where the tables allow it."""
    if ready is not None:
        for index, game in enumerate(itertools.islice(queue, lookahead)):
            if ready(game):
                del queue[index]
                return game
    return queue.popleft()


def _blocks(games: Iterator[ScheduledGame]) -> Iterator[list[ScheduledGame]]:
    """The games grouped by block (a block's games are consecutive in a schedule)."""
    block: list[ScheduledGame] = []
    for game in games:
        if block and game.block != block[-1].block:
            yield block
            block = []
        block.append(game)
    if block:
        yield block


class GameSource:
    """The games still to play, as the coordinator hands them out to workers (or to the slots
    of one process: one worker, ``None``).

    ``pending`` is the schedule's lazy sequence of missing games (a block's games together);
    ``remaining`` how many it holds, if known. ``next_round``: once every game is played, the
    games of the next round (an adaptive tournament's, chosen from the results), or none to
    end; it runs between two games, when nothing is in flight. Each worker takes games from its own window;
    a window given back by a dead worker goes whole to the next worker that needs one. Also
    the entrants withdrawn during the run (:meth:`withdraw`), for the workers to hear of.
    """

    def __init__(self, pending: Iterator[ScheduledGame], plan: WindowPlan | None = None,
                 remaining: int | None = None,
                 next_round: Callable[[], list[ScheduledGame]] | None = None) -> None:
        self._remaining = remaining
        self._next_round = next_round
        self.plan = plan or WindowPlan()
        self._blocks = _blocks(pending)
        self._windows: dict[Hashable, deque[ScheduledGame]] = {}
        self._retry: deque[list[ScheduledGame]] = deque()
        #: keys of games given back by a worker that died (played again elsewhere)
        self.retried: set[str] = set()
        #: entrant -> why, for those withdrawn during the run
        self.withdrawn: dict[str, str] = {}
        self.in_flight = 0
        self.windows = 0  # windows handed out, given-back ones included (for measurements)
        self._changed = trio.Event()

    async def take(self, worker: Hashable = None,
                   ready: Callable[[ScheduledGame], bool] | None = None) -> ScheduledGame | None:
        """The next game for ``worker``, or ``None`` once every game is played or in flight
        for good (a worker that dies gives its games back, so until then this waits).
        ``ready``: prefer the first of the next few games it says can start at once
        (:func:`pick`)."""
        while True:
            window = self._windows.get(worker)
            if window:
                game = pick(window, ready, LOOKAHEAD * self.plan.share)
                break
            window = self._retry.popleft() if self._retry else self._next_window()
            if window:
                self._windows[worker] = deque(window)
                self.windows += 1
                continue
            if self.in_flight == 0 and not any(self._windows.values()):
                games = self._next_round() if self._next_round is not None else []
                if not games:
                    self._next_round = None  # the last round is over: asked once
                    return None
                self._blocks, self._remaining = _blocks(iter(games)), len(games)
                self.plan = dataclasses.replace(self.plan, total=None)  # windows sized for this round
                self._notify()  # the other workers wait for games too
                continue
            # Games are still in flight or in other windows: a worker may die and give some back.
            await self._changed.wait()
        self.in_flight += 1
        return game

    def done(self, count: int = 1) -> None:
        self.in_flight -= count
        self._notify()

    def give_back(self, worker: Hashable, games: list[ScheduledGame]) -> int:
        """``worker`` stopped: ``games`` (handed out to it, not finished) and the rest of its
        window go back, as one window, to the next worker that needs one. Returns how many
        games went back."""
        window = games + list(self._windows.pop(worker, ()))
        if window:
            self._retry.append(window)
            self.retried.update(game.key for game in window)
        self.done(len(games))
        return len(window)

    def withdraw(self, name: str, detail: str, drop: bool = False) -> None:
        """``name`` is withdrawn (``detail``: why): workers are told, and forfeit its seats.
        ``drop``: games not handed out yet that seat it are dropped instead (a ladder's games
        are its own choice; a tournament's schedule holds them)."""
        self.withdrawn[name] = detail
        if drop:
            for worker, window in self._windows.items():
                self._windows[worker] = deque(game for game in window if name not in game.seats)
            self._retry = deque([game for game in window if name not in game.seats] for window in self._retry)
        self._notify()

    @property
    def plan(self) -> WindowPlan:
        return self._plan

    @plan.setter
    def plan(self, plan: WindowPlan) -> None:
        """How windows are sized (a worker pool sets its share and count once it knows them)."""
        total = None if self._remaining is None else math.ceil(self._remaining / plan.players)
        self._plan = dataclasses.replace(plan, total=plan.total if plan.total is not None else total)

    def _next_window(self) -> list[ScheduledGame]:
        remaining = None if self._remaining is None else math.ceil(self._remaining / self.plan.players)
        blocks = []
        for _ in range(self.plan.blocks(remaining)):
            block = next(self._blocks, None)
            if block is None:
                break
            blocks.append(block)
        if self._remaining is not None:
            self._remaining = max(self._remaining - sum(len(block) for block in blocks), 0)
        return rotation_major(blocks, self.plan.share)

    def _notify(self) -> None:
        # Wake every waiting taker (each waits on the event current when it began to wait).
        self._changed.set()
        self._changed = trio.Event()
