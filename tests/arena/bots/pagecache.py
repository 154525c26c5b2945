"""Two of these pass bits through the kernel's caches of files both can read (issue 32).

The page cache and the dentry cache belong to the machine, not to a namespace or a uid, so a
page one bot reads is cached for every other reader of that file, also after the reader has
exited. Channels (``VARIANT``):

- ``pagecache-timing``: the sender writes a 1 by reading one page of a file nobody read lately
  (a 0 by not reading it); the receiver times a one-byte read of the page (cached: a few
  microseconds; not: a disk read). The read caches the page: each bit uses a page of its own;
- ``pagecache-mincore``: the same sender; the receiver asks ``mincore`` about the page in a
  mapping of the file (reading nothing). Linux (5.0) answers "in memory" for every page of a
  file the caller neither owns nor may write, so this one learned nothing even before the
  filter refused mincore;
- ``pagecache-faultaround``: the same sender; the receiver learns what mincore would have
  told from the kernel's fault-around (see :func:`resident_pages`), reading nothing of the page;
- ``pagecache-cachestat``, ``pagecache-nowait``: the same sender; the receiver asks
  ``cachestat`` (2), or reads with ``preadv2(RWF_NOWAIT)`` (refused where the page is not cached);
- ``cpucache``: as ``pagecache-timing``, but the receiver decodes any difference: when the
  page cache holds every page (as a fix may keep it), what the sender's read leaves in the
  CPU's caches (the page's cache lines, the kernel's structures);
- ``dentry``: the sender ``stat``s a name that does not exist (derived from the bit's index)
  in a folder both see, leaving a negative dentry; the receiver times ``stat`` of the name.

Both sides pick the same pages without talking: they walk what their view shows (their own
folder, the Python installation, ``/usr``) in sorted order, keep regular files of at least
1 MiB that no process is likely to map (no libraries, no programs), the largest first, and
take the middle page of every 64 KiB (``POSIX_FADV_RANDOM``, ``MADV_RANDOM``: no read-ahead).
A header of known bits comes first; the receiver calibrates on it (where the time between a
cached and an uncached read lies, and whether there is such a gap at all: see :func:`decode`).

``python pagecache.py raw TASK_JSON``: one side of a transfer (the benchmark's parties); it
prints a JSON line on stderr: ``{"sent": N}`` or ``{"received": [...], ...}``, or
``{"refused": "call ERRNO"}`` when the system refuses a call the channel needs.

``python pagecache.py VARIANT SEED COUNT TAG``: a bot, the same in every seat (TAG names the
dentry channel's names): in seat 0 it sends, in another it receives, as one entrant's
processes would in two rotations of a deal. The sender sends COUNT bits drawn from SEED at
its first request of a game; the receiver reads them at its first request after another seat
has moved (in the test's toy game the total tells), and prints the same JSON line on stderr.
Otherwise both play the first legal action.
"""

import ctypes
import errno
import json
import mmap
import os
import random
import stat
import sys
import time

PAGE = 4096
#: one bit per window of the file, on the page at WINDOW // 2 (the receiver of the mincore
#: channel touches the window's first page: the kernel then maps, around it, the window's pages
#: that are in the page cache, and mincore tells which are mapped); a window is what the
#: kernel's fault-around maps (``fault_around_bytes``, 64 KiB by default)
WINDOW = 64 * 1024
#: files smaller than this are left out (too few pages; more likely read by everyone)
MINIMUM = 1024 * 1024
#: how much slower than a cached answer an uncached one is, at least, by the mechanism listened
#: to: a disk read (tens of microseconds and more) beside a read from memory (about one); a name
#: looked up in the folder beside a name in the dentry cache; for ``cpucache`` any difference
GAPS = {"pagecache-timing": 4.0, "dentry": 1.5, "cpucache": 1.0}
#: the known bits that come first: 16 ones and 16 zeros, interleaved
HEADER = [1, 0, 0, 1] * 8
FOLDER = os.path.dirname(os.path.abspath(__file__))
libc = ctypes.CDLL(None, use_errno=True)
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
MADV_RANDOM = 1


