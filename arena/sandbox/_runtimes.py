"""A bot's runtime: the part of the system its view shows, declared, never read from its files.

A bot's view is its own folder and one runtime (``_view``). The runtime is what its manifest's
command names, looked at on the host alone:

- a program of the system (``python3.11``, ``java``, ``node``, ``sh``): that program, its
  runtime's folder where it has one (a JDK, Debian's Python's standard library: ``_view``'s
  ``system_runtime``), and every library those load;
- the arena's own Python (``python`` in a command): its interpreter and the packages
  pirate-arena depends on (``_python``), and every library those load;
- a program in the bot's folder (a compiled bot, a ``#!`` script): **native**, the C and C++
  runtime libraries (:data:`NATIVE`) and ``/bin/sh``; a script's ``#!`` names a program of the
  system, which is then its runtime as if the command had named it.

Its files are computed from the runtime's own files (:func:`runtime_files`), so every bot of a
runtime on a machine gets the same system part (one farm, one image: ``_farm``, ``_images``).
What a bot's own files say is only checked (:func:`refuse_outside`): a library its program or
a library in its folder loads that the runtime does not hold, or that lies outside the system
and its folder (a ``DT_NEEDED`` naming another entrant's program by its path, an ``RPATH``,
``LD_LIBRARY_PATH``) refuses the bot before its first game, with the file named. Before issue
44 the libraries a bot's files named were added to its view: what they say decided which host
paths it saw.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ._folders import ViewRefused
from ._libraries import DEFAULT_DIRS, closure, links_out_of, objects_in, read_elf, script_interpreters, system_needs
from ._python import python_objects

#: the system's programs and libraries (``/bin`` and the like are links into ``/usr`` on
#: merged-/usr systems, folders elsewhere: shown as they are)
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: where the system's own interpreters keep their libraries, by the program's name: a bot run by
#: Debian's Python, Node, Perl or Ruby (not the arena's Python: ``_python``)
INTERPRETER_FOLDERS = (
    (r"python(3\.\d+)", ("/usr/lib/python{0}", "/usr/lib/python3/dist-packages", "/usr/local/lib/python{0}")),
    (r"node(?:js)?", ("/usr/share/nodejs", "/usr/lib/nodejs")),
    (r"perl(?:5[.\d]*)?", ("/usr/share/perl", "/usr/share/perl5", "/usr/lib/x86_64-linux-gnu/perl",
                           "/usr/lib/x86_64-linux-gnu/perl5", "/usr/lib/x86_64-linux-gnu/perl-base")),
    (r"ruby(?:[\d.]*)", ("/usr/lib/ruby",)),
)
#: what a native bot may load of the system: the C library, its parts and the loader, the C++
#: runtime, the math library, and what a compiler links by default (Rust and Go's cgo
#: included); anything else it brings in its own folder
NATIVE = ("libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1", "libutil.so.1",
          "libresolv.so.2", "libstdc++.so.6", "libgcc_s.so.1", "libatomic.so.1")


@dataclass(frozen=True)
class Runtime:
    """One runtime as a view shows it: ``name`` as a person reads it (``native``, ``the
    arena's Python``, ``/usr/bin/node``), the ``program`` that runs (``None`` for a native
    bot's own), the ``folders`` it is shown whole (a JDK, ``/opt/node``), and ``objects``: more
    ELF files whose libraries it loads (the arena's Python's compiled packages, ``env``)."""

    name: str
    program: Path | None = None
    folders: tuple[Path, ...] = ()
    #: the folders whose ELF objects it loads (its first folder; an installation's own)
    scanned: tuple[Path, ...] = ()
    objects: tuple[str, ...] = ()

    def files(self) -> tuple[Path, ...]:
        """The files of the system this runtime needs (computed from its own files, kept)."""
        return _files(self)


def runtime_of(program: Path | None, env: Mapping[str, str], own: Path | None, depth: int = 0) -> Runtime:
    """The runtime of a bot whose program is ``program`` (as its command names it) and whose
    folder is ``own`` (``None``: it has none of its own, as a command run in ``/usr``): native
    for a program in its folder (a ``#!`` script's interpreter decides, where it is a program
    of the system), else the program's, with its folder. ``#!`` lines are followed as deep as
    the kernel follows them (4: ``depth`` counts), never round a loop of scripts."""
    if program is None:
        return Runtime("native")
    written = Path(os.path.abspath(program))
    if arenas_python(program):
        return Runtime("the arena's Python", Path(sys.executable), objects=tuple(python_objects()))
    interpreters = script_interpreters(written, env)
    if interpreters and depth < 4 and of_the_system(Path(os.path.realpath(interpreters[-1]))):
        inner = runtime_of(Path(interpreters[-1]), env, own, depth + 1)
        return dataclasses.replace(inner, objects=(*inner.objects, *interpreters[:-1]))
    if own is not None and (written == own or own in written.parents):
        return Runtime("native")
    folders = system_runtime(written)
    if folders:
        return Runtime(str(written), written, tuple(folders), tuple(folders[:1]))
    if of_the_system(Path(os.path.realpath(written))):
        return Runtime(str(written), written)
    # installed outside the system (``/opt/node/bin/node``, pyenv's Python): its installation
    real = Path(os.path.realpath(written))
    folders = list(dict.fromkeys(path.parent.parent if path.parent.name == "bin" else path.parent
                                 for path in (written, real)))
    return Runtime(str(written), written, tuple(folders), tuple(folders))


@functools.cache
def _files(runtime: Runtime) -> tuple[Path, ...]:
    """Every runtime holds the native one (the C and C++ libraries): a program a runtime runs
    may load them, and they are a few megabytes."""
    return tuple(system_needs(runtime.program, {"PATH": "/usr/local/bin:/usr/bin:/bin"}, runtime.scanned,
                              (*runtime.objects, *native_libraries())))


@functools.cache
def native_libraries() -> tuple[str, ...]:
    """The libraries of :data:`NATIVE` this machine has, of every ELF class it has them in."""
    found = []
    for bits in (64, 32):
        for name in NATIVE:
            for folder in DEFAULT_DIRS[bits]:
                path = os.path.join(folder, name)
                elf = read_elf(path) if os.path.isfile(path) else None
                if elf is not None and elf.bits == bits:
                    found.append(path)
                    break
    return tuple(found)


def refuse_outside(program: Path | None, env: Mapping[str, str], own: Sequence[Path], runtime: Runtime,
                   of_the_system, allowed: Sequence[Path]) -> None:
    """Raise :class:`ViewRefused` where the bot's files name what its view will not hold:

    - a file of the system its program loads (the program, a script's interpreter, their
      libraries, its own libraries' libraries) that ``runtime`` does not hold: it could not
      start (a library in its folder that its interpreter may load is not checked this way:
      which it loads is its own affair, and one the runtime lacks fails only there);
    - a file outside the system and ``allowed`` (its folder, its runtime's) that its program or
      any ELF object in its folders (``own``) names (by its path, ``RPATH``,
      ``LD_LIBRARY_PATH``): another entrant's program, named to be read (issue 44).

    Nothing is added to the view here (its system part is its runtime's whatever its files
    say): this says so before its first game, in one line naming the file."""
    held = {os.path.realpath(path) for path in runtime.files()}
    folders = [Path(form) for root in allowed for form in (os.path.abspath(root), os.path.realpath(root))]
    # Read now, never from what this machine keeps: the bot's files may have changed since.
    starts = [str(program), *script_interpreters(program, env)] if program is not None else []
    library_path = [entry for entry in env.get("LD_LIBRARY_PATH", "").split(os.pathsep) if os.path.isabs(entry)]
    loaded = set(closure(starts, library_path)) | set(starts)
    objects = [path for folder in own if os.path.isdir(folder) for path in objects_in(str(folder))]
    for path in sorted(loaded | set(closure(objects, library_path))):
        for form in (Path(os.path.abspath(path)), Path(os.path.realpath(path))):
            if of_the_system(form):
                if path in loaded and os.path.realpath(form) not in held:
                    raise ViewRefused(f"{path}: its program loads it, and its runtime ({runtime.name}) does not "
                                      f"hold it; put the library in the bot's folder (found through RUNPATH "
                                      f"$ORIGIN) or run it with a runtime that has it")
            elif not any(form == folder or folder in form.parents for folder in folders):
                raise ViewRefused(f"{path} lies outside the bot's folder and its runtime, and its program or a "
                                  f"library it loads needs it (by its path, RPATH or LD_LIBRARY_PATH)")


def within(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or inside it (compared as text: this runs for every file
    of a view)."""
    path_text, folder_text = str(path), str(folder)
    return path_text == folder_text or path_text.startswith(folder_text.rstrip("/") + "/")


def of_the_system(path: Path) -> bool:
    """Whether ``path`` lies in the system's folders (:data:`SYSTEM`) or ``/etc``."""
    return any(within(path, Path(root)) for root in SYSTEM) or within(path, Path("/etc"))


def arenas_python(program: Path) -> bool:
    """Whether ``program`` is the interpreter running the arena."""
    return Path(os.path.realpath(program)) == Path(os.path.realpath(sys.executable))


def system_runtime(program: Path) -> list[Path]:
    """A program of the system's runtime folder, beside the libraries it loads: the folder above
    its ``bin/`` when that is a runtime's own (``/usr/lib/jvm/java-17-openjdk-amd64`` for
    ``java``, not ``/usr`` for ``node``), with what links inside it point to elsewhere."""
    real = Path(os.path.realpath(program))
    if not of_the_system(real):
        return []
    for pattern, folders in INTERPRETER_FOLDERS:
        match = re.fullmatch(pattern, real.name)
        if match:
            return [Path(folder.format(*match.groups())) for folder in folders
                    if os.path.isdir(folder.format(*match.groups()))]
    if real.parent.name != "bin" or real.parent.parent in (Path("/usr"), Path("/usr/local"), Path("/")):
        return []
    folder = real.parent.parent
    return [folder, *map(Path, links_out_of(str(folder)))]


