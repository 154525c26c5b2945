"""What a bot sees of the filesystem under bubblewrap: what its program needs, no more.

:func:`view` gives bubblewrap's mount arguments for one bot:

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
import glob
import os
import stat
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from ._folders import ViewRefused
from ._farm import farm
from ._mounts import MountPlan
from ._python import python_folders, python_view
from ._libraries import script_interpreters
from ._runtimes import SYSTEM, arenas_python as _arenas_python, of_the_system, refuse_outside, runtime_of, within

#: what runtimes read of /etc: the dynamic linker, getpwuid (Java's user.name), name service
#: and time zone, Debian's alternatives (/usr/bin/java links through them), OpenSSL's
#: configuration (Node reads it at start), and patterns for the JVM's and Python's own folders
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "ld.so.preload", "localtime", "timezone",
       "nsswitch.conf", "passwd", "group", "hosts", "host.conf", "gai.conf", "alternatives",
       "os-release", "locale.alias", "ssl/openssl.cnf", "java-*", "python3*")
#: what runtimes read of /sys to count CPUs (glibc's get_nprocs, libuv)
SYS = ("/sys/devices/system/cpu/online", "/sys/devices/system/cpu/possible", "/sys/devices/system/cpu/present")
#: small files of the system every runtime may read: OpenSSL's configuration (Node reads it at
#: start), the time zone /etc/localtime names
SYSTEM_FILES = ("/usr/lib/ssl/openssl.cnf", os.path.realpath("/etc/localtime"))
#: never shown, whatever a command line names (sockets of the host's services, kernel state)
NEVER = (Path("/run"), Path("/var/run"), Path("/proc"), Path("/sys"), Path("/dev"))
#: the folder holding the engines/protocol/bots/envs packages; a Python bot imports them
PROJECT_ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engines", "protocol", "bots", "envs")


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


@functools.cache
def etc_files() -> tuple[Path, ...]:
    """The files (and folders) of ``/etc`` every view shows (:data:`ETC`)."""
    return tuple(Path(path) for pattern in ETC for path in sorted(glob.glob(os.path.join("/etc", pattern))))


def program_path(argv: Sequence[str], cwd: Path, env: Mapping[str, str]) -> Path | None:
    """The file ``argv[0]`` names, as exec will find it (a relative path is from ``cwd``)."""
    import shutil

    if not argv:
        return None
    if "/" in argv[0]:
        return cwd / argv[0]
    found = shutil.which(argv[0], path=env.get("PATH", os.environ.get("PATH")))
    return Path(found) if found else None


def links_between(path: Path) -> list[Path]:
    """The links ``path`` leads through to the file it names, each as written (a virtual
    environment's ``bin/python`` to ``python3.11`` beside it, that to the interpreter): a view
    showing only the first and the last would leave the first dangling."""
    links: list[Path] = []
    current = Path(os.path.abspath(path))
    while current.is_symlink() and len(links) < 40:
        current = Path(os.path.abspath(current.parent / os.readlink(current)))
        links.append(current)
    return links


def installation(program: Path) -> list[Path]:
    """The folders a program needs beside itself: the arena's Python prefixes when it is the
    arena's interpreter; otherwise the folder above its ``bin/`` (``/opt/node`` for
    ``/opt/node/bin/node``), or its own folder. Nothing for a program of the system."""
    real = Path(os.path.realpath(program))
    if real == Path(os.path.realpath(sys.executable)):
        return _python_installation()
    folders = []
    for path in (Path(os.path.abspath(program)), real):
        if not of_the_system(path):
            folders.append(path.parent.parent if path.parent.name == "bin" else path.parent)
    return folders


@functools.cache
def _python_installation() -> list[Path]:
    """The arena's Python: its prefixes, or where a prefix is the system's (``/usr``: Debian's
    Python), the folders of its module path that lie there (never ``/usr`` whole)."""
    prefixes = list(dict.fromkeys(Path(prefix) for prefix in (sys.prefix, sys.base_prefix, sys.exec_prefix)))
    folders = [prefix for prefix in prefixes if not of_the_system(prefix)]
    system = [prefix for prefix in prefixes if of_the_system(prefix)]
    folders += [Path(entry) for entry in sys.path if entry and os.path.isdir(entry)
                and any(within(Path(entry), prefix) for prefix in system) and Path(entry) not in system]
    return folders


def needed_paths(argv: Sequence[str], cwd: Path, env: Mapping[str, str], whole_system: bool = False) -> list[Path]:
    """Every path a bot needs beyond the system (see the module's docstring), as given; of the
    arena's Python, what :func:`arena.sandbox._python.python_view` names (its prefixes whole
    with ``whole_system``, as a build step gets them)."""
    paths = [cwd]
    program = program_path(argv, cwd, env)
    if program is not None:
        python = _arenas_python(program) and not whole_system
        paths += [program, *links_between(program), *(python_view() if python else installation(program))]
    # Files named on the command line, with their folder (a script imports the modules
    # beside it); a folder named there is not shown (a manifest naming /home or /var must not
    # open them).
    paths += [_with_siblings(Path(arg)) for arg in argv[1:] if os.path.isabs(arg) and os.path.isfile(arg)]
    paths += [PROJECT_ROOT / name for name in PACKAGES]
    paths += [Path(entry) for key in ("PYTHONPATH", "NODE_PATH")
              for entry in env.get(key, "").split(os.pathsep) if os.path.isabs(entry)]
    return paths


def too_wide(path: Path) -> str | None:
    """Why ``path`` may not be shown whole to a bot (it holds more than one bot's own), or
    ``None``: the root, a top-level folder (``/home``, ``/opt``, ``/tmp``), a home folder
    (``/home/alice``, ``/root``, the arena's own), or a folder every user may write (sticky and
    world-writable, as ``/tmp`` and ``/var/tmp``)."""
    path = Path(os.path.abspath(path))
    if path == Path("/"):
        return "the root of the filesystem"
    if len(path.parts) <= 2:
        return "a top-level folder"
    if path.parent == Path("/home") or path in (Path("/root"), Path(os.path.expanduser("~"))):
        return "a home folder"
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if mode & stat.S_ISVTX and mode & stat.S_IWOTH:
        return "a folder every user may write"
    return None


def _with_siblings(path: Path) -> Path:
    """The folder of a file named on a command line, or the file alone where that folder is
    more than a script's own (:func:`too_wide`: shared by every user, a top-level folder, a
    home)."""
    folder = Path(os.path.abspath(path)).parent
    return path if too_wide(folder) else folder


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


def _shown(paths: Sequence[Path], uid: int | None, plan: MountPlan, whole_system: bool = True) -> list[Path]:
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
            if uid is not None and not _reachable(form, plan):
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
    return _shown([*needed_paths(argv, cwd, env), *also], None, MountPlan(), whole_system=True)


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
    """See :func:`_view_paths`; the same bot started again (a tournament starts each entrant
    many times) costs nothing."""
    return list(_view_paths(tuple(argv), Path(cwd), tuple(sorted(env.items())), uid, plan, tuple(also), whole_system))


@functools.lru_cache(maxsize=128)
def _view_paths(argv: tuple[str, ...], cwd: Path, env_items: tuple[tuple[str, str], ...], uid: int | None,
                plan: MountPlan, also: tuple[Path, ...], whole_system: bool) -> tuple[Path, ...]:
    """The paths a bot's view binds (beside the system's links, ``/etc``'s files and its own
    mounts), outermost first: what :func:`needed_paths` names (and ``also``), and unless the
    system's folders are shown whole, its runtime's files and folders
    (:func:`arena.sandbox._runtimes.runtime_of`), once its own files are checked against
    them (:func:`arena.sandbox._runtimes.refuse_outside`: :class:`ViewRefused`)."""
    env = dict(env_items)
    paths = [*needed_paths(argv, cwd, env, whole_system), *also]
    if not whole_system:
        program = program_path(argv, cwd, env)
        inside = Path(os.path.abspath(cwd))
        # Its folder's ELF objects are looked at only to check them against its runtime (never
        # a folder of the system's or a shared one, which would take a walk of thousands).
        own = [inside] if inside.is_dir() and not of_the_system(inside) and not too_wide(inside) else []
        runtime = runtime_of(program, env, own[0] if own else None)
        python = program is not None and _arenas_python(program)
        # what its command names is declared: its program's installation is its own too
        installed = installation(program) if program is not None and not python else []
        refuse_outside(program, env, own, runtime, of_the_system,
                       [*own, *installed, *runtime.folders, *((*_python_installation(), *python_folders()) if python else ())])
        needs = [*runtime.files(), *([program, *map(Path, script_interpreters(program, env))] if program else [])]
        paths += [*runtime.folders, *needs, *(Path(path) for path in SYSTEM_FILES if os.path.exists(path)),
                  *(Path(os.path.realpath(path)) for path in etc_files() if path.is_symlink() and path.exists())]
        # what the command line names of the system (a Java class path's jars)
        paths += [Path(part) for arg in argv[1:] for part in arg.split(os.pathsep)
                  if os.path.isabs(part) and of_the_system(Path(part)) and os.path.exists(part)]
    return tuple(_shown(paths, uid, plan, whole_system))


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
