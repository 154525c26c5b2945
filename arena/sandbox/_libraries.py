"""The files of the system a program needs to run: its interpreter, the shared libraries it and
its runtime load, found as the dynamic loader finds them.

A bot's view shows these instead of all of ``/usr`` (``_view``): every file a bot can read is a
file whose pages it can pull into the page cache, where another bot times a read of them
(issue 32), so the arena keeps every file of a view resident (``_resident``), which is only
cheap for a small view. What is found here:

- the program, and for a script the interpreter of its ``#!`` line (through ``/usr/bin/env``);
- the ELF objects of the program and of its runtime's folders (the arena's Python and its
  packages, a JDK, the bot's own folder), and, recursively, the libraries each names
  (``DT_NEEDED``), looked up in its ``DT_RPATH``/``DT_RUNPATH`` (``$ORIGIN`` resolved), the
  bot's ``LD_LIBRARY_PATH``, the folders of ``/etc/ld.so.conf`` and the default ones, with the
  ELF class and machine of the object that needs them (a 32-bit bot gets 32-bit libraries);
- what the C library loads by name at run time (name service, ``libgcc_s`` for unwinding),
  and the dynamic loader (``PT_INTERP``);
- links inside a runtime's folder that point outside it (a JDK's ``lib/security/cacerts`` into
  ``/etc/ssl``).

The ELF reader is a few dozen lines of ``struct`` (no library, and never ``ldd``: that runs the
program's own loader, and a bot's program is not trusted).
"""

from __future__ import annotations

import functools
import glob
import hashlib
import json
import os
import shutil
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ._resident import cached

#: what the C library loads by name (nsswitch, pthread_cancel and backtraces)
DLOPENED = ("libgcc_s.so.1", "libnss_files.so.2", "libnss_dns.so.2", "libresolv.so.2")
#: the folders the loader searches last, by ELF class
DEFAULT_DIRS = {
    64: ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
         "/lib64", "/usr/lib64", "/lib", "/usr/lib"),
    32: ("/lib/i386-linux-gnu", "/usr/lib/i386-linux-gnu", "/lib32", "/usr/lib32", "/libx32", "/usr/libx32",
         "/lib", "/usr/lib"),
}
PT_LOAD, PT_DYNAMIC, PT_INTERP = 1, 2, 3
DT_NULL, DT_NEEDED, DT_STRTAB, DT_RPATH, DT_RUNPATH = 0, 1, 5, 15, 29
#: the most ELF objects scanned in one runtime folder (a bot's folder may hold anything)
MAX_SCANNED = 20_000


@dataclass(frozen=True)
class Elf:
    """What the loader reads of one ELF object."""

    bits: int
    machine: int
    interpreter: str | None
    needed: tuple[str, ...]
    rpath: tuple[str, ...]
    runpath: tuple[str, ...]


def read_elf(path: str | os.PathLike[str]) -> Elf | None:
    """The object at ``path``, or ``None`` if it is not a little-endian ELF file one can read."""
    try:
        with open(path, "rb") as file:
            ident = file.read(16)
            if len(ident) < 16 or ident[:4] != b"\x7fELF" or ident[5] != 1 or ident[4] not in (1, 2):
                return None
            bits = 64 if ident[4] == 2 else 32
            header = file.read(48 if bits == 64 else 36)
            if bits == 64:
                _, machine, _, _, phoff, _, _, _, phentsize, phnum = struct.unpack_from("<HHIQQQIHHH", header)
            else:
                _, machine, _, _, phoff, _, _, _, phentsize, phnum = struct.unpack_from("<HHIIIIIHHH", header)
            file.seek(phoff)
            table = file.read(phentsize * phnum)
            segments = []
            for index in range(phnum):
                entry = table[index * phentsize:(index + 1) * phentsize]
                if bits == 64:
                    kind, _, offset, vaddr, _, filesz, _, _ = struct.unpack_from("<IIQQQQQQ", entry)
                else:
                    kind, offset, vaddr, _, filesz, _, _, _ = struct.unpack_from("<IIIIIIII", entry)
                segments.append((kind, offset, vaddr, filesz))
            interpreter = None
            for kind, offset, _, filesz in segments:
                if kind == PT_INTERP:
                    file.seek(offset)
                    interpreter = file.read(filesz).split(b"\0")[0].decode(errors="replace")
            dynamic = next(((offset, filesz) for kind, offset, _, filesz in segments if kind == PT_DYNAMIC), None)
            if dynamic is None:
                return Elf(bits, machine, interpreter, (), (), ())
            file.seek(dynamic[0])
            raw = file.read(dynamic[1])
            size = 16 if bits == 64 else 8
            entries = [struct.unpack_from("<qQ" if bits == 64 else "<iI", raw, i) for i in range(0, len(raw) - size + 1, size)]
            strtab = next((value for tag, value in entries if tag == DT_STRTAB), None)
            base = next((vaddr_offset for vaddr_offset in
                         (offset + strtab - vaddr for kind, offset, vaddr, filesz in segments
                          if strtab is not None and kind == PT_LOAD and vaddr <= strtab < vaddr + filesz)), None)

            def string(at: int) -> str:
                file.seek(base + at)
                return file.read(4096).split(b"\0")[0].decode(errors="replace")

            strings = {tag: [] for tag in (DT_NEEDED, DT_RPATH, DT_RUNPATH)}
            for tag, value in entries:
                if tag == DT_NULL:
                    break
                if tag in strings and base is not None:
                    strings[tag].append(string(value))
            return Elf(bits, machine, interpreter, tuple(strings[DT_NEEDED]),
                       tuple(part for text in strings[DT_RPATH] for part in text.split(":") if part),
                       tuple(part for text in strings[DT_RUNPATH] for part in text.split(":") if part))
    except (OSError, struct.error, ValueError):
        return None


