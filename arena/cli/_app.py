"""The ``arena`` command line (typer). Each command parses input, calls one library
function, and prints; bad input is one line on stderr and exit code 2, never a traceback
(see :class:`arena.cli._common.ArenaGroup`).

Imports of trio, numpy, the store and the runner happen inside the commands that need
them, and :func:`main` registers only the command modules the command line names (all of
them for ``--help``, no command or an unknown one): ``arena games`` must start in well under
0.3 s. ``arena.cli._app.app`` (for tests and completion) is the whole command line.
"""

from __future__ import annotations

import enum
import importlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

import engines

from ..players import FaultPolicy, FAULT_SETTING, FAULT_SETTINGS, again_flags
from ..players import TIME_SETTING, TimeControl, time_again
from ..tournament import parse_option
from ._common import (AllowRootOption, ArenaGroup, GameOptionOption, KeyOption, OldKeyOption, SandboxOption,
                      UsageError, check_writable, number_option, on_interrupt, parse_bot_seeds, parse_options,
                      reports_errors, root_bots_warning)

if TYPE_CHECKING:
    from ..match import MatchResult

_app = typer.Typer(
    cls=ArenaGroup,
    help="pirate-arena: bot matches, tournaments and ratings for pirate card and board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"pirate-arena {version('pirate-arena')}")
        except PackageNotFoundError:
            typer.echo("pirate-arena (not installed)")
        raise typer.Exit()


@_app.callback()
def _main_options(
    show_version: Annotated[bool, typer.Option(
        "--version", help="Print the version and exit.", is_eager=True, callback=_version)] = False,
) -> None:
    """pirate-arena: bot matches, tournaments and ratings for pirate card and board games."""


class TextFormat(enum.StrEnum):
    TABLE = "table"
    JSON = "json"


FormatOption = Annotated[TextFormat, typer.Option("--format", "-f", help="Output format.")]


@_app.command("games")
@reports_errors
def games_command(fmt: FormatOption = TextFormat.TABLE) -> None:
    """List the games: ids, player counts, options and decision kinds.

    Examples:
      arena games
      arena games --format json
    """
    rows = []
    for game_id in engines.game_ids():
        game = engines.get_game(game_id)
        options = [f"{o.name}={json.dumps(o.default)}" for o in game.options]
        rows.append({
            "id": game.id, "name": game.name, "players": f"{game.min_players}-{game.max_players}",
            "options": options, "decisions": sorted(game.decisions),
        })
    if fmt == TextFormat.JSON:
        typer.echo(json.dumps(rows, indent=2))
        return
    from tabulate import tabulate

    typer.echo(tabulate(
        [[r["id"], r["name"], r["players"], "\n".join(r["options"]), "\n".join(r["decisions"])] for r in rows],
        headers=["id", "name", "players", "options (default)", "decisions"],
    ))


StderrOption = Annotated[Optional[Path], typer.Option(
    "--stderr", metavar="DIR",
    help="Save each bot process's stderr (first MiB) in DIR as NAME.PID.log, even when nothing goes wrong.")]


def make_log_dir(path: Path | None) -> None:
    """Create the ``--stderr`` folder before any bot starts; a file in the way is a usage error."""
    if path is None:
        return
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"{path}: cannot create the --stderr folder ({error.strerror})") from None


#: The time control's defaults: a tournament file's (``[time]``), for every command, so a bot
#: that passes `check-bot` or plays `arena match` meets the clock a default tournament gives it.
CLOCK = TimeControl()
def time_option(field: str) -> Any:
    """The command-line option of one time-control field, as it declares itself
    (:data:`arena.players._timecontrol.TIME_SETTINGS`: its name, help and range)."""
    setting = TIME_SETTING[field]
    return (number_option(setting.option, setting.help, "MS") if setting.number
            else typer.Option(setting.option, help=setting.help))


SubstitutionsOption = Annotated[str, number_option(FAULT_SETTING["max_substitutions"].option,
                                                   FAULT_SETTING["max_substitutions"].help)]


