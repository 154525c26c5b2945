"""``arena doctor``'s rows from what its probe found (:func:`arena.players._probe.run_probe`):
each protection, whether the attack on it failed, and the evidence, judged from both sides
(what the probe says it did, and what reached the arena's targets); and the table of the
channels between bots the sandbox leaves open.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ._probe_targets import HOG_MB, HOGS, PROBE_FORKS, PROBE_LIMITS


@dataclass(frozen=True)
class Check:
    """One row: the protection, whether the attack failed, and what the probe found."""

    protection: str
    held: bool
    evidence: str


def own_filesystems(found: dict) -> bool:
    """Whether every folder the probe looked at lay on a filesystem mounted for it alone (none
    of those the arena has mounted): then no file it reads has an inode another bot's has."""
    return all(seen.get("own") for seen in found["filesystems"])


def still_through(frozen: list[float] | None, pauses: list[list[float]]) -> bool:
    """Whether the probe made no step from before the arena's freeze had stopped it until the
    arena thawed it: one of its pauses spans ``frozen`` (to the millisecond the probe rounds
    to). A loaded machine pauses it too, but hardly ever across the whole of that interval."""
    return frozen is not None and any(since <= frozen[0] + 0.001 and to >= frozen[1] - 0.001
                                      for since, to in pauses)


#: the channels between bots the sandbox leaves open (docs/sandbox.md, "What the sandbox cannot do"):
#: what each needs, and what ``benchmarks/covert_channels.py`` measured on the 2-core reference
#: VM (BENCHMARKS.md)
CHANNELS_LEFT = (
    ("dentry cache: names looked up in a folder it sees whole (its own, its runtime's)", "nothing",
     "68,500-164,600 bits/s, also across rotations"),
    ("futex woken on a shared read-only mapping", "both bots running", "53-146 bits/s"),
    ("process and thread count, free memory (sysinfo, /proc/loadavg)", "both bots alive",
     "100 bits/s at 10 ms slots"),
    ("inode numbers of new pipes and sockets (machine-wide)", "both bots alive", "1.5-3.2 bits/s"),
    ("CPU and cache contention", "both bots running", "none measurable"),
)


#: the first rows of :data:`CHANNELS_LEFT` go through files two bots share (their inodes)
THROUGH_SHARED_FILES = 2
#: the row of the machine's counters: closed where the probe read them as an idle machine's
COUNTERS = 2


def channels_left(found: dict) -> list[tuple[str, str, str]]:
    """``arena doctor``'s table of the channels left open: :data:`CHANNELS_LEFT`, without those
    through shared files where the probe's folders lay on filesystems mounted for it alone
    (:func:`own_filesystems`), else with the dentry cache's row saying what the probe found of
    it in its own folder; without the machine's counters where it read them as an idle
    machine's (:func:`counters_idle`)."""
    rows = [list(row) for row in CHANNELS_LEFT]
    rows[0][2] += f"; the probe: a name looked up again answered {found['dentry_ratio']}x faster"
    closed = {*(range(THROUGH_SHARED_FILES) if own_filesystems(found) else ()),
              *((COUNTERS,) if counters_idle(found) else ())}
    return [tuple(row) for index, row in enumerate(rows) if index not in closed]


def counters_idle(found: dict) -> bool:
    """Whether the probe read the machine's counters as an idle machine's (``sysinfo``
    answered by the arena, ``/proc/loadavg`` written for it): one process, no load."""
    return found.get("sysinfo_procs") == 1 and found.get("loadavg") == "0.00 0.00 0.00 1/1 1"


def _filesystems(found: dict) -> str:
    """What the probe found its folders on, in a few words each."""
    return "; ".join(f"{seen['path']}: {seen['type']} {seen['device']}, "
                     + ("mounted for it alone" if seen.get("own") else "the arena's own, shared")
                     for seen in found["filesystems"])


