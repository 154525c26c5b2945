"""Where the arena makes its cgroups: the hierarchies this machine offers, found at start.

A bot process gets one cgroup in every hierarchy the arena can write (``_botcgroup``), for
five roles, each served by the first of these that works:

========  ==========================================  ==============================
role      cgroup v1 (a hierarchy per controller)       cgroup v2 (one hierarchy)
========  ==========================================  ==============================
pids      ``pids``: pids.max                           ``pids`` controller
cpu       ``cpu``: cpu.shares, cpu.cfs_quota_us        ``cpu``: cpu.weight, cpu.max
cputime   ``cpuacct``: cpuacct.usage                   cpu.stat (core: always there)
memory    ``memory``: limit_in_bytes, memsw             ``memory``: memory.max, swap.max
freezer   ``freezer``: freezer.state                   cgroup.freeze (core, Linux 5.2)
========  ==========================================  ==============================

A hybrid machine (v1 controllers plus a cgroup2 mount at ``/sys/fs/cgroup/unified`` with no
controllers) takes every role it can from v1 and the core ones (cputime, freezer) from v2
where v1 lacks them.

Each arena owns one folder, ``pirate-arena-<pid>``, in each hierarchy it uses, with one
``bot-<n>`` folder per bot process inside. In a v1 hierarchy that folder is made inside the
arena's own cgroup (read from ``/proc/self/cgroup``), so the limits a container or service
puts on the arena also bound its bots; in v2 it is made at the top of the mount: a v2 cgroup
that holds processes (the arena's own) cannot give controllers to its children, the top can.
A v2 controller is used only where the top already enables it for children (``cgroup.
subtree_control``; systemd does): the arena does not change the machine's settings.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

#: the roles a bot's cgroups serve, in the order ``arena doctor`` lists them
ROLES = ("pids", "cpu", "cputime", "memory", "freezer")
#: the v1 controller that serves each role
V1_CONTROLLER = {"pids": "pids", "cpu": "cpu", "cputime": "cpuacct", "memory": "memory", "freezer": "freezer"}
#: v2 roles that need no controller (core files of every non-root cgroup)
V2_CORE = ("cputime", "freezer")
#: v2 controllers the arena enables in its own folder for the bots' folders
V2_CONTROLLERS = ("cpu", "memory", "pids")
#: per version: the freezer's file, and what freezes and thaws
FREEZER = {1: ("freezer.state", b"FROZEN", b"THAWED"), 2: ("cgroup.freeze", b"1", b"0")}
#: the empty cgroup kept frozen beside the bots' in a v1 freezer (see :meth:`CgroupLayout.prepare`)
ANCHOR = "anchor"


@dataclass(frozen=True)
class Hierarchy:
    """One mounted cgroup hierarchy: ``base`` is the cgroup the arena's folder is made in;
    ``controllers`` those it offers (v1: the mount's; v2: those ``base`` enables for children)."""

    version: int
    base: Path
    controllers: frozenset[str] = frozenset()


@dataclass(frozen=True)
class CgroupLayout:
    """The hierarchies this arena's bots get cgroups in, and its folder name in each.

    ``roles`` maps each role that works here to its hierarchy; ``missing`` each role that
    does not to why (for ``arena doctor`` and the tournament's first lines). Plain data that
    pickles, so worker processes get it and take a folder of their own (:meth:`renamed`).
    """

    name: str
    roles: tuple[tuple[str, Hierarchy], ...]
    missing: tuple[tuple[str, str], ...] = ()

    def hierarchy(self, role: str) -> Hierarchy | None:
        for name, hierarchy in self.roles:
            if name == role:
                return hierarchy
        return None

    @property
    def hierarchies(self) -> list[Hierarchy]:
        """Each hierarchy used, once (a bot's process joins a cgroup in every one), the
        freezer's first: a frozen process killed elsewhere stays until its freezer thaws it,
        so the folders are emptied there first and the others then find nothing left."""
        freezer = self.hierarchy("freezer")
        used = dict.fromkeys(hierarchy for _, hierarchy in self.roles)
        return sorted(used, key=lambda hierarchy: hierarchy != freezer)

    def folder(self, hierarchy: Hierarchy) -> Path:
        """This arena's folder in ``hierarchy``."""
        return hierarchy.base / self.name

    def renamed(self, name: str) -> CgroupLayout:
        """The same hierarchies with another folder (a worker's, ``pirate-arena-<its pid>``:
        the pid stays last in the name, where :func:`remove_stale_cgroups` looks for it)."""
        return dataclasses.replace(self, name=name)

    def prepare(self) -> None:
        """Make this arena's folders (again harmless). In v2, enable the controllers in the
        folder for the bots' folders. In a v1 freezer, keep an empty cgroup frozen beside the
        bots': Linux switches its freezer checks on machine-wide (a static key, patched into
        the kernel's code) while any cgroup is frozen and off when none is, which costs about
        180 us per freeze and thaw when they switch it each time, and about 1 us when it stays on.

        Raises :class:`OSError` when a folder cannot be made."""
        for hierarchy in self.hierarchies:
            folder = self.folder(hierarchy)
            folder.mkdir(exist_ok=True)
            if hierarchy.version == 2:
                wanted = [c for c in V2_CONTROLLERS if c in hierarchy.controllers]
                if wanted:
                    (folder / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in wanted))
        freezer = self.hierarchy("freezer")
        if freezer is not None and freezer.version == 1:
            anchor = self.folder(freezer) / ANCHOR
            anchor.mkdir(exist_ok=True)
            (anchor / "freezer.state").write_text("FROZEN")

    def close(self) -> None:
        """Kill what is left in this arena's bot cgroups and remove its folders."""
        for hierarchy in self.hierarchies:
            _remove_folder(self.folder(hierarchy))

    def sweep_stale(self) -> None:
        """Remove the folders of arenas that died without cleaning up (``kill -9``), in
        every hierarchy, after killing what is left in them."""
        for hierarchy in self.hierarchies:
            remove_stale_cgroups(hierarchy.base)