MoveOption = Annotated[str, time_option("move_ms")]
ReserveOption = Annotated[str, time_option("reserve_ms")]
StartupOption = Annotated[str, time_option("startup_ms")]
MarginOption = Annotated[str, time_option("margin_ms")]
PonderOption = Annotated[bool, time_option("ponder")]
InTurnOption = Annotated[bool, time_option("in_turn")]


def match_settings(move_ms: int, reserve_ms: int, startup_ms: int, policy: str, substitutions: int,
                   margin_ms: int = 0, ponder: bool = False, in_turn: bool = False):
    from ..match import MatchSettings

    try:
        time_control = TimeControl(move_ms, reserve_ms, startup_ms, margin_ms, ponder, in_turn)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return MatchSettings(time_control, FaultPolicy(policy), substitutions)


@_app.command("match")
@reports_errors
def match_command(
    game: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `arena games`).")],
    bots: Annotated[list[str], typer.Argument(metavar="BOT", help="Bot manifests (*.toml) or commands, one per seat.")],
    seed: Annotated[str, number_option("--seed", "Game seed: same seed, same deal (bot seeds are random).")] = "1",
    bot_seeds: Annotated[Optional[str], typer.Option(
        "--bot-seeds", metavar="A,B,...", help="Each seat's start.bot_seed (0..2^64-1), one per seat: with --seed, "
        "the same game again from deterministic bots. Default: random (printed, and kept in the replay).")] = None,
    option: GameOptionOption = [],
    move_ms: MoveOption = str(CLOCK.move_ms),
    reserve_ms: ReserveOption = str(CLOCK.reserve_ms),
    startup_ms: StartupOption = str(CLOCK.startup_ms),
    margin_ms: MarginOption = str(CLOCK.margin_ms),
    ponder: PonderOption = CLOCK.ponder,
    in_turn: InTurnOption = CLOCK.in_turn,
    fault_policy: Annotated[FaultPolicy, typer.Option(
        FAULT_SETTING["policy"].option, metavar="POLICY", help=FAULT_SETTING["policy"].help)
    ] = FaultPolicy(FAULT_SETTING["policy"].default),
    substitutions: SubstitutionsOption = str(FAULT_SETTING["max_substitutions"].default),
    replay: Annotated[Optional[Path], typer.Option(metavar="FILE", help="Write the replay (JSON) to this file.")] = None,
    stderr_dir: StderrOption = None,
    sandbox: SandboxOption = "auto",
    allow_root_bots: AllowRootOption = False,
    fmt: FormatOption = TextFormat.TABLE,
) -> None:
    """Play one game between bots and print ranks, scores and faults.

    Examples:
      arena match dead-mans-draw "python -m bots.random" bots/heuristic.toml
      arena match karibik bot.toml bot.toml --seed 7 --replay game.json
    """
    import trio

    from ..match import save_replay_file, run_single_match
    from ..players import resolve_bot
    from ..sandbox import open_sandbox

    seed_value = parse_option("--seed", seed)
    settings = match_settings(parse_option("--move-ms", move_ms), parse_option("--reserve-ms", reserve_ms),
                              parse_option("--startup-ms", startup_ms), fault_policy.value,
                              parse_option("--substitutions", substitutions), parse_option("--margin-ms", margin_ms),
                              ponder, in_turn)
    seeds = None if bot_seeds is None else parse_bot_seeds(bot_seeds, len(bots))
    specs = [resolve_bot(bot) for bot in bots]
    if replay is not None:
        check_writable(replay)
    make_log_dir(stderr_dir)
    with open_sandbox(sandbox, allow_root_bots) as box, on_interrupt(lambda: "the game was not finished"):
        result = trio.run(run_single_match, game, specs, seed_value, parse_options(option), settings, box, stderr_dir,
                          seeds)
    warning = root_bots_warning(box)
    if replay is not None:
        save_replay_file(replay, result)
    if fmt == TextFormat.JSON:
        typer.echo(json.dumps(result.as_dict(), indent=2))
        if warning:
            typer.echo(warning, err=True)
        return
    again = ["arena", "match", game, *bots, "--seed", str(seed_value),
             "--bot-seeds", ",".join(map(str, result.bot_seeds))]
    for pair in option:
        again += ["--option", pair]
    again += time_again(settings.time_control)
    again += again_flags(FAULT_SETTINGS, {"policy": fault_policy.value, "withdraw_after": None,
                                          "max_substitutions": settings.max_substitutions})
    if sandbox != "auto":
        again += ["--sandbox", sandbox]
    if allow_root_bots:
        again.append("--allow-root-bots")
    print_result(result, again)
    if stderr_dir is not None:
        typer.echo(f"stderr saved in {stderr_dir}/ (NAME.PID.log per bot process)")
    if warning:
        typer.echo(warning)


