"""What a worker process is given to play games: :class:`Setup`, and the coordinator's sandbox
sent as plain fields and made again, with its per-process parts of its own, in the worker."""

from __future__ import annotations

import dataclasses
import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..sandbox import find_cgroups, Sandbox, UidAllocator
from ._config import TournamentConfig


@dataclass(frozen=True)
class Setup:
    """What a worker needs to play games: the tournament, how to confine bots, its share."""

    config: TournamentConfig
    log_dir: Path
    skip_broken: bool
    #: the coordinator's sandbox, without its per-process parts (cgroup folder, uid counter)
    sandbox: dict[str, Any] | None
    #: games at once on this worker, and bot processes its pool keeps per entrant
    slots: int = 1
    keep: int = 1
    #: entrants withdrawn before this worker started (entrant -> why): not started at all
    withdrawn: dict[str, str] = dataclasses.field(default_factory=dict)

    def spread(self, slots: int, processes: int) -> Setup:
        """This setup for each of ``processes`` workers sharing ``slots`` games at once. Each
        worker's pool keeps a process per entrant for each of its slots (an entrant plays at
        most that many games at once), as in one process (TournamentRunner._play)."""
        share = -(-slots // processes)
        return dataclasses.replace(self, slots=share, keep=share)


#: the parts of a Sandbox that belong to one process: a worker makes its own
_PER_PROCESS = frozenset({"cgroups", "uids", "root_bots", "_ids", "_loopback"})


def sandbox_fields(sandbox: Sandbox | None) -> dict[str, Any] | None:
    """What a worker needs to confine bots as the coordinator does: every field of the
    coordinator's sandbox (a field added later travels too), but its per-process parts."""
    if sandbox is None:
        return None
    fields = {field.name: getattr(sandbox, field.name) for field in dataclasses.fields(sandbox)
              if field.name not in _PER_PROCESS}
    fields["cgroups"] = sandbox.cgroups is not None  # a worker finds its own machine's
    return fields


def worker_sandbox(fields: dict[str, Any] | None) -> Sandbox | None:
    """The sandbox a worker confines its bots with, made from :func:`sandbox_fields`."""
    if fields is None:
        return None
    fields = dict(fields)
    cgroups = fields.pop("cgroups")
    # Its own cgroup folders, named after its pid like an arena's: if the worker is killed, the
    # coordinator (or any later arena) sweeps them. Found again here: a Dask worker's machine
    # may offer other hierarchies than the coordinator's.
    return Sandbox(**fields, cgroups=find_cgroups(f"pirate-arena-{os.getpid()}") if cgroups else None,
                   uids=UidAllocator(), _ids=itertools.count())
