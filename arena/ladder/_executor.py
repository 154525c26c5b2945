"""How a ladder's stretch of play is played: the executor seam, the tournaments' workers behind
it, and the source of games they take from.

The executor (:class:`Executor`) is anything that plays the games of a
:class:`~arena.tournament._handout.GameSource` for a
:class:`~arena.tournament._config.TournamentConfig` and calls back per result;
:func:`worker_executor` gives the tournaments' two: local worker processes, or a Dask cluster
(``executor = "dask"``).

The source (:class:`LadderSource`) is a tournament's, with one thing more: a ladder chooses its
games itself, a window of duplicate blocks at a time before any of them is played, so when a
version turns out to fault in its games (benched, :mod:`arena.ladder._faulting`) its games not
handed out yet can be dropped (:meth:`LadderSource.drop`) and its tables chosen again with that
known. Without it, a new version that crashes in every game sat at its share of the ladder's
first window, chosen before its first game (two thirds of the tables among three bots), each of
its games starting a process, and the whole ladder played its first minute at a third to a half
of a clean ladder's rate (BENCHMARKS.md, issue 47). What a worker was sent ahead (a few games a
slot, :data:`arena.tournament._handout.LOOKAHEAD`) is handed out, so it is played.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import trio

from ..match import MatchResult
from ..sandbox import Sandbox
from ..tournament import TournamentConfig, GameSource, ScheduledGame
from ._vetting import hide_submissions


class Executor(Protocol):
    """Plays every game ``source`` hands out with the entrants of ``config``, calling
    ``on_result(scheduled, result)`` for each finished game and ``on_death(entrant, detail)``
    for a fault between games charged to no game; returns once the source is empty. Keeps the
    source's rules: every rotation of a block on one worker, entrants withdrawn in
    ``source.withdrawn`` forfeited."""

    async def __call__(self, config: TournamentConfig, source: GameSource,
                       on_result: Callable[[ScheduledGame, MatchResult], None],
                       on_death: Callable[[str, str], None]) -> None: ...


class LadderSource(GameSource):
    """A :class:`GameSource` whose games not handed out can be dropped (:meth:`drop`)."""

    def drop(self, name: str) -> list[ScheduledGame]:
        """Drop every game seating ``name`` not handed out yet (waiting in a window, or in one
        given back), and return them. A block of which a game was handed out loses the rest:
        it counts as a block given up (as at the end of a stretch). For a version that forfeits
        its games that costs its opponents no luck of the deal, since they win each of those
        whatever the deal; keeping such blocks whole played about as many of its games again."""
        dropped: list[ScheduledGame] = []

        def keep(window: deque[ScheduledGame] | list[ScheduledGame]) -> list[ScheduledGame]:
            dropped.extend(game for game in window if name in game.seats)
            return [game for game in window if name not in game.seats]

        self._windows = {worker: deque(keep(window)) for worker, window in self._windows.items()}
        self._retry = deque(keep(window) for window in self._retry)
        self._notify()  # a worker whose window is now empty takes a new one
        return dropped


def worker_executor(workers: int, sandbox: Sandbox | None, log_dir: Path, workdir: Path) -> Executor:
    """The tournaments' executor: local worker processes (:class:`arena.tournament._workers.Workers`),
    or with ``executor = "dask"`` in the ladder file, one arena worker on each worker of a Dask
    cluster (:class:`arena.tournament._dask.DaskWorkers`; a LocalCluster without ``scheduler``). Each
    stretch hides the submissions made so far from the bots (:func:`hide_submissions`)."""
    from ..tournament import Setup, Workers, default_workers, sandbox_fields

    def lost(line: str) -> None:
        print(f"warning: {line}", file=sys.stderr)

    async def play(config: TournamentConfig, source: GameSource, on_result, on_death) -> None:
        processes = max(1, min(workers or default_workers(), config.concurrency))
        box = None if sandbox is None else hide_submissions(sandbox, workdir)
        setup = Setup(config, log_dir, True, sandbox_fields(box)).spread(config.concurrency, processes)
        arguments = (setup, processes, source, on_result, on_death, lost)
        if config.executor == "dask":
            from ..tournament import DaskWorkers

            runner = DaskWorkers(*arguments, scheduler=config.scheduler, slots=config.concurrency)
        else:
            runner = Workers(*arguments)
        await runner.run()
        if runner.error is not None:
            print(f"warning: ladder workers stopped ({runner.error}); starting new ones", file=sys.stderr)
            await trio.sleep(1)

    return play