def _remove_folder(folder: Path) -> None:
    try:
        children = [child for child in folder.iterdir() if child.is_dir()]
    except (FileNotFoundError, NotADirectoryError):  # gone: another arena swept it meanwhile
        return
    for child in children:
        kill_leftovers(child)
    try:
        folder.rmdir()
    except OSError:
        pass


def remove_stale_cgroups(base: Path) -> None:
    """Kill what is left in the folders of dead arenas under ``base`` and remove them. An arena
    that is a zombie is dead too: an arena worker killed with its Dask worker is an orphan, and
    the init of a container may never reap it."""
    for folder in base.glob("pirate-arena-*"):
        try:
            pid = int(folder.name.rpartition("-")[2])
            os.kill(pid, 0)
        except ProcessLookupError:
            _remove_folder(folder)
        except (ValueError, PermissionError):
            pass
        else:
            if _zombie(pid):
                _remove_folder(folder)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return False


# -- killing what is in a folder -------------------------------------------------------------

def kill_leftovers(folder: Path, remove: bool = True, thaw: Path | None = None, wait: float = 1.0) -> bool:
    """SIGKILL every process in the cgroup ``folder`` (of a bot, or left by a dead arena) and
    thaw it (``thaw``: the folder whose freezer to thaw; by default ``folder`` when it has one),
    then remove it when ``remove``. ``True`` once it is empty. A v2 cgroup is killed in one
    write (``cgroup.kill``, Linux 5.14)."""
    thaw = thaw if thaw is not None else folder
    kill_file = folder / "cgroup.kill"
    killed = False
    for _ in range(100):  # a fork bomb refills the group; pids.max keeps the rounds few
        try:
            pids = [int(line) for line in (folder / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            pids = []
        if not pids:
            break
        killed = True
        if not _write(kill_file, b"1"):
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for name, _, thawed in FREEZER.values():
            _write(thaw / name, thawed)
    else:
        return False
    if not remove:
        return True
    delay, deadline = 0.001, time.monotonic() + (wait if killed else 0)
    while True:
        try:
            folder.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def _write(path: Path, data: bytes) -> bool:
    """Write ``data`` to the cgroup file ``path`` if it exists (never creates one)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        os.write(fd, data)
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


# -- finding the hierarchies -------------------------------------------------------------------

@dataclass(frozen=True)
class Mount:
    """A cgroup mount from ``/proc/self/mountinfo``: its version, where it is mounted, the
    cgroup shown at its mount point (``root``), and (v1) its controllers."""

    version: int
    path: Path
    root: str
    controllers: frozenset[str]


def parse_mounts(mountinfo: str) -> list[Mount]:
    """The cgroup mounts in the text of ``/proc/self/mountinfo``."""
    mounts = []
    for line in mountinfo.splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        tail = fields[fields.index("-") + 1:]
        if len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        path = Path(fields[4].replace("\\040", " "))
        options = set(tail[2].split(","))
        version = 2 if tail[0] == "cgroup2" else 1
        controllers = frozenset(options & set(V1_CONTROLLER.values())) if version == 1 else frozenset()
        mounts.append(Mount(version, path, fields[3], controllers))
    return mounts


def parse_own_cgroups(text: str) -> dict[str, str]:
    """The calling process's cgroup per v1 controller, and under ``""`` its v2 cgroup, from
    the text of ``/proc/self/cgroup``."""
    own = {}
    for line in text.splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            own[controller] = path
    return own


def _base(mount: Mount, own: str | None) -> Path:
    """The arena's own cgroup in ``mount`` (where its folder goes in v1), or the mount point
    where the arena's cgroup is not below what the mount shows."""
    if own is None:
        return mount.path
    root = mount.root.rstrip("/") + "/"
    if not (own.rstrip("/") + "/").startswith(root):
        return mount.path
    inside = own[len(root):].strip("/")
    return mount.path / inside if inside else mount.path


def _v2_enabled(path: Path) -> frozenset[str]:
    try:
        return frozenset((path / "cgroup.subtree_control").read_text().split())
    except OSError:
        return frozenset()


def plan_layout(mounts: Iterable[Mount], own: dict[str, str], name: str) -> CgroupLayout:
    """Which hierarchy serves each role, from the mounts and the arena's own cgroups (nothing
    is checked for writing yet: :func:`find_cgroups` does that)."""
    roles: dict[str, Hierarchy] = {}
    missing: dict[str, str] = {}
    v1 = {}
    v2 = None
    for mount in mounts:
        if mount.version == 1 and mount.controllers:
            hierarchy = Hierarchy(1, _base(mount, own.get(min(mount.controllers))), mount.controllers)
            for controller in mount.controllers:
                v1.setdefault(controller, hierarchy)
        elif mount.version == 2 and v2 is None:
            v2 = Hierarchy(2, mount.path, _v2_enabled(mount.path))
    for role in ROLES:
        controller = V1_CONTROLLER[role]
        if controller in v1:
            roles[role] = v1[controller]
        elif v2 is not None and (role in V2_CORE or role in v2.controllers):
            roles[role] = v2
        elif v2 is not None:
            missing[role] = (f"the cgroup v2 controller {role!r} is not enabled for children of {v2.base}; "
                             f"enable it: echo +{role} > {v2.base / 'cgroup.subtree_control'}")
        else:
            missing[role] = f"no cgroup {controller!r} controller is mounted here"
    return CgroupLayout(name, tuple(roles.items()), tuple(missing.items()))


def find_cgroups(name: str | None = None) -> CgroupLayout | None:
    """This machine's cgroup layout for an arena folder ``name`` (default
    ``pirate-arena-<pid>``), with the folders made and checked (:meth:`CgroupLayout.prepare`);
    ``None`` where no cgroup at all can be used (not root, no cgroup filesystem). A role whose
    hierarchy cannot be written is listed in ``missing``."""
    name = name or f"pirate-arena-{os.getpid()}"
    try:
        mounts = parse_mounts(Path("/proc/self/mountinfo").read_text())
        own = parse_own_cgroups(Path("/proc/self/cgroup").read_text())
    except (OSError, ValueError):
        return None
    layout = plan_layout(mounts, own, name)
    roles, missing = [], list(layout.missing)
    for role, hierarchy in layout.roles:
        problem = _unwritable(layout, hierarchy, role)
        if problem is None:
            roles.append((role, hierarchy))
        else:
            missing.append((role, problem))
    layout = dataclasses.replace(layout, roles=tuple(roles), missing=tuple(missing))
    if not roles:
        layout.close()
        return None
    layout.prepare()
    return layout


def _unwritable(layout: CgroupLayout, hierarchy: Hierarchy, role: str) -> str | None:
    """Why ``role`` cannot be used in ``hierarchy`` (its folder cannot be made, or a v2
    folder lacks the role's file), or ``None``."""
    folder = layout.folder(hierarchy)
    try:
        folder.mkdir(exist_ok=True)
        if hierarchy.version == 2:
            single = dataclasses.replace(layout, roles=((role, hierarchy),))
            single.prepare()
            probe = folder / "probe"
            probe.mkdir(exist_ok=True)
            try:
                needed = {"cputime": "cpu.stat", "freezer": "cgroup.freeze", "cpu": "cpu.max",
                          "memory": "memory.max", "pids": "pids.max"}[role]
                if not (probe / needed).exists():
                    return f"{probe / needed} does not exist (Linux 5.2 or later has it)"
            finally:
                probe.rmdir()
    except OSError as error:
        return f"cannot make {folder}: {error.strerror or error} (the arena must run as root)"
    return None