@functools.cache
def _configured_dirs() -> tuple[str, ...]:
    """The folders of ``/etc/ld.so.conf`` and the files it includes."""
    found: list[str] = []

    def read(path: str, depth: int = 0) -> None:
        try:
            lines = Path(path).read_text().splitlines()
        except OSError:
            return
        for line in lines:
            line = line.split("#")[0].strip()
            if line.startswith("include") and depth < 4:
                pattern = line.split(None, 1)[1] if " " in line else ""
                for included in sorted(glob.glob(os.path.join("/etc", pattern) if not os.path.isabs(pattern) else pattern)):
                    read(included, depth + 1)
            elif line.startswith("/"):
                found.append(line)

    read("/etc/ld.so.conf")
    return tuple(found)


def _expand(folder: str, origin: str) -> list[str]:
    """A ``DT_RPATH``/``DT_RUNPATH`` entry with ``$ORIGIN`` (and ``$LIB``) replaced."""
    folder = folder.replace("${ORIGIN}", origin).replace("$ORIGIN", origin)
    if "$LIB" in folder or "${LIB}" in folder:
        return [folder.replace("${LIB}", lib).replace("$LIB", lib) for lib in ("lib64", "lib")]
    return [folder]


def _find(name: str, elf: Elf, origin: str, library_path: Sequence[str]) -> str | None:
    """Where the loader finds library ``name`` for ``elf`` (an object in folder ``origin``)."""
    if "/" in name:
        return name if os.path.isfile(name) else None
    folders: list[str] = []
    if not elf.runpath:
        folders += [path for entry in elf.rpath for path in _expand(entry, origin)]
    folders += list(library_path)
    folders += [path for entry in elf.runpath for path in _expand(entry, origin)]
    folders += [*_configured_dirs(), *DEFAULT_DIRS[elf.bits]]
    for folder in folders:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate):
            found = read_elf(candidate)
            if found is not None and (found.bits, found.machine) == (elf.bits, elf.machine):
                return candidate
    return None


def closure(objects: Iterable[str], library_path: Sequence[str] = ()) -> set[str]:
    """``objects`` (ELF files, as paths) and every library they load, recursively, as paths
    the loader opens (links not resolved: the view shows both forms)."""
    found: set[str] = set()
    pending = list(objects)
    first: Elf | None = None
    while pending:
        path = pending.pop()
        if path in found:
            continue
        elf = read_elf(path)
        if elf is None:
            continue
        found.add(path)
        first = first or elf
        origin = os.path.dirname(os.path.realpath(path))
        names = list(elf.needed)
        if elf.interpreter:
            pending.append(elf.interpreter)
            names += DLOPENED  # a dynamically linked program: its C library may load these
        for name in names:
            library = _find(name, elf, origin, library_path)
            if library is not None and library not in found:
                pending.append(library)
    return found


def script_interpreters(path: Path, env: Mapping[str, str]) -> list[str]:
    """The interpreter (and ``env``'s program) of a ``#!`` script, as paths."""
    try:
        with open(path, "rb") as file:
            line = file.readline(256)
    except OSError:
        return []
    if not line.startswith(b"#!"):
        return []
    words = line[2:].decode(errors="replace").split()
    if not words:
        return []
    found = [words[0]]
    if os.path.basename(words[0]) == "env":
        program = next((word for word in words[1:] if not word.startswith("-")), None)
        located = shutil.which(program, path=env.get("PATH")) if program else None
        if located:
            found.append(located)
    return found


