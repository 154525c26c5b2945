"""The ``arena`` command line (typer). Each command parses input, calls one library
function, and prints; bad input is one line on stderr and exit code 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import trio
import typer
from tabulate import tabulate

import engines

from ._checkbot import check_bot
from ._cli_common import SandboxOption, UsageError, open_sandbox, parse_options, reports_errors
from ._faults import FaultPolicy
from ._manifest import resolve_bot
from ._match import MatchSettings
from ._replay_view import describe_replay, load_replay_file, save_replay_file
from ._single import run_single_match
from ._timecontrol import TimeControl

app = typer.Typer(
    help="pirate-arena: bot matches, tournaments and ratings for pirate card and board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

@app.command("games")
@reports_errors
def games_command(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the games: ids, player counts, options and decision kinds."""
    rows = []
    for game_id in engines.game_ids():
        game = engines.get_game(game_id)
        options = [f"{o.name}={json.dumps(o.default)}" for o in game.options]
        rows.append({
            "id": game.id, "name": game.name, "players": f"{game.min_players}-{game.max_players}",
            "options": options, "decisions": sorted(game.decisions),
        })
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    typer.echo(tabulate(
        [[r["id"], r["name"], r["players"], "\n".join(r["options"]), "\n".join(r["decisions"])] for r in rows],
        headers=["id", "name", "players", "options (default)", "decisions"],
    ))


def match_settings(move_ms: int, reserve_ms: int, startup_ms: int, policy: str, substitutions: int) -> MatchSettings:
    try:
        fault_policy = FaultPolicy(policy)
    except ValueError:
        raise UsageError(f"--fault-policy must be one of {[p.value for p in FaultPolicy]}, got {policy!r}") from None
    try:
        time_control = TimeControl(move_ms, reserve_ms, startup_ms)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return MatchSettings(time_control, fault_policy, substitutions)


