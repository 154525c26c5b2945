"""Live progress of a tournament: a rich display on a terminal, plain lines otherwise.

On a terminal (:class:`LiveDisplay`): a bar, games/s, ETA, faults so far, the top of the
standings with their 95% intervals and the last fault, redrawn in place by rich (no ``\\r``
debris). The standings are refitted every few seconds in a background thread, so the game loop
never waits for a fit. They are the final table's (``arena standings``): the same records
(duplicate blocks kept, games without a result left out) and the same interval, the
cluster-robust one by default, so the last frame of a run and the table printed under it agree.

Elsewhere (a pipe, a log file, CI) :class:`PlainProgress` prints a whole line at most every
``interval`` seconds, and always for the last game.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

from ._common import plural

if TYPE_CHECKING:
    from ..tournament import Progress, StoredGame


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def _fault_line(fault: Any) -> str:
    who = "no bot charged" if fault.seat is None else f"{fault.bot} (seat {fault.seat})"
    return f"{who} {fault.kind.value} at step {fault.step_number}: {fault.detail}"


#: a game the engine stopped (charged to no bot) has no result: it counts in no rating
_ARENA_ERROR = "arena-error"


class _Counts:
    """What both displays track: the results so far (for standings) and the faults."""

    def __init__(self, stored: Iterable[StoredGame]) -> None:
        #: (seats, ranks, block) of every game with a result, as ``records_of`` makes them
        self.results: list[tuple[tuple[str, ...], tuple[int, ...], str | None]] = []
        self.faults = 0
        self.last_fault: str | None = None
        for game in stored:
            if getattr(game, "reason", None) != _ARENA_ERROR:
                self.results.append((tuple(game.seats), tuple(game.ranks), getattr(game, "block", None)))
            self.faults += len(game.faults)

    def add(self, progress: Progress) -> bool:
        """Count the game that ``progress`` reports; whether it brought a fault."""
        last = progress.last
        if last is None:
            return False
        reason = getattr(last, "reason", None)
        if getattr(reason, "value", reason) != _ARENA_ERROR:
            self.results.append((tuple(last.bots), tuple(last.ranks), progress.block))
        self.faults += len(last.faults)
        if last.faults:
            self.last_fault = _fault_line(last.faults[-1])
        return bool(last.faults)


def summary(progress: Progress, faults: int) -> str:
    """``34/72 games  2.1 games/s  ETA 0:18  faults 3``."""
    return (f"{progress.done}/{progress.total} games  {progress.rate:.1f} games/s  "
            f"ETA {_clock(progress.eta_s)}  faults {faults}")


class PlainProgress:
    """Whole lines, at most one every ``interval`` seconds, for logs and pipes."""

    def __init__(self, stream: TextIO = sys.stderr, stored: Iterable[StoredGame] = (), interval: float = 5.0) -> None:
        self.stream = stream
        self.interval = interval
        self.counts = _Counts(stored)
        self._last = float("-inf")  # the first game is always shown
        self._fault_shown = True

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass

    def __call__(self, progress: Progress) -> None:
        if self.counts.add(progress):
            self._fault_shown = False
        now = time.monotonic()
        if progress.done >= progress.total or now - self._last >= self.interval:
            leader = f"  leader {progress.leader} {progress.leader_percent:.0f}%" if progress.leader else ""
            lines = [summary(progress, self.counts.faults) + leader]
            if not self._fault_shown:
                lines.append(f"last fault: {self.counts.last_fault}")
                self._fault_shown = True
            self.stream.write("".join(line + "\n" for line in lines))
            self.stream.flush()
            self._last = now


class LiveDisplay:
    """A rich live display on a terminal; use as a context manager around the run."""

    #: the longest wait between two fits (see :meth:`_fit_loop`)
    MAX_WAIT_S = 30.0

    def __init__(self, stream: TextIO = sys.stderr, stored: Iterable[StoredGame] = (), top: int = 5,
                 standings_every: float = 3.0, n_boot: int | None = None) -> None:
        """``n_boot``: ``None`` for the final table's cluster-robust interval; N for a
        bootstrap of N replicates."""
        from rich.console import Console
        from rich.live import Live

        self.counts = _Counts(stored)
        self.top = top
        self.standings_every = standings_every
        self.n_boot = n_boot
        self._progress: Progress | None = None
        self._standings: Any = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._live = Live(console=Console(file=stream), refresh_per_second=4, get_renderable=self.renderable,
                          transient=False)
        self._fitter = threading.Thread(target=self._fit_loop, name="live-standings", daemon=True)

    def __enter__(self) -> LiveDisplay:
        self._live.start()
        self._fitter.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._fitter.join()
        if exc_info[0] is None:
            self.refit()  # the last frame shows every game
        self._live.stop()

    def __call__(self, progress: Progress) -> None:
        with self._lock:
            self.counts.add(progress)
            self._progress = progress

    def _fit_loop(self) -> None:
        # The fit runs here, not in the game loop: a fit of many games takes long enough to
        # delay reading a bot's reply, and the clock would charge the bot for it. Between fits
        # the thread sleeps at least 20 times as long as the last fit took, so it holds the
        # interpreter lock for a few percent of the time at most; at most MAX_WAIT_S, so the
        # standings never stand still for long. The ratings (numpy) are imported first and
        # not timed: counted in the first fit, their import (about a second) made the second
        # fit wait 20 s.
        import arena.ratings  # noqa: F401  (warm: see above)

        cost = 0.0
        while not self._stop.wait(self._wait(cost) if self._standings else 0.5):
            started = time.perf_counter()
            self.refit()
            cost = time.perf_counter() - started

    def _wait(self, cost: float) -> float:
        """Seconds to sleep after a fit that took ``cost`` seconds."""
        return min(max(self.standings_every, 20 * cost), self.MAX_WAIT_S)

    def refit(self) -> None:
        """Refit the standings if games were added since the last fit."""
        with self._lock:
            results = list(self.counts.results)
        if not results or (self._standings is not None and self._standings[1] == len(results)):
            return
        from ..ratings import GameRecord, compute_standings

        standings = compute_standings([GameRecord(players=p, ranks=r, block=b) for p, r, b in results],
                                      n_boot=self.n_boot)
        with self._lock:
            self._standings = (standings, len(results))

    def renderable(self) -> Any:
        """What the display shows now (a rich renderable); rich calls it at every refresh."""
        from rich.console import Group
        from rich.progress_bar import ProgressBar
        from rich.table import Table
        from rich.text import Text

        with self._lock:
            progress, standings, counts = self._progress, self._standings, self.counts
            faults, last_fault = counts.faults, counts.last_fault
        if progress is None:
            return Text("starting the bots ...")
        bar = Table.grid(padding=(0, 2))
        bar.add_row(ProgressBar(total=max(progress.total, 1), completed=progress.done, width=30),
                    Text(summary(progress, faults)))
        parts: list[Any] = [bar]
        if standings is not None:
            from ..report import interval_label  # here: the ratings are loaded by now

            standings, games = standings
            parts.append(Text(f"standings after {plural(games, 'game')} (95% interval: {interval_label(self.n_boot)})"))
            table = Table(box=None, padding=(0, 1))
            for header in ("#", "name", "elo", "-", "+", "points %"):
                table.add_column(header, justify="left" if header == "name" else "right")
            for index, row in enumerate(standings.rows[:self.top], 1):  # as the final table shows them
                table.add_row(str(index), row.name, f"{row.elo:.1f}", f"{row.minus:.1f}", f"{row.plus:.1f}",
                              f"{row.points_percent:.1f}")
            parts.append(table)
        if last_fault is not None:
            parts.append(Text(f"last fault: {last_fault}", overflow="ellipsis", no_wrap=True))
        return Group(*parts)


def open_progress(stream: TextIO = sys.stderr, stored: Iterable[StoredGame] = ()) -> LiveDisplay | PlainProgress:
    """The display that suits ``stream``: live on a terminal, plain lines otherwise."""
    if stream.isatty():
        return LiveDisplay(stream, stored)
    return PlainProgress(stream, stored)
