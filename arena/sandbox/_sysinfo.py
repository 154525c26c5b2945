"""``sysinfo(2)`` answered by the arena, as an idle machine's, for every process of a bot.

``sysinfo`` tells any process the machine's count of processes and threads, its loads and its
free memory: two bots alive at once moved 100 bits/s through the count (``benchmarks/
covert_channels.py --channel tasks``, 10 ms slots), whether or not they ever ran at once (a
thread counts while its owner is frozen). It cannot be refused: the C library asks it for the
machine's memory (``sysconf(_SC_PHYS_PAGES)``), which the JVM reads at start, and takes what an
unanswered call leaves in its buffer. So the bot's process, before ``exec``, installs a second
system-call filter that hands every ``sysinfo`` of it and its descendants to the arena
(``SECCOMP_RET_USER_NOTIF``, Linux 5.0), and passes the filter's listener to the arena over a
socket; the arena (:func:`answer`) writes an idle machine into the caller's buffer: one process,
no load, all of its memory free (the bot's memory limit as the machine's memory), no swap.

Where the kernel cannot (before 5.0), or bubblewrap is set-uid (the filter needs ``no_new_privs``,
which a set-uid program then drops its privileges under), the sandbox reports the protection
missing (:func:`answered_here`).
"""

from __future__ import annotations

import ctypes
import errno
import functools
import os
import select
import socket
import struct
import subprocess
import sys
import time

import trio

from ._seccomp import ARCH_OFFSET, JEQ_K, NR_OFFSET, RET_ALLOW, Arch, _assemble, _load, _Op, _ret, current_arch

#: the call's number, by architecture
SYSINFO = {"x86_64": 99, "aarch64": 179}
RET_USER_NOTIF = 0x7FC00000
SECCOMP_SET_MODE_FILTER = 1
SECCOMP_FILTER_FLAG_NEW_LISTENER = 1 << 3
#: the seccomp system call, by architecture
SECCOMP = {"x86_64": 317, "aarch64": 277}
PR_SET_NO_NEW_PRIVS = 38
#: ioctls of the listener: _IOWR('!', 0, struct seccomp_notif) (80 bytes), _IOWR('!', 1, struct
#: seccomp_notif_resp) (24 bytes), _IOW('!', 2, __u64)
NOTIF_RECV, NOTIF_SEND, NOTIF_ID_VALID = 0xC0502100, 0xC0182101, 0x40082102
#: struct seccomp_notif: id, pid, flags, then struct seccomp_data (nr, arch, ip, args[6])
_NOTIF = struct.Struct("=QIIiIQ6Q")
_RESPONSE = struct.Struct("=QqiI")
#: struct sysinfo (64-bit): uptime, loads[3], totalram, freeram, sharedram, bufferram,
#: totalswap, freeswap, procs, pad, totalhigh, freehigh, mem_unit, padding
_SYSINFO = struct.Struct("=q3Q6QHH4x2QI4x")

_LIBC = ctypes.CDLL(None, use_errno=True)
_LIBC.syscall.restype = ctypes.c_long
_LIBC.syscall.argtypes = [ctypes.c_long, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_void_p]
_LIBC.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]


class _Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def listener_program(arch: Arch) -> bytes:
    """The filter: ``sysinfo`` of this architecture to the listener, everything else allowed
    (the bot's own filter, ``_seccomp``, decides the rest, other ABIs included)."""
    return _assemble([
        _load(ARCH_OFFSET), _Op(JEQ_K, arch.audit, false="allow"),
        _load(NR_OFFSET), _Op(JEQ_K, SYSINFO[arch.name], false="allow"),
        _ret(RET_USER_NOTIF),
        "allow", _ret(RET_ALLOW),
    ])


class ListenerInstaller:
    """In a bot's child before ``exec``: install the filter and send its listener over
    ``sender`` (one end of a socket pair; the arena reads it with :func:`receive_listener`).
    Made in the parent, so the child only makes the calls. Raises :class:`OSError` there."""

    def __init__(self, arch: Arch, sender: socket.socket) -> None:
        program = listener_program(arch)
        self._program = ctypes.create_string_buffer(program, len(program))
        self._fprog = _Fprog(len(program) // 8, ctypes.addressof(self._program))
        self._seccomp = SECCOMP[arch.name]
        self._sender = sender

    def __call__(self) -> None:
        if _LIBC.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
        listener = _LIBC.syscall(self._seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
                                 ctypes.addressof(self._fprog))
        if listener < 0:
            number = ctypes.get_errno()
            raise OSError(number, f"cannot install the sysinfo filter: {os.strerror(number)}")
        socket.send_fds(self._sender, [b"L"], [listener])
        os.close(listener)


def listener_pair() -> tuple[socket.socket, socket.socket]:
    """(the arena's end, the child's end) of the socket a listener travels over."""
    return socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)


def receive_listener(ours: socket.socket) -> int | None:
    """The listener the child sent (it has exec'd by now, so it did or it failed), or ``None``."""
    ours.setblocking(False)
    try:
        _, fds, _, _ = socket.recv_fds(ours, 1, 1)
    except (BlockingIOError, OSError):
        return None
    return fds[0] if fds else None


