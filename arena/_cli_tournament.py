"""Command line: tournaments, crosstables and exports (the rating commands are in _cli_ratings)."""

from __future__ import annotations

import dataclasses
import enum
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ._cli_common import (OutputOption, SandboxOption, UsageError, check_writable, on_interrupt, open_sandbox,
                          reports_errors, write_text_file)

if TYPE_CHECKING:
    from ._config import TournamentConfig
    from ._store import ResultsStore

tournament_app = typer.Typer(help="Run and resume tournaments.", no_args_is_help=True)


class ExportFormat(enum.StrEnum):
    PGN = "pgn"
    JSONL = "jsonl"
    CSV = "csv"


QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress display, only the standings.")]


def open_store(config: TournamentConfig) -> ResultsStore:
    from ._store import ResultsStore

    entrants = [(spec.name, {"command": list(spec.command), "cwd": str(spec.cwd)}) for spec in config.entrants]
    return ResultsStore.create(config.database, config.fingerprint(), config.raw, config.path, entrants)


def config_of_store(store: ResultsStore) -> TournamentConfig:
    """The tournament a database belongs to, as it was configured, writing to this database."""
    from ._config import config_from_dict

    raw = json.loads(store.meta("config"))
    config = config_from_dict(raw, Path(store.meta("config_path")))
    return dataclasses.replace(config, database=store.path)


def _play(config: TournamentConfig, store: ResultsStore, quiet: bool, sandbox_mode: str) -> None:
    import trio

    from ._progress import open_progress
    from ._tournament import TournamentRunner, log_dir_of

    database = store.path.resolve()
    log_dir_of(database).mkdir(mode=0o700, exist_ok=True)  # exists before any bot, so it is hidden
    hidden = [config.path, database, Path(f"{database}-wal"), Path(f"{database}-shm"), log_dir_of(database)]
    with open_sandbox(sandbox_mode) as sandbox:
        if sandbox.bwrap is None and config.path.stat().st_mode & 0o004:
            # Before the run, when the organiser can still stop it; an error later is the last line.
            typer.echo(f"warning: without bubblewrap, bots can read {config.path} (and its seed); "
                       f"`chmod 600` it or install bubblewrap", err=True)
        display = None if quiet else open_progress(stored=store.games())
        runner = TournamentRunner(config, store, display, sandbox.with_hidden(hidden))
        pending, total = runner.pending()
        if not quiet:
            typer.echo(f"{config.game}: {len(config.entrants)} entrants, {total} games "
                       f"({total - len(pending)} already played), concurrency {config.concurrency}, "
                       f"results in {store.path}", err=True)

        def interrupted() -> str:
            return (f"{len(store.completed_keys())}/{total} games stored; "
                    f"resume with: arena tournament resume {store.path}")

        with on_interrupt(interrupted):
            if display is None:
                trio.run(runner.run)
            else:
                with display:
                    trio.run(runner.run)
    from ._cli_ratings import print_standings

    print_standings(store, "table", 200, None)


@tournament_app.command("run")
@reports_errors
def run_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="Tournament file (TOML).")],
    quiet: QuietOption = False,
    sandbox: SandboxOption = "auto",
) -> None:
    """Play a tournament, storing every game as it ends; print the standings."""
    from ._config import load_config

    config = load_config(file)
    store = open_store(config)
    try:
        _play(config, store, quiet, sandbox)
    finally:
        store.close()


@tournament_app.command("resume")
@reports_errors
def resume_command(
    database: Annotated[Path, typer.Argument(metavar="DB", help="The tournament's results database.")],
    quiet: QuietOption = False,
    sandbox: SandboxOption = "auto",
) -> None:
    """Play only the games an interrupted tournament is missing; print the standings."""
    from ._store import ResultsStore

    store = ResultsStore.open(database)
    try:
        _play(config_of_store(store), store, quiet, sandbox)
    finally:
        store.close()


def crosstable_command(database: Annotated[Path, typer.Argument(metavar="DB", help="A results database.")]) -> None:
    """Pairwise scores between every two entrants (points/games)."""
    from ._report import crosstable, records_of, standings_of
    from ._store import ResultsStore

    store = ResultsStore.open(database)
    try:
        games = list(store.games())
        if not games:
            raise UsageError(f"{database}: no finished games yet")
        typer.echo(crosstable(standings_of(records_of(games), n_boot=1)))
    finally:
        store.close()


def export_command(
    database: Annotated[Path, typer.Argument(metavar="DB", help="A results database.")],
    fmt: Annotated[ExportFormat, typer.Option("--format", "-f", help="pgn: pairwise, for Ordo/BayesElo.")] = ExportFormat.JSONL,
    replays: Annotated[bool, typer.Option(
        "--replays", help="jsonl: add each game's replay (seed, options, every action).")] = False,
    output: OutputOption = None,
) -> None:
    """Export games: PGN (pairwise, for Ordo/BayesElo), JSON Lines or CSV."""
    from ._report import export_records
    from ._store import ResultsStore

    if replays and fmt != ExportFormat.JSONL:
        raise UsageError(f"--replays is for --format jsonl, not {fmt}")
    if output is not None:
        check_writable(output)
    store = ResultsStore.open(database)
    try:
        games = list(store.games())
        text = export_records(games, str(fmt), store.replay if replays else None)
    finally:
        store.close()
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_text_file(output, text)


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")
    for name, command in [("crosstable", crosstable_command), ("export", export_command)]:
        app.command(name)(reports_errors(command))
