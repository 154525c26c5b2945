"""``arena doctor``'s probe, the part that runs inside a bot's sandbox: its attacks on what a bot
sees of the filesystem (places it must not see, places it must not write, the filesystems it
is shown) and on the caches of files shared with other bots (the page cache, the dentry cache).

Part of the probe's program, so the standard library alone: the arena runs this file's text
and then :mod:`._probe_inside`'s as one program (:func:`arena.players._probe.program_text`).
Each function takes what it attacks as arguments and leaves nothing behind, so tests run them
outside a sandbox.
"""

import contextlib
import ctypes
import mmap
import os
import stat
import time

#: a page; the window of addresses whose cached pages one fault maps (fault-around, 64 KiB)
PAGE, WINDOW = mmap.PAGESIZE, 64 * 1024
#: the smallest file the page-cache probe samples
LARGE = 1 << 20
#: names looked up in its own folder to time the dentry cache
LOOKUPS = 200
#: at most this many paths reported of the places it must not see
VISIBLE_AT_MOST = 20
#: where it tries to create a file (the view's root and system are read-only)
WRITE_TO = ("/", "/usr")


def called(result: int) -> str:
    """``"done"`` where a C call succeeded (0 or more), else its errno in words."""
    return "done" if result >= 0 else os.strerror(ctypes.get_errno())


# -- the filesystem -----------------------------------------------------------------------------------

def beside_shown(path: str, shown: list[str]) -> str | None:
    """Where ``path`` lies from those ``shown`` on purpose: ``None`` (in one: not looked into),
    ``"down"`` (on the way to one: look inside) or ``"beside"`` (it must not see it)."""
    for place in shown:
        if path == place or path.startswith(place.rstrip("/") + "/"):
            return None
        if place.startswith(path.rstrip("/") + "/"):
            return "down"
    return "beside"


def visible(absent: list[str], shown: list[str], look_inside: tuple[str, ...] = ("/tmp",),
            at_most: int = VISIBLE_AT_MOST) -> list[str]:
    """What it sees of the places it must not (``absent``): each that exists, or where one
    holds a path it is shown (a clone under ``/home``), what lies beside that path. Those of
    ``look_inside`` are in any view (its own ``/tmp``): what they hold is judged instead."""
    found: list[str] = []
    for place in absent:
        if not os.path.lexists(place):
            continue
        try:
            stack = [os.path.join(place, name) for name in os.listdir(place)] if place in look_inside else [place]
        except OSError:
            continue
        while stack and len(found) < at_most:
            path = stack.pop()
            where = beside_shown(path, shown)
            if where == "beside":
                found.append(path)
            elif where == "down" and os.path.isdir(path) and not os.path.islink(path):
                with contextlib.suppress(OSError):
                    stack += sorted(os.path.join(path, name) for name in os.listdir(path))
    return sorted(set(found))


def written(places: tuple[str, ...] = WRITE_TO) -> list[str]:
    """The folders of ``places`` it could create a file in (the file is removed again)."""
    wrote = []
    for place in places:
        path = os.path.join(place, "pirate-arena-probe")
        try:
            with open(path, "w"):
                pass
        except OSError:
            continue
        wrote.append(place)
        with contextlib.suppress(OSError):
            os.remove(path)
    return wrote


# -- the page cache and the dentry cache --------------------------------------------------------------

def large_files(roots: list[str], walk: int, at_least: int = LARGE) -> list[tuple[int, str]]:
    """``(size, path)`` of the regular files of ``at_least`` bytes or more under ``roots``,
    walked in order (links not followed) until about ``walk`` files were looked at."""
    large, looked = [], 0
    for root in roots:
        for folder, folders, names in os.walk(root):
            folders.sort()
            for name in names:
                looked += 1
                try:
                    info = os.lstat(os.path.join(folder, name))
                except OSError:
                    continue
                if stat.S_ISREG(info.st_mode) and info.st_size >= at_least:
                    large.append((info.st_size, os.path.join(folder, name)))
            if looked > walk:
                break
    return large


def window_start(size: int, index: int, windows: int) -> int:
    """The offset of window ``index`` of ``windows`` spread evenly over a file of ``size``
    bytes, aligned to :data:`WINDOW`: the first at its start, the last at its end."""
    return (size - WINDOW) * index // max(windows - 1, 1) // WINDOW * WINDOW


def mapped_pages(entries: bytes) -> list[int]:
    """Of one window's ``/proc/self/pagemap`` entries (8 bytes each), whether each page is
    present (bit 63), but the first: the fault's own; fault-around maps the cached others."""
    return [int.from_bytes(entries[at:at + 8], "little") >> 63 for at in range(8, len(entries), 8)]


