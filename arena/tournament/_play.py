"""Playing one scheduled game: the step the coordinator's slots and the worker processes share.

Both :mod:`arena.tournament._runner` (games played in the coordinator's own process) and
:mod:`arena.tournament._workers` (games played in worker processes) call
:func:`play_scheduled`, so neither imports the other.
"""

from __future__ import annotations

import dataclasses

from engines import Game

from ..match import play_match, MatchResult
from ..players import FaultKind, BotPool
from ._config import TournamentConfig
from ._schedule import ScheduledGame


async def play_scheduled(game: Game, scheduled: ScheduledGame, pool: BotPool, config: TournamentConfig) -> MatchResult:
    """Play one scheduled game with players from ``pool`` (which keeps its rules: see
    :mod:`arena.players._pool`). A bot's process that turns out to have died between games, before
    this game reached it, is charged here: its crash at step 0 is marked as a fault between
    games (the game is not played again)."""
    players = await pool.checkout_game(scheduled.seats, scheduled.seed)
    try:
        result = await play_match(game, players, scheduled.seed, config.options, config.settings,
                                  bot_seeds=scheduled.bot_seeds)
    finally:
        late = pool.checkin_game(scheduled.seats, players)
    if not late:
        return result
    faults = []
    for fault in result.faults:  # the seat's crash is its only fault: it read nothing of the game
        if fault.seat in late and fault.kind is FaultKind.CRASH:
            fault = dataclasses.replace(fault, detail=late.pop(fault.seat).detail, between_games=True)
        faults.append(fault)
    return dataclasses.replace(result, faults=tuple(faults))