@app.command("match")
@reports_errors
def match_command(
    game: Annotated[str, typer.Argument(help="Game id (see `arena games`).")],
    bots: Annotated[list[str], typer.Argument(help="Bot manifests (*.toml) or commands, one per seat.")],
    seed: Annotated[int, typer.Option(help="Game seed: same seed and bots, same game.")] = 1,
    option: Annotated[list[str], typer.Option("--option", "-o", help="Game option NAME=VALUE (repeatable).")] = [],
    move_ms: Annotated[int, typer.Option(help="Per-move time limit in ms.")] = 1000,
    reserve_ms: Annotated[int, typer.Option(help="Per-game reserve (overage bank) in ms.")] = 5000,
    startup_ms: Annotated[int, typer.Option(help="Time to start and answer hello, in ms.")] = 10000,
    fault_policy: Annotated[str, typer.Option(help="forfeit | end-game | substitute")] = "forfeit",
    substitutions: Annotated[int, typer.Option(help="Random substitutions before forfeit (substitute policy).")] = 3,
    replay: Annotated[Optional[Path], typer.Option(help="Write the replay (JSON) to this file.")] = None,
    sandbox: SandboxOption = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Play one game between bots and print ranks, scores and faults."""
    specs = [resolve_bot(bot) for bot in bots]
    settings = match_settings(move_ms, reserve_ms, startup_ms, fault_policy, substitutions)
    if replay is not None and not replay.resolve().parent.is_dir():
        raise UsageError(f"{replay}: cannot write replay (folder {replay.parent} does not exist)")
    with open_sandbox(sandbox) as box:
        result = trio.run(run_single_match, game, specs, seed, parse_options(option), settings, box)
    if replay is not None:
        save_replay_file(replay, result)
    if as_json:
        typer.echo(json.dumps(result.as_dict(), indent=2))
        return
    typer.echo(f"{result.game}  seed {result.seed}  {result.reason.value}  "
               f"{len(result.replay.steps)} steps  {result.duration_s:.2f} s")
    typer.echo(tabulate(
        [[seat, bot, rank, score] for seat, (bot, rank, score) in
         enumerate(zip(result.bots, result.ranks, result.scores))],
        headers=["seat", "bot", "rank", "score"],
    ))
    for fault in result.faults:
        typer.echo(f"fault: seat {fault.seat} ({fault.bot}) {fault.kind.value} at step {fault.step}: {fault.detail}")
        if fault.stderr_tail:
            typer.echo("  last stderr lines:\n    " + fault.stderr_tail.replace("\n", "\n    "))


@app.command("replay")
@reports_errors
def replay_command(file: Annotated[Path, typer.Argument(help="A replay file written by `arena match --replay`.")]) -> None:
    """Print a recorded game turn by turn."""
    for line in describe_replay(load_replay_file(file)):
        typer.echo(line)


@app.command("board")
@reports_errors
def board_command(
    game: Annotated[str, typer.Argument(help="Game id (see `arena games`).")],
    replay: Annotated[Optional[Path], typer.Option(help="Show a state of this recorded game.")] = None,
    step: Annotated[Optional[int], typer.Option(help="With --replay: the state after this many steps (default: the end).")] = None,
    seed: Annotated[Optional[int], typer.Option(help="Show the initial state of a new game with this seed.")] = None,
    players: Annotated[Optional[int], typer.Option(help="Players for --seed (default: the minimum).")] = None,
    option: Annotated[list[str], typer.Option("--option", "-o", help="Game option NAME=VALUE.")] = [],
    svg: Annotated[Optional[Path], typer.Option(help="Also write the drawing as an SVG file.")] = None,
) -> None:
    """Draw a game's board, or a state of it, in the terminal (and as SVG)."""
    spec = engines.get_game(game)
    if not spec.renderers:
        raise UsageError(f"{game} has no board to draw; games with one: "
                         f"{[g for g in engines.game_ids() if engines.get_game(g).renderers]}")
    state = None
    if replay is not None:
        loaded, _ = load_replay_file(replay)
        if loaded.game != game:
            raise UsageError(f"{replay} is a replay of {loaded.game}, not {game}")
        steps = loaded.steps if step is None else loaded.steps[:step]
        state = spec.new_state(loaded.num_players, loaded.seed, loaded.options)
        for actions in steps:
            state.apply(actions)
        options = state.options
    elif seed is not None:
        state = spec.new_state(players or spec.min_players, seed, parse_options(option))
        options = state.options
    else:
        options = spec.resolve_options(parse_options(option))
    typer.echo(spec.renderers["text"](state, options))
    if svg is not None and "svg" in spec.renderers:
        svg.write_text(spec.renderers["svg"](state, options), encoding="utf-8")
        typer.echo(f"wrote {svg}")


@app.command("check-bot")
@reports_errors
def check_bot_command(
    bot: Annotated[str, typer.Argument(help="The bot: a manifest (*.toml) or a command line.")],
    game: Annotated[list[str], typer.Option("--game", "-g", help="Check this game (default: those in its hello).")] = [],
    games_per: Annotated[int, typer.Option(help="Games to play per game id (more if decision kinds are missing).")] = 4,
    move_ms: Annotated[int, typer.Option(help="Per-move limit in ms.")] = 1000,
    sandbox: SandboxOption = "auto",
) -> None:
    """Check a bot against protocol/SPEC.md before submitting it; exit code 1 on failure."""
    for game_id in game:
        engines.get_game(game_id)
    spec = resolve_bot(bot)
    with open_sandbox(sandbox) as box:
        report = trio.run(check_bot, spec, game, games_per, TimeControl(move_ms, 5000, 10_000), box)
    for line in report.lines():
        typer.echo(line)
    if not report.passed:
        raise typer.Exit(1)


@app.command("doctor")
@reports_errors
def doctor_command(sandbox: SandboxOption = "auto") -> None:
    """Explain which protections against hostile bots are active on this machine."""
    with open_sandbox(sandbox) as box:
        pass
    rows = [["yes" if active else "NO", name, how] for name, active, how in box.describe()]
    typer.echo(tabulate(rows, headers=["active", "protection", "how"]))
    missing = [name for name, active, _ in box.describe() if not active]
    if missing:
        typer.echo(f"\n{len(missing)} protection(s) inactive; see README, 'Running untrusted bots'.")


from . import _cli_ratings, _cli_tournament  # noqa: E402  (register the tournament and rating commands)

_cli_tournament.register(app)
_cli_ratings.register(app)

from . import _cli_report  # noqa: E402  (registers report and view)

_cli_report.register(app)


def main() -> None:
    app()
