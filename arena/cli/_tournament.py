"""Command line: tournaments, crosstables and exports (the rating commands are in arena.cli._ratings)."""

from __future__ import annotations

import dataclasses
import enum
import inspect
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..tournament import RANGES, parse_option
from ._common import (AllowRootOption, OutputOption, SandboxOption, UsageError, check_writable,
                      on_interrupt, plural, reports_errors, root_bots_warning, write_text_file)

if TYPE_CHECKING:
    from ..tournament import TournamentConfig, ResultsStore

tournament_app = typer.Typer(help="Run and resume tournaments.", no_args_is_help=True)


class ExportFormat(enum.StrEnum):
    PGN = "pgn"
    JSONL = "jsonl"
    CSV = "csv"


QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress display, only the standings.")]
ConcurrencyOption = Annotated[Optional[str], typer.Option(
    "--concurrency", metavar="N",
    help=f"Games at once, {RANGES['concurrency']} (0: one per CPU core); default: the file's.")]

WorkersOption = Annotated[Optional[str], typer.Option(
    "--workers", metavar="N",
    help=f"Worker processes the games are spread over, {RANGES['workers']} (0: one per CPU core); default: the file's.")]

ExecutorOption = Annotated[Optional[str], typer.Option(
    "--executor", metavar="local|dask",
    help="Where games run: worker processes here, or a Dask cluster; default: the file's.")]
SchedulerOption = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="ADDRESS",
    help="Dask scheduler, e.g. tcp://host:8786 (implies --executor dask); default: the file's, "
         "else a local cluster of --workers processes.")]
ListenOption = Annotated[Optional[str], typer.Option(
    "--listen", metavar="HOST:PORT",
    help="Dask: where this machine listens for the Dask workers, which connect back to it, e.g. "
         "10.0.0.5:7700 (:7700: every interface; port 0: a free one); default: the file's, else chosen.")]


def _concurrency(text: str | None) -> int | None:
    return None if text is None else parse_option("--concurrency", text) or (os.cpu_count() or 1)


