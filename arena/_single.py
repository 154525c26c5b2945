"""Play one game between bot specs: start the players, play, shut them down."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AsyncExitStack
from typing import Any

from engines import get_game

from ._manifest import BotSpec
from ._match import MatchResult, MatchSettings, play_match
from ._player import open_player
from ._sandbox import Sandbox


async def run_single_match(game_id: str, bots: Sequence[BotSpec], seed: int,
                           options: Mapping[str, Any] | None = None,
                           settings: MatchSettings = MatchSettings(),
                           sandbox: Sandbox | None = None) -> MatchResult:
    """Start every bot (concurrently), play one game, and stop them.

    Raises :class:`engines.UnknownGame` / :class:`engines.BadOption` before starting any bot.
    """
    game = get_game(game_id)
    game.check_players(len(bots))
    game.resolve_options(options)
    async with AsyncExitStack() as stack:
        # Started one after the other: each player's nursery must be entered and exited by
        # this task. Start-up is paid once per match, so this costs little.
        players = [
            await stack.enter_async_context(open_player(spec, settings.time_control.startup_ms / 1000, sandbox=sandbox))
            for spec in bots
        ]
        return await play_match(game, players, seed, options, settings)
