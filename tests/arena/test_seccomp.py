"""The system-call filter (``arena.sandbox._seccomp``): the generated program, run in a small BPF
interpreter for both architectures, and real bot processes under it, started the arena's way,
with bubblewrap and without: the calls it refuses, those every runtime needs, and the attacks
of issue 25 (a bot re-connecting its stdout, two bots passing their hands through locks,
``flock`` and inotify)."""

import dataclasses
import errno
import json
import os
import platform
import re
import signal
import socket
import struct
import subprocess
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
import trio

from arena.match._match import MatchSettings, play_match
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from arena.sandbox._detect import detect_sandbox
from arena.sandbox._seccomp import (AARCH64, ARCHES, REFUSED, RET_ALLOW, RET_ERRNO, RET_KILL_PROCESS, X86_64,
                                    bot_filter, current_arch, filter_installer, program_for)

from ._toy import TOY

BOTS = Path(__file__).parent / "bots"
SETTINGS = MatchSettings(TimeControl(move_ms=3000, reserve_ms=0, startup_ms=20_000))
linux_known = pytest.mark.skipif(current_arch() is None, reason="no system-call table for this machine")


# -- the program, interpreted -------------------------------------------------------------------------

def run_filter(program: bytes, nr: int, args=(0,) * 6, arch: int = X86_64.audit) -> int:
    """What the kernel would answer: classic BPF as seccomp allows it, on ``struct seccomp_data``."""
    data = struct.pack("=IIQ6Q", nr & 0xFFFFFFFF, arch, 0, *(list(args) + [0] * 6)[:6])
    ops = [struct.unpack_from("=HBBI", program, at) for at in range(0, len(program), 8)]
    pc, a = 0, 0
    while True:
        code, jt, jf, k = ops[pc]
        pc += 1
        if code == 0x20:  # LD W ABS
            assert k % 4 == 0 and k + 4 <= len(data), k
            a = struct.unpack_from("=I", data, k)[0]
        elif code == 0x54:  # ALU AND K
            a &= k
        elif code in (0x15, 0x35, 0x45):  # JEQ, JGE, JSET
            taken = {0x15: a == k, 0x35: a >= k, 0x45: bool(a & k)}[code]
            pc += jt if taken else jf
        elif code == 0x06:  # RET K
            return k
        else:
            raise AssertionError(f"instruction {code:#x} not expected")


def eperm(number=errno.EPERM):
    return RET_ERRNO | number


@pytest.mark.parametrize("arch", ARCHES.values(), ids=list(ARCHES))
def test_every_refused_call_answers_eperm_and_the_others_are_allowed(arch):
    program = program_for(arch)
    assert len(program) % 8 == 0 and len(program) // 8 < 4096
    for name in REFUSED:
        if name in arch.numbers:
            assert run_filter(program, arch.numbers[name], arch=arch.audit) == eperm(), name
    assert run_filter(program, arch.numbers["clone3"], arch=arch.audit) == eperm(errno.ENOSYS)
    refused = {arch.numbers[name] for name in (*REFUSED, "clone3", "socket", "socketpair") if name in arch.numbers}
    for nr in set(range(500)) - refused:  # read, write, mmap, futex, execve...; fcntl(0, F_DUPFD)...
        assert run_filter(program, nr, arch=arch.audit) == RET_ALLOW, nr


def test_missing_calls_are_only_those_an_architecture_lacks():
    assert {name for name in REFUSED if name not in X86_64.numbers} == set()
    assert {name for name in REFUSED if name not in AARCH64.numbers} == {"inotify_init", "iopl", "ioperm"}


@pytest.mark.parametrize("arch", ARCHES.values(), ids=list(ARCHES))
def test_a_call_of_another_abi_kills_and_x32_is_refused(arch):
    program = program_for(arch)
    for audit in (0x40000003, 0x40000028, *(other.audit for other in ARCHES.values() if other is not arch)):
        for nr in (0, 1, 39, 59, 102):  # i386 int 0x80 (0x40000003), 32-bit arm (0x40000028), ...
            assert run_filter(program, nr, arch=audit) == RET_KILL_PROCESS
    x32 = run_filter(program, 0x40000000 | X86_64.numbers["connect"], arch=arch.audit)
    assert x32 == (eperm(errno.ENOSYS) if arch is X86_64 else RET_ALLOW)  # aarch64 has no such bit
    assert run_filter(program, -1, arch=arch.audit) == (eperm(errno.ENOSYS) if arch is X86_64 else RET_ALLOW)


