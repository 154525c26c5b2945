"""Command line: ``arena play`` (a person against bots in the browser, :mod:`arena.play`).

The web stack, trio and the store are imported inside the command: ``arena --help`` and
``arena games`` load this module and must stay fast.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..tournament import parse_option
from ._app import CLOCK, MoveOption, ReserveOption, StartupOption, match_settings
from ._common import (AllowRootOption, GameOptionOption, SandboxOption, UsageError, check_writable, number_option,
                      on_interrupt, parse_options, reports_errors, root_bots_warning)

#: the bot in every other seat when no MANIFEST is given: the reference search bot
DEFAULT_BOT = ("py-search", ("python", "-m", "bots.search"))
LOCALHOST = "127.0.0.1"


def play_command(
    game: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `arena games`).")],
    bots: Annotated[Optional[list[str]], typer.Argument(
        metavar="MANIFEST", help="The bots in the other seats, in seat order: manifests (*.toml) or commands "
                                      "(default: the reference search bot, py-search, in one seat).")] = None,
    seat: Annotated[list[int], typer.Option(
        "--seat", metavar="N", help="Your seat, from 0 (default: a random one, said on the page). Repeat it for two "
                                    "or more people: each seat gets its own URL.")] = [],
    seed: Annotated[Optional[str], number_option(
        "--seed", "The first game's deal (default: a random one); 'play again' deals a new one or the same.")] = None,
    option: GameOptionOption = [],
    db: Annotated[Optional[Path], typer.Option(
        "--db", metavar="FILE", help="Store every game in this results database, as a tournament stores its games "
                                     "(`arena report FILE`); default: a replay file per game in the current folder "
                                     "(`arena view FILE`).")] = None,
    host: Annotated[str, typer.Option(
        metavar="HOST", help="Listen on HOST; anything but 127.0.0.1 lets other machines reach the page (a warning "
                             "says so).")] = LOCALHOST,
    port: Annotated[int, typer.Option(metavar="PORT", help="Listen on PORT, 0..65535 (0: any free one).")] = 0,
    no_open: Annotated[bool, typer.Option("--no-open", help="Print the URL only; do not open a browser.")] = False,
    human_move_ms: Annotated[Optional[int], typer.Option(
        "--human-move-ms", metavar="MS", help="A person's time for one decision, 1..86400000 ms, shown as a clock "
                                              "(default: no clock). Past it, the seat forfeits as a bot would.")] = None,
    name: Annotated[list[str], typer.Option(
        "--name", metavar="NAME", help="Your name as an entrant (default: human); repeat it with --seat for each "
                                       "person, in the same order.")] = [],
    sandbox: SandboxOption = "auto",
    allow_root_bots: AllowRootOption = False,
    move_ms: MoveOption = str(CLOCK.move_ms),
    reserve_ms: ReserveOption = str(CLOCK.reserve_ms),
    startup_ms: StartupOption = str(CLOCK.startup_ms),
) -> None:
    """Play a game against bots in the browser: a real arena match, shown as your seat sees it.

    Prints one URL (and opens it unless --no-open); the other seats are the MANIFESTs given, by
    default the game's reference search bot.

    Examples:
      arena play opito-bay
      arena play dead-mans-draw examples/bots/py-heuristic.toml --seat 0 --db games.db
      arena play karibik --seat 0 --seat 1 --name anna --name bob --human-move-ms 60000
    """
    import engines

    from ..players import BotSpec, check_name, resolve_bot

    spec = engines.get_game(game)
    options = spec.resolve_options(parse_options(option))
    specs = [resolve_bot(bot) for bot in bots or []]
    people = max(len(seat), 1)
    if not specs:
        bot_name, command = DEFAULT_BOT
        default = BotSpec(name=bot_name, command=command, cwd=_bots_home())
        specs = [default] * max(1, spec.min_players - people)
    players = people + len(specs)
    spec.check_players(players)
    if len(set(seat)) != len(seat):
        raise UsageError(f"--seat names seat {next(s for s in seat if seat.count(s) > 1)} twice; each person needs "
                         f"their own seat")
    for number in seat:
        if not 0 <= number < players:
            raise UsageError(f"--seat must be a seat from 0 to {players - 1} ({players} players: you and "
                             f"{len(specs)} bot{'s' if len(specs) != 1 else ''}), got {number}")
    random_seat = not seat
    seats = seat or [secrets.randbelow(players)]
    if len(name) > len(seats):
        raise UsageError(f"--name is given {len(name)} times for {len(seats)} person(s); give one per --seat")
    names = [check_name(text, "--name") for text in name] + [
        "human" if len(seats) == 1 else f"human-{number}" for number in seats[len(name):]]
    if len(set(names)) != len(names):
        raise UsageError("two people have the same --name; give each their own")
    humans = dict(zip(seats, names))
    bot_seats = [number for number in range(players) if number not in humans]
    if human_move_ms is not None and not 1 <= human_move_ms <= 86_400_000:
        raise UsageError(f"--human-move-ms must be an integer in 1..86400000, got {human_move_ms}")
    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be an integer in 0..65535, got {port}")
    first_seed = parse_option("--seed", seed) if seed is not None else secrets.randbits(53)
    if db is not None:
        check_writable(db)
    elif not os.access(Path.cwd(), os.W_OK):
        raise UsageError(f"cannot write replay files in {Path.cwd()}; run it in a folder you can write, or use --db FILE")
    from ..players import FaultPolicy

    # The bots' clock: a default tournament's unless told otherwise, as for every command.
    settings = match_settings(parse_option("--move-ms", move_ms), parse_option("--reserve-ms", reserve_ms),
                              parse_option("--startup-ms", startup_ms), FaultPolicy.FORFEIT.value, 3)
    _serve(game, players, humans, dict(zip(bot_seats, specs)), first_seed, options, settings, human_move_ms, db,
           random_seat, host, port, no_open, str(sandbox), allow_root_bots)


def _bots_home() -> Path:
    """The folder holding the reference bots' package (``bots``): the default bot runs there."""
    import importlib.util

    found = importlib.util.find_spec("bots")
    if found is None or found.origin is None:
        raise UsageError("the reference bots (package 'bots') are not installed; name the bots: arena play GAME MANIFEST")
    return Path(found.origin).resolve().parent.parent


