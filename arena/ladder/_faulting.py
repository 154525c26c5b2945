"""Faults in games, per version: the window of its last games that withdraws a version that
faults in game after game, and the bench that keeps it from deciding whom the others play.

A fault between games (a process that exited or wrote between two games) is counted towards
``faults.withdraw_after`` by the runner. A fault *in* a game (a crash, timeout, protocol error,
illegal action, memory) is counted here, once per game: a version with a fault in
``game_fault_limit`` of its last ``game_fault_window`` games is withdrawn for good, like one
past ``withdraw_after``. A window and not a total, so a version that times out once in a while
on a busy machine is never withdrawn however long it plays, while one that crashes on a timer
is withdrawn after about ``game_fault_limit`` games.

Before it gets there, a version with a fault in :data:`BENCH_AFTER` or more of its window's
games is *benched*: matchmaking seats it only for its fair share or to fill a table (rule 1
and the cap of :mod:`arena.ladder._matchmaking`), never because its forfeits make its rating
look worth learning. Its faults then decide neither its own share of the tables nor whom the
others play. While one of its blocks is in flight it gets no new table at all (``resting``):
each of its games may need a new process, and its games one after the other left the others
waiting for those starts (BENCHMARKS.md, issue 47). And its games that matchmaking chose before
it was benched and that were not handed out yet are dropped
(:meth:`arena.ladder._executor.LadderSource.drop`): a window of tables is chosen before any of
its games is played, so without it a new version that crashes in every game played its whole
first window.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..players import Fault, FaultKind

#: Games with a fault among a version's window from which it is benched (see the module).
BENCH_AFTER = 2


def faulted_in_game(name: str, faults: Iterable[Fault | dict]) -> bool | None:
    """Whether ``name`` faulted in the game of ``faults`` (stored dicts or :class:`Fault`);
    ``None`` if its only faults there were between games (charged by ``withdraw_after``)."""
    between = False
    for fault in faults:
        record = fault.as_dict() if isinstance(fault, Fault) else fault
        if record.get("bot") != name or record.get("kind") == FaultKind.ARENA_ERROR.value:
            continue
        if record.get("between_games"):
            between = True
        else:
            return True
    return None if between else False


@dataclass
class GameFaults:
    """The in-game fault window of every version seen since the ladder started (or loaded)."""

    limit: int
    window: int
    _recent: dict[str, deque[bool]] = field(default_factory=dict)

    def load(self, name: str, games: Sequence[list[dict]]) -> None:
        """Fill ``name``'s window from its stored games' faults, oldest first."""
        recent = self._of(name)
        for faults in games:
            faulted = faulted_in_game(name, faults)
            if faulted is not None:
                recent.append(faulted)

    def note(self, seats: Sequence[str], faults: Sequence[Fault]) -> list[str]:
        """Count one stored game; return the versions of ``seats`` now at the limit."""
        over = []
        for name in dict.fromkeys(seats):
            faulted = faulted_in_game(name, faults)
            if faulted is None:
                continue
            recent = self._of(name)
            recent.append(faulted)
            if faulted and self.limit and sum(recent) >= self.limit:
                over.append(name)
        return over

    def count(self, name: str) -> int:
        """Games with a fault among ``name``'s last ``window`` games."""
        return sum(self._recent.get(name, ()))

    def benched(self, names: Iterable[str]) -> frozenset[str]:
        """Those of ``names`` that matchmaking seats only for their fair share."""
        return frozenset(name for name in names if self.count(name) >= BENCH_AFTER)

    def reason(self, name: str) -> str:
        """The withdrawal's reason, as the version's page and its author's API show it."""
        return (f"withdrawn after faults in {self.count(name)} of its last {self.window} games "
                f"(limit {self.limit}, game_fault_limit)")

    def _of(self, name: str) -> deque[bool]:
        return self._recent.setdefault(name, deque(maxlen=self.window))
