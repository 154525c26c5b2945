"""Command line: ``arena init``, a ready-to-run quickstart for an arena installed without the
clone (a wheel from PyPI or ``python -m build``).

It writes the quickstart tournament, the reference file of every key and the manifests of the
reference bots the tournament names. Those bots run as ``python -m bots.random``-style modules
of the installed package, so the files need nothing else. They come from the package's data
(``arena/cli/quickstart/``), byte for byte the clone's ``examples/`` files of the same paths:
tests/arena/test_cli_quickstart.py fails the moment the two differ, naming the file to copy.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Annotated

import typer

from ._common import UsageError, reports_errors

#: The files written, by their path in the folder, which is their path under ``examples/`` in
#: the clone and under ``quickstart/`` in this package.
FILES = ("quickstart.toml", "tournament-reference.toml",
         "bots/py-random.toml", "bots/py-heuristic.toml", "bots/py-search.toml")
#: The tournament file ``arena tournament run`` is pointed at.
TOURNAMENT = "quickstart.toml"


def quickstart_files() -> dict[str, str]:
    """The text of each file ``arena init`` writes, by its path in the folder.

    Their comments name the clone's paths (``examples/quickstart.toml``); in the folder the
    files lie side by side, so ``examples/`` is dropped (the test checks every path so named
    is one of :data:`FILES`).
    """
    from importlib.resources import files

    data = files(__package__).joinpath("quickstart")
    return {name: data.joinpath(name).read_text(encoding="utf-8").replace("examples/", "") for name in FILES}


def write_quickstart(folder: Path) -> list[Path]:
    """Write the quickstart's files into ``folder`` (made, with its parents, if missing); the
    paths written. Nothing is overwritten: if any of the files exists, none is written and
    :class:`UsageError` names it."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is not a folder; give a folder for the quickstart's files")
    texts = quickstart_files()
    taken = [folder / name for name in texts if os.path.lexists(folder / name)]  # a dangling link too
    if taken:
        raise UsageError(f"{taken[0]} already exists; nothing was written (give another folder: arena init FOLDER)")
    written = []
    for name, text in texts.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as file:  # "x": a file made meanwhile is not overwritten either
            file.write(text)
        written.append(path)
    return written


def init_command(
    folder: Annotated[Path, typer.Argument(
        metavar="FOLDER", help="Where to write the files (made if missing); default: this folder.")] = Path("."),
) -> None:
    """Write a ready-to-run quickstart tournament and its bots' manifests; print how to run it.

    For an arena installed without the clone: the quickstart tournament of Dead Man's Draw
    (quickstart.toml), every key of a tournament file with its default
    (tournament-reference.toml) and the reference bots' manifests (bots/), which run the bots
    of the installed package. Refuses to overwrite any file (one error line, nothing written).

    Examples:
      arena init
      arena init my-tournament
    """
    written = write_quickstart(folder)
    typer.echo(f"wrote {', '.join(str(path) for path in written)}")
    typer.echo(f"run the tournament with: arena tournament run {shlex.quote(str(folder / TOURNAMENT))}")


def register(app: typer.Typer) -> None:
    app.command("init")(reports_errors(init_command))