def resident_pages(libc: ctypes.CDLL, path: str, size: int, windows: int, pagemap) -> tuple[int, int]:
    """``(pages, resident)`` in ``windows`` windows of ``path``: a fault in each (mapped onto a
    :data:`WINDOW`-aligned reservation, no read-ahead), then ``pagemap`` (``/proc/self/pagemap``,
    unbuffered) says what fault-around mapped: no timing, nothing asked of the cache. A window
    not all there is tried once more (a page in flight, read or reclaimed, is skipped once)."""
    pages = resident = 0
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return 0, 0
    failed = (None, ctypes.c_void_p(-1).value)
    try:
        for index in range(windows):
            start = window_start(size, index, windows)
            reserved = libc.mmap(None, 2 * WINDOW, 0, 2 | 0x20, -1, 0)  # PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS
            if reserved in failed:
                continue
            aligned = (reserved + WINDOW - 1) // WINDOW * WINDOW
            for attempt in range(2):
                address = libc.mmap(aligned, WINDOW, 1, 1 | 0x10, fd, start)  # PROT_READ, MAP_SHARED | MAP_FIXED
                if address in failed:
                    break
                libc.madvise(address, WINDOW, 1)  # MADV_RANDOM: no read-ahead
                ctypes.c_char.from_address(address).value  # the fault (and fault-around)
                pagemap.seek(address // PAGE * 8)
                mapped = mapped_pages(pagemap.read(8 * (WINDOW // PAGE)))
                libc.munmap(address, WINDOW)
                if all(mapped) or attempt == 1:
                    pages += len(mapped)
                    resident += sum(mapped)
                    break
            libc.munmap(reserved, 2 * WINDOW)
    finally:
        os.close(fd)
    return pages, resident


def page_cache(libc: ctypes.CDLL, roots: list[str], walk: int, files: int, windows: int) -> dict:
    """Is every page of its view resident? :func:`resident_pages` of the ``files`` largest
    files under ``roots``; and whether the calls that ask of the cache (``mincore``) or drop
    pages (``madvise(MADV_PAGEOUT)``) are refused, tried on an anonymous page of its own."""
    large = sorted(large_files(roots, walk), reverse=True)[:files]
    pages = resident = 0
    with open("/proc/self/pagemap", "rb", buffering=0) as pagemap:
        for size, path in large:
            sampled, there = resident_pages(libc, path, size, windows, pagemap)
            pages, resident = pages + sampled, resident + there
    vector = ctypes.create_string_buffer(1)
    address = libc.mmap(None, PAGE, 1, 2 | 0x20, -1, 0)  # PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS
    found = {"files": len(large), "pages": pages, "resident": resident,
             "mincore": called(libc.mincore(address, PAGE, vector)),
             "pageout": called(libc.madvise(address, PAGE, 21))}  # MADV_PAGEOUT
    libc.munmap(address, PAGE)
    return found


def dentry_ratio(folder: str, count: int = LOOKUPS) -> float:
    """How many times faster a name nobody looked up in ``folder`` answers the second time:
    the median of ``count`` missing names' first lookups over the median of their second."""
    names = [os.path.join(folder, ".pirate-arena-probe-%d-%d" % (os.getpid(), index)) for index in range(count)]

    def lookups() -> int:
        times = []
        for name in names:
            began = time.perf_counter_ns()
            with contextlib.suppress(OSError):
                os.stat(name)
            times.append(time.perf_counter_ns() - began)
        return sorted(times)[len(times) // 2]

    first = lookups()
    return round(first / max(lookups(), 1), 1)


def parse_mounts(text: str) -> list[tuple[str, str]]:
    """``(mount point, filesystem type)`` of each line of a ``/proc/*/mountinfo``."""
    mounts = []
    for line in text.splitlines():
        fields = line.split()
        if "-" in fields:
            mounts.append((fields[4], fields[fields.index("-") + 1]))
    return mounts


def filesystem(path: str, mounts: list[tuple[str, str]]) -> dict:
    """The filesystem ``path`` (links resolved) lies on: its path, the type of the innermost
    mount holding it, and its device (``major:minor``: the arena compares it with its own
    mounts, so that a filesystem mounted for the bot alone is none of them)."""
    path = os.path.realpath(path)
    kind = max((mount for mount in mounts if path == mount[0] or path.startswith(mount[0].rstrip("/") + "/")),
               key=lambda mount: len(mount[0]))[1]
    device = os.stat(path).st_dev
    return {"path": path, "type": kind, "device": "%d:%d" % (os.major(device), os.minor(device))}
