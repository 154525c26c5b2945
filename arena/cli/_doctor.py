"""``arena doctor``'s work (its command and options: :mod:`._app`): the probe bot run against
the sandbox, once as a tournament starts bots and once in each named bot's folder, the rows of
what held, the channels left open, the sandbox's layers, and what each bot will get."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from ._common import UsageError

if TYPE_CHECKING:
    from ..players import BotSpec
    from ..sandbox import Sandbox


def run_doctor(specs: list[BotSpec], sandbox: str, allow_root_bots: bool) -> None:
    """Probe the sandbox of mode ``sandbox`` and print what held; then, for each of ``specs``
    (bots named on the line), what it will get. Raises :class:`UsageError` where the probe
    cannot run at all."""
    import functools

    import trio
    from tabulate import tabulate

    from ..players import channels_left, judge, run_probe
    from ..sandbox import open_sandbox
    from ._width import fill_line, fit_widths, terminal_columns

    from ..players import BotFault, VIEW_REFUSED

    def table(rows: list[list[str]], headers: list[str]) -> str:  # wrapped to the terminal's width
        return tabulate(rows, headers=headers, maxcolwidths=fit_widths(rows, headers, terminal_columns()))

    with open_sandbox(sandbox, allow_root_bots) as box:
        probes = [(None, f"A probe bot, started as a tournament starts bots (--sandbox {sandbox}), tried each attack:")]
        probes += [(spec, f"A probe bot, started in {spec.name}'s folder with its environment and shown what it "
                          f"would be (--sandbox {sandbox}), tried each attack:") for spec in specs]
        failed = []
        refused: dict[str, str] = {}
        for spec, heading in probes:
            try:
                found = trio.run(functools.partial(run_probe, box, manifest=spec))
            except BotFault as error:
                if spec is None or not error.detail.startswith(VIEW_REFUSED):
                    raise UsageError(f"the sandbox probe could not run here: {error}") from None
                # As a tournament's start refuses it, before its first game: the same line.
                refused[spec.name] = error.detail
                typer.echo(fill_line(heading, terminal_columns()))
                typer.echo(fill_line(f"REFUSED: {spec.name} cannot start: {error.detail}", terminal_columns()))
                typer.echo("")
                continue
            except RuntimeError as error:
                raise UsageError(f"the sandbox probe could not run here: {error}") from None
            checks = judge(found)
            failed += [check.protection for check in checks if not check.held and check.protection not in failed]
            typer.echo(fill_line(heading, terminal_columns()))
            typer.echo(table([["yes" if check.held else "NO", check.protection, check.evidence] for check in checks],
                             ["held", "protection", "what the probe found"]))
            typer.echo("")
    typer.echo(fill_line("Channels between bots it leaves open (docs/sandbox.md, 'What the sandbox cannot do'), what each "
                         "needs, and their measured rates:", terminal_columns()))
    typer.echo(table([list(row) for row in channels_left(found)], ["channel", "needs", "measured"]))
    typer.echo("")
    typer.echo(table([["yes" if active else "NO", name, how] for name, active, how in box.describe()],
                     ["active", "layer", "how"]))
    missing = failed + [name for name, active, _ in box.describe() if not active]
    if missing:
        typer.echo(f"\n{len(missing)} protection(s) missing; see docs/sandbox.md, 'Running untrusted bots'.")
    if specs:
        typer.echo("")
        typer.echo(table([_doctor_row(spec, box, refused.get(spec.name)) for spec in specs],
                         ["bot", "uid", "bubblewrap", "cgroup"]))


def _doctor_row(spec: BotSpec, box: Sandbox, refused: str | None = None) -> list[str]:
    """What one bot will actually get: its uid (and why), bubblewrap, cgroup; ``refused``: why
    its view cannot be built, where it cannot (it then gets nothing: it does not start)."""
    from ..players import bot_environment, program_exists

    confinement = box.confinement(spec.argv(), spec.cwd, bot_environment(spec))
    if refused is not None:
        uid = f"REFUSED: cannot start: {refused}"
    elif not program_exists(spec):
        uid = f"cannot start: no such program {spec.command[0]!r}"
    elif confinement.own_uid:
        uid = f"own uid ({confinement.why})"
    elif not box.drop_privileges:
        uid = f"arena's uid: {confinement.why}"
    else:
        uid = f"{'REFUSED' if confinement.refused else 'ROOT (--allow-root-bots)'}: {confinement.why}"
    return [spec.name, uid, "yes" if box.bwrap else "no", "yes" if box.cgroups else "no"]
