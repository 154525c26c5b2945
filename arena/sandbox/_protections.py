"""What ``arena doctor`` says of a sandbox: each protection, whether it is active on this
machine, and how it is met (or what it needs); and which cgroup protections a tournament's
first lines warn are missing.

:class:`ProtectionRows` is a base of :class:`~._sandbox.Sandbox`: it reads the sandbox's
settings and changes none of them, so the words live apart from the mechanism.
"""

from __future__ import annotations

import os

from ._cgroups import CgroupLayout
from ._seccomp import current_arch


class ProtectionRows:
    """The doctor's rows of a :class:`~._sandbox.Sandbox` (the attributes below are its)."""

    bwrap: str | None
    drop_privileges: bool
    cgroups: CgroupLayout | None
    namespaces: bool
    allow_root: bool
    own_namespaces: bool
    bwrap_declined: str | None
    sysinfo_missing: str | None
    seccomp: bytes | None
    seccomp_missing: str
    images_missing: str | None
    max_cpus: float
    max_memory_mb: int

    def describe(self) -> list[tuple[str, bool, str]]:
        """(protection, active, how) rows for ``arena doctor``."""
        root = self.drop_privileges
        box = self.bwrap is not None
        elsewise = "run as root (--allow-root-bots)" if self.allow_root else "are refused"
        uid_how = ("arena runs as root; a bot whose program other users cannot reach runs in a private mount "
                   f"view{'' if self.namespaces else ' (NOT available here)'}; bots that still cannot {elsewise}; "
                   "`arena doctor BOT...` says which" if root else "needs the arena to run as root")
        rlimits = "setrlimit, per manifest [limits]"
        if role_status(self.cgroups, "memory")[0] or role_status(self.cgroups, "cputime")[0]:
            rlimits += "; memory_mb and cpu_s counted by the bot's cgroups instead where those serve (above)"
        counted = root or self.own_namespaces
        cap_how = ("RLIMIT_NPROC under the bot's own uid" if root else
                   "RLIMIT_NPROC in a user namespace of the bot's own: it counts the bot's processes alone"
                   if self.own_namespaces else _NO_OWN_NAMESPACE)
        if box:
            scope_how = "the sandbox's init killed: its PID namespace ends with it"
        elif root:
            scope_how = "every process of the bot's uid killed"
        elif self.own_namespaces:
            scope_how = "every process of the bot's user namespace killed (none can leave it)"
        else:
            scope_how = f"needs bubblewrap ({self._bwrap_how()}) or user namespaces ({_NO_OWN_NAMESPACE})"
        if box:
            death_how = "parent-death signal (SIGKILL), passed on by bubblewrap to the sandbox's init"
        else:
            death_how = ("only the bot's own process (parent-death signal); what it started outlives an arena "
                         f"killed with kill -9{' until the next arena empties its cgroups' if self.cgroups else ''}: "
                         f"needs bubblewrap ({self._bwrap_how()})")
        return [
            ("process count capped per bot, whatever else its user runs", counted, cap_how),
            ("process count capped; every descendant killed (cgroup pids)", *role_status(self.cgroups, "pids")),
            *self.cgroup_rows(),
            ("own process session, killed by process group", True, "always"),
            ("every process it started killed when its slot ends, even after setsid", box or root or self.own_namespaces,
             scope_how),
            ("every process it started dies with the arena, however the arena ends (kill -9 too)", box, death_how),
            ("resource limits (memory, CPU, files, file size, no core)", True, rlimits),
            ("environment reduced to PATH, HOME, LANG and the manifest's [env]", True, "always"),
            ("stderr captured and capped", True, "last 16 KiB kept with each fault"),
            ("own unprivileged uid per bot process, unique machine-wide; database and logs unreadable; "
             "process limit per bot", root, uid_how),
            ("children killed by uid even after setsid", root, "kill -9 -1 as the bot's uid" if root else "needs root"),
            ("no network", box, self._bwrap_how()),
            ("read-only filesystem, private /tmp", box, self._bwrap_how()),
            ("own PID namespace (children die with the bot)", box, self._bwrap_how()),
            ("tournament file, database and logs hidden; seed not visible in /proc", box, self._bwrap_how()),
            ("each folder of its view a filesystem mounted for it alone: no page, name or futex shared with "
             "another bot", self.images_missing is None,
             "EROFS images (mkfs.erofs), mounted in the bot's own mount namespace"
             if self.images_missing is None else self.images_missing),
            ("system calls refused: locks, inotify, connect, sockets but unix streams, ptrace, namespaces, "
             "mounts, IPC (seccomp)", self.seccomp is not None, self._seccomp_how()),
            ("the machine's counters read as an idle machine's: /proc/loadavg, /proc/stat, file-nr, pressure "
             "(bubblewrap) and sysinfo (answered by the arena)", box and self.sysinfo_missing is None,
             "written for each bot (bubblewrap), sysinfo through a filter's listener (SECCOMP_RET_USER_NOTIF)"
             if box and self.sysinfo_missing is None else
             "; ".join(why for why in ((None if box else self._bwrap_how()), self.sysinfo_missing) if why)),
        ]

    def bwrap_advice(self) -> str:
        """What the warning of a run without bubblewrap tells the organiser to do."""
        if self.bwrap_declined is not None:
            return "leave out --sandbox none (bubblewrap is installed)"
        return "install bubblewrap"

    def _bwrap_how(self) -> str:
        """How a bubblewrap row is met here, or what it needs."""
        if self.bwrap is not None:
            return f"bubblewrap ({self.bwrap})"
        if self.bwrap_declined is not None:
            return f"not used: --sandbox none (bubblewrap is installed, {self.bwrap_declined}: leave that option out)"
        return "needs bubblewrap (apt-get install bubblewrap)"

    def _seccomp_how(self) -> str:
        if self.seccomp is None:
            return self.seccomp_missing
        arch = current_arch()
        where = "installed by bubblewrap --seccomp" if self.bwrap else "installed before exec"
        return (f"{arch.name if arch else '?'} filter of {len(self.seccomp) // 8} instructions, {where}; "
                f"a probe's flock and AF_INET socket refused")

    def cgroup_rows(self) -> list[tuple[str, bool, str]]:
        """The rows of :meth:`describe` for the cgroups other than pids (CPU and memory)."""
        return _cgroup_rows(self.cgroups, self.max_cpus, self.max_memory_mb)

    def missing_cgroups(self) -> list[str]:
        """The cgroup protections not active here, each in a few words (``arena doctor`` and
        :meth:`describe` say why). Without root, the process cap of the pids cgroup is not
        missing where a user namespace of the bot's own serves it (``RLIMIT_NPROC`` counts the
        bot's processes alone there, and they are all found and killed without a cgroup)."""
        missing = missing_roles(self.cgroups)
        if self.drop_privileges:
            return missing
        if self.own_namespaces:
            return [role for role in missing if role != _PIDS_ROLE]
        return [role.replace(_PIDS_ROLE, "process cap (cgroup pids, or user namespaces)") for role in missing]



