"""The minimal view's parts (issue 32): the libraries a program loads, what a Python bot sees of
the arena's Python, the farm that shows them in a few mounts, and keeping a view resident."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.sandbox import _farm, _resident
from arena.sandbox._farm import farm
from arena.sandbox._libraries import closure, read_elf, system_needs
from arena.sandbox._python import LEFT_OUT, python_view
from arena.sandbox._resident import keep_resident, lock_resident, state_folder

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root


def test_the_elf_reader_finds_the_loader_and_the_c_library_of_the_arenas_python():
    elf = read_elf(os.path.realpath(sys.executable))
    assert elf is not None and elf.bits == 64 and elf.interpreter.endswith((".so.2", ".so.1"))
    needs = {Path(path).name for path in closure([os.path.realpath(sys.executable)])}
    assert "libc.so.6" in needs and Path(elf.interpreter).name in needs
    assert read_elf(__file__) is None  # not an ELF file


def test_a_script_brings_its_interpreter_and_every_program_brings_the_shell(tmp_path):
    script = tmp_path / "bot"
    script.write_text("#!/usr/bin/env python3\nprint(1)\n")
    needs = {str(path) for path in system_needs(script, {"PATH": "/usr/bin:/bin"}, [])}
    assert {"/usr/bin/env", str(script)} <= needs
    assert any(Path(path).name in ("sh", "dash", "bash") for path in needs)


def test_a_python_bot_sees_the_standard_library_and_the_arenas_dependencies_not_the_rest():
    shown = {path.name for path in python_view()}
    assert {"json", "msgpack", "numpy", "trio"} <= shown
    assert not {name for name in shown if LEFT_OUT.match(name)}  # no test suite, IDLE, Tk, static library
    assert "__pycache__" in shown  # the standard library's compiled modules: no compiling at every start


def test_a_farm_holds_its_files_as_links_to_the_same_inodes_and_links_as_links(tmp_path):
    folder = tmp_path / "runtime"
    (folder / "lib").mkdir(parents=True)
    (folder / "lib" / "libx.so.1.2").write_bytes(b"x" * 100)
    (folder / "lib" / "libx.so.1").symlink_to("libx.so.1.2")
    root = farm([folder], ())
    placed = root / str(folder).lstrip("/")
    assert os.readlink(placed / "lib" / "libx.so.1") == "libx.so.1.2"
    assert (placed / "lib" / "libx.so.1.2").stat().st_ino == (folder / "lib" / "libx.so.1.2").stat().st_ino
    assert farm([folder], ()) == root  # made once
    # a file replaced (a package upgraded) makes another farm, never serves the old one
    (folder / "lib").rename(tmp_path / "old")
    (folder / "lib").mkdir()
    (folder / "lib" / "libx.so.1.2").write_bytes(b"y" * 100)
    assert farm([folder], ()) != root


def test_the_state_folder_stays_open_to_bots_whatever_the_umask():
    if os.geteuid() != 0:
        pytest.skip("as root the state folder is /run/pirate-arena")
    code = ("import os; os.umask(0o077); import shutil; from arena.sandbox._resident import state_folder; "
            "print(oct(state_folder().stat().st_mode & 0o777))")
    before = state_folder().stat().st_mode & 0o777
    state_folder().chmod(0o700)  # as another umask left it
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "0o755" and before == 0o755


def test_a_farm_another_arena_finishes_while_this_one_sweeps_is_no_error(tmp_path, monkeypatch):
    # Arenas make farms at once (the test suite's two workers do): one's sweep may list another's
    # farm under its temporary name, which is renamed into place before the sweep looks at it.
    farms = tmp_path / "farms"
    building = farms / ".0123abcd.4242"
    building.mkdir(parents=True)
    real_iterdir = Path.iterdir

    def iterdir(self):
        listed = list(real_iterdir(self))
        if self == farms:
            building.rename(farms / "0123abcd")  # the other arena's build, complete now
        return iter(listed)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    _farm._sweep(farms, keep=farms / "ffff")
    assert [path.name for path in real_iterdir(farms)] == ["0123abcd"]


def test_residency_reads_once_then_advises_when_stale_and_skips_when_fresh(tmp_path, monkeypatch):
    monkeypatch.setattr(_resident, "state_folder", lambda: tmp_path / "state")
    (tmp_path / "state").mkdir()
    data = tmp_path / "data"
    data.mkdir()
    (data / "a").write_bytes(b"a" * 5000)
    (data / "b").write_bytes(b"b" * 3000)
    clock = [1000.0]
    first = keep_resident([data], now=lambda: clock[0])
    assert (first.read, first.fresh, first.bytes) == (1, 0, 8000)
    clock[0] += _resident.FRESH_S - 1
    assert keep_resident([data], now=lambda: clock[0]).fresh == 1
    clock[0] += 2
    stale = keep_resident([data], now=lambda: clock[0])
    assert (stale.read, stale.bytes) == (1, 0)  # asked again, nothing copied


def test_a_locked_view_stays_resident_when_the_kernel_is_asked_to_drop_it(tmp_path):
    """What reading once could not do on this VM (its proactive reclaim dropped pages untouched
    for a minute): a file the arena locked stays in the page cache, whatever drops it."""
    if os.geteuid() != 0:
        pytest.skip("locking memory needs root (CAP_IPC_LOCK)")
    import ctypes
    import mmap

    data = tmp_path / "big"
    data.write_bytes(os.urandom(64 * mmap.PAGESIZE))
    assert lock_resident([data]).bytes == 64 * mmap.PAGESIZE
    with open(data, "rb") as file:
        os.posix_fadvise(file.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
        libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        address = libc.mmap(None, 64 * mmap.PAGESIZE, 1, 1, file.fileno(), 0)
        vector = (ctypes.c_ubyte * 64)()
        assert libc.mincore(ctypes.c_void_p(address), 64 * mmap.PAGESIZE, vector) == 0
    assert [page & 1 for page in vector] == [1] * 64
    assert lock_resident([data]).fresh == 1  # once per process


def test_views_locked_from_many_threads_at_once_are_each_locked_once(tmp_path):
    """Bots start from several threads at once (a tournament's games): locking is guarded (a
    run of the suite once failed with the registry changed while another thread read it)."""
    if os.geteuid() != 0:
        pytest.skip("locking memory needs root (CAP_IPC_LOCK)")
    import threading

    folders = []
    for index in range(8):
        folder = tmp_path / f"view{index}"
        folder.mkdir()
        (folder / "data").write_bytes(b"x" * 8192)
        folders.append(folder)
    errors = []

    def lock(paths):
        try:
            for _ in range(20):
                lock_resident(paths)
        except Exception as error:  # noqa: BLE001  (the test reports any)
            errors.append(error)

    threads = [threading.Thread(target=lock, args=(folders[i::2],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert lock_resident(folders).fresh == len(folders)


def test_a_farm_found_with_a_file_missing_is_made_again(tmp_path, monkeypatch):
    # A farm seen once without its interpreter (bin/python3.11) made every Python bot of its
    # view fail to start ("bwrap: execvp ...: No such file or directory") until it was removed.
    monkeypatch.setattr(_resident, "state_folder", lambda: tmp_path / "state")
    monkeypatch.setattr(_farm, "state_folder", lambda: tmp_path / "state")
    (tmp_path / "state").mkdir()
    source = tmp_path / "runtime"
    (source / "bin").mkdir(parents=True)
    (source / "bin" / "python3.11").write_text("#!/bin/sh\n")
    (source / "lib").mkdir()
    (source / "lib" / "os.py").write_text("")
    files = [source / "bin" / "python3.11", source / "lib"]
    root = _farm.farm(files, ())
    placed = root / str(source / "bin" / "python3.11").lstrip("/")
    placed.unlink()
    monkeypatch.setattr(_farm, "_WHOLE", set())
    assert _farm.farm(files, ()) == root and placed.exists()
