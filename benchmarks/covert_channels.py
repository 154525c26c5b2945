"""How fast two colluding bots can still talk inside the sandbox.

    python benchmarks/covert_channels.py [--channel NAME] [--bits 2000] [--slot-ms 1] [--sandbox auto] [--no-images]

Two processes are started exactly as a tournament starts two bots (their own uids, bubblewrap,
the seccomp filter, their own cgroups: each thawed, as two bots deciding at the same moment
are), and one sends a random message to the other through a channel the sandbox cannot close:

- ``futex``: the sender wakes a futex on a read-only shared mapping of a file both can read
  (the arena's Python interpreter, visible to every Python bot) in the slots of its 1 bits; the
  receiver waits on it with a timeout of one slot (woken: 1, timed out: 0);
- ``cpu``: the sender burns CPU in the slots of its 1 bits and sleeps in the others; the
  receiver counts the iterations of a busy loop per slot (fewer than the median: 1);
- ``memory``: the sender holds 64 MiB in the slots (50 ms) of its 1 bits; the receiver reads
  the machine's free memory (``sysinfo``, as ``/proc/meminfo`` shows it) at the start of each
  slot and later in it (32 MiB less: 1);
- ``tasks``: the sender runs 8 more threads in the slots (10 ms) of its 1 bits; the receiver
  reads the machine's count of processes and threads alike (``sysinfo``, as ``/proc/loadavg``
  shows it; 4 more: 1);
- ``files``: the sender holds 64 more descriptors open in the slots (10 ms) of its 1 bits; the
  receiver reads the machine's count of open files alike (``/proc/sys/fs/file-nr``; 32 more: 1).
- ``inodes``: the sender makes (and closes) 4,096 pipes in the slots (100 ms) of its 1 bits; the
  receiver makes pipes at the start and the end of each slot until its CPU takes a new batch of
  inode numbers from the machine's counter (Linux hands them to each CPU 1,024 at a time), and
  reads how many batches went elsewhere meanwhile (more than the machine takes idle: 1).

Slots are aligned on the monotonic clock, which both share. The figures printed are the raw
rate, the bit error rate and the capacity: the raw rate times the mutual information of the
bits sent and received (measured; with errors alike for 0 and 1 it is the capacity of a binary
symmetric channel, 1 - H(error rate): the bits/s that could get through with ideal coding; a
receiver that answers the same whatever was sent gets none, whatever its error rate); 0 when
the bits received show no dependence on those sent (G-test, p = 0.001). Two bots can only use
such a channel while both run: the arena freezes a bot that is not on move (issue 25), so that
is during simultaneous decisions of one game and across games played at once (``concurrency``
> 1).

The kernel's caches of files (issue 32) need no two bots running at once: what one leaves in
the page cache or the dentry cache stays there for the next reader, also after it has exited.
Both sides are ``tests/arena/bots/pagecache.py`` (its docstring tells how they choose pages
and calibrate), started the same way with that folder as their own:

- ``pagecache-timing``: the sender reads the pages of its 1 bits, the receiver times a read of
  each (before each run the benchmark, outside the sandbox, puts the pages out of the cache:
  ``POSIX_FADV_DONTNEED``, as on a machine where nobody read those files lately);
- ``pagecache-mincore``: the receiver asks ``mincore`` of a mapping instead (reads nothing;
  Linux answers "in memory" for every page of a file the caller may not write);
- ``pagecache-faultaround``: the receiver touches another page of a mapping of the page's
  64 KiB window; the kernel maps with it the window's cached pages, which the receiver's own
  ``/proc/self/pagemap`` shows (reads nothing of the bit's page);
- ``pagecache-cachestat``, ``pagecache-nowait``: the receiver asks ``cachestat`` (2), or reads
  with ``preadv2(RWF_NOWAIT)`` (refused where the page is not cached);
- ``cpucache``: as ``pagecache-timing``, but the receiver decodes any difference: with
  ``--resident`` (every page read first, as a fix keeping the view in memory would), what the
  sender's read leaves in the CPU's caches;
- ``dentry``: the sender ``stat``s names that do not exist, the receiver times the same;
- ``…-in-sequence``: the same, but the sender has exited before the receiver starts, as the
  processes of two rotations of a deal: this carries a deal from one rotation to the next.

Where each bot's folders are images of its own (``arena/sandbox/_images.py``: as root on Linux
6.12+), no file of one is a file of the other: the futex, the caches' channels and the locks
find nothing in common; ``--no-images`` binds the folders as they are (the arena before, and
machines without images) to compare.

The sender sends all its bits, then the receiver reads them all (while both run, it starts
``--gap-ms`` after the sender, which must have ended by then). The raw rate is the bits over
the time the two spent sending and receiving (the walk that chooses the pages not counted: it
is done once per game). A call the system refuses closes the channel; the reason is printed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import shutil
import sys
import time
from pathlib import Path

import trio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
#: both sides of the cache channels (a test's colluding bot; it runs the benchmark's transfers too)
CACHE_PARTY = HERE.parent / "tests" / "arena" / "bots" / "pagecache.py"
CACHE_CHANNELS = ("pagecache-timing", "pagecache-mincore", "pagecache-faultaround", "pagecache-cachestat",
                  "pagecache-nowait", "cpucache", "dentry", "dentry-own", "dentry-runtime")
#: channels while both run, with slots of their own (the others: ``--slot-ms``)
SLOTTED = {"futex": None, "cpu": None, "memory": 0.050, "tasks": 0.010, "files": 0.010, "inodes": 0.100}
CHANNELS = (*SLOTTED, *CACHE_CHANNELS, *(f"{name}-in-sequence" for name in CACHE_CHANNELS))

from arena.players._manifest import BotSpec  # noqa: E402
from arena.players._process import open_bot_process  # noqa: E402
from arena.sandbox._resident import state_folder  # noqa: E402
from arena.sandbox._detect import detect_sandbox  # noqa: E402
from arena.sandbox._limits import Limits  # noqa: E402

#: one side of a channel; argv: a JSON task (role, channel, start, slot, bits, file)
PARTY = r'''
import ctypes, json, mmap, os, sys, time
task = json.loads(sys.argv[1])
slot, start, bits = task["slot"], task["start"], task["bits"]
libc = ctypes.CDLL(None, use_errno=True)
SYS_futex = 202 if os.uname().machine == "x86_64" else 98
FUTEX_WAIT, FUTEX_WAKE = 0, 1

class timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]

def wait_until(moment):
    while True:
        left = moment - time.monotonic()
        if left <= 0:
            return
        if left > 0.002:
            time.sleep(left - 0.001)

received = []
if task["channel"] == "futex":
    with open(task["file"], "rb") as shared:
        # the mapping's address, for the futex calls (Python's mmap does not give it)
        map_file = libc.mmap
        map_file.restype = ctypes.c_void_p
        map_file.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
        address = map_file(None, 4096, mmap.PROT_READ, mmap.MAP_SHARED, shared.fileno(), 0)
        word = ctypes.c_int.from_address(address).value
        for index in range(len(bits)):
            begin = start + index * slot
            wait_until(begin)
            if task["role"] == "send":
                if bits[index]:
                    while time.monotonic() < begin + slot * 0.5:  # a guard interval: no wake spills into the next slot
                        libc.syscall(SYS_futex, ctypes.c_void_p(address), FUTEX_WAKE, 1, None, None, 0)
            else:
                timeout = timespec(0, int(slot * 0.9 * 1e9))
                result = libc.syscall(SYS_futex, ctypes.c_void_p(address), FUTEX_WAIT, word,
                                      ctypes.byref(timeout), None, 0)
                received.append(1 if result == 0 else 0)
elif task["channel"] == "files":
    def open_files():
        with open("/proc/sys/fs/file-nr") as counts:
            return int(counts.read().split()[0])

    for index in range(len(bits)):
        begin = start + index * slot
        wait_until(begin)
        if task["role"] == "send":
            if bits[index]:  # 64 descriptors open to 80% of the slot
                held = [os.open("/dev/null", os.O_RDONLY) for _ in range(64)]
                wait_until(begin + slot * 0.8)
                for fd in held:
                    os.close(fd)
        else:
            before = open_files()
            wait_until(begin + slot * 0.7)
            received.append(open_files() - before)
elif task["channel"] == "inodes":
    def pipe_inode():
        read, write = os.pipe()
        number = os.fstat(read).st_ino
        os.close(read)
        os.close(write)
        return number

    def next_batch():
        """The first inode number of the next batch this CPU takes (its pipes until one jumps)."""
        last = pipe_inode()
        for _ in range(4096):
            number = pipe_inode()
            if number != last + 1:
                return number
            last = number
        return number

    for index in range(len(bits)):
        begin = start + index * slot
        wait_until(begin)
        if task["role"] == "send":
            if bits[index]:
                for _ in range(4096):
                    pipe_inode()
        else:
            first = next_batch()
            wait_until(begin + slot * 0.7)
            received.append(next_batch() - first)
elif task["channel"] in ("memory", "tasks"):
    import struct, threading
    info = ctypes.create_string_buffer(128)

    def sysinfo():
        """(free memory in bytes, processes and threads) of the whole machine (sysinfo(2))"""
        if libc.sysinfo(info) != 0:
            raise SystemExit(f'{{"refused": "sysinfo {ctypes.get_errno()}"}}')
        freeram, = struct.unpack_from("L", info, 40)
        procs, = struct.unpack_from("H", info, 80)
        unit, = struct.unpack_from("I", info, 104)
        return freeram * unit, procs

    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    size = 64 << 20
    for index in range(len(bits)):
        begin = start + index * slot
        wait_until(begin)
        if task["role"] == "send":
            if not bits[index]:
                continue
            if task["channel"] == "memory":  # 64 MiB touched, held to 80% of the slot
                address = libc.mmap(None, size, mmap.PROT_READ | mmap.PROT_WRITE,
                                    mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
                ctypes.memset(ctypes.c_void_p(address), 1, size)
                wait_until(begin + slot * 0.8)
                libc.munmap(ctypes.c_void_p(address), ctypes.c_size_t(size))
            else:  # 8 threads alive to 80% of the slot
                threads = [threading.Thread(target=wait_until, args=(begin + slot * 0.8,)) for _ in range(8)]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
        else:  # the change within the slot: the machine's own drift is slow beside it
            which = 0 if task["channel"] == "memory" else 1
            before = sysinfo()[which]
            wait_until(begin + slot * 0.7)
            received.append(sysinfo()[which] - before)
else:
    for index in range(len(bits)):
        begin = start + index * slot
        wait_until(begin)
        end = begin + slot * 0.9
        if task["role"] == "send":
            if bits[index]:
                while time.monotonic() < end:
                    pass
        else:
            count = 0
            while time.monotonic() < end:
                count += 1
            received.append(count)
print(json.dumps(received), file=sys.stderr, flush=True)
'''


def information(sent: list[int], received: list[int]) -> float:
    """The mutual information of ``sent`` and ``received`` in bits per bit, from their joint
    frequencies."""
    pairs = list(zip(sent, received))
    total = 0.0
    for a in (0, 1):
        for b in (0, 1):
            joint = pairs.count((a, b)) / len(pairs)
            if joint:
                total += joint * math.log2(joint / (sent.count(a) / len(sent) * received.count(b) / len(received)))
    return max(total, 0.0)


async def run_channel(sandbox, channel: str, bits: list[int], slot: float) -> list[int] | dict:
    start = time.monotonic() + 1.5  # both started and past their imports by then
    results: dict[str, str] = {}
    shared = os.path.realpath(sys.executable)

    async def party(role: str) -> None:
        task = {"role": role, "channel": channel, "start": start, "slot": slot, "bits": bits, "file": shared}
        spec = BotSpec(f"covert-{role}", (sys.executable, "-I", "-S", "-c", PARTY, json.dumps(task)),
                       cwd=HERE, limits=Limits(processes=16))
        async with open_bot_process(spec, sandbox) as bot:
            with trio.move_on_after(len(bits) * slot + 30):
                await bot.process.wait()
        results[role] = bot.stderr.tail()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(party, "send")
        nursery.start_soon(party, "receive")
    lines = results["receive"].splitlines()
    values = json.loads(lines[-1]) if lines else []
    if isinstance(values, dict):  # {"refused": "CALL ERRNO"}
        return values
    if channel == "cpu" and values:  # less done: a 1
        median = sorted(values)[len(values) // 2]
        values = [1 if count < median else 0 for count in values]
    if channel == "memory" and values:  # less free, by half the sender's 64 MiB: a 1
        values = [1 if change < -(32 << 20) else 0 for change in values]
    if channel == "tasks" and values:  # more processes and threads, by half the sender's 8: a 1
        values = [1 if change >= 4 else 0 for change in values]
    if channel == "files" and values:  # more open files on the machine, by half the sender's 64: a 1
        values = [1 if change >= 32 else 0 for change in values]
    if channel == "inodes" and values:  # more batches taken meanwhile than the median slot: a 1
        median = sorted(values)[len(values) // 2]
        values = [1 if change > median else 0 for change in values]
    return values


def load_cache_party():
    """``pagecache.py`` as a module (its walk, as the parties make it, and ``evict``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pagecache_party", CACHE_PARTY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def run_cache_channel(sandbox, channel: str, bits: list[int], gap: float,
                            resident: bool = False) -> tuple[dict, float]:
    """One transfer through a cache channel: the receiver's report and the seconds both spent.
    ``resident``: every page read (every name looked up) first, as by a fix that keeps the view
    in memory."""
    variant = channel.removesuffix("-in-sequence")
    in_sequence = channel.endswith("-in-sequence")
    tag = f"{os.getpid()}-{time.time_ns()}"  # fresh dentry names for every run
    party_module = load_cache_party()
    where = party_module.choose(variant, len(bits), tag)
    if not variant.startswith("dentry"):  # fresh pages: see the docstring
        party_module.evict(where)
        # ... that the arena has not read since either (its residency stamps go with them)
        shutil.rmtree(state_folder() / "resident", ignore_errors=True)
    if resident:
        party_module.make_resident(where)
    start = time.monotonic() + 5.0  # both started and past their walk by then (the receiver waits ``gap`` more)
    reports: dict[str, dict] = {}

    async def party(role: str, begin: float | None) -> None:
        task = {"role": role, "variant": variant, "tag": tag, "start": begin,
                "bits": bits if role == "send" else [], "count": len(bits)}
        spec = BotSpec(f"covert-{role}", (sys.executable, "-I", "-S", str(CACHE_PARTY), "raw", json.dumps(task)),
                       cwd=CACHE_PARTY.parent, limits=Limits(processes=16))
        async with open_bot_process(spec, sandbox) as bot:
            with trio.move_on_after(60):
                await bot.process.wait()
        lines = bot.stderr.tail().splitlines()
        try:
            reports[role] = json.loads(lines[-1])
        except (IndexError, ValueError):
            reports[role] = {"failed": bot.stderr.tail(5)}

    if in_sequence:  # the sender's process has ended before the receiver's starts
        await party("send", None)
        await party("receive", None)
    else:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(party, "send", start)
            nursery.start_soon(party, "receive", start + gap)
    send, receive = reports["send"], reports["receive"]
    for report in (send, receive):
        if "failed" in report or "refused" in report:
            return report, 0.0
    if not in_sequence and send["ended"] > receive["began"]:
        return {"failed": f"the sender ended after the receiver began (its walk took {send['choose_s']} s, "
                          f"sending {send['ended'] - send['began']:.2f} s): a larger --gap-ms"}, 0.0
    return receive, (send["ended"] - send["began"]) + (receive["ended"] - receive["began"])