#: the pids role in :func:`missing_roles`' words
_PIDS_ROLE = "process cap (cgroup pids)"
#: what a process cap needs where the arena is not root and the kernel refuses it a namespace
_NO_OWN_NAMESPACE = ("needs unprivileged user namespaces (sysctl user.max_user_namespaces > 0, and "
                     "kernel.apparmor_restrict_unprivileged_userns=0 where AppArmor restricts them) or root")


def role_status(layout: CgroupLayout | None, role: str) -> tuple[bool, str]:
    """Whether ``role``'s cgroup serves here, and where (or why not)."""
    if layout is None:
        return False, ("needs the arena to run as root" if os.geteuid() != 0 else
                       "needs a writable cgroup filesystem (/sys/fs/cgroup)")
    hierarchy = layout.hierarchy(role)
    if hierarchy is None:
        return False, dict(layout.missing).get(role, "not available here")
    return True, f"{layout.folder(hierarchy)} (cgroup v{hierarchy.version})"


def _cgroup_rows(layout: CgroupLayout | None, max_cpus: float, max_memory_mb: int) -> list[tuple[str, bool, str]]:
    """``arena doctor``'s rows for the cpu, freezer, cputime and memory roles."""
    return [
        (f"CPU: the same weight for every bot, each at most {max_cpus:g} core (cgroup cpu)",
         *role_status(layout, "cpu")),
        ("a bot not on move is frozen: it takes no CPU from the bots on move (cgroup freezer; "
         "not under ponder)", *role_status(layout, "freezer")),
        ("cpu_s counts the CPU time of all of a bot's processes together (cgroup cpuacct)",
         *role_status(layout, "cputime")),
        (f"memory limit per bot, at most {max_memory_mb} MiB, swap and tmpfs files included; "
         f"past it a memory fault of its own (cgroup memory)", *role_status(layout, "memory")),
    ]


#: each role in a few words, for the warning a tournament starts with
_ROLE_NAMES = (("pids", "process cap (cgroup pids)"), ("cpu", "equal CPU weight and quota (cgroup cpu)"),
               ("freezer", "freezing bots not on move (cgroup freezer)"),
               ("cputime", "cpu_s over all of a bot's processes (cgroup cpuacct)"),
               ("memory", "memory limit with tmpfs (cgroup memory)"))


def missing_roles(layout: CgroupLayout | None) -> list[str]:
    """The roles not served here, each in a few words."""
    return [name for role, name in _ROLE_NAMES if not role_status(layout, role)[0]]
