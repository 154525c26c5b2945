"""The resource limits one bot process gets (a manifest's ``[limits]`` table), set with
``setrlimit`` in the child before ``exec``; the sandbox's cgroups count some of them instead."""

from __future__ import annotations

import resource
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Per-bot resource limits (a manifest's ``[limits]`` table); ``None`` = no limit."""

    memory_mb: int | None = 2048
    cpu_s: int | None = None
    processes: int | None = 128
    open_files: int | None = 256
    file_size_mb: int | None = 64
    #: cores (a fraction is fine) the bot's processes may use together; cgroup cpu only
    cpus: float | None = 1.0

    def apply(self, address_space: bool = True, cpu_time: bool = True, processes: bool = False) -> None:
        """Set the limits on the calling process (runs in the child before exec).

        ``address_space``, ``cpu_time``: whether ``memory_mb`` and ``cpu_s`` are set as
        ``RLIMIT_AS`` and ``RLIMIT_CPU``. The sandbox leaves them out where a memory cgroup
        or a CPU-time cgroup counts them for all the bot's processes together: per process,
        they multiply with every fork, and ``RLIMIT_AS`` counts reserved address space, which
        runtimes that reserve far more than they use (Go, Java, V8) cannot live within.
        ``processes``: whether ``processes`` is set as ``RLIMIT_NPROC``: only where the kernel
        counts the bot's tasks alone against it (a uid or a user namespace of its own; see
        ``_userns``), never where it would count every task of the arena's user.
        """
        def limit(kind: int, value: int | None) -> None:
            if value is not None:
                resource.setrlimit(kind, (value, value))

        if address_space:
            limit(resource.RLIMIT_AS, self.memory_mb * 2**20 if self.memory_mb else None)
        if cpu_time:
            limit(resource.RLIMIT_CPU, self.cpu_s)
        limit(resource.RLIMIT_NOFILE, self.open_files)
        limit(resource.RLIMIT_FSIZE, self.file_size_mb * 2**20 if self.file_size_mb else None)
        limit(resource.RLIMIT_CORE, 0)
        if processes:
            limit(resource.RLIMIT_NPROC, self.processes)