def print_result(result: MatchResult, again: list[str] | None = None) -> None:
    """One game's result as text: the game line, the seats' table, the bot seeds (with
    ``again``, the command line that plays the same game again, whole, and which seats' bots
    said they budget by the clock, so may not), the faults."""
    import shlex

    from tabulate import tabulate

    typer.echo(f"{result.game}  seed {result.seed}  {result.reason.value}  "
               f"{len(result.replay.steps)} steps  {result.duration_s:.2f} s")
    typer.echo(tabulate(
        [[seat, bot, rank, score] for seat, (bot, rank, score) in
         enumerate(zip(result.bots, result.ranks, result.scores))],
        headers=["seat", "bot", "rank", "score"],
    ))
    typer.echo(f"bot seeds {','.join(map(str, result.bot_seeds))}")
    if again is not None:
        typer.echo(f"the same game again: {shlex.join(again)}")
        clocked = [f"seat {seat} ({result.bots[seat]})" for seat, on in enumerate(result.clock_bound) if on]
        if clocked:
            one = len(clocked) == 1
            typer.echo(f"  not exactly: {', '.join(clocked)} budget{'s' if one else ''} by the clock "
                       f"({'its hello says' if one else 'their hellos say'} clock_bound), so "
                       f"{'it' if one else 'they'} may play otherwise; a fixed budget replays exactly "
                       f"(the search bots: --nodes N)")
    for fault in result.faults:
        who = "no bot charged" if fault.seat is None else f"seat {fault.seat} ({fault.bot})"
        typer.echo(f"fault: {who} {fault.kind.value} at step {fault.step_number}: {fault.detail}")
        if fault.stderr_tail:
            typer.echo("  last stderr lines:\n    " + fault.stderr_tail.replace("\n", "\n    "))


@_app.command("replay")
@reports_errors
def replay_command(
    source: Annotated[Path, typer.Argument(
        metavar="FILE|DB", help="A replay file (`arena match --replay`) or a tournament's results database.")],
    key: Annotated[Optional[str], typer.Argument(
        metavar="KEY", help="With a database: the key of the game to show (from the list); without: list the games.")] = None,
) -> None:
    """Print a recorded game turn by turn, or list the games of a results database.

    Examples:
      arena replay game.json
      arena replay t.db
      arena replay t.db r0-ac4780a417e259e2s1
    """
    from ..report import describe_replay, is_database, list_stored_games, load_replay

    if key is None and is_database(source):
        lines = list_stored_games(source)
    else:
        lines = describe_replay(load_replay(source, key))
    for line in lines:
        typer.echo(line)


@_app.command("board")
@reports_errors
def board_command(
    game: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `arena games`).")],
    replay: Annotated[Optional[Path], typer.Option(
        metavar="FILE|DB", help="Show a state of this recorded game (a replay file or a results database).")] = None,
    stored_game: KeyOption = None,
    old_key: OldKeyOption = None,
    step: Annotated[Optional[int], typer.Option(
        metavar="N", help="With --replay: the state after this many steps (default: the end).")] = None,
    seed: Annotated[Optional[str], number_option("--seed", "Show the initial state of a new game with this seed.")] = None,
    players: Annotated[Optional[int], typer.Option(metavar="N", help="Players for --seed (default: the minimum).")] = None,
    option: GameOptionOption = [],
    svg: Annotated[Optional[Path], typer.Option(metavar="FILE", help="Also write the drawing as an SVG file.")] = None,
) -> None:
    """Draw a game's board, or a state of it, in the terminal (and as SVG).

    Examples:
      arena board karibik --seed 7 --players 3
      arena board karibik --replay t.db --key r0-ac4780a417e259e2s1 --step 40
    """
    from ._board import draw_board

    draw_board(game, replay, stored_game or old_key, step, seed, players, option, svg)


