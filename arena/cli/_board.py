"""``arena board``'s work (its command and options: :mod:`._app`): the options checked
against the game and each other, the state found (a recorded game's, after some steps, or a new
game's), and its drawing printed (and written as SVG)."""

from __future__ import annotations

from pathlib import Path

import typer

import engines

from ..tournament import parse_option
from ._common import UsageError, check_writable, parse_options, write_text_file


def draw_board(game: str, replay: Path | None, stored_game: str | None, step: int | None, seed: str | None,
               players: int | None, option: list[str], svg: Path | None) -> None:
    """Draw ``game``'s board in the terminal (and as SVG to ``svg``): the state of ``replay``
    (the game ``stored_game`` of a database) after ``step`` steps, or the start of a new game
    of ``seed`` with ``players``, or the board alone; arguments as ``arena board`` takes them.
    Raises :class:`UsageError` for options that do not fit together or the game."""
    spec = engines.get_game(game)
    if not spec.renderers:
        raise UsageError(f"{game} has no board to draw; games with one: "
                         f"{[g for g in engines.game_ids() if engines.get_game(g).renderers]}")
    if replay is None and (step is not None or stored_game is not None):
        raise UsageError(f"{'--step' if step is not None else '--key'} needs --replay")
    if replay is not None and (seed is not None or players is not None or option):
        raise UsageError("--replay shows a recorded game: drop --seed, --players and --option")
    if step is not None and step < 0:
        raise UsageError(f"--step must be 0 or more, got {step}")
    if players is not None and not spec.min_players <= players <= spec.max_players:
        raise UsageError(f"--players must be {spec.min_players}-{spec.max_players} for {game}, got {players}")
    if svg is not None:
        check_writable(svg)
    state = None
    if replay is not None:
        from ..report import load_replay

        loaded, _ = load_replay(replay, stored_game)
        if loaded.game != game:
            raise UsageError(f"{replay} is a replay of {loaded.game}, not {game}")
        if step is not None and step > len(loaded.steps):
            raise UsageError(f"--step must be at most {len(loaded.steps)} (the game's length), got {step}")
        steps = loaded.steps if step is None else loaded.steps[:step]
        state = spec.new_state(loaded.num_players, loaded.seed, loaded.options)
        for actions in steps:
            state.apply(actions)
        options = state.options
    elif seed is not None:
        state = spec.new_state(players or spec.min_players, parse_option("--seed", seed), parse_options(option))
        options = state.options
    else:
        options = spec.resolve_options(parse_options(option))
    typer.echo(spec.renderers["text"](state, options))
    if svg is not None and "svg" in spec.renderers:
        write_text_file(svg, spec.renderers["svg"](state, options))
        typer.echo(f"wrote {svg}")
