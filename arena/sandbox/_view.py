"""What a bot sees of the filesystem under bubblewrap: what its program needs, no more.

:func:`view` gives bubblewrap's mount arguments for one bot, from its plan (``_plan``: what it
declares and its runtime's files, decided there alone); this module lays the plan out:

- read-only, of the system only its runtime (``_runtimes``: the program its command names, a
  script's interpreter, a system runtime's folder, as a JDK, and the libraries those load, or
  for a native bot the C and C++ libraries; never what its own files name, which is only
  checked against it), with ``/bin``, ``/lib*`` as the links into ``/usr`` they are; the files of
  ``/etc`` that runtimes read (the dynamic linker's cache, users and groups, time zone,
  Debian's alternatives, the JVM's and Python's configuration: :data:`ETC`); the CPU lists of
  ``/sys`` that runtimes read to count cores. ``whole_system`` (a ladder's build step, which
  runs compilers) shows ``/usr`` whole instead;
- of the arena's Python, when it runs that, what ``_python`` names (the standard library, the
  packages pirate-arena depends on); these and the system's files come from a farm of hard
  links made once per machine (``_farm``), a handful of mounts;
- read-only, exactly the paths the bot needs, each as itself (never the folder holding it):
  its folder, the files named on its command line with their folder (the file alone where
  that folder is shared by every user, as ``/tmp``, is a top-level one or a home; a folder
  named there is not shown), its program's installation (the folder holding the program's
  ``bin/``), the arena's packages a Python bot imports, ``PYTHONPATH``/``NODE_PATH`` entries;
  never ``/`` or a top-level folder whole (what a manifest may name: ``_widening``);
- private: ``/dev`` (null, zero, random, urandom, tty...), ``/proc`` of its own PID namespace,
  and size-capped writable ``/tmp`` and ``/dev/shm``; the root and ``/dev`` read-only;
- nothing else: no ``/run`` (where databases, container daemons and Dask schedulers listen),
  ``/var``, ``/home``, ``/root``, ``/sys``, ``/opt``, ``/mnt`` or host's ``/tmp``, but the path
  down to what it is shown.

Paths the organiser hides (the tournament file, the database and logs; a ladder's other
submissions) are covered wherever they fall inside a shown path. Every file of a view is kept
resident in the page cache before the bot starts (``_resident``, through
:meth:`arena.sandbox._sandbox.Sandbox.prepare_view`), and where the machine allows, each folder
of it is an image mounted for that bot alone (``_images``).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from ._farm import farm
from ._mounts import MountPlan
from ._plan import ETC, PACKAGES, PROJECT_ROOT, SYS, etc_files, needed_paths, plan_view, program_path, too_wide
from ._runtimes import SYSTEM, of_the_system, within

__all__ = ["ETC", "PACKAGES", "PROJECT_ROOT", "bot_path", "etc_files", "needed_paths", "program_path", "shown_paths",
           "too_wide", "view", "view_paths", "within"]

#: never shown, whatever a command line names (sockets of the host's services, kernel state)
NEVER = (Path("/run"), Path("/var/run"), Path("/proc"), Path("/sys"), Path("/dev"))


@functools.cache
def _system_arguments(whole: bool = True) -> tuple[str, ...]:
    """The system part of the view (the same for every bot of this machine): ``/usr`` and the
    like whole, or (``whole=False``) only their links (``/bin`` to ``usr/bin``), the files a
    bot needs of them being bound one by one (:func:`view_paths`)."""
    arguments: list[str] = []
    for path in SYSTEM:
        if os.path.islink(path):
            arguments += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path) and whole:
            arguments += ["--ro-bind", path, path]
    for path in etc_files():
        # Its files are written for each bot (``_synthetic``); a link stays the link it is (a
        # runtime reads the time zone's name from /etc/localtime's), what it names is shown.
        if path.is_symlink():
            arguments += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            arguments += ["--ro-bind-try", str(path), str(path)]
    for path in SYS:
        arguments += ["--ro-bind-try", path, path]
    return tuple(arguments)


def _reachable(path: Path, plan: MountPlan) -> bool:
    """Whether a bot uid (running bubblewrap) can reach ``path`` in ``plan``'s view: it is
    shown, and every folder above it is open (folders the plan recreated are)."""
    if not plan.visible(path):
        return False
    for folder in Path(os.path.realpath(path)).parents:
        made = any(within(folder, cover) for cover in plan.covers) and not any(
            within(folder, bind) for bind, _ in plan.binds)
        try:
            if not made and not os.stat(folder).st_mode & 0o001:
                return False
        except OSError:
            return False
    return True


def _shown(paths: Sequence[Path], own_uid: bool, plan: MountPlan, whole_system: bool = True) -> list[Path]:
    """The needed paths to bind, outermost first: existing files and folders outside the
    forbidden places (and, where the system's folders are shown whole, outside those), each
    once (a path inside another is shown by it). A path is taken as written and with its links
    resolved (a library's name and the file it links to); a file's folder is resolved, as the
    system's own links (``/lib`` to ``usr/lib``) are the same in the view."""
    candidates: list[Path] = []
    for path in paths:
        written = Path(os.path.abspath(path))
        if not whole_system and not written.is_dir():
            written = Path(os.path.realpath(written.parent)) / written.name
        for form in (written, Path(os.path.realpath(path))):
            if (whole_system and of_the_system(form)) or any(within(form, never) for never in NEVER):
                continue
            if within(form, Path("/etc")):
                continue  # only the files of :data:`ETC`, bound with the system's part
            if len(form.parts) <= 2:
                continue  # the root or a top-level folder whole (a manifest's PYTHONPATH = "/"): never
            if not (form.is_dir() or form.is_file()):
                continue  # missing, or a socket or device: the bot's own start reports a missing one
            if own_uid and not _reachable(form, plan):
                continue  # bubblewrap runs as the bot's uid: it can bind only what that uid can reach
            candidates.append(form)
    shown: list[Path] = []
    outer: set[str] = set()
    for path in sorted(set(candidates), key=lambda p: (len(p.parts), str(p))):
        text = str(path)
        if not any(text[:at] in outer for at in range(len(text)) if text[at] == "/") and text not in outer:
            shown.append(path)
            outer.add(text)
    return shown


def shown_paths(argv: Sequence[str], cwd: Path, env: Mapping[str, str], also: Sequence[Path] = ()) -> list[Path]:
    """The paths beyond the system's that a bot started as ``argv`` in ``cwd`` is shown (by an
    arena that reaches everything), outermost first: what ``arena doctor``'s probe may find in
    folders it must otherwise not see (the path down to them, and them)."""
    return _shown([*needed_paths(argv, cwd, env), *also], False, MountPlan(), whole_system=True)


def _branches(folder: Path, path: Path) -> list[Path]:
    """The entry of ``folder`` that holds ``path`` (as given and resolved), if any."""
    branches = []
    for candidate in (Path(os.path.abspath(path)), Path(os.path.realpath(path))):
        if folder in candidate.parents:
            branch = folder / candidate.relative_to(folder).parts[0]
            if branch not in branches:
                branches.append(branch)
    return branches


@functools.cache
def _farm_roots() -> tuple[Path, ...]:
    """The folders a farm stands for in a view: the system's (``/usr``, and ``/lib`` and the
    like where they are folders, not links into it) and the arena's Python's prefixes."""
    roots = [Path(path) for path in SYSTEM if os.path.isdir(path) and not os.path.islink(path)]
    roots += [prefix for prefix in dict.fromkeys(map(Path, (sys.prefix, sys.base_prefix, sys.exec_prefix)))
              if not of_the_system(prefix) and not too_wide(prefix)]
    return tuple(roots)


def view_paths(argv: Sequence[str], cwd: Path, env: Mapping[str, str], uid: int | None = None,
               plan: MountPlan = MountPlan(), also: Sequence[Path] = (), whole_system: bool = False) -> list[Path]:
    """The paths a bot's view binds (beside the system's links, ``/etc``'s files and its own
    mounts), outermost first: what its plan (:func:`arena.sandbox._plan.plan_view`) declares
    and, unless the system's folders are shown whole, its runtime's files and folders, as far
    as ``uid`` can reach them in ``plan``'s mounts. Raises
    :class:`~arena.sandbox._folders.ViewRefused` as the plan does."""
    planned = plan_view(argv, cwd, env, also, whole_system)
    # Keyed by whether it has a uid of its own, never by which: what it binds is what any bot
    # uid can reach (a path open to all users), so a bot started again under another uid costs
    # nothing (~1 s of CPU at each start of a bot crashing in game after game, issue 47).
    return list(_bound(planned.declared + planned.system, uid is not None, plan, whole_system))


@functools.lru_cache(maxsize=128)
def _bound(paths: tuple[Path, ...], own_uid: bool, plan: MountPlan, whole_system: bool) -> tuple[Path, ...]:
    return tuple(_shown(paths, own_uid, plan, whole_system))


def view(argv: Sequence[str], cwd: Path, env: Mapping[str, str], uid: int | None = None,
         plan: MountPlan = MountPlan(), hidden: Sequence[Path] = (), tmp_bytes: int | None = None,
         sizes: bool = True, also: Sequence[Path] = (), whole_system: bool = False) -> list[str]:
    """bubblewrap's arguments for the filesystem of a bot started as ``argv`` in ``cwd`` (see
    the module's docstring). ``uid``/``plan``: the bot's own uid and private mount view, when
    it has them; ``hidden``: paths to cover; ``tmp_bytes``: the size of its ``/tmp`` and
    ``/dev/shm`` (``sizes``: whether this bubblewrap takes ``--size``); ``also``: more paths
    it needs (``arena doctor``'s probe, shown what a manifest's bot would be);
    ``whole_system``: ``/usr`` and the like whole (a ladder's build step, which runs
    compilers), instead of the files the bot needs of them."""
    size = ["--size", str(tmp_bytes)] if tmp_bytes and sizes else []
    arguments = [*_system_arguments(whole_system), "--dev", "/dev", "--proc", "/proc",
                 *size, "--tmpfs", "/tmp", *size, "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    inside = Path(os.path.abspath(cwd))
    shown = view_paths(argv, cwd, env, uid, plan, also, whole_system)
    for folder in (path for path in hidden if path.is_dir()):
        # Inside a hidden folder (a ladder's submissions) only the bot's own entry is shown:
        # a file named on its command line may lie in another's.
        own = _branches(folder, inside)
        shown = [path for path in shown if path == folder or not within(path, folder)
                 or any(within(path, branch) for branch in own)]
    if whole_system:
        binds = shown
    else:
        # The system's files and the arena's Python come from a farm of them (``_farm``: a
        # mount a top folder, not one a file); links stay links there, so a program run
        # through one finds its libraries from where it really is ($ORIGIN: java's
        # ../lib/libjli.so), as on the host.
        roots = _farm_roots()
        farmed = [path for path in shown if any(within(path, root) for root in roots)]
        in_farm = set(farmed)
        binds = [path for path in shown if path not in in_farm]
        if farmed:
            where = farm(farmed, ())
            for root in roots:
                if (where / str(root).lstrip("/")).exists():
                    arguments += ["--ro-bind", str(where / str(root).lstrip("/")), str(root)]
    for path in binds:
        arguments += ["--ro-bind", str(path), str(path)]
    for path in hidden:
        if not any(within(path, outer) for outer in shown) or not plan.visible(path):
            continue  # not in the bot's view at all
        if path.is_dir():
            if inside == path:
                continue  # the bot's own folder
            arguments += ["--tmpfs", str(path)]
            # A folder holding the bot's (a ladder's submissions, also those made after the
            # bot started): hidden but for the entry holding the bot's folder, shown again
            # read-only. Only that: a path on the command line could name another's entry.
            for branch in _branches(path, inside):
                arguments += ["--ro-bind", str(branch), str(branch)]
        else:
            arguments += ["--ro-bind", "/dev/null", str(path)]
    return arguments


def bot_path(argv: Sequence[str], cwd: Path, env: Mapping[str, str]) -> str:
    """A bot's ``PATH`` in its view: the folder its program was found in (when outside the
    system's), then the organiser's ``PATH`` entries that lie in the system's folders."""
    entries = []
    program = program_path(argv, cwd, env)
    if program is not None and not of_the_system(Path(os.path.abspath(program))):
        entries.append(str(Path(os.path.abspath(program)).parent))
    for entry in env.get("PATH", "").split(os.pathsep):
        if entry and os.path.isabs(entry) and of_the_system(Path(entry)) and not within(Path(entry), Path("/etc")):
            entries.append(entry)
    return os.pathsep.join(dict.fromkeys(entries or ["/usr/local/bin", "/usr/bin", "/bin"]))
