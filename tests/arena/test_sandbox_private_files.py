"""Issue 44, hole 5: what a bot reads of ``/etc`` and ``/proc``'s counters is written for it
alone (``arena/sandbox/_synthetic.py``): a file of ``/etc`` bound from the host was one inode
for every bot (a futex on its mapping woke another bot, 11-54 bits/s), and ``/proc/loadavg``,
``/proc/stat`` and ``file-nr`` moved with every process and file another bot made. And
``sysinfo(2)`` is answered by the arena (``arena/sandbox/_sysinfo.py``): its count of processes
moved 100 bits/s between two bots alive at once, frozen or not.
"""

import json
import os
import sys
from pathlib import Path

import pytest
import trio

from arena.players._manifest import BotSpec
from arena.players._process import open_bot_process
from arena.sandbox._detect import detect_sandbox
from arena.sandbox._limits import Limits

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

HERE = Path(__file__).parent

#: a bot that reads what the sandbox writes for it, and makes 50 processes and opens 200 files meanwhile
LOOK = r"""
import json, os, sys, time
def read(path):
    try:
        return open(path).read()
    except OSError as error:
        return error.strerror
def device(path):
    info = os.stat(path)
    return "%d:%d:%d" % (os.major(info.st_dev), os.minor(info.st_dev), info.st_ino)
import ctypes
def sysinfo():
    info = ctypes.create_string_buffer(128)
    result = ctypes.CDLL(None).sysinfo(info)
    return [result, int.from_bytes(info.raw[80:82], "little"), int.from_bytes(info.raw[32:40], "little"),
            int.from_bytes(info.raw[40:48], "little")]
before = {path: read(path) for path in ("/proc/loadavg", "/proc/stat", "/proc/sys/fs/file-nr")}
before["sysinfo"] = sysinfo()
children = []
for _ in range(50):
    child = os.fork()
    if child == 0:
        time.sleep(2)
        os._exit(0)
    children.append(child)
files = [open("/dev/null") for _ in range(200)]
after = {path: read(path) for path in before if path != "sysinfo"}
after["sysinfo"] = sysinfo()
for child in children:
    os.waitpid(child, 0)
print(json.dumps({"passwd": read("/etc/passwd"), "group": read("/etc/group"), "hosts": read("/etc/hosts"),
                  "before": before, "after": after, "cache": device("/etc/ld.so.cache"), "uid": os.getuid()}),
      file=sys.stderr)
"""


@pytest.fixture(scope="module")
def sandbox():
    box = detect_sandbox("auto")
    if box.bwrap is None:
        box.close()
        pytest.skip("needs bubblewrap (apt-get install bubblewrap)")
    yield box
    box.close()


async def look(box) -> dict:
    spec = BotSpec("look", (sys.executable, "-I", "-S", "-c", LOOK), cwd=HERE / "bots", limits=Limits(memory_mb=700))
    async with open_bot_process(spec, box) as bot:
        with trio.fail_after(30):  # a guard, not a measure
            await bot.process.wait()
    return json.loads(bot.stderr.tail().splitlines()[-1])


async def test_a_bot_reads_an_etc_of_its_own_and_proc_counters_that_do_not_move(sandbox):
    one, two = await look(sandbox), await look(sandbox)
    uid = one["uid"]
    # nothing of the host's users or hosts
    assert one["passwd"] == (f"root:x:0:0:root:/root:/bin/sh\n"
                             + (f"bot:x:{uid}:{uid if os.geteuid() == 0 else os.getgid()}:bot:/tmp:/bin/sh\n"
                                if uid not in (0, 65534) else "")
                             + "nobody:x:65534:65534:nobody:/nonexistent:/bin/false\n")
    assert one["hosts"] == "127.0.0.1 localhost\n::1 localhost\n"
    # the loader's cache: a file of each bot's own (its own tmpfs), not the host's inode
    host = os.stat("/etc/ld.so.cache")
    assert one["cache"] != f"{os.major(host.st_dev)}:{os.minor(host.st_dev)}:{host.st_ino}"
    # 50 processes and 200 open files later, the counters read the same, and the same in both
    assert one["before"] == one["after"] == two["after"]
    assert one["before"]["/proc/loadavg"] == "0.00 0.00 0.00 1/1 1\n"
    assert one["before"]["/proc/sys/fs/file-nr"].split("\t")[:2] == ["0", "0"]
    stat = one["before"]["/proc/stat"].splitlines()
    assert "processes 1" in stat and "ctxt 0" in stat
    assert sum(line.startswith("cpu") for line in stat) == 1 + max(os.sched_getaffinity(0)) + 1
    # sysinfo: one process, its memory limit as the machine's, all of it free
    assert one["before"]["sysinfo"] == [0, 1, 700 * 2**20, 700 * 2**20]


@pytest.mark.parametrize("mode", ["auto", "none"])
async def test_sysinfo_is_answered_by_the_arena_with_or_without_bubblewrap(mode):
    box = detect_sandbox(mode)
    try:
        if box.sysinfo_missing is not None:
            pytest.skip(f"sysinfo cannot be answered here: {box.sysinfo_missing}")
        found = await look(box)
    finally:
        box.close()
    assert found["before"]["sysinfo"] == found["after"]["sysinfo"] == [0, 1, 700 * 2**20, 700 * 2**20]


async def test_a_bot_calling_sysinfo_in_a_loop_spends_its_own_time_not_the_arenas():
    # Each call is answered on the arena's loop: past ANSWERS_PER_S a second the bot waits.
    from arena.sandbox._sysinfo import ANSWERS_PER_S

    box = detect_sandbox("none")
    try:
        if box.sysinfo_missing is not None:
            pytest.skip(f"sysinfo cannot be answered here: {box.sysinfo_missing}")
        code = ("import ctypes, sys, time\ninfo = ctypes.create_string_buffer(128)\nlibc = ctypes.CDLL(None)\n"
                "begin = time.monotonic()\nfor _ in range(3 * %d):\n    libc.sysinfo(info)\n"
                "print(time.monotonic() - begin, file=sys.stderr)\n" % ANSWERS_PER_S)
        spec = BotSpec("spin", (sys.executable, "-I", "-S", "-c", code), cwd=HERE / "bots")
        async with open_bot_process(spec, box) as bot:
            with trio.fail_after(60):  # a guard, not a measure
                await bot.process.wait()
    finally:
        box.close()
    assert float(bot.stderr.tail().splitlines()[-1]) >= 2.0  # three seconds' worth of answers
