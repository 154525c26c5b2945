"""Command line: ``arena rerun``, a stored game played again (an organiser's tool)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from ._app import FormatOption, StderrOption, TextFormat, make_log_dir, print_result
from ._common import (AllowRootOption, SandboxOption, UsageError, check_writable, on_interrupt, reports_errors,
                      root_bots_warning)


def _replacements(pairs: list[str]) -> dict[int, Path]:
    seats = {}
    for pair in pairs:
        seat, sep, manifest = pair.partition("=")
        if not sep or not seat.strip().isdigit() or not manifest:
            raise UsageError(f"--seat must look like SEAT=MANIFEST (e.g. 2=my-bot-v2.toml), got {pair!r}")
        seats[int(seat)] = Path(manifest)
    return seats


def _is_ladder(path: Path) -> bool:
    from ..ladder import LadderStore
    from ..tournament import StoreError

    try:
        LadderStore.open(path).close()
    except StoreError:
        return False
    return True


def rerun_command(
    source: Annotated[Path, typer.Argument(
        metavar="DB|LADDER.toml", help="A tournament's results database, or a ladder's file (its database "
                                       "does not hold its time control).")],
    key: Annotated[str, typer.Argument(metavar="KEY", help="The stored game's key (`arena replay DB` lists them; "
                                                             "a ladder's game pages show them), or a ladder game's id.")],
    seat: Annotated[list[str], typer.Option(
        "--seat", metavar="SEAT=MANIFEST", help="Another bot in this seat (e.g. 2=my-bot-v2.toml); repeatable.")] = [],
    unfinished_block: Annotated[bool, typer.Option(
        "--unfinished-block", help="Play it even though other games of its duplicate block are not stored yet "
                                   "(the output shows their deal).")] = False,
    replay: Annotated[Optional[Path], typer.Option(metavar="FILE", help="Write the new game's replay (JSON) here.")] = None,
    stderr_dir: StderrOption = None,
    sandbox: SandboxOption = "auto",
    allow_root_bots: AllowRootOption = False,
    fmt: FormatOption = TextFormat.TABLE,
) -> None:
    """Play a stored game again: its deal, each seat's bot seed, its time control and options, with
    the stored entrants (or --seat others), and say where the new game departs from the stored one.

    An organiser's tool: it reads the database's secret key (the bots' seeds derive from it) and
    shows a deal, so it refuses a game whose duplicate block is not wholly stored. Deterministic
    bots (those that draw their randomness from bot_seed and do not budget by the clock) play
    the same game again; a fresh process plays it, not one that played games before it. Where
    the game departs at a seat whose bot says it budgets by the clock, a 'why:' line says so
    (the search bots repeat with a fixed budget: python -m bots.search --nodes N).

    Examples:
      arena rerun t.db r0-ac4780a417e259e2s1
      arena rerun t.db r0-ac4780a417e259e2s1 --seat 1=my-bot-v2.toml
    """
    import trio

    from ..match import save_replay_file, departure, play_rerun
    from ..players import resolve_bot
    from ..report import is_database
    from ..sandbox import open_sandbox

    replacements = {number: resolve_bot(str(manifest)) for number, manifest in _replacements(seat).items()}
    if is_database(source):
        from ..tournament import tournament_rerun

        if _is_ladder(source):
            raise UsageError(f"{source} is a ladder's database: give the ladder's file (e.g. ladder.toml), which "
                             f"holds the time control and options its games were played with")
        rerun = tournament_rerun(source, key, unfinished_block)
    elif source.suffix == ".toml":
        from ..ladder import ladder_rerun

        rerun = ladder_rerun(source, key, unfinished_block)
    else:
        raise UsageError(f"{source}: neither a results database nor a ladder file (LADDER.toml)")
    rerun = rerun.with_seats(replacements)
    if replay is not None:
        check_writable(replay)
    make_log_dir(stderr_dir)
    with open_sandbox(sandbox, allow_root_bots) as box, on_interrupt(lambda: "the game was not finished"):
        result = trio.run(play_rerun, rerun, box, stderr_dir)
    if replay is not None:
        save_replay_file(replay, result)
    lines = list(departure(rerun, result))
    warning = root_bots_warning(box)
    if fmt == TextFormat.JSON:
        typer.echo(json.dumps({**result.as_dict(), "rerun_of": rerun.key, "departure": lines}, indent=2))
    else:
        typer.echo(f"rerun of game {rerun.key} of {rerun.source}")
        print_result(result)
        for line in lines:
            typer.echo(line)
    if warning:
        typer.echo(warning, err=True)


def register(app: typer.Typer) -> None:
    app.command("rerun")(reports_errors(rerun_command))
