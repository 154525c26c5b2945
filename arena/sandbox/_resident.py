"""Every file a bot can read kept in the page cache, so timing a read tells it nothing.

The page cache is shared by every process of the machine, whatever its namespaces: a bot that
reads one page of a rarely read file it can see makes it resident, and another bot (an
opponent, or the same entrant in the next rotation of the deal) times a read of that page, 60
µs from the disk against 1 µs from memory. Measured at 3,600-3,900 bits/s before (issue 32),
with no need for the two to run at once. The seccomp filter refuses the calls that drop a page
or ask about one without reading it (``_seccomp``); what remains is the plain read, and a page
already resident answers it as fast whoever read it before.

So before a bot starts, the arena makes every file of its view (``_view``: its folder, its
runtime, the libraries it loads) resident: as root it maps and locks each in memory for as long
as the arena process lives (:func:`lock_resident`), so no reclaim drops a page (a kernel's
proactive reclaim drops pages untouched for a minute even with memory to spare: measured here);
elsewhere (:func:`keep_resident`) it reads them, at most once per :data:`FRESH_S` on this
machine (a stamp per path, shared by every arena process of this user), which reclaim may undo
between two reads.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ._folders import ViewRefused

#: how long a path read into the page cache counts as still there
FRESH_S = 60.0
#: read in pieces of this size
CHUNK = 1 << 20
#: asked again in pieces of this size (``POSIX_FADV_WILLNEED`` reads at most the read-ahead
#: window, 128 KiB by default, a call)
ADVICE = 128 << 10


def state_folder() -> Path:
    """Where this machine's arenas keep their stamps: ``/run/pirate-arena`` as root (no bot
    reaches ``/run``), else a folder of the user's in the temporary folder."""
    base = Path("/run/pirate-arena") if os.geteuid() == 0 and os.access("/run", os.W_OK) else Path(
        tempfile.gettempdir()) / f"pirate-arena-{os.geteuid()}"
    base.mkdir(mode=0o755, exist_ok=True)
    if base.stat().st_mode & 0o777 != 0o755:
        base.chmod(0o755)  # made under another umask: bots' bubblewrap reaches the farms through it
    return base


@dataclass(frozen=True)
class Residency:
    """What one :func:`keep_resident` did: paths read now, paths fresh already, bytes read."""

    read: int
    fresh: int
    bytes: int


def _stamp(path: Path) -> Path:
    return state_folder() / "resident" / hashlib.sha256(os.fsencode(path)).hexdigest()[:32]


#: the most this process holds locked (a long-running ladder sees new bot folders for days):
#: past it, the paths locked longest ago are let go
LOCK_MAX = 4 << 30
#: the most files this process holds mapped to lock them, each a mapping of its own: well below
#: Linux's ``vm.max_map_count`` (65,530), past which the arena itself could not allocate memory
#: (a bot's folder of 66,000 files bound as it is killed a tournament so, issue 44)
MAX_MAPPINGS = 40_000
#: paths this process holds locked in memory, oldest first, with the mappings that hold each
_LOCKED: dict[str, list[tuple[int, int]]] = {}
_GUARD = threading.Lock()
_LIBC = ctypes.CDLL(None, use_errno=True)
_LIBC.mmap.restype = ctypes.c_void_p
_LIBC.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_LIBC.mlock.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_LIBC.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]


def lock_resident(paths: Iterable[Path]) -> Residency | None:
    """Every file in ``paths`` mapped and locked in memory (``mlock``) for as long as this
    process lives, or ``None`` where this process may not lock memory (not root): a page read
    once does not stay (a kernel's proactive reclaim, DAMON, drops a page nobody touched for
    a minute even with memory to spare; measured on the reference VM), a locked one does.

    Each path once per process; the pages are the page cache's own, shared with every other
    process, so locking them in several arena processes costs no more memory."""
    if os.geteuid() != 0:
        return None
    with _GUARD:  # bots start from several threads at once
        return _lock_paths([str(path) for path in paths])


def _lock_paths(paths: list[str]) -> Residency:
    """Raises :class:`ViewRefused` where a path holds more files than may still be mapped."""
    locked = fresh = total = 0
    for key in paths:
        if key in _LOCKED:
            fresh += 1
            _LOCKED[key] = _LOCKED.pop(key)  # used now: the newest
            continue
        held = sum(len(mappings) for mappings in _LOCKED.values())
        if held + _files_in(Path(key), MAX_MAPPINGS - held) > MAX_MAPPINGS:
            _let_go(keep=set(paths), files=True)
            held = sum(len(mappings) for mappings in _LOCKED.values())
            if held + _files_in(Path(key), MAX_MAPPINGS - held) > MAX_MAPPINGS:
                raise ViewRefused(f"{key} holds more files than the arena can keep resident "
                                  f"({MAX_MAPPINGS:,} in all): make its folder an image (root, Linux 6.12, mkfs.erofs)")
        mappings: list[tuple[int, int]] = []
        total += _tree(Path(key), lambda fd, buffer: _lock_file(fd, buffer, mappings))
        _LOCKED[key] = mappings
        locked += 1
    _let_go(keep=set(paths))
    return Residency(locked, fresh, total)


