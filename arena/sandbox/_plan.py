"""A bot's view, planned once from what is declared: the one place that decides what it sees.

:func:`plan_view` takes a bot's start as its manifest declares it (command line, folder,
environment) and gives a :class:`ViewPlan`: its program, the paths its command names (its
folder, files named on its command line with their folder, its program's installation, the
arena's packages a Python bot imports, ``PYTHONPATH``/``NODE_PATH``: :func:`needed_paths`), and
of the system its runtime's files alone (``_runtimes``: declared by the command, computed from
the runtime's own files; what the bot's own files say is only checked, and a plan that names a
file it will not hold is refused, :class:`ViewRefused`). Everything else reads the plan: the
uid layer (:meth:`arena.sandbox._sandbox.Sandbox.confinement`), bubblewrap's arguments
(``_view``), the images and residency (:meth:`~arena.sandbox._sandbox.Sandbox.prepare_view`),
``arena doctor``'s probe (:func:`arena.sandbox._view.shown_paths`). A plan is kept per process:
a tournament starts each entrant many times.
"""

from __future__ import annotations

import dataclasses
import functools
import glob
import os
import stat
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ._python import python_folders, python_view
from ._libraries import script_interpreters
from ._runtimes import Runtime, arenas_python, of_the_system, refuse_outside, runtime_of, within

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
#: the folder holding the engines/protocol/bots/envs packages; a Python bot imports them
PROJECT_ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engines", "protocol", "bots", "envs")


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
        python = arenas_python(program) and not whole_system
        paths += [program, *links_between(program), *(python_view() if python else installation(program))]
    # Files named on the command line, with their folder (a script imports the modules
    # beside it); a folder named there is not shown (a manifest naming /home or /var must not
    # open them).
    paths += [_with_siblings(Path(arg)) for arg in argv[1:] if os.path.isabs(arg) and os.path.isfile(arg)]
    paths += [PROJECT_ROOT / name for name in PACKAGES]
    paths += _search_path(env)
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


@dataclass(frozen=True)
class ViewPlan:
    """One bot's view as planned (:func:`plan_view`): what it is shown beyond the system
    (``declared``: what its command names, and ``also``'s), of the system (``system``: its
    runtime's files and folders, and the few files every runtime reads; empty where the
    system's folders are shown whole, as to a ladder's build step), and for the uid layer what
    it needs to start at all (``required``) and what the arena offers where it may
    (``optional``)."""

    program: Path | None
    runtime: Runtime | None
    declared: tuple[Path, ...]
    system: tuple[Path, ...]
    required: tuple[Path, ...]
    optional: tuple[Path, ...]
    whole_system: bool = False


def declare_view(argv: Sequence[str], cwd: Path, env: Mapping[str, str], also: Sequence[Path] = (),
                 whole_system: bool = False) -> ViewPlan:
    """What a bot started as ``argv`` in ``cwd`` with ``env`` declares, before its runtime is
    looked at (cheap: the uid layer decides from it, on the arena's event loop): a
    :class:`ViewPlan` without ``runtime`` and ``system``. ``also``: more paths it is shown, as
    ``arena doctor``'s probe is shown a manifest's bot's."""
    return _declared(tuple(argv), Path(os.path.abspath(cwd)), tuple(sorted(env.items())), tuple(also), whole_system)


def plan_view(argv: Sequence[str], cwd: Path, env: Mapping[str, str], also: Sequence[Path] = (),
              whole_system: bool = False) -> ViewPlan:
    """The whole plan (:func:`declare_view`, and of the system its runtime's files, its own
    files checked against them; with ``whole_system`` the system's folders are shown whole
    instead, for a ladder's build step, which runs compilers). Raises
    :class:`~arena.sandbox._folders.ViewRefused` where its own files name what it will not be
    shown. Kept per process: the same bot started again costs nothing; run the first in a
    thread (it reads the runtime's ELF files)."""
    return _plan(declare_view(argv, cwd, env, also, whole_system), tuple(argv), Path(os.path.abspath(cwd)),
                 tuple(sorted(env.items())))


@functools.lru_cache(maxsize=128)
def _declared(argv: tuple[str, ...], cwd: Path, env_items: tuple[tuple[str, str], ...], also: tuple[Path, ...],
              whole_system: bool) -> ViewPlan:
    env = dict(env_items)
    program = program_path(argv, cwd, env)
    # For the uid layer: the program (and the arena's Python's prefixes) it cannot start
    # without; the arena's packages and the organiser's PYTHONPATH/NODE_PATH where it may.
    required = [program] if program is not None else []
    if program is not None and arenas_python(program):
        required += [Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix)]
    optional = [*(PROJECT_ROOT / name for name in PACKAGES), *_search_path(env), *also]
    declared = [*needed_paths(argv, cwd, env, whole_system), *also]
    return ViewPlan(program, None, tuple(declared), (), tuple(required), tuple(optional), whole_system)


@functools.lru_cache(maxsize=128)
def _plan(declared: ViewPlan, argv: tuple[str, ...], cwd: Path, env_items: tuple[tuple[str, str], ...]) -> ViewPlan:
    if declared.whole_system:
        return declared
    env = dict(env_items)
    program = declared.program
    python = program is not None and arenas_python(program)
    # Its folder's ELF objects are looked at only to check them against its runtime (never a
    # folder of the system's or a shared one, which would take a walk of thousands).
    own = [cwd] if cwd.is_dir() and not of_the_system(cwd) and not too_wide(cwd) else []
    runtime = runtime_of(program, env, own[0] if own else None)
    # what its command names is declared: its program's installation is its own too
    installed = installation(program) if program is not None and not python else []
    refuse_outside(program, env, own, runtime, of_the_system,
                   [*own, *installed, *runtime.folders, *((*_python_installation(), *python_folders()) if python else ())])
    system = [*runtime.folders, *runtime.files(),
              *([program, *map(Path, script_interpreters(program, env))] if program is not None else []),
              *(Path(path) for path in SYSTEM_FILES if os.path.exists(path)),
              *(Path(os.path.realpath(path)) for path in etc_files() if path.is_symlink() and path.exists()),
              # what the command line names of the system (a Java class path's jars)
              *(Path(part) for arg in argv[1:] for part in arg.split(os.pathsep)
                if os.path.isabs(part) and of_the_system(Path(part)) and os.path.exists(part))]
    return dataclasses.replace(declared, runtime=runtime, system=tuple(system))


def _search_path(env: Mapping[str, str]) -> list[Path]:
    """The absolute entries of ``PYTHONPATH`` and ``NODE_PATH``."""
    return [Path(entry) for key in ("PYTHONPATH", "NODE_PATH")
            for entry in env.get(key, "").split(os.pathsep) if os.path.isabs(entry)]