def idle_machine(memory_bytes: int) -> bytes:
    """A ``struct sysinfo`` of an idle machine with ``memory_bytes`` of memory, all of it free,
    one process, the real uptime (which any process reads from its clock anyway)."""
    uptime = int(time.clock_gettime(time.CLOCK_BOOTTIME))
    return _SYSINFO.pack(uptime, 0, 0, 0, memory_bytes, memory_bytes, 0, 0, 0, 0, 1, 0, 0, 0, 1)


def _answer_one(listener: int, memory_bytes: int) -> None:
    """Read one notification from ``listener`` and answer it (the caller's buffer written with
    :func:`idle_machine`, the call succeeding; ``EFAULT`` where the buffer cannot be written)."""
    buffer = bytearray(_NOTIF.size)
    try:
        _ioctl(listener, NOTIF_RECV, buffer)
    except OSError:
        return  # gone meanwhile (killed), or another answered it
    ident, pid, _, _, _, _, address, *_ = _NOTIF.unpack(buffer)
    data = idle_machine(memory_bytes)
    # seccomp_unotify(2)'s order: the caller's memory opened by its pid first, then the
    # notification checked still pending: the caller is then alive and blocked in the call, so
    # the pid was not reused meanwhile, and what was opened is its memory, not another's.
    try:
        memory = os.open(f"/proc/{pid}/mem", os.O_RDWR | os.O_CLOEXEC)
    except OSError:
        failure = errno.EFAULT
    else:
        try:
            _ioctl(listener, NOTIF_ID_VALID, bytearray(struct.pack("=Q", ident)))
            failure = 0 if os.pwrite(memory, data, address) == len(data) else errno.EFAULT
        except OSError:
            failure = errno.EFAULT
        finally:
            os.close(memory)
    try:
        _ioctl(listener, NOTIF_SEND, bytearray(_RESPONSE.pack(ident, 0 if not failure else -1, -failure, 0)))
    except OSError:
        pass  # it died meanwhile


def _ioctl(fd: int, request: int, buffer: bytearray) -> None:
    import fcntl

    fcntl.ioctl(fd, request, buffer, True)


def _hung_up(listener: int) -> bool:
    poller = select.poll()
    poller.register(listener, select.POLLIN)
    return any(events & (select.POLLHUP | select.POLLERR) for _, events in poller.poll(0))


#: the most answers a second for one bot: past it the next waits (a bot calling sysinfo in a
#: loop would otherwise spend the arena's time, not its own; runtimes call it once, at start)
ANSWERS_PER_S = 200


async def answer(listener: int, memory_bytes: int) -> None:
    """Answer every ``sysinfo`` of the bot behind ``listener`` until none of its processes is
    left (the listener then hangs up), at most :data:`ANSWERS_PER_S` a second; closes it."""
    window, answered = trio.current_time(), 0
    try:
        while True:
            await trio.lowlevel.wait_readable(listener)
            if _hung_up(listener):
                return
            if answered >= ANSWERS_PER_S:
                await trio.sleep_until(window + 1)  # the caller waits, on its own clock
            if trio.current_time() >= window + 1:
                window, answered = trio.current_time(), 0
            _answer_one(listener, memory_bytes)
            answered += 1
    finally:
        trio.lowlevel.notify_closing(listener)
        os.close(listener)


#: a process that installs the filter as a bot's child does, then calls sysinfo and prints the
#: count of processes it was told
_PROBE = r"""
import ctypes, socket, sys
sys.path[:0] = [sys.argv[1]]
from arena.sandbox._sysinfo import ListenerInstaller
from arena.sandbox._seccomp import current_arch
ListenerInstaller(current_arch(), socket.socket(fileno=int(sys.argv[2])))()
info = ctypes.create_string_buffer(128)
libc = ctypes.CDLL(None, use_errno=True)
print(libc.sysinfo(info), int.from_bytes(info.raw[80:82], "little"))
"""


@functools.cache
def answered_here() -> str | None:
    """Why ``sysinfo`` cannot be answered by the arena here, or ``None`` where it can (tried:
    a process calls it under the filter, the arena answers, the process reads one process)."""
    arch = current_arch()
    if arch is None or arch.name not in SYSINFO:
        return "no system-call table for this machine's architecture"
    ours, theirs = listener_pair()
    try:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        child = subprocess.Popen([sys.executable, "-I", "-c", _PROBE, root, str(theirs.fileno())],
                                 pass_fds=(theirs.fileno(),), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        theirs.close()
        listener = None
        deadline = time.monotonic() + 60
        while listener is None and child.poll() is None and time.monotonic() < deadline:
            select.select([ours], [], [], 0.05)
            listener = receive_listener(ours)
        if listener is None:
            child.kill()
            out, err = child.communicate()
            return f"the filter could not be installed: {(err.strip().splitlines() or ['no listener'])[-1]}"
        try:
            while child.poll() is None and time.monotonic() < deadline:
                readable, _, _ = select.select([listener], [], [], 0.05)
                if readable and not _hung_up(listener):
                    _answer_one(listener, 1 << 30)
        finally:
            os.close(listener)
        out, _ = child.communicate(timeout=60)
        return None if out.split() == ["0", "1"] else f"a probe under the filter read {out.strip()!r}"
    except (OSError, subprocess.SubprocessError) as error:
        return f"could not try: {error}"
    finally:
        ours.close()