class Refused(Exception):
    """The system refused a call the channel needs: the channel is closed."""


def refused(call, number):
    return Refused(f"{call} {errno.errorcode.get(number, str(number))}")


def candidate_files(roots, needed):
    """Regular files of at least MINIMUM bytes under ``roots`` that are readable and unlikely
    to be mapped by a running process (no libraries, nothing executable), taken in a walk
    both sides make alike until they hold ``needed`` pages at WINDOW; largest first."""
    found, seen, room = [], set(), 0
    for root in roots:
        for folder, folders, names in os.walk(root):
            folders.sort()
            for name in sorted(names):
                path = os.path.join(folder, name)
                try:
                    info = os.lstat(path)
                except OSError:
                    continue
                if (not stat.S_ISREG(info.st_mode) or info.st_size < MINIMUM or info.st_mode & 0o111
                        or ".so" in name or (info.st_dev, info.st_ino) in seen or not os.access(path, os.R_OK)):
                    continue
                seen.add((info.st_dev, info.st_ino))
                found.append((info.st_size, path))
                room += len(range(WINDOW // 2, info.st_size - WINDOW, WINDOW))
                if room >= needed:
                    return [path for size, path in sorted(found, key=lambda item: (-item[0], item[1]))]
    return [path for size, path in sorted(found, key=lambda item: (-item[0], item[1]))]


def roots():
    return [FOLDER, sys.prefix, "/usr"]


def pages(count, files, skip=0):
    """``count`` (file, offset) pairs, one page in the middle of every WINDOW, largest files
    first; the first ``skip`` are passed over."""
    chosen = []
    for path in files:
        size = os.stat(path).st_size
        for offset in range(WINDOW // 2, size - WINDOW, WINDOW):
            if skip:
                skip -= 1
                continue
            chosen.append((path, offset))
            if len(chosen) == count:
                return chosen
    raise SystemExit(f"only {len(chosen)} pages in the view's files; {count} wanted")


class Files:
    """Descriptors opened once per file, without read-ahead."""

    def __init__(self):
        self.open = {}

    def __call__(self, path):
        if path not in self.open:
            fd = os.open(path, os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
            self.open[path] = fd
        return self.open[path]

    def close(self):
        for fd in self.open.values():
            os.close(fd)


def make_resident(where):
    """Read every page (and look every name up): what a fix keeping the view in memory does;
    the benchmark's ``--resident``."""
    files = Files()
    for path, *offset in ((item,) if isinstance(item, str) else item for item in where):
        if offset:
            os.pread(files(path), PAGE, offset[0])
        else:
            try:
                os.stat(path)
            except OSError:
                pass
    files.close()


def evict(where):
    """Put the pages out of the cache (``POSIX_FADV_DONTNEED``): what the test and the
    benchmark do, outside the sandbox, so that every run starts from pages nobody read lately.
    (The sandbox refuses a bot ``posix_fadvise``; a page mapped by some process stays.)"""
    files = Files()
    for path, offset in where:
        os.posix_fadvise(files(path), offset - WINDOW // 2, WINDOW, os.POSIX_FADV_DONTNEED)
    files.close()


def send_pages(bits, where, size=1):
    """Read ``size`` bytes of the page of each 1 bit."""
    files = Files()
    for bit, (path, offset) in zip(bits, where):
        if bit:
            os.pread(files(path), size, offset)
    files.close()


def time_pages(where, size=1):
    """The time in ns of a read of ``size`` bytes of each page (destructive: it caches the page)."""
    files = Files()
    times = []
    for path, offset in where:
        fd = files(path)
        begin = time.perf_counter_ns()
        os.pread(fd, size, offset)
        times.append(time.perf_counter_ns() - begin)
    files.close()
    return times


def resident_pages(where, fault_around=False):
    """Whether each page is in the page cache, without reading it: by ``mincore`` on a mapping
    of the page, or (``fault_around``) by the page's entry in ``/proc/self/pagemap``.

    For a file the caller neither owns nor may write, mincore answers "in memory" for every
    page (Linux 5.0). But a fault maps, besides the faulting page, the pages around it that
    are in the page cache (fault-around, within ``WINDOW``), and a process may see which of
    its own pages are mapped (pagemap's bit 63). So that receiver maps the page's window
    without read-ahead (``MADV_RANDOM``), touches the window's first page and reads the bit's
    page's entry."""
    files = Files()
    vector = (ctypes.c_ubyte * (WINDOW // PAGE))()
    pagemap = os.open("/proc/self/pagemap", os.O_RDONLY) if fault_around else None
    answers = []
    for path, offset in where:
        start = offset - WINDOW // 2
        address = libc.mmap(None, WINDOW, mmap.PROT_READ, mmap.MAP_SHARED, files(path), start)
        if address in (None, ctypes.c_void_p(-1).value):
            raise refused("mmap", ctypes.get_errno())
        try:
            if not fault_around:
                if libc.mincore(ctypes.c_void_p(address), WINDOW, vector) != 0:
                    raise refused("mincore", ctypes.get_errno())
                answers.append(vector[WINDOW // 2 // PAGE] & 1)
                continue
            if libc.madvise(ctypes.c_void_p(address), WINDOW, MADV_RANDOM) != 0:
                raise refused("madvise", ctypes.get_errno())
            ctypes.c_char.from_address(address).value  # the fault (and fault-around)
            entry = os.pread(pagemap, 8, (address + offset - start) // PAGE * 8)
            answers.append(int.from_bytes(entry, "little") >> 63)
        finally:
            libc.munmap(ctypes.c_void_p(address), WINDOW)
    files.close()
    return answers


class CachestatRange(ctypes.Structure):
    _fields_ = [("off", ctypes.c_uint64), ("len", ctypes.c_uint64)]


class Cachestat(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in
                ("nr_cache", "nr_dirty", "nr_writeback", "nr_evicted", "nr_recently_evicted")]


#: cachestat(2), Linux 6.5 (one number on x86_64 and aarch64)
SYS_cachestat = 451


def asked_pages(where, how):
    """Whether each page is cached, asked of the kernel without reading it: ``cachestat``
    (2) of the page's range, or a read with ``RWF_NOWAIT`` (refused with EAGAIN where the page
    is not cached; it may start read-ahead, which this receiver never reads again)."""
    files = Files()
    answers = []
    for path, offset in where:
        fd = files(path)
        if how == "cachestat":
            stat_ = Cachestat()
            if libc.syscall(SYS_cachestat, fd, ctypes.byref(CachestatRange(offset, PAGE)), ctypes.byref(stat_), 0):
                raise refused("cachestat", ctypes.get_errno())
            answers.append(1 if stat_.nr_cache else 0)
        else:
            try:
                os.preadv(fd, [bytearray(1)], offset, os.RWF_NOWAIT)
                answers.append(1)
            except BlockingIOError:
                answers.append(0)
            except OSError as error:
                raise refused("preadv2", error.errno) from None
    files.close()
    return answers


def dentry_names(count, tag):
    """Names that exist nowhere, in the largest folder of the view's programs."""
    folder = "/usr/bin" if os.path.isdir("/usr/bin") else FOLDER
    return [os.path.join(folder, f".pagecache-{tag}-{index}") for index in range(count)]


def send_dentries(bits, names):
    for bit, name in zip(bits, names):
        if bit:
            try:
                os.stat(name)
            except OSError:
                pass


def time_dentries(names):
    times = []
    for name in names:
        begin = time.perf_counter_ns()
        try:
            os.stat(name)
        except OSError:
            pass
        times.append(time.perf_counter_ns() - begin)
    return times


def decode(times, gap):
    """Bits from read times, the threshold set on the header: the geometric mean of the
    header's medians for 1 (fast) and 0 (slow). Where the medians differ by less than ``gap``
    times, the header shows no sign of the mechanism listened to (another one: the CPU's caches,
    ``cpucache``): all bits are 1. Returns (bits after the header, threshold or None)."""
    ones = sorted(t for t, bit in zip(times, HEADER) if bit)
    zeros = sorted(t for t, bit in zip(times, HEADER) if not bit)
    fast, slow = ones[len(ones) // 2], zeros[len(zeros) // 2]
    if slow < gap * fast:
        return [1] * (len(times) - len(HEADER)), None
    threshold = (fast * slow) ** 0.5
    return [1 if t < threshold else 0 for t in times[len(HEADER):]], threshold


def choose(variant, count, tag, skip=0):
    """Where the header and ``count`` bits go: pages, or (``dentry``) names."""
    total = len(HEADER) + count
    if variant == "dentry":
        return dentry_names(total, tag)
    return pages(total, candidate_files(roots(), total + skip), skip)


def transfer(role, variant, bits, tag, skip=0, start=None):
    """One side of a transfer of ``bits`` (the receiver gets only their number) through
    ``variant``; ``tag`` names the dentry channel's names, ``skip`` passes over pages, ``start``
    (monotonic clock) is when to begin once the pages are chosen. The JSON report."""
    began = time.monotonic()
    where = choose(variant, len(bits), tag, skip)
    report = {"choose_s": round(time.monotonic() - began, 3)}
    while start is not None and time.monotonic() < start:
        time.sleep(0.001)
    began = time.monotonic()
    try:
        if role == "send":
            if variant == "dentry":
                send_dentries(HEADER + bits, where)
            else:
                send_pages(HEADER + bits, where, 1)
            report["sent"] = len(bits)
        elif variant in ("pagecache-mincore", "pagecache-faultaround", "pagecache-cachestat", "pagecache-nowait"):
            if variant in ("pagecache-cachestat", "pagecache-nowait"):
                answers = asked_pages(where, variant.removeprefix("pagecache-"))
            else:
                answers = resident_pages(where, fault_around=variant == "pagecache-faultaround")
            report.update(received=answers[len(HEADER):], header=answers[:len(HEADER)])
        else:
            if variant == "dentry":
                times = time_dentries(where)
            else:
                times = time_pages(where, 1)
            received, threshold = decode(times, GAPS[variant])
            report.update(received=received, threshold_ns=threshold and round(threshold), header_ns=times[:len(HEADER)])
    except Refused as error:
        report["refused"] = str(error)
    used = [os.path.dirname(where[0])] if variant == "dentry" else sorted({path for path, _ in where})
    report.update(began=began, ended=time.monotonic(), files=used)
    return report


def message(seed, count):
    """``count`` bits drawn from ``seed``, as many ones as zeros (so that a receiver that
    learns nothing and answers all ones, or all zeros, agrees with exactly half)."""
    bits = [index % 2 for index in range(count)]
    random.Random(seed).shuffle(bits)
    return bits


def raw(task):
    bits = task["bits"] if task["role"] == "send" else [0] * task["count"]
    report = transfer(task["role"], task["variant"], bits, task["tag"], task.get("skip", 0), task.get("start"))
    print(json.dumps(report), file=sys.stderr, flush=True)


def bot(variant, seed, count, tag):
    """A bot of the toy game that sends in seat 0 and receives in any other (see the docstring)."""
    from _frames import receive, send  # beside this script

    receive()
    send({"type": "hello", "protocol": "1.0", "name": "pagecache", "version": "1", "games": []})
    role, done, mine = None, False, 0
    while True:
        request = receive()
        if request["type"] == "bye":
            sys.exit(0)
        if request["type"] == "start":
            role, done, mine = "send" if request["seat"] == 0 else "receive", False, 0
        if request["type"] != "request":
            continue
        other_moved = request.get("observation", {}).get("total", 0) > mine
        if not done and (role == "send" or other_moved):
            bits = message(seed, count) if role == "send" else [0] * count
            print(json.dumps(transfer(role, variant, bits, tag)), file=sys.stderr, flush=True)
            done = True
        action = request["legal"][0] if request["legal"] else None
        if action in ("one", "two"):
            mine += 1 if action == "one" else 2
        send({"type": "action", "id": request["id"], "action": action})


if __name__ == "__main__":
    if sys.argv[1] == "raw":
        raw(json.loads(sys.argv[2]))
    else:
        bot(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
