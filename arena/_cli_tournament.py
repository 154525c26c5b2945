"""Command line: tournaments, crosstables and exports (the rating commands are in _cli_ratings)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated, Optional

import trio
import typer

from ._cli_common import SandboxOption, UsageError, open_sandbox, reports_errors
from ._config import TournamentConfig, config_from_dict, load_config
from ._progress import ProgressPrinter
from ._cli_ratings import print_standings
from ._report import crosstable, export_records, records_of, standings_of
from ._store import ResultsStore
from ._tournament import TournamentRunner, log_dir_of

tournament_app = typer.Typer(help="Run and resume tournaments.", no_args_is_help=True)

def open_store(config: TournamentConfig) -> ResultsStore:
    entrants = [(spec.name, {"command": list(spec.command), "cwd": str(spec.cwd)}) for spec in config.entrants]
    return ResultsStore.create(config.database, config.fingerprint(), config.raw, config.path, entrants)


def config_of_store(store: ResultsStore) -> TournamentConfig:
    """The tournament a database belongs to, as it was configured, writing to this database."""
    raw = json.loads(store.meta("config"))
    config = config_from_dict(raw, Path(store.meta("config_path")))
    return dataclasses.replace(config, database=store.path)


def _play(config: TournamentConfig, store: ResultsStore, quiet: bool, sandbox_mode: str) -> None:
    database = store.path.resolve()
    log_dir_of(database).mkdir(mode=0o700, exist_ok=True)  # exists before any bot, so it is hidden
    hidden = [config.path, database, Path(f"{database}-wal"), Path(f"{database}-shm"), log_dir_of(database)]
    with open_sandbox(sandbox_mode) as sandbox:
        if sandbox.bwrap is None and config.path.stat().st_mode & 0o004:
            typer.echo(f"warning: without bubblewrap, bots can read {config.path} (and its seed); "
                       f"`chmod 600` it or install bubblewrap", err=True)
        runner = TournamentRunner(config, store, None if quiet else ProgressPrinter(), sandbox.with_hidden(hidden))
        pending, total = runner.pending()
        if not quiet:
            typer.echo(f"{config.game}: {len(config.entrants)} entrants, {total} games "
                       f"({total - len(pending)} already played), concurrency {config.concurrency}, "
                       f"results in {store.path}", err=True)
        trio.run(runner.run)
    print_standings(store, "table", 200, None)


@tournament_app.command("run")
@reports_errors
def run_command(
    file: Annotated[Path, typer.Argument(help="Tournament file (TOML).")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress, only the standings.")] = False,
    sandbox: SandboxOption = "auto",
) -> None:
    """Play a tournament, storing every game as it ends; print the standings."""
    config = load_config(file)
    store = open_store(config)
    try:
        _play(config, store, quiet, sandbox)
    finally:
        store.close()


@tournament_app.command("resume")
@reports_errors
def resume_command(
    database: Annotated[Path, typer.Argument(help="The tournament's results database.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q")] = False,
    sandbox: SandboxOption = "auto",
) -> None:
    """Play only the games an interrupted tournament is missing; print the standings."""
    store = ResultsStore.open(database)
    try:
        _play(config_of_store(store), store, quiet, sandbox)
    finally:
        store.close()


def crosstable_command(database: Annotated[Path, typer.Argument(help="A results database.")]) -> None:
    """Pairwise scores between every two entrants (points/games)."""
    store = ResultsStore.open(database)
    try:
        games = list(store.games())
        if not games:
            raise UsageError(f"{database}: no finished games yet")
        typer.echo(crosstable(standings_of(records_of(games), n_boot=1)))
    finally:
        store.close()


def export_command(
    database: Annotated[Path, typer.Argument(help="A results database.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="pgn | jsonl | csv")] = "jsonl",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="File to write (default: stdout).")] = None,
) -> None:
    """Export games: PGN (pairwise, for Ordo/BayesElo), JSON Lines or CSV."""
    store = ResultsStore.open(database)
    try:
        text = export_records(list(store.games()), fmt)
    except ValueError as error:
        raise UsageError(str(error)) from None
    finally:
        store.close()
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")
    for name, command in [("crosstable", crosstable_command), ("export", export_command)]:
        app.command(name)(reports_errors(command))