def judge(found: dict) -> list[Check]:
    """The rows of ``arena doctor`` from one probe's findings (:func:`run_probe`)."""

    def refused(*keys: str) -> str:
        return "; ".join(f"{key}: {found[key]}" for key in keys)

    reached = found["reached"]
    allowed_env = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH", "NODE_PATH", "PWD"}
    network = [what for what in reached if what in ("stdout", "new socket")]
    still = still_through(found["frozen"], found["pauses"])
    checks = [
        Check("no network: its stdout socket re-connected, or a new socket, reaches nothing", not network,
              f"reached the arena's listener through: {', '.join(network)}" if network
              else refused("dissolve", "stdout", "socket")),
        Check("the host's unix sockets (under /run) out of reach", "unix socket" not in reached,
              refused("unix")),
        Check("no channels to other processes: locks, flock, inotify, SysV IPC",
              found["lock"] != "saw the arena's lock" and found["flock"] not in ("saw the arena's lock", "locked")
              and found["inotify"] != "done" and found["shm"] != "done",
              refused("lock", "flock", "inotify", "shm")),
        Check("minimal read-only view: nothing of /run, /home, /var, /tmp but its own path",
              not found["visible"] and not found.get("wrote"),
              (f"sees {', '.join(found['visible'])}" if found["visible"] else "none of them visible")
              + (f"; wrote to {', '.join(found['wrote'])}" if found.get("wrote") else "; / and /usr read-only")),
        Check("dentry cache and futexes: every folder it sees a filesystem mounted for it alone",
              own_filesystems(found), _filesystems(found)),
        Check("page cache: no page of its view shared, or every one resident; none asked of or dropped",
              (own_filesystems(found) or found["pagecache"]["resident"] == found["pagecache"]["pages"] > 0)
              and found["pagecache"]["mincore"] != "done" and found["pagecache"]["pageout"] != "done",
              ("its files on filesystems of its own (above); " if own_filesystems(found) else "")
              + f"{found['pagecache']['resident']} of {found['pagecache']['pages']} pages sampled in its "
              f"{found['pagecache']['files']} largest files resident; mincore: {found['pagecache']['mincore']}; "
              f"madvise(MADV_PAGEOUT): {found['pagecache']['pageout']}"),
        Check("own unprivileged uid", found["uid"] not in (0, os.getuid()), f"ran as uid {found['uid']}"),
        Check("cannot signal the arena or other bots", found["signal"] != "reached the arena",
              f"kill(arena): {found['signal']}"),
        Check("own PID namespace (sees only its own processes)", found["pids"] <= 4,
              f"sees {found['pids']} processes in /proc"),
        Check("every process it started killed with it, even after setsid", not found["survivors"],
              f"{len(found['survivors'])} left running" if found["survivors"] else "none left"),
        Check("process count capped", found["forked"] < PROBE_FORKS,
              f"{found['forked']} of {PROBE_FORKS} forks made under a cap of {PROBE_LIMITS.processes}"),
        Check("environment reduced to PATH, HOME, LANG and the manifest's [env]",
              set(found["env"]) <= allowed_env, ", ".join(found["env"])),
        Check("resource limits (open files, file size, no core)", found["nofile"] == PROBE_LIMITS.open_files,
              f"open files limit {found['nofile']}"),
        Check("memory limited over all its processes (and its /tmp)",
              found["hogs"].count("kept its memory") * HOG_MB <= PROBE_LIMITS.memory_mb,
              f"{HOGS} children of {HOG_MB} MiB under a limit of {PROBE_LIMITS.memory_mb} MiB: "
              f"{', '.join(found['hogs'])}; /tmp of {found['tmp_mb']} MiB"),
        Check("CPU: one core at most, whatever it forks", found["cores"] <= 1.2,
              f"two busy processes got {found['cores']} cores together"),
        Check("frozen while not on move", still,
              f"the arena {found['freeze']}; its longest pause: {found['paused_ms']} ms"
              + (", and it ran while the arena held it frozen" if found["frozen"] and not still else "")),
    ]
    return checks