def _serve(game, players, humans, bots, first_seed, options, settings, human_move_ms, db, random_seat, host, port,
           no_open, sandbox_mode, allow_root_bots) -> None:
    try:
        import hypercorn  # noqa: F401
        import starlette  # noqa: F401
    except ImportError:
        raise UsageError("arena play needs Starlette and Hypercorn: pip install 'pirate-arena[ladder]'") from None
    import trio

    from ..ladder import until_interrupted
    from ..play import serve_play, PlaySetup
    from ..sandbox import open_sandbox

    setup = PlaySetup(game=game, players=players, humans=humans, bots=bots, seed=first_seed, options=options,
                      settings=settings, human_move_ms=human_move_ms, database=db, replay_dir=Path.cwd(),
                      random_seat=random_seat)
    if host != LOCALHOST:
        typer.echo(f"warning: listening on {host}, not {LOCALHOST}: anyone who can reach this machine and has a "
                   f"printed URL can see that seat's cards and play for it", err=True)
    found: list = []

    def announce(urls: list[tuple[int, str]]) -> None:
        names = setup.names()
        against = ", ".join(names[number] for number in sorted(bots))
        for number, url in urls:
            chosen = " (drawn at random)" if random_seat else ""
            typer.echo(f"{names[number]}: seat {number}{chosen} of {players} against {against}: {url}")
        typer.echo(f"{found[0].where() if found else ''}; Ctrl-C stops the server", err=True)
        sys.stdout.flush()
        if not no_open:
            import webbrowser

            for _, url in urls:
                webbrowser.open(url)

    def stopped() -> str:
        session = found[0] if found else None
        kept = len(session.results) if session is not None else 0
        where = f"{db}" if db is not None else "replay files in the current folder"
        return f"the server stopped; {kept} finished game{'s' if kept != 1 else ''} kept ({where}); a game in play is not kept"

    with open_sandbox(sandbox_mode, allow_root_bots) as box, on_interrupt(stopped):
        trio.run(until_interrupted, lambda: serve_play(setup, box, host, port, announce, found.append))
    warning = root_bots_warning(box)
    if warning:
        typer.echo(warning, err=True)


def register(app: typer.Typer) -> None:
    app.command("play")(reports_errors(play_command))