@functools.lru_cache(maxsize=64)
def objects_in(folder: str) -> tuple[str, ...]:
    """The ELF objects in ``folder`` (shared libraries and programs), at most
    :data:`MAX_SCANNED` looked at; kept on this machine while no folder of its top three levels
    changed (a package installed or removed changes its ``site-packages``)."""
    return tuple(cached(f"objects:{folder}", _signature(folder), lambda: _scan(folder)))


def _signature(folder: str, depth: int = 3) -> list:
    """The modification times of ``folder`` and its folders down to ``depth`` levels."""
    times = []
    pending = [(folder, 0)]
    while pending:
        path, level = pending.pop()
        try:
            times.append([path, os.stat(path).st_mtime_ns])
            if level < depth:
                with os.scandir(path) as entries:
                    pending += [(entry.path, level + 1) for entry in entries if entry.is_dir(follow_symlinks=False)]
        except OSError:
            continue
    return sorted(times)


def _scan(folder: str) -> list[str]:
    found: list[str] = []
    looked = 0
    for root, folders, files in os.walk(folder):
        folders.sort()
        programs = os.path.basename(root) in ("bin", "sbin", "lib", "libexec") or root == folder
        for name in sorted(files):
            path = os.path.join(root, name)
            # Shared libraries by name; programs where programs live (a stat for every file of
            # a Python installation would cost seconds).
            if ".so" not in name and not (programs and os.access(path, os.X_OK)):
                continue
            looked += 1
            if looked > MAX_SCANNED:
                return found
            if not os.path.islink(path) and read_elf(path) is not None:
                found.append(path)
    return found


@functools.lru_cache(maxsize=64)
def links_out_of(folder: str) -> tuple[str, ...]:
    """What the links inside ``folder`` point to outside it (resolved), that exists."""
    found: list[str] = []
    real = os.path.realpath(folder)
    for root, folders, files in os.walk(folder):
        for name in folders + files:
            path = os.path.join(root, name)
            if os.path.islink(path):
                target = os.path.realpath(path)
                if not (target == real or target.startswith(real + "/")) and os.path.exists(target):
                    found.append(target)
    return tuple(sorted(set(found)))


def system_needs(program: Path | None, env: Mapping[str, str], runtimes: Sequence[Path],
                 objects: Sequence[str] = ()) -> list[Path]:
    """What a bot running ``program`` needs of the system's folders: the program (and a
    script's interpreters), the libraries of those, of the ELF objects in ``runtimes`` (the
    folders of its runtime and its own) and of ``objects``, the C library's run-time loads,
    ``/bin/sh``."""
    return list(_needs(program, env.get("PATH", ""), env.get("LD_LIBRARY_PATH", ""), tuple(runtimes), tuple(objects)))


@functools.lru_cache(maxsize=256)
def _needs(program: Path | None, path: str, ld_library_path: str, runtimes: tuple[Path, ...],
           more: tuple[str, ...]) -> tuple[Path, ...]:
    env = {"PATH": path, "LD_LIBRARY_PATH": ld_library_path}
    starts: list[str] = []
    if program is not None:
        starts.append(str(program))
        for interpreter in script_interpreters(program, env):
            starts.append(interpreter)
            starts += [path for path in script_interpreters(Path(interpreter), env)]
    shell = shutil.which("sh", path="/usr/bin:/bin")
    if shell:
        starts.append(shell)
    objects = [*starts, *more]
    for folder in runtimes:
        if os.path.isdir(folder):
            objects += objects_in(str(folder))
    library_path = [entry for entry in env.get("LD_LIBRARY_PATH", "").split(os.pathsep) if os.path.isabs(entry)]
    # Kept on this machine while the loader's cache and the library folders stay as they are
    # (a package installed changes both): reading a thousand ELF headers takes most of a second.
    folders = [folder for folder in (*_configured_dirs(), *DEFAULT_DIRS[64], *DEFAULT_DIRS[32], *library_path)
               if os.path.isdir(folder)]
    signature = [[path, os.stat(path).st_mtime_ns] for path in ("/etc/ld.so.cache", *folders) if os.path.exists(path)]
    key = json.dumps(sorted(set(objects))) + json.dumps(library_path)
    found = cached(f"closure:{hashlib.sha256(key.encode()).hexdigest()}", [signature, sorted(set(objects))],
                   lambda: sorted(closure(objects, library_path)))
    return tuple(Path(path) for path in sorted(set(found) | set(starts)))
