"""What a Python bot run by the arena's interpreter sees of that installation.

Not the installation whole: every file a bot can read is kept resident in the page cache
(``_resident``), and a Python installation of a developer's machine holds a gigabyte and tens of
thousands of files (a test suite, Tk, other projects' packages). A bot sees:

- the interpreter, its shared library and a virtual environment's ``pyvenv.cfg``;
- the standard library but for what no bot runs (:data:`LEFT_OUT`: its own tests, IDLE, Tk,
  the static library to embed Python), and its compiled modules (``lib-dynload``);
- of ``site-packages``, the packages pirate-arena depends on (every extra included: the
  OpenSpiel bot needs ``open_spiel``), what they depend on, and the ``.pth`` files with the
  modules they import (the editable install's finder, which maps ``bots`` to the project).

A bot that needs another package brings it in its own folder (or names it in ``PYTHONPATH``
there), as a ladder's submissions must anyway.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import re
import sys
import sysconfig
from pathlib import Path

from ._resident import cached

#: parts of the standard library no bot runs: tests, IDLE, Tk and turtle, pip's wheels, 2to3,
#: and the static library and headers for embedding Python
LEFT_OUT = re.compile(r"^(test|idlelib|tkinter|turtledemo|ensurepip|lib2to3|site-packages|dist-packages|"
                      r"config-.*)$")
DISTRIBUTION = "pirate-arena"
#: pirate-arena's extras a bot may use (the OpenSpiel bot, the environments); not the ladder's
#: server, the cluster's or the tests'
BOT_EXTRAS = ("openspiel", "pettingzoo")
#: changes whenever what is shown changes, so that what this machine keeps is made anew
VERSION = 2


def _requirement_names(distribution: importlib.metadata.Distribution, extras: bool) -> list[str]:
    """The distributions ``distribution`` requires: with ``extras``, those of
    :data:`BOT_EXTRAS` too (pirate-arena's own), else only those it always needs."""
    names = []
    for requirement in distribution.requires or []:
        extra = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", requirement)
        if extra and (not extras or extra.group(1) not in BOT_EXTRAS):
            continue
        match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
        if match:
            names.append(match.group(1))
    return names


def _dependencies(root: str) -> list[importlib.metadata.Distribution]:
    """``root`` and every distribution it requires (its extras' too), recursively."""
    found: dict[str, importlib.metadata.Distribution] = {}
    pending = [(root, True)]
    while pending:
        name, extras = pending.pop()
        name = re.sub(r"[-_.]+", "-", name).lower()
        if name in found:
            continue
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        found[name] = distribution
        pending += [(required, False) for required in _requirement_names(distribution, extras)]
    return list(found.values())


def _top_level(distribution: importlib.metadata.Distribution, site: Path) -> set[Path]:
    """The entries of ``site`` a distribution installed (its packages and modules)."""
    entries = set()
    for file in distribution.files or []:
        path = Path(os.path.normpath(site / file))
        if site in path.parents:
            top = path.relative_to(site).parts[0]
            if not top.endswith(".dist-info") and top != "__pycache__":
                entries.add(site / top)
    return entries


def _pth_imports(pth: Path, site: Path) -> set[Path]:
    """The modules a ``.pth`` file's ``import`` lines load, as entries of ``site``."""
    entries = set()
    try:
        lines = pth.read_text(errors="replace").splitlines()
    except OSError:
        return entries
    for line in lines:
        for name in re.findall(r"\bimport\s+([A-Za-z_][A-Za-z0-9_]*)|__import__\(['\"]([A-Za-z_][A-Za-z0-9_]*)", line):
            name = "".join(name)
            for candidate in (site / name, site / f"{name}.py"):
                if candidate.exists():
                    entries.add(candidate)
    return entries


@functools.cache
def python_view() -> tuple[Path, ...]:
    """The files and folders of the arena's Python a bot it runs is shown (the module's
    docstring), as paths on the host; kept on this machine while its folders stay as they are
    (reading every package's file list takes seconds)."""
    folders = sorted({str(Path(sysconfig.get_paths()["stdlib"]))} | set(_sites()))
    signature = [VERSION, sys.executable, *((folder, os.stat(folder).st_mtime_ns) for folder in folders
                                           if os.path.isdir(folder))]
    return tuple(Path(path) for path in cached(f"python:{sys.executable}", signature, lambda: list(map(str, _view()))))


def python_folders() -> tuple[Path, ...]:
    """The folders :func:`python_view`'s files lie in: the standard library's and the site
    folders (a bot run by the arena's Python may load what lies there, nothing else of it)."""
    return tuple(Path(folder) for folder in sorted({str(Path(sysconfig.get_paths()["stdlib"]))} | set(_sites())))


@functools.cache
def python_objects() -> tuple[str, ...]:
    """The ELF objects (compiled modules, bundled libraries) among :func:`python_view`'s files,
    whose libraries a bot loads too; kept like it."""
    folders = sorted({str(Path(sysconfig.get_paths()["stdlib"]))} | set(_sites()))
    signature = [VERSION, sys.executable, *((folder, os.stat(folder).st_mtime_ns) for folder in folders
                                           if os.path.isdir(folder))]
    return tuple(cached(f"python-objects:{sys.executable}", signature, _objects))


def _objects() -> list[str]:
    from ._libraries import read_elf

    found = []
    for entry in python_view():
        files = [entry] if entry.is_file() else (Path(root) / name for root, _, names in os.walk(entry) for name in names)
        found += [str(path) for path in files if ".so" in path.name and read_elf(path) is not None]
    return found


def _sites() -> list[str]:
    return [entry for entry in sys.path if entry and entry.endswith(("site-packages", "dist-packages"))
            and os.path.isdir(entry)]


def _view() -> list[Path]:
    shown: set[Path] = {Path(sys.executable)}
    for prefix in {Path(sys.prefix), Path(sys.base_prefix)}:
        shown |= {path for path in prefix.glob("lib/libpython*.so*")}
        if (prefix / "pyvenv.cfg").exists():
            shown.add(prefix / "pyvenv.cfg")
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    if stdlib.is_dir():
        shown |= {entry for entry in stdlib.iterdir() if not LEFT_OUT.match(entry.name)}
    sites = {Path(entry) for entry in _sites()}
    distributions = _dependencies(DISTRIBUTION)
    for site in sites:
        for distribution in distributions:
            shown |= {entry for entry in _top_level(distribution, site) if entry.exists()}
        for pth in site.glob("*.pth"):
            shown.add(pth)
            shown |= _pth_imports(pth, site)
    return sorted(shown)