#: the G statistic (chi-squared, one degree of freedom) that independent bits exceed with
#: probability 0.001: below it the measured information is taken for noise
G_NOISE = 10.83


def print_figures(channel: str, bits: list[int], received: list[int], seconds: float) -> None:
    errors = sum(a != b for a, b in zip(bits, received)) / len(bits)
    raw = len(bits) / seconds
    shared = information(bits, received)
    # Independent bits show some information by chance (G = 2 N ln 2 I is chi-squared):
    # times a raw rate of 100,000 bits/s, that noise would read as a channel.
    if 2 * len(bits) * math.log(2) * shared < G_NOISE:
        verdict = "capacity       0 bits/s (no dependence at p = 0.001)"
    else:
        verdict = f"capacity {raw * shared:7.0f} bits/s"
    print(f"{channel:34s} raw {raw:7.0f} bits/s, bit error rate {errors:.3f}, {verdict}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channel", choices=CHANNELS, action="append",
                        help="one channel (may be repeated; default: all)")
    parser.add_argument("--bits", type=int, help="bits per channel (default: 2000, through the caches 512)")
    parser.add_argument("--gap-ms", type=float, default=1500,
                        help="receiver's start after the sender's (cache channels)")
    parser.add_argument("--slot-ms", type=float, default=1.0)
    parser.add_argument("--resident", action="store_true",
                        help="cache channels: read every page (look every name up) first, as a fix keeping the view "
                             "in memory would: what is left")
    parser.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "none"])
    parser.add_argument("--no-images", action="store_true",
                        help="bind the view's folders as they are, not as images of each bot's own (the arena before "
                             "images, and a machine without them)")
    arguments = parser.parse_args()
    sandbox = detect_sandbox(arguments.sandbox)
    if arguments.no_images:
        sandbox = dataclasses.replace(sandbox, images_missing="--no-images")
    slot = arguments.slot_ms / 1000
    rng = random.Random(25)
    bits = [rng.randrange(2) for _ in range(arguments.bits or 2000)]
    cache_bits = bits[:arguments.bits or 512]
    print(f"sandbox {arguments.sandbox}: bubblewrap {'yes' if sandbox.bwrap else 'no'}, seccomp "
          f"{'yes' if sandbox.seccomp else 'no'}, own uids {'yes' if sandbox.drop_privileges else 'no'}, images "
          f"{'yes' if sandbox.images_missing is None else 'no'}; "
          f"{len(bits)} bits in slots of {arguments.slot_ms:g} ms, {len(cache_bits)} through the caches; "
          f"load {os.getloadavg()[0]:.1f}")
    try:
        for channel in arguments.channel or CHANNELS:
            if channel not in SLOTTED:
                report, seconds = await run_cache_channel(sandbox, channel, cache_bits, arguments.gap_ms / 1000,
                                                          arguments.resident)
                if "refused" in report:
                    print(f"{channel:34s} closed: {report['refused']} refused")
                elif "failed" in report:
                    print(f"{channel:34s} no figure: {report['failed']}")
                else:
                    print_figures(channel, cache_bits, report["received"], seconds)
                    files = report["files"]
                    more = f" and {len(files) - 3} more" if len(files) > 3 else ""
                    print(f"{'':34s} through {', '.join(files[:3])}{more}")
                continue
            own_slot = SLOTTED[channel] or slot
            sent = bits[:arguments.bits or int(2 / own_slot)]  # about 2 s
            received = await run_channel(sandbox, channel, sent, own_slot)
            if isinstance(received, dict):
                print(f"{channel:34s} closed: {received['refused']} refused")
                continue
            if len(received) != len(sent):
                print(f"{channel:34s} the receiver said nothing usable ({len(received)} slots)")
                continue
            print_figures(channel, sent, received, len(sent) * own_slot)
    finally:
        sandbox.close()


if __name__ == "__main__":
    trio.run(main)
