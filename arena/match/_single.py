"""Play one game between bot specs: start the players, play, shut them down."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engines import get_game

from ..players import BotSpec, open_bot_pool
from ..sandbox import Sandbox
from ._match import MatchSettings, play_match
from ._result import MatchResult


async def run_single_match(game_id: str, bots: Sequence[BotSpec], seed: int,
                           options: Mapping[str, Any] | None = None,
                           settings: MatchSettings = MatchSettings(),
                           sandbox: Sandbox | None = None, log_dir: Path | None = None,
                           bot_seeds: Sequence[int] | None = None) -> MatchResult:
    """Start every bot (concurrently), play one game, and stop them. With ``log_dir``, each
    bot process's stderr is also saved there as ``NAME.PID.log`` (first MiB). ``bot_seeds``:
    the seats' ``start.bot_seed`` values (default: random; the result says which were used).

    Raises :class:`engines.UnknownGame` / :class:`engines.BadOption` before starting any bot,
    and :class:`~arena.players._startup.StartupError` naming a bot that cannot start (no game is played: a result
    against a bot that never ran would mean nothing).
    """
    game = get_game(game_id)
    game.check_players(len(bots))
    game.resolve_options(options)
    names = [spec.name for spec in bots]
    labels = [name if names.count(name) == 1 else f"{name} (seat {seat})" for seat, name in enumerate(names)]
    async with open_bot_pool(dict(zip(labels, bots)), settings.time_control.startup_ms / 1000, sandbox,
                             log_dir=log_dir) as pool:
        await pool.preflight(labels, what="bot")
        players = await pool.checkout_game(labels, seed)
        return await play_match(game, players, seed, options, settings, bot_seeds)
