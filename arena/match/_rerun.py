"""A stored game played again (``arena rerun``): its deal, its seats' bot seeds, its time
control and options, with the stored entrants or other bots in some seats, and where the new
game departs from the stored one.

Where a stored game comes from (a tournament's database, a ladder's) is the caller's business:
:mod:`arena.tournament._rerun` and :mod:`arena.ladder._rerun` build a :class:`Rerun`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines import Replay

from ..players import BotSpec
from ..sandbox import Sandbox
from ._match import MatchSettings
from ._result import MatchResult
from ._single import run_single_match


class RerunError(ValueError):
    """A stored game cannot be played again; the message says why."""


@dataclass(frozen=True)
class Rerun:
    """Everything that decides a stored game but its bots' own choices."""

    #: where it was stored, and its key there (for messages)
    source: Path
    key: str
    game: str
    options: Mapping[str, Any]
    seed: int
    bot_seeds: tuple[int, ...]
    settings: MatchSettings
    #: the bot in each seat (the stored entrant's manifest, or one given instead); ``None``
    #: where the entrant's manifest cannot be loaded any more, and ``missing`` says why
    seats: tuple[BotSpec | None, ...]
    #: what was stored: the replay, the entrants' names and the ranks
    stored: Replay
    stored_bots: tuple[str, ...]
    stored_ranks: tuple[int, ...]
    missing: Mapping[int, str] = dataclasses.field(default_factory=dict)

    def with_seats(self, replacements: Mapping[int, BotSpec]) -> Rerun:
        """The same game with other bots in the seats of ``replacements`` (seat -> bot)."""
        for seat in replacements:
            if not 0 <= seat < len(self.seats):
                raise RerunError(f"--seat {seat}: game {self.key} has seats 0..{len(self.seats) - 1}")
        seats = tuple(replacements.get(seat, spec) for seat, spec in enumerate(self.seats))
        missing = {seat: why for seat, why in self.missing.items() if seat not in replacements}
        return dataclasses.replace(self, seats=seats, missing=missing)


async def play_rerun(rerun: Rerun, sandbox: Sandbox | None = None, log_dir: Path | None = None) -> MatchResult:
    """Play ``rerun``'s game: its deal, bot seeds, options and time control. Raises
    :class:`RerunError` for a seat whose stored entrant cannot be started (give another)."""
    for seat, why in rerun.missing.items():
        raise RerunError(f"seat {seat} ({rerun.stored_bots[seat]}): {why}; give a bot for it with "
                         f"--seat {seat}=MANIFEST")
    seats = [spec for spec in rerun.seats if spec is not None]
    return await run_single_match(rerun.game, seats, rerun.seed, rerun.options, rerun.settings, sandbox,
                                  log_dir, rerun.bot_seeds)


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _clock_line(seats: list[int], bots: tuple[str, ...]) -> str:
    names = ", ".join(f"seat {seat} ({bots[seat]})" for seat in seats)
    one = len(seats) == 1
    return (f"  why: {names} {'budgets' if one else 'budget'} {'its' if one else 'their'} thinking by the clock "
            f"({'its' if one else 'their'} hello says clock_bound), so the same seeds need not give the same "
            f"choices; a fixed budget replays exactly (the search bots: --nodes N)")


def departure(rerun: Rerun, result: MatchResult) -> Iterator[str]:
    """Where ``result`` departs from the stored game, in lines: the first step whose actions
    differ (each seat's stored and new action, and one line naming the differing seats whose
    bots said they budget by the clock: the likely reason), or that both are the same game
    action for action; then the ranks of both."""
    stored, new = rerun.stored.steps, result.replay.steps
    bots = rerun.stored_bots
    for number, (before, after) in enumerate(zip(stored, new), 1):
        if before != after:
            yield f"departs from the stored game at step {number} (of {len(stored)} stored, {len(new)} now):"
            for seat in sorted({*before, *after}):
                was, now = before.get(seat, "-"), after.get(seat, "-")
                mark = "" if was == now else "  <- differs"
                yield (f"  seat {seat} ({bots[seat]}): stored {_compact(was) if seat in before else '(not deciding)'}, "
                       f"now {_compact(now) if seat in after else '(not deciding)'}{mark}")
            clocked = [seat for seat in sorted({*before, *after})
                       if before.get(seat) != after.get(seat) and seat < len(result.clock_bound)
                       and result.clock_bound[seat]]
            if clocked:
                yield _clock_line(clocked, bots)
            break
    else:
        if len(stored) == len(new):
            yield f"the same game as the stored one, action for action ({len(new)} steps)"
        else:
            longer, shorter = ("the stored game", "the new one") if len(stored) > len(new) else ("the new game",
                                                                                                 "the stored one")
            yield (f"the same actions for {min(len(stored), len(new))} steps, then {shorter} ended "
                   f"and {longer} went on ({len(stored)} stored, {len(new)} now)")
    yield f"ranks: stored {list(rerun.stored_ranks)}, now {list(result.ranks)}"