@pytest.mark.parametrize("arch", ARCHES.values(), ids=list(ARCHES))
def test_arguments_are_judged_on_their_low_32_bits(arch):
    program, nr = program_for(arch), arch.numbers

    def answer(name, *args):
        return run_filter(program, nr[name], args, arch.audit)

    high = 0xDEAD_0000_0000_0000
    for cmd in (5, 6, 7, 12, 13, 14, 36, 37, 38, 1024, 1025, 1026, 1036):
        assert answer("fcntl", 3, cmd) == answer("fcntl", 3, high | cmd) == eperm(), cmd
    for cmd in (0, 1, 2, 3, 4, 8, 1030, 1031, 1032, 1035):  # F_DUPFD... F_DUPFD_CLOEXEC, pipe size, F_GET_RW_HINT
        assert answer("fcntl", 3, cmd) == answer("fcntl", 3, high | cmd) == RET_ALLOW, cmd
    assert answer("ioctl", 0, 0x5412) == answer("ioctl", 0, high | 0x541C) == eperm()
    assert answer("ioctl", 0, 0x541B) == answer("ioctl", 0, 0x5401) == RET_ALLOW  # FIONREAD, TCGETS
    for flag in (0x80, 0x20000, 0x2000000, 0x4000000, 0x8000000, 0x10000000, 0x20000000, 0x40000000):
        assert answer("clone", flag | 17) == answer("clone", high | flag) == eperm(), hex(flag)
    assert answer("clone", 0x01200011) == answer("clone", 0x003D0F00) == RET_ALLOW  # fork, pthread_create
    assert answer("fadvise64", 3, 0, 0, 4) == answer("fadvise64", 3, 0, 0, high | 4) == eperm()
    assert answer("fadvise64", 3, 0, 0, 2) == RET_ALLOW  # POSIX_FADV_SEQUENTIAL
    for advice in (20, 21):  # MADV_COLD, MADV_PAGEOUT
        assert answer("madvise", 0, 4096, advice) == answer("madvise", 0, 4096, high | advice) == eperm(), advice
    for advice in (0, 3, 4, 8, 14):  # NORMAL, WILLNEED, DONTNEED, FREE, HUGEPAGE: every runtime's
        assert answer("madvise", 0, 4096, advice) == RET_ALLOW, advice
    for name in ("preadv2", "pwritev2"):
        assert answer(name, 3, 0, 1, 0, 0, 0x8) == answer(name, 3, 0, 1, 0, 0, 0x9) == eperm(errno.EOPNOTSUPP)
        assert answer(name, 3, 0, 1, 0, 0, 0) == answer(name, 3, 0, 1, 0, 0, 0x1) == RET_ALLOW  # RWF_HIPRI


@pytest.mark.parametrize("arch", ARCHES.values(), ids=list(ARCHES))
def test_sockets_unix_streams_only_and_sendto_without_an_address(arch):
    program, nr = program_for(arch), arch.numbers
    flags = 0o4000 | 0o2000000  # SOCK_NONBLOCK | SOCK_CLOEXEC
    for name in ("socket", "socketpair"):
        def answer(family, kind):
            return run_filter(program, nr[name], (family, kind, 0, 0), arch.audit)
        for kind in (1, 5, 1 | flags, 5 | flags):
            assert answer(1, kind) == answer(1 | 1 << 32, kind) == RET_ALLOW, (name, kind)
        for family, kind in ((1, 2), (1, 3), (1, 2 | flags), (2, 1), (10, 1), (16, 3), (17, 3), (40, 1), (2, 1 << 32 | 1)):
            assert answer(family, kind) == eperm(), (name, family, kind)
        assert answer(2 | 1 << 32, 1) == eperm()  # the kernel sees AF_INET
    for address in (0x7FFF_1234_5678, 0x7FFF_0000_0000, 0x1234):
        assert run_filter(program, nr["sendto"], (1, 0, 4, 0, address, 16), arch.audit) == eperm(), hex(address)
    assert run_filter(program, nr["sendto"], (1, 0x7FFF_1234_5678, 4, 0, 0, 0), arch.audit) == RET_ALLOW
    assert run_filter(program, nr["sendmsg"], (1, 0x7FFF_1234_5678, 0), arch.audit) == RET_ALLOW


