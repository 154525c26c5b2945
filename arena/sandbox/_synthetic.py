"""The files of ``/etc`` and the counters of ``/proc`` a bot reads, made for that bot alone.

Bound from the host, a file of ``/etc`` is one inode for every bot: a futex on its mapping (the
dynamic loader maps ``ld.so.cache``) woke another bot, 11-54 bits/s (issue 44). And ``/proc``'s
machine-wide counters (``loadavg``: tasks running and in all; ``stat``: forks, context switches,
CPU time; ``sys/fs/file-nr``: open files; ``pressure``) let two bots alive at once signal to each
other by moving them. So under bubblewrap every such file is data the arena writes for the bot
(``--ro-bind-data``, from a ``memfd``): bubblewrap copies it into the bot's own tmpfs, a file of
its own.

- ``/etc``: ``passwd``, ``group``, ``nsswitch.conf`` and ``hosts`` are synthetic (root,
  nobody and the bot's own uid, named ``bot``; files only; localhost): nothing of the host's
  users. The rest of what runtimes read (:data:`arena.sandbox._view.ETC`'s files: the loader's
  cache, OpenSSL's configuration) is a copy of the host's. Folders of ``/etc`` stay binds,
  imaged like any folder of the view (``_images``); links stay links (``localtime``), what
  they name is shown where the system's files are.
- ``/proc``: ``loadavg``, ``stat``, ``sys/fs/file-nr`` and ``pressure/*`` read as an idle
  machine's, constant; ``stat`` keeps a line per CPU (runtimes count CPUs there).

``sysinfo(2)`` says the same of the machine: the arena answers it (``_sysinfo``). What a bot can
still read that moves: the inode numbers of new pipes and sockets (docs/sandbox.md's table of the
channels left names it).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

#: files of /etc written for the bot, not copied: nothing of the host's users and hosts
SYNTHETIC_ETC = ("passwd", "group", "nsswitch.conf", "hosts")


def synthetic_etc(uid: int, gid: int) -> dict[str, bytes]:
    """``/etc``'s users, groups, name service and hosts for a bot running as ``uid``/``gid``."""
    users = {0: "root:x:0:0:root:/root:/bin/sh", 65534: "nobody:x:65534:65534:nobody:/nonexistent:/bin/false",
             uid: f"bot:x:{uid}:{gid}:bot:/tmp:/bin/sh"}
    groups = {0: "root:x:0:", 65534: "nogroup:x:65534:", gid: f"bot:x:{gid}:"}
    return {
        "/etc/passwd": "".join(f"{line}\n" for _, line in sorted(users.items())).encode(),
        "/etc/group": "".join(f"{line}\n" for _, line in sorted(groups.items())).encode(),
        "/etc/nsswitch.conf": b"passwd: files\ngroup: files\nshadow: files\nhosts: files\nnetworks: files\n"
                              b"protocols: files\nservices: files\n",
        "/etc/hosts": b"127.0.0.1 localhost\n::1 localhost\n",
    }


@functools.cache
def _copies(files: tuple[Path, ...]) -> tuple[tuple[str, bytes], ...]:
    """The contents of ``files`` (links followed), once per process: they change with the system."""
    copies = []
    for path in files:
        try:
            copies.append((str(path), path.read_bytes()))
        except OSError:
            pass  # gone since it was listed
    return tuple(copies)


@functools.cache
def proc_counters() -> tuple[tuple[str, bytes], ...]:
    """``/proc``'s machine-wide counters as an idle machine's (those this machine has)."""
    cpus = sorted(os.sched_getaffinity(0)) or [0]
    stat = ["cpu  0 0 0 0 0 0 0 0 0 0", *(f"cpu{cpu} 0 0 0 0 0 0 0 0 0 0" for cpu in range(max(cpus) + 1)),
            "intr 0", "ctxt 0", f"btime {_boot_time()}", "processes 1", "procs_running 1", "procs_blocked 0",
            "softirq 0 0 0 0 0 0 0 0 0 0 0"]
    idle = "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
    contents = {"/proc/loadavg": "0.00 0.00 0.00 1/1 1\n", "/proc/stat": "\n".join(stat) + "\n",
                "/proc/sys/fs/file-nr": f"0\t0\t{_file_max()}\n", "/proc/pressure/cpu": idle,
                "/proc/pressure/io": idle, "/proc/pressure/memory": idle}
    return tuple((path, text.encode()) for path, text in contents.items() if os.path.exists(path))


def _boot_time() -> int:
    try:
        for line in Path("/proc/stat").read_text().splitlines():
            if line.startswith("btime "):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _file_max() -> int:
    try:
        return int(Path("/proc/sys/fs/file-max").read_text())
    except (OSError, ValueError):
        return 9223372036854775807


def private_files(etc: Sequence[Path], uid: int, gid: int) -> Mapping[str, bytes]:
    """Every file a bot under bubblewrap gets written for it alone: the synthetic ``/etc``
    files, copies of the other files of ``etc`` (``/etc``'s files runtimes read), and
    ``/proc``'s counters."""
    files = dict(_copies(tuple(path for path in etc if path.name not in SYNTHETIC_ETC and path.is_file()
                               and not path.is_symlink())))
    files.update(synthetic_etc(uid, gid))
    files.update(proc_counters())
    return files


def data_arguments(files: Mapping[str, bytes]) -> tuple[list[str], list[int]]:
    """bubblewrap's ``--ro-bind-data`` options for ``files`` (path in the view: contents), each
    from a new ``memfd``, and those descriptors (to pass to bubblewrap and close once it has
    started)."""
    arguments: list[str] = []
    fds: list[int] = []
    try:
        for path, contents in files.items():
            fd = os.memfd_create("pirate-arena-view")  # close-on-exec: only passed, to bubblewrap
            fds.append(fd)
            os.write(fd, contents)
            os.lseek(fd, 0, os.SEEK_SET)
            arguments += ["--ro-bind-data", str(fd), path]
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
    return arguments, fds
