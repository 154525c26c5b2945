"""Command line: tournaments, standings, crosstables, exports, rating external results, SPRT."""

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
from ._report import (crosstable, export_records, fault_counts, records_of, standings_csv, standings_json,
                      standings_of, standings_table)
from ._store import ResultsStore
from ._tournament import TournamentRunner, log_dir_of
from .ratings import SprtDecision, read_jsonl, read_pgn, sprt

tournament_app = typer.Typer(help="Run and resume tournaments.", no_args_is_help=True)

FormatOption = Annotated[str, typer.Option("--format", "-f", help="table | json | csv")]
BootOption = Annotated[int, typer.Option("--bootstrap", help="Bootstrap replicates for the error bars.")]
AnchorOption = Annotated[Optional[str], typer.Option(help="Anchor an entrant: NAME=ELO (default: mean 0).")]


def _anchor(text: str | None) -> tuple[str, float] | None:
    if text is None:
        return None
    name, sep, value = text.rpartition("=")
    try:
        return name, float(value)
    except ValueError:
        raise UsageError(f"--anchor must look like NAME=ELO, got {text!r}") from None


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
    _print_standings(store, "table", 200, None)


def _print_standings(store: ResultsStore, fmt: str, n_boot: int, anchor: str | None) -> None:
    games = list(store.games())
    if not games:
        raise UsageError(f"{store.path}: no finished games yet")
    standings = standings_of(records_of(games), n_boot=n_boot, anchor=_anchor(anchor))
    _echo_standings(standings, fault_counts(games), max(len(game.seats) for game in games), fmt)


def _echo_standings(standings, faults, players: int, fmt: str) -> None:
    if fmt == "table":
        typer.echo(standings_table(standings, faults, players))
    elif fmt == "json":
        typer.echo(standings_json(standings, faults))
    elif fmt == "csv":
        typer.echo(standings_csv(standings, faults), nl=False)
    else:
        raise UsageError(f"--format must be table, json or csv, got {fmt!r}")


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


def standings_command(
    database: Annotated[Path, typer.Argument(help="A results database.")],
    fmt: FormatOption = "table",
    bootstrap: BootOption = 200,
    anchor: AnchorOption = None,
) -> None:
    """Standings: Elo (Bradley-Terry) with 95% bootstrap error bars, points, wins, faults."""
    store = ResultsStore.open(database)
    try:
        _print_standings(store, fmt, bootstrap, anchor)
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


def rate_command(
    file: Annotated[Path, typer.Argument(help="Results: PGN (*.pgn) or JSON Lines (*.jsonl).")],
    fmt: FormatOption = "table",
    bootstrap: BootOption = 200,
    anchor: AnchorOption = None,
) -> None:
    """Rate results that did not come from the arena (PGN or JSON Lines)."""
    records = read_pgn(file) if file.suffix.lower() == ".pgn" else read_jsonl(file)
    if not records:
        raise UsageError(f"{file}: no rated games found")
    standings = standings_of(records, n_boot=bootstrap, anchor=_anchor(anchor))
    _echo_standings(standings, None, max(len(r.players) for r in records), fmt)


def sprt_command(
    database: Annotated[Path, typer.Argument(help="A results database of a two-bot tournament.")],
    candidate: Annotated[str, typer.Argument(help="The bot under test.")],
    baseline: Annotated[str, typer.Argument(help="The bot it is compared to.")],
    elo0: Annotated[float, typer.Option(help="H0: Elo difference at most this.")] = 0.0,
    elo1: Annotated[float, typer.Option(help="H1: Elo difference at least this.")] = 10.0,
    alpha: Annotated[float, typer.Option()] = 0.05,
    beta: Annotated[float, typer.Option()] = 0.05,
) -> None:
    """Sequential probability ratio test of CANDIDATE against BASELINE on stored games."""
    store = ResultsStore.open(database)
    try:
        records = [r for r in records_of(store.games())
                   if set(r.players) == {candidate, baseline}]
    finally:
        store.close()
    if not records:
        raise UsageError(f"{database}: no games between {candidate!r} and {baseline!r}")
    result = sprt(records, candidate, baseline, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
    typer.echo(json.dumps(result.as_dict(), indent=2))
    if result.decision is SprtDecision.CONTINUE:
        typer.echo("continue: the test has not decided yet", err=True)


def register(app: typer.Typer) -> None:
    app.add_typer(tournament_app, name="tournament")
    for name, command in [("standings", standings_command), ("crosstable", crosstable_command),
                          ("export", export_command), ("rate", rate_command), ("sprt", sprt_command)]:
        app.command(name)(reports_errors(command))