def header_numbers(machine: str) -> dict[str, int] | None:
    """System-call numbers from the system's own headers (the source the tables were copied from)."""
    header = {"x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
              "aarch64": Path("/usr/include/asm-generic/unistd.h")}[machine]
    if not header.exists():
        return None
    text = header.read_text()
    numbers = {name: int(value) for name, value in re.findall(r"#define __NR(?:3264)?_(\w+)\s+(\d+)\b", text)}
    for alias, target in re.findall(r"#define __NR_(\w+)\s+__NR3264_(\w+)", text):
        if target in numbers:  # the 64-bit names of the generic table (__NR_fcntl: __NR3264_fcntl)
            numbers.setdefault(alias, numbers[target])
    return numbers


@pytest.mark.parametrize("arch", ARCHES.values(), ids=list(ARCHES))
def test_the_tables_match_the_system_headers(arch):
    numbers = header_numbers(arch.name)
    if numbers is None:
        pytest.skip(f"no {arch.name} system-call header here (apt-get install linux-libc-dev)")
    # cachestat (Linux 6.5) is newer than Debian 12's headers: 451 in the kernel's tables of both
    numbers.setdefault("cachestat", 451)
    assert {name: numbers.get(name) for name in arch.numbers} == arch.numbers


# -- real processes -------------------------------------------------------------------------------------

@pytest.fixture(scope="module", params=["auto", "none"])
def sandbox(request):
    """With bubblewrap where it works (it installs the filter) and without (the arena does)."""
    box = detect_sandbox(request.param)
    if box.seccomp is None:
        pytest.skip(f"no system-call filter here: {box.seccomp_missing}")
    yield box
    box.close()


def probe_spec() -> BotSpec:
    numbers = header_numbers(platform.machine())
    if numbers is None:
        pytest.skip("no system-call header to read the probe's numbers from (apt-get install linux-libc-dev)")
    return BotSpec("syscalls", (sys.executable, str(BOTS / "syscalls.py"), json.dumps(numbers)), cwd=BOTS)


async def probe(box) -> dict:
    async with open_player(probe_spec(), 30, sandbox=box) as player:
        assert player.usable, player.failure
    lines = [line for line in player.process.stderr.tail(50).splitlines() if line.startswith("SYSCALLS ")]
    assert len(lines) == 1, player.process.stderr.tail(50)
    return json.loads(lines[0].removeprefix("SYSCALLS "))


#: the answer of each refused call where it is not EPERM
ANSWERS = {"clone3": "ENOSYS", "preadv2 RWF_NOWAIT": errno.errorcode[errno.EOPNOTSUPP]}


@linux_known
async def test_a_bot_is_refused_every_channel_and_keeps_what_it_needs(sandbox):
    report = await probe(sandbox)
    wrong = {name: got for name, got in report["refused"].items() if got != ANSWERS.get(name, "EPERM")}
    assert wrong == {}, "not refused as expected"
    assert len(report["refused"]) > 90
    broken = {name: got for name, got in report["needed"].items() if got != "ok"}
    assert broken == {}, "a call every runtime needs failed"


#: what the probe must reach without the filter (so that its refusal above is the filter's doing)
OPEN_WITHOUT_FILTER = (
    "flock", "fcntl F_GETLK", "fcntl F_SETLK", "fcntl F_OFD_GETLK", "fcntl F_OFD_SETLK", "fcntl F_GETLEASE",
    "fcntl F_NOTIFY", "fcntl F_SETLK with high bits", "inotify_init1", "shmget", "semget", "msgget",
    "fadvise DONTNEED", "mincore", "madvise MADV_PAGEOUT", "madvise MADV_COLD", "socket AF_INET SOCK_STREAM", "socket AF_INET6 SOCK_STREAM", "socket AF_NETLINK SOCK_RAW",
    "socketpair AF_UNIX SOCK_DGRAM", "bind", "listen", "ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
    "pidfd_getfd", "keyctl", "add_key", "userfaultfd", "io_uring_setup", "unshare CLONE_NEWUSER",
    "clone CLONE_NEWUSER", "open_tree")


@linux_known
async def test_without_the_filter_the_same_probe_reaches_those_channels(sandbox):
    report = await probe(dataclasses.replace(sandbox, seccomp=None))
    assert {name: report["refused"][name] for name in OPEN_WITHOUT_FILTER} == dict.fromkeys(OPEN_WITHOUT_FILTER, "ok")
    assert report["refused"]["clone3"] == "EINVAL" and report["refused"]["connect"] == "ENOENT"


