"""The sandbox around a bot process: resource limits, an unprivileged user, bubblewrap.

Layers, each used when the machine allows it (``arena doctor`` reports which are active):

1. Always: a new session (own process group), resource limits (address space, CPU time,
   open files, file size, no core dumps), an environment reduced to what the manifest names,
   stderr captured and capped; forked from a thread that lives as long as the arena and
   killed when the arena's process ends, however it ends (``_spawn``).
1b. Without root, where the kernel allows: a user namespace of its own (``_userns``), in which
   ``RLIMIT_NPROC`` caps the bot's processes alone (outside one it would count every task of
   the user: the arena's threads, the user's browser), and which no process of the bot can
   leave, so all of them can be found and killed.
2. Where cgroups are writable (root; ``_cgroups``, ``_botcgroup``): every bot process and all
   its descendants live in cgroups of their own, which cap their number (a fork bomb stops
   there), give every bot the same CPU weight and at most one core, freeze the bot while it is
   not on move, count its CPU time and its memory (tmpfs included) together, and let the arena
   kill every one of them, whatever they did to their session or group.
3. When the arena runs as root: every bot process runs under its own unprivileged uid, leased
   machine-wide (``_uids``), so it cannot read files only the arena may read (the results
   database and logs are created ``0600``), cannot signal other bots or other arenas' bots,
   its process limit counts only its own processes, and everything it started can be killed
   by uid even if it left the process group. A bot whose program lives below a folder other
   users cannot enter (pyenv under ``/root``) gets a private mount view that shows it only
   what it needs (``_mounts``). A bot that still cannot run under another uid is refused
   (:class:`SandboxError`) unless the organiser allows root bots (``--allow-root-bots``).
4. When bubblewrap (``bwrap``) works: no network, a read-only view of the filesystem with a
   private ``/tmp``, its own PID namespace (children die with it, even after ``setsid``; its
   init is killed when the bot's slot ends or the arena's process does, which ends them all),
   and the tournament file, database and logs hidden. As root on Linux 6.12+ with
   ``mkfs.erofs``, each folder of that view is an image mounted for the bot alone
   (``_images``, through :meth:`Sandbox.prepare_view`): no inode, and so no cached page or
   name or futex, shared with another bot.
5. On x86_64 and aarch64: a seccomp filter (``_seccomp``) refuses the system calls that would
   let a bot reach the network through its own stdout socket, talk to another bot through
   locks or watches on a file both can read, or leave its namespaces. Bubblewrap installs it
   (``--seccomp``) just before it runs the bot; without bubblewrap :meth:`Sandbox.preexec`
   installs it as its last step.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import resource
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ._botcgroup import BotCgroup
from ._cgroups import CgroupLayout
from ._images import Image, bound, image_of, mount_images, through_images
from ._limits import Limits
from ._loopback import PrivateLoopback
from ._mounts import MountPlan, plan_mounts
from ._plan import declare_view
from ._protections import ProtectionRows
from ._resident import keep_resident, lock_resident, state_folder
from ._seccomp import filter_fd, filter_installer
from ._synthetic import data_arguments, private_files
from ._uids import UidAllocator
from ._userns import enter_own_namespace
from ._view import bot_path, etc_files, view, within

class SandboxError(Exception):
    """A bot cannot be confined as this arena requires; the message says what to do."""


@dataclass(frozen=True)
class Confinement:
    """What one bot gets from the uid layer on this machine (``arena doctor BOT`` prints it).

    ``own_uid``: it runs under its own leased uid (``plan``: the private view of the
    filesystem that needs, possibly empty). Otherwise it keeps the arena's uid, ``why`` says
    why, and ``refused`` is true when that uid is root and the organiser did not allow it.
    """

    own_uid: bool
    why: str
    plan: MountPlan = MountPlan()
    refused: bool = False


@dataclass(frozen=True)
class PreparedView:
    """One bot's view, made ready before it starts (:meth:`Sandbox.prepare_view`): bubblewrap's
    arguments for it, and the images its child mounts (:func:`arena.sandbox._images.mount_images`)."""

    arguments: tuple[str, ...]
    images: tuple[Image, ...] = ()


@dataclass
class Sandbox(ProtectionRows):
    """How bot processes are confined on this machine. Create with
    :func:`~._detect.detect_sandbox`; ``arena doctor``'s rows of it: :class:`~._protections.ProtectionRows`.

    ``allow_root``: bots that cannot run under their own uid keep root (``--allow-root-bots``)
    instead of being refused; their names are collected in ``root_bots`` for the warning.
    """

    bwrap: str | None = None
    drop_privileges: bool = False
    hidden_paths: tuple[Path, ...] = ()
    #: the cgroup hierarchies bots get cgroups in and this arena's folder there, or None
    cgroups: CgroupLayout | None = None
    #: private mount namespaces work here (root), so bots under /root can get their own uid
    namespaces: bool = False
    allow_root: bool = False
    #: bubblewrap takes ``--size`` (0.5 and later): the bot's /tmp and /dev/shm are capped
    bwrap_sizes: bool = True
    #: this arena may make its own network namespace for the bots' stdout sockets (root)
    private_network: bool = False
    #: without root: each bot process starts in a user namespace of its own (``_userns``), in
    #: which its process cap counts its own processes alone
    own_namespaces: bool = False
    #: where bubblewrap is installed but ``--sandbox none`` chose not to use it: its path
    bwrap_declined: str | None = None
    #: why the arena cannot answer bots' ``sysinfo`` calls here (``_sysinfo``), or None
    sysinfo_missing: str | None = "not checked (a Sandbox made without detect_sandbox)"
    #: the system-call filter every bot runs under (``_seccomp``), or None, and then why not
    seccomp: bytes | None = None
    seccomp_missing: str = "not checked (a Sandbox made without detect_sandbox)"
    #: why the folders of a bot's view cannot be images of their own here (``_images``), or
    #: None where they are
    images_missing: str | None = "not checked (a Sandbox made without detect_sandbox)"
    uids: UidAllocator = field(default_factory=UidAllocator, repr=False)
    root_bots: set[str] = field(default_factory=set, repr=False)
    #: the organiser's ceilings for the cgroup limits: a manifest may ask less, never more
    max_cpus: float = 1.0
    max_memory_mb: int = 2048
    _ids: itertools.count = field(default_factory=lambda: itertools.count(), repr=False)
    #: the namespace itself, made in this process on first use (``loopback``)
    _loopback: list[PrivateLoopback | None] = field(default_factory=list, repr=False)

    @property
    def loopback(self) -> PrivateLoopback | None:
        """The private loopback in which this process makes bots' stdout sockets (``_loopback``),
        or ``None`` where it cannot have one. Made once per process, on first use: a worker
        process makes its own."""
        if not self.private_network:
            return None
        if not self._loopback:
            self._loopback.append(PrivateLoopback.create())
        return self._loopback[0]

    @property
    def cgroup_root(self) -> Path | None:
        """This arena's folder in its first cgroup hierarchy (the pids one), or None."""
        if self.cgroups is None:
            return None
        hierarchy = self.cgroups.hierarchy("pids") or self.cgroups.hierarchies[0]
        return self.cgroups.folder(hierarchy)

    def with_hidden(self, paths: Sequence[Path]) -> Sandbox:
        """A sandbox that also hides ``paths`` (files or folders) from bots (sharing the rest).
        A folder holding a bot's own is hidden from it but for the entry leading to its folder
        (a ladder hides its whole submissions folder: each bot sees its own submission only)."""
        return dataclasses.replace(self, hidden_paths=self.hidden_paths + tuple(Path(p).resolve() for p in paths))

    def new_cgroup(self, limits: Limits) -> BotCgroup | None:
        """Fresh cgroups for one bot process, or ``None`` where cgroups are not available.

        Its CPU quota and memory limit are the manifest's ``cpus`` and ``memory_mb``, at most
        the organiser's :attr:`max_cpus` and :attr:`max_memory_mb` (also where the manifest
        asks for none)."""
        if self.cgroups is None:
            return None
        try:
            return BotCgroup(self.cgroups, f"bot-{next(self._ids)}", processes=limits.processes,
                             cpus=min(limits.cpus or self.max_cpus, self.max_cpus),
                             memory_mb=min(limits.memory_mb or self.max_memory_mb, self.max_memory_mb),
                             cpu_s=limits.cpu_s)
        except OSError:
            return None

    def tmpfs_bytes(self, limits: Limits) -> int | None:
        """The size for each of a bot's private tmpfs mounts (``/tmp``, ``/dev/shm``:
        bubblewrap's ``--size``), or ``None`` for the kernel's default (half the machine's RAM).

        Where a memory cgroup serves, the pages of both count against the bot's memory limit
        anyway: each may be that large, and a full one is ``ENOSPC`` before it is an OOM kill.
        Elsewhere nothing else bounds them: each gets a quarter of ``memory_mb``."""
        if self.cgroups is not None and self.cgroups.hierarchy("memory") is not None:
            return min(limits.memory_mb or self.max_memory_mb, self.max_memory_mb) * 2**20
        return limits.memory_mb * 2**20 // 4 if limits.memory_mb else None

    def confinement(self, argv: Sequence[str], cwd: Path | None, env: Mapping[str, str],
                    view_argv: Sequence[str] = ()) -> Confinement:
        """Whether a bot started as ``argv`` in ``cwd`` can run under its own uid, and how
        (``view_argv``: another command whose paths it is shown too, as in :meth:`command`)."""
        if not self.drop_privileges:
            return Confinement(False, "the arena does not run as root, so bots share its uid")
        cwd = Path(os.path.abspath(cwd or Path.cwd()))
        declared = declare_view(argv, cwd, env, _also(view_argv, cwd, env))
        plan, problems = plan_mounts(list(declared.required), list(declared.optional), cwd, declared.program)
        if problems:
            why = f"{problems[0]}, so it cannot run under another uid"
        elif plan and not self.namespaces:
            why = (f"{plan.covers[0]} is closed to other users and this machine allows no private mount "
                   f"namespace, so it cannot run under another uid")
        else:
            shown = f"of {', '.join(map(str, plan.covers))} it sees only what it needs" if plan else "nothing hidden"
            return Confinement(True, shown, plan)
        return Confinement(False, why, refused=not self.allow_root)  # as root it needs no view

    def check(self, name: str, argv: Sequence[str], cwd: Path | None, env: Mapping[str, str],
              view_argv: Sequence[str] = ()) -> Confinement:
        """:meth:`confinement`, raising :class:`SandboxError` where the bot would run as root
        without the organiser's consent (and noting it in ``root_bots`` where it has it)."""
        confinement = self.confinement(argv, cwd, env, view_argv)
        if confinement.refused:
            raise SandboxError(f"bot {name!r} would run as root: {confinement.why}; make its program and "
                               f"folder readable by other users, or pass --allow-root-bots to run it as root")
        if self.drop_privileges and not confinement.own_uid:
            self.root_bots.add(name)
        return confinement

    def command(self, argv: Sequence[str], cwd: Path | None, uid: int | None = None,
                plan: MountPlan = MountPlan(), writable: Sequence[Path] = (),
                env: Mapping[str, str] | None = None, tmp_bytes: int | None = None,
                seccomp_fd: int | None = None, view_argv: Sequence[str] = (),
                whole_system: bool = False, prepared: PreparedView | None = None,
                info_fd: int | None = None, data: Sequence[str] = ()) -> list[str]:
        """``argv`` wrapped in bubblewrap when available, which shows it only what it needs
        (``_view``; run as ``uid`` inside ``plan``'s view; ``env``: the environment it is
        started with, to find its program); ``writable`` folders stay writable inside (a
        ladder's build step writes its bot folder); ``tmp_bytes``: the size of its private
        ``/tmp`` and ``/dev/shm``; ``seccomp_fd`` (from :meth:`seccomp_fd`) is the filter
        bubblewrap installs; ``view_argv``: another command whose paths it is shown too
        (``arena doctor``'s probe, in the view a manifest's bot gets); ``whole_system``:
        ``/usr`` and the like shown whole (a ladder's build step runs compilers), not only the
        files the program needs of them; ``prepared``: the view :meth:`prepare_view` made for
        these same arguments (a bot's), used as it is; ``info_fd``: where bubblewrap writes
        the pid of the sandbox's init (``{"child-pid": N}``), whose death ends every process
        of the sandbox; ``data``: the files written for it alone (:meth:`private_files`).

        ``--die-with-parent``: the process is started by ``_spawn``, from a thread that lives
        as long as the arena, so the signal comes when the arena's process ends, and bubblewrap
        passes it on to the sandbox's init."""
        if self.bwrap is None:
            return list(argv)
        inside = Path(os.path.abspath(cwd or Path.cwd()))
        arguments = (list(prepared.arguments) if prepared is not None else
                     self._view(argv, inside, env, uid, plan, tmp_bytes, view_argv, whole_system))
        wrapped = [self.bwrap, "--new-session", "--die-with-parent", "--unshare-all", *arguments]
        if info_fd is not None:
            wrapped += ["--info-fd", str(info_fd)]
        for path in writable:
            wrapped += ["--bind", str(path), str(path)]
        wrapped += data
        if seccomp_fd is not None:
            wrapped += ["--seccomp", str(seccomp_fd)]
        # Last: the root's own folders (mount points of all the above) stay as they are.
        wrapped += ["--remount-ro", "/", "--chdir", str(inside), "--"]
        return wrapped + list(argv)

    def _view(self, argv: Sequence[str], inside: Path, env: Mapping[str, str] | None, uid: int | None,
              plan: MountPlan, tmp_bytes: int | None, view_argv: Sequence[str], whole_system: bool) -> list[str]:
        env = os.environ if env is None else env
        return view(argv, inside, env, uid, plan, self.hidden_paths, tmp_bytes, self.bwrap_sizes,
                    _also(view_argv, inside, env), whole_system)

    def prepare_view(self, argv: Sequence[str], cwd: Path | None, env: Mapping[str, str], uid: int | None = None,
                     plan: MountPlan = MountPlan(), tmp_bytes: int | None = None,
                     view_argv: Sequence[str] = ()) -> PreparedView | None:
        """Before a bot starts under bubblewrap (``None`` without it), its view made ready for
        :meth:`command` and :meth:`preexec`: each folder of it an image of its own where this
        machine allows (``_images``: no cache of inodes shared with another bot), and every
        file it can read still shared (the images themselves, the files bound one by one)
        locked or read into the page cache (``_resident``: timing a read then tells a bot
        nothing of what another read). Slow the first time on a machine (images are made,
        files come from disk); run it in a thread."""
        if self.bwrap is None:
            return None
        inside = Path(os.path.abspath(cwd or Path.cwd()))
        arguments = self._view(argv, inside, env, uid, plan, tmp_bytes, view_argv, False)
        images: list[Image] = []
        if self.images_missing is None:
            farms = str(state_folder() / "farms") + "/"
            hidden_folders = [path for path in self.hidden_paths if path.is_dir()]
            for source, _ in bound(arguments):
                if source == "/dev/null" or not os.path.isdir(source):
                    continue
                if any(_strictly_within(folder, Path(source)) and _strictly_within(inside, folder)
                       for folder in hidden_folders):
                    continue  # a folder shown again inside a hidden one (a ladder's own submission)
                image = image_of(Path(source), self.hidden_paths, unchanging=source.startswith(farms))
                if image is not None:
                    images.append(image)
            arguments = through_images(arguments, images)
        # What is still shared: the images, and what is bound as it is but the root or a
        # top-level folder whole (no view binds one but one broken on purpose; each file of the
        # machine locked would exhaust the process's mappings).
        mounted = {str(image.mount_point) for image in images}
        shared = [*(image.file for image in images),
                  *(Path(source) for source, _ in bound(arguments)
                    if source != "/dev/null" and source not in mounted and len(Path(source).parts) > 2)]
        if lock_resident(shared) is None:
            keep_resident(shared)
        return PreparedView(tuple(arguments), tuple(images))

    def private_files(self, uid: int | None) -> tuple[list[str], list[int]]:
        """For one bot started under bubblewrap as ``uid`` (``None``: the arena's): the
        ``/etc`` files and ``/proc`` counters written for it alone (``_synthetic``), as
        :meth:`command`'s ``data`` and the descriptors to pass (the caller closes them once the
        process has started). Nothing without bubblewrap."""
        if self.bwrap is None:
            return [], []
        ids = (uid, uid) if uid is not None else (os.getuid(), os.getgid())
        return data_arguments(private_files(etc_files(), *ids))

    def environment(self, env: dict[str, str], argv: Sequence[str] = (), cwd: Path | None = None) -> dict[str, str]:
        """The environment a bot started as ``argv`` in ``cwd`` gets: under bubblewrap its home
        and temporary folder are its private ``/tmp``, and its ``PATH`` names only folders of
        its view (not the organiser's own)."""
        if self.bwrap is not None:
            path = bot_path(argv, Path(os.path.abspath(cwd or Path.cwd())), env)
            env = {**env, "HOME": "/tmp", "TMPDIR": "/tmp", "PATH": path}
        return env

    def seccomp_fd(self) -> int | None:
        """For one bot started under bubblewrap: a new descriptor holding the filter, for
        :meth:`command` and the process's ``pass_fds``; the caller closes it once the process
        has started. ``None`` without bubblewrap (:meth:`preexec` installs it) or filter."""
        return filter_fd(self.seccomp) if self.bwrap is not None and self.seccomp is not None else None

    def preexec(self, limits: Limits, uid: int | None, cgroup: BotCgroup | None,
                plan: MountPlan = MountPlan(), cwd: Path | None = None,
                seccomp: bool = False, images: Sequence[Image] = (),
                sysinfo: Callable[[], None] | None = None) -> Callable[[], None]:
        """The child's set-up before exec. ``seccomp``: a bot, so without bubblewrap install
        the filter last (under bubblewrap, :meth:`seccomp_fd` hands it to bubblewrap, whose
        own set-up needs calls the filter refuses); ``images``: those of its prepared view
        (:meth:`prepare_view`), mounted in a mount namespace of its own; ``sysinfo``: the
        installer of the filter that hands its ``sysinfo`` calls to the arena (``_sysinfo``)."""
        install = (filter_installer(self.seccomp)
                   if seccomp and self.bwrap is None and self.seccomp is not None else None)

        # Order matters: join the cgroup and build the view while still root, then limit,
        # then give up root, then the filter (the view's mounts are among what it refuses).
        def setup() -> None:
            if cgroup is not None:
                cgroup.join()
            if plan:
                plan.apply()
                if cwd is not None:
                    os.chdir(cwd)  # the recreated folder, not the real one hidden under the tmpfs
            mount_images(images)
            own_namespace = uid is None and self.own_namespaces
            if own_namespace:
                enter_own_namespace()  # before the process cap: see _userns
            limits.apply(address_space=cgroup is None or not cgroup.has("memory"),
                         cpu_time=cgroup is None or not cgroup.has("cputime"), processes=own_namespace)
            if uid is not None:
                if limits.processes is not None:
                    resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
                os.setgroups([])
                os.setgid(uid)
                os.setuid(uid)
            if sysinfo is not None:
                sysinfo()
            if install is not None:
                install()
        return setup

    def close(self) -> None:
        """Remove this arena's cgroup folders (each bot's own is removed as it stops; this
        sweeps any that could not be, and the arena's folder)."""
        for loopback in self._loopback:
            if loopback is not None:
                loopback.close()
        self._loopback.clear()
        if self.cgroups is not None:
            self.cgroups.close()


def _also(view_argv: Sequence[str], cwd: Path, env: Mapping[str, str]) -> tuple[Path, ...]:
    """What another command shown with a bot's (``arena doctor``'s probe) needs: its plan's."""
    return declare_view(view_argv, cwd, env).declared if view_argv else ()


def _strictly_within(path: Path, folder: Path) -> bool:
    """Whether ``path`` lies inside ``folder`` and is not ``folder`` itself."""
    return path != folder and within(path, folder)