def _with_concurrency(config: TournamentConfig, concurrency: int | None, workers: int | None = None,
                      executor: str | None = None, scheduler: str | None = None,
                      listen: str | None = None) -> TournamentConfig:
    """``config`` with ``--concurrency``, ``--workers``, ``--executor``, ``--scheduler`` and
    ``--listen`` applied (they do not change which games are played)."""
    if concurrency is not None:
        config = dataclasses.replace(config, concurrency=concurrency)
    if workers is not None:
        config = dataclasses.replace(config, workers=workers)
    if executor is not None:
        from ..tournament import EXECUTORS

        if executor not in EXECUTORS:
            raise UsageError(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
        if executor == "local":
            config = dataclasses.replace(config, executor=executor, scheduler="", listen="")
        else:
            config = dataclasses.replace(config, executor=executor)
    if scheduler is not None:
        if executor == "local":
            raise UsageError("--scheduler is for --executor dask")
        config = dataclasses.replace(config, executor="dask", scheduler=scheduler)
    if listen is not None:
        from ..tournament import parse_listen

        if config.executor != "dask":
            raise UsageError("--listen is for --executor dask (or --scheduler)")
        try:
            parse_listen(listen)
        except ValueError as error:
            raise UsageError(f"--listen {error}") from None
        config = dataclasses.replace(config, listen=listen)
    return config


def _numbers(options: dict[str, Any]) -> dict[str, Any]:
    """The options of ``run`` and ``resume`` with ``--concurrency`` and ``--workers`` read as
    numbers, checked first: a bad number is the error, whatever else is wrong."""
    workers = options["workers"]
    return {**options, "concurrency": _concurrency(options["concurrency"]),
            "workers": None if workers is None else parse_option("--workers", workers)}


def _with_options(config: TournamentConfig, options: dict[str, Any]) -> TournamentConfig:
    """``config`` with the options (:func:`_numbers`) that say where and how fast games are
    played; warns when ``workers`` means nothing (:func:`_ignored_workers_warning`)."""
    config = _with_concurrency(config, options["concurrency"], options["workers"], options["executor"],
                               options["scheduler"], options["listen"])
    if (warning := _ignored_workers_warning(config, options["workers"] is not None)) is not None:
        typer.echo(warning, err=True)
    return config


def _ignored_workers_warning(config: TournamentConfig, from_option: bool) -> str | None:
    """The warning that ``workers`` means nothing on a Dask cluster at a scheduler's address,
    or ``None``: the run puts one arena worker on each of the cluster's Dask workers, however
    many there are, and cannot start or stop any. (Without a scheduler it is honoured: the
    size of the local cluster started for the run.)"""
    if config.executor != "dask" or not config.scheduler or not config.workers:
        return None
    given = f"--workers {config.workers}" if from_option else f"workers = {config.workers}"
    return (f"warning: {given} is ignored with a Dask scheduler: the run places one arena worker on each of "
            f"the cluster's Dask workers (how many is set where they start, e.g. dask worker --nworkers N)")


def _where(config: TournamentConfig, processes: int) -> str:
    if config.executor == "local":
        return f"{processes} worker processes"
    return f"Dask cluster at {config.scheduler}" if config.scheduler else f"local Dask cluster of {processes} workers"


SkipBrokenOption = Annotated[bool, typer.Option(
    "--skip-broken", help="Play on when an entrant cannot start: it forfeits each of its games.")]


def _play(config: TournamentConfig, store: ResultsStore, options: dict[str, Any]) -> None:
    """Play ``config``'s missing games into ``store`` with the options of ``run`` or ``resume``
    (:func:`_playing_options`), then print the standings."""
    import trio

    from ..sandbox import cgroups_warning, open_sandbox
    from ..tournament import TournamentRunner, log_dir_of, default_workers
    from ._progress import open_progress

    database = store.path.resolve()
    log_dir_of(database).mkdir(mode=0o700, exist_ok=True)  # exists before any bot, so it is hidden
    hidden = [config.path, database, Path(f"{database}-wal"), Path(f"{database}-shm"), log_dir_of(database)]
    quiet, skip_broken = options["quiet"], options["skip_broken"]
    with open_sandbox(options["sandbox"], options["allow_root_bots"]) as sandbox:
        if sandbox.bwrap is None and not sandbox.drop_privileges:
            # The seeds derive from the key in the database (0600): safe from other uids only.
            # Before the run, when the organiser can still stop it; an error later is the last line.
            typer.echo(f"warning: without bubblewrap (or root), bots run as your user and can read "
                       f"{database}, with the key of every deal; {sandbox.bwrap_advice()}", err=True)
        if cgroups_warning(sandbox):
            typer.echo(cgroups_warning(sandbox), err=True)
        display = None if quiet else open_progress(stored=store.games())
        runner = TournamentRunner(config, store, display, sandbox.with_hidden(hidden), skip_broken=skip_broken)
        _, total, done = runner.pending()
        if not quiet:
            games = (plural(total, 'game') if runner.adaptive is None else
                     f"adaptive toward {config.adaptive.goal} at error {config.adaptive.error:g}, "
                     + ("over" if runner.adaptive.stop is not None else
                        f"round {runner.adaptive.round + 1} of at most {config.schedule.rounds}"))
            typer.echo(f"{config.game}: {plural(len(config.entrants), 'entrant')}, {games} "
                       f"({done} already played), concurrency {config.concurrency}, "
                       f"{_where(config, min(config.workers or default_workers(), config.concurrency))}, "
                       f"results in {store.path}", err=True)

        def interrupted() -> str:
            of = f"/{total}" if runner.adaptive is None else ""  # an adaptive one's total is unknown
            return (f"{len(store.completed_keys())}{of} games stored; "
                    f"resume with: arena tournament resume {store.path}")

        with on_interrupt(interrupted):
            if display is None:
                trio.run(runner.run)
            else:
                with display:
                    trio.run(runner.run)
    for line in runner.lost_workers:
        typer.echo(f"warning: {line}", err=True)
    for name in runner.broken:
        typer.echo(f"warning: entrant {name!r} could not start; it forfeited all its games", err=True)
    for name, detail in runner.withdrawn.items():
        typer.echo(f"warning: entrant {name!r} {detail}: it forfeited its remaining games", err=True)
    for line in _always_faulting_lines(store, set(runner.broken) | set(runner.withdrawn)):
        typer.echo(line, err=True)
    if runner.sprt is not None and runner.sprt.decided:
        for line in runner.sprt.lines():
            typer.echo(f"sprt: {line}", err=True)
        typer.echo("sprt: every test has decided; the gauntlet stopped", err=True)
    from ._ratings import print_standings

    print_standings(store, "table", None, None)  # an adaptive tournament's: with why it stopped
    if root_bots_warning(sandbox):
        typer.echo(root_bots_warning(sandbox))


def _always_faulting_lines(store: ResultsStore, warned: set[str]) -> list[str]:
    """A warning for each entrant that faulted in every game it played (but those ``warned``
    about already: broken or withdrawn), pointing at the report, where each fault is listed
    with the bot's stderr and the game's replay."""
    from ..report import always_faulting

    lines = []
    for name, (games, kinds) in sorted(always_faulting(store.games()).items()):
        if name in warned:
            continue
        where = "its only game" if games == 1 else f"every one of its {games} games"
        shown = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
        lines.append(f"warning: entrant {name!r} faulted in {where} ({shown}); "
                     f"see why with: arena report {store.path}")
    return lines


def _playing_options(
    quiet: QuietOption = False,
    sandbox: SandboxOption = "auto",
    concurrency: ConcurrencyOption = None,
    allow_root_bots: AllowRootOption = False,
    skip_broken: SkipBrokenOption = False,
    workers: WorkersOption = None,
    executor: ExecutorOption = None,
    scheduler: SchedulerOption = None,
    listen: ListenOption = None,
) -> None:
    """The options ``run`` and ``resume`` share (see :func:`_with_playing_options`)."""


def _with_playing_options(command: Callable[..., None]) -> Callable[..., None]:
    """``command(target, **options)`` with the options of :func:`_playing_options` after its
    first parameter in the signature that typer reads for the command line."""
    first = next(iter(inspect.signature(command, eval_str=True).parameters.values()))
    shared = inspect.signature(_playing_options, eval_str=True).parameters.values()
    command.__signature__ = inspect.Signature([first, *shared], return_annotation=None)  # type: ignore[attr-defined]
    return command


@tournament_app.command("run")
@reports_errors
@_with_playing_options
def run_command(file: Annotated[Path, typer.Argument(metavar="FILE", help="Tournament file (TOML).")],
                **options: Any) -> None:
    """Play a tournament, storing every game as it ends; print the standings.

    Every entrant is started once before the first game: one that cannot start stops the
    tournament with an error (exit code 2), unless --skip-broken.

    Examples:
      arena tournament run examples/quickstart.toml
      arena tournament run t.toml -q --workers 4 --skip-broken
    """
    from ..tournament import load_config, open_store

    options = _numbers(options)
    config = _with_options(load_config(file), options)
    store = open_store(config)
    try:
        _play(config, store, options)
    finally:
        store.close()


@tournament_app.command("resume")
@reports_errors
@_with_playing_options
def resume_command(database: Annotated[Path, typer.Argument(metavar="DB", help="The tournament's results database.")],
                   **options: Any) -> None:
    """Play only the games an interrupted tournament is missing; print the standings.

    Examples:
      arena tournament resume quickstart.db
      arena tournament resume t.db -q --workers 8
    """
    from ..tournament import config_of_store, ResultsStore

    options = _numbers(options)
    store = ResultsStore.open(database)
    try:
        config = _with_options(config_of_store(store), options)
        _play(config, store, options)
    finally:
        store.close()


#: (no square brackets: the help is rich markup)
EntrantFilesHelp = ("a bot manifest, or a TOML file with an 'entrants' array of tables written like the "
                    "tournament file's (optional 'game' and 'players' must match); repeatable")


@tournament_app.command("extend")
@reports_errors
def extend_command(
    database: Annotated[Path, typer.Argument(metavar="DB", help="The tournament's results database.")],
    rounds: Annotated[Optional[str], typer.Option(
        "--rounds", metavar="N", help=f"Add N rounds, {RANGES['rounds']} (the new entrants play every round).")] = None,
    entrant: Annotated[Optional[list[Path]], typer.Option(
        "--entrant", metavar="FILE", help=f"New entrants (a gauntlet's field): {EntrantFilesHelp}.")] = None,
    candidate: Annotated[Optional[list[Path]], typer.Option(
        "--candidate", metavar="FILE", help=f"New gauntlet candidates: {EntrantFilesHelp}.")] = None,
) -> None:
    """Grow a tournament without replaying a game: add rounds, entrants or gauntlet candidates.

    Every stored game keeps its key, seed and result. Nothing is played here: run
    `arena tournament resume DB` next. A new version of a bot is a new entrant (a new name).
    A database made before tournaments could grow (schedule version 1) takes rounds only.

    Examples:
      arena tournament extend t.db --rounds 2
      arena tournament extend t.db --entrant my-bot-v2.toml
    """
    from ..tournament import config_of_store, entrant_row, extend_config, ResultsStore

    added_rounds = 0 if rounds is None else parse_option("--rounds", rounds)
    store = ResultsStore.open(database)
    try:
        done = len(store.completed_keys())
        extension = extend_config(config_of_store(store), store.schedule_version(), added_rounds,
                                  entrant or [], candidate or [])
        store.extend(extension.config.fingerprint(), extension.config.raw,
                     [entrant_row(spec) for spec in extension.added])
    finally:
        store.close()
    grown = [f"{len(extension.added)} entrant{'s' * (len(extension.added) != 1)} "
             f"({', '.join(spec.name for spec in extension.added)})"] if extension.added else []
    if extension.rounds:
        grown.append(f"{extension.rounds} round{'s' * (extension.rounds != 1)}")
    typer.echo(f"{database}: added {' and '.join(grown)}: {extension.new_games} new games, {extension.total - done} "
               f"of {extension.total} to play; play them with: arena tournament resume {database}")


def crosstable_command(database: Annotated[Path, typer.Argument(metavar="DB", help="A results database.")]) -> None:
    """Pairwise scores between every two entrants (points/games).

    Example:
      arena crosstable quickstart.db
    """
    from ..report import crosstable, records_of, standings_of
    from ..tournament import ResultsStore

    store = ResultsStore.open(database, read_only=True)
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
    """Export games: PGN (pairwise, for Ordo/BayesElo), JSON Lines or CSV.

    Examples:
      arena export t.db --format pgn -o t.pgn
      arena export t.db --replays -o games.jsonl
    """
    from ..report import export_records
    from ..tournament import ResultsStore

    if replays and fmt != ExportFormat.JSONL:
        raise UsageError(f"--replays is for --format jsonl, not {fmt}")
    if output is not None:
        check_writable(output)
    store = ResultsStore.open(database, read_only=True)
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