@pytest.mark.skipif(current_arch() is not X86_64, reason="int 0x80 is x86")
def test_an_i386_system_call_kills_the_process():
    code = ("import ctypes, mmap\n"
            "page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
            "page.write(bytes([0xB8, 20, 0, 0, 0, 0xCD, 0x80, 0xC3]))  # mov eax, 20 (getpid); int 0x80; ret\n"
            "address = ctypes.addressof(ctypes.c_char.from_buffer(page))\n"
            "print(ctypes.CFUNCTYPE(ctypes.c_int)(address)(), flush=True)\n")
    plain = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert plain.returncode == 0 and int(plain.stdout) > 0, plain.stderr  # the call works unfiltered
    filtered = subprocess.run([sys.executable, "-c", code], capture_output=True,
                              preexec_fn=filter_installer(bot_filter()))
    assert filtered.returncode == -signal.SIGSYS and filtered.stdout == b""


@linux_known
async def test_a_bot_cannot_take_its_stdout_elsewhere(sandbox):
    # Issue 25: connect(1, AF_UNSPEC) dissolved the stamping socket, a second connect pointed
    # it at any service of the host. Now every such attempt is refused and stdout still works.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.setblocking(False)
        spec = BotSpec("reconnect", (sys.executable, str(BOTS / "reconnect.py"), str(listener.getsockname()[1])),
                       cwd=BOTS)
        async with open_player(spec, 30, sandbox=sandbox) as player:
            assert player.usable, player.failure  # its hello still came over the arena's socket
        report = player.process.stderr.tail(50)
        await trio.sleep(0.2)
        with pytest.raises(BlockingIOError):
            listener.accept()
    attempts = dict(line.split()[1:] for line in report.splitlines() if line.startswith("ATTEMPT "))
    assert attempts == {"connect-AF_UNSPEC": "EPERM", "connect": "EPERM", "sendto": "EPERM",
                        "sendmsg-fastopen": "EISCONN", "own-socket": "EPERM"}, report


async def collusion(box) -> list[dict[str, dict[str, str]]]:
    """A match of two ``collude.py``: what each drew, learned and was refused."""
    spec = BotSpec("collude", (sys.executable, str(BOTS / "collude.py")), cwd=BOTS)
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(spec, 30, sandbox=box)) for _ in range(2)]
        result = await play_match(TOY, players, seed=4, options={"target": 30}, settings=SETTINGS)
    assert result.faults == ()
    reports = []
    for player in players:
        report = {"MINE": {}, "GOT": {}, "REFUSED": {}}
        for line in player.process.stderr.tail(100).splitlines():
            kind, channel, value = line.split()
            report[kind][channel] = value
        reports.append(report)
    return reports


@linux_known
async def test_two_colluders_at_one_table_learn_nothing_of_each_other(sandbox):
    # Issue 25: two Opito Bay bots read each other's hand through locks on a file both could
    # read, 9,142 times in 8 games. Without the filter, on files both see (their folders bound
    # as they are), these channels carry each one's secret to the other (which shows they work
    # here); with it every one is refused.
    one, two = await collusion(dataclasses.replace(sandbox, seccomp=None, images_missing="off for this test"))
    assert (one["GOT"], two["GOT"], one["REFUSED"]) == (two["MINE"], one["MINE"], {})
    if sandbox.images_missing is None:
        # Where each bot's folder is an image of its own, even unfiltered they share no file.
        one, two = await collusion(dataclasses.replace(sandbox, seccomp=None))
        assert (one["GOT"], two["GOT"], one["REFUSED"], two["REFUSED"]) == ({}, {}, {}, {})
    one, two = await collusion(sandbox)
    channels = dict.fromkeys(("posix", "ofd", "flock", "inotify"), "EPERM")
    assert (one["GOT"], two["GOT"], one["REFUSED"], two["REFUSED"]) == ({}, {}, channels, channels)


def test_doctor_says_whether_the_filter_is_there(monkeypatch):
    box = detect_sandbox("none")
    try:
        (active, how), = [(active, how) for name, active, how in box.describe() if "(seccomp)" in name]
        assert (active, how) == (box.seccomp is not None, box._seccomp_how())
        if box.seccomp is not None:
            assert how.startswith(f"{current_arch().name} filter of ") and "installed before exec" in how
        monkeypatch.setattr(platform, "machine", lambda: "riscv64")
        other = detect_sandbox("none")
        other.close()
        (active, how), = [(active, how) for name, active, how in other.describe() if "(seccomp)" in name]
        assert (active, how) == (False, "no system-call table for riscv64 here (x86_64 and aarch64 have one)")
    finally:
        box.close()