@_app.command("check-bot")
@reports_errors
def check_bot_command(
    bot: Annotated[str, typer.Argument(metavar="BOT", help="The bot: a manifest (*.toml) or a command line.")],
    game: Annotated[list[str], typer.Option("--game", "-g", metavar="GAME", help="Check this game (default: those in its hello).")] = [],
    games_per: Annotated[str, number_option(
        "--games-per", "Games to play per game id (more if decision kinds are missing).")] = "4",
    move_ms: MoveOption = str(CLOCK.move_ms),
    reserve_ms: ReserveOption = str(CLOCK.reserve_ms),
    startup_ms: StartupOption = str(CLOCK.startup_ms),
    stderr_dir: StderrOption = None,
    sandbox: SandboxOption = "auto",
    allow_root_bots: AllowRootOption = False,
) -> None:
    """Check a bot against protocol/SPEC.md before submitting it; exit code 1 on failure.

    It plays at a tournament file's default time control unless told otherwise.

    Examples:
      arena check-bot my-bot/bot.toml
      arena check-bot "python my_bot.py" --game karibik --move-ms 500
    """
    from ..players import resolve_bot
    from ._check_bot import run_check_bot

    for game_id in game:
        engines.get_game(game_id)
    games = parse_option("--games-per", games_per)
    spec = resolve_bot(bot)
    time_control = match_settings(parse_option("--move-ms", move_ms), parse_option("--reserve-ms", reserve_ms),
                                  parse_option("--startup-ms", startup_ms), FaultPolicy.FORFEIT.value, 0).time_control
    make_log_dir(stderr_dir)
    run_check_bot(spec, game, games, time_control, stderr_dir, sandbox, allow_root_bots)


@_app.command("doctor")
@reports_errors
def doctor_command(
    bots: Annotated[Optional[list[str]], typer.Argument(
        metavar="[BOT]...", help="Bot manifests (*.toml) or commands: say what each of them will get.")] = None,
    sandbox: SandboxOption = "auto",
    allow_root_bots: AllowRootOption = False,
) -> None:
    """Try each attack against the sandbox with a probe bot, say which protections held on this
    machine, and what each BOT will get.

    Examples:
      arena doctor
      arena doctor my-bot/bot.toml --sandbox bwrap
    """
    from ..players import resolve_bot
    from ._doctor import run_doctor

    run_doctor([resolve_bot(bot) for bot in bots or []], sandbox, allow_root_bots)


#: the modules that add commands to the line, by the command names each adds (its
#: ``register(app)``; tests/arena/test_cli.py checks the table against what they add)
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "_tournament": ("tournament", "crosstable", "export"),
    "_ratings": ("standings", "rate", "compare", "sprt"),
    "_report": ("report", "view"),
    "_ladder": ("ladder",),
    "_rerun": ("rerun",),
    "_play": ("play",),
    "_quickstart": ("init",),
}
#: the commands this module defines
CORE_COMMANDS = ("games", "match", "replay", "board", "check-bot", "doctor")
_registered: set[str] = set()


def _register(modules) -> typer.Typer:
    for module in modules:
        if module not in _registered:
            importlib.import_module(f"{__package__}.{module}").register(_app)
            _registered.add(module)
    return _app


def _modules_for(args: list[str]) -> list[str]:
    """The command modules needed for ``args``: none for this module's own commands, the
    one that adds the command named, and every one otherwise (help lists them all, and an
    unknown command's error is typer's). No top-level option takes a value, so the first
    word that is not an option is the command."""
    word = next((arg for arg in args if not arg.startswith("-")), None)
    if word in CORE_COMMANDS:
        return []
    named = [module for module, names in COMMAND_MODULES.items() if word in names]
    return named or list(COMMAND_MODULES)


def __getattr__(name: str):
    if name == "app":  # the whole line, registered when first asked for
        return _register(COMMAND_MODULES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    _register(_modules_for(sys.argv[1:]))()