def _lock_file(fd: int, buffer: bytearray, mappings: list[tuple[int, int]]) -> int:
    size = os.fstat(fd).st_size
    if not size:
        return 0
    address = _LIBC.mmap(None, size, 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
    if address in (None, ctypes.c_void_p(-1).value):
        return 0
    if _LIBC.mlock(address, size) != 0:  # faults every page in, and keeps it
        _LIBC.munmap(address, size)
        return _read_file(fd, buffer)
    mappings.append((address, size))
    return size


def _let_go(keep: set[str], files: bool = False) -> None:
    """Unlock the paths locked longest ago, but ``keep``, while more than :data:`LOCK_MAX` is
    (``files``: all of them but ``keep``, to make room for more mappings)."""
    held = sum(size for mappings in _LOCKED.values() for _, size in mappings)
    for key in list(_LOCKED):
        if held <= LOCK_MAX and not files:
            return
        if key in keep:
            continue
        for address, size in _LOCKED.pop(key):
            _LIBC.munmap(address, size)
            held -= size


def _files_in(path: Path, limit: int) -> int:
    """How many files ``path`` holds (itself, if a file), counting no further than ``limit`` + 1."""
    if not path.is_dir():
        return 1
    count = 0
    for _, _, names in os.walk(path):
        count += len(names)
        if count > limit:
            break
    return count


def keep_resident(paths: Iterable[Path], now: Callable[[], float] = time.time) -> Residency:
    """Read every file in ``paths`` (files, and folders walked whole, links not followed out of
    them) into the page cache, but those read less than :data:`FRESH_S` ago.

    A path never read on this machine (no stamp) is read to the end here, so it is resident
    when the bot starts; one read before is only asked again (``POSIX_FADV_WILLNEED``: nothing
    copied, a page the kernel dropped meanwhile read back), a tenth of the time."""
    read = fresh = total = 0
    (state_folder() / "resident").mkdir(mode=0o755, exist_ok=True)
    for path in paths:
        stamp = _stamp(path)
        try:
            made = stamp.stat().st_mtime
        except OSError:
            made = None
        if made is not None and now() - made < FRESH_S:
            fresh += 1
            continue
        total += _tree(path, _read_file if made is None else _advise_file)
        read += 1
        stamp.touch()
        os.utime(stamp, (now(), now()))
    return Residency(read, fresh, total)


def _tree(path: Path, each: Callable[[int, bytearray], int]) -> int:
    """``each`` on every regular file of ``path`` (a file, or a folder's files, recursively)."""
    total = 0
    buffer = bytearray(CHUNK)
    try:
        files = [path] if not path.is_dir() else (Path(root) / name for root, _, names in os.walk(path) for name in names)
    except OSError:
        return 0
    for file in files:
        try:
            fd = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            continue  # a link (what it points to is in the view on its own, or not at all)
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                total += each(fd, buffer)
        except OSError:
            pass
        finally:
            os.close(fd)
    return total


def _read_file(fd: int, buffer: bytearray) -> int:
    total = 0
    while True:
        count = os.readv(fd, [buffer])
        if count <= 0:
            return total
        total += count


def _advise_file(fd: int, buffer: bytearray) -> int:
    # A piece at a time: the kernel reads at most its read-ahead window for one call.
    for offset in range(0, os.fstat(fd).st_size, ADVICE):
        os.posix_fadvise(fd, offset, ADVICE, os.POSIX_FADV_WILLNEED)
    return 0


def cached(key: str, signature: object, compute: Callable[[], list[str]]) -> list[str]:
    """``compute()``, kept on this machine under ``key`` while ``signature`` (a JSON value that
    changes when the answer may) stays the same: the ELF objects of a runtime's folder take a
    walk of every file in it, too slow to do in every arena process."""
    where = state_folder() / "objects" / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".json")
    try:
        kept = json.loads(where.read_text())
        if kept["signature"] == json.loads(json.dumps(signature)):
            return kept["value"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    value = compute()
    try:
        where.parent.mkdir(mode=0o755, exist_ok=True)
        temporary = where.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"signature": signature, "value": value}))
        temporary.replace(where)
    except OSError:
        pass
    return value
