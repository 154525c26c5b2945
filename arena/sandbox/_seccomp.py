"""The system-call filter every bot process runs under: a seccomp program built here.

Namespaces, uids and a read-only filesystem do not stop two bots from talking through the
kernel objects they share anyway: a lock or an inotify watch on a file both can read lives on
the inode, across every namespace and uid; a bot's stdout is a TCP socket the arena made in the
host's network namespace, which ``connect(fd, AF_UNSPEC)`` dissolves and a second ``connect``
points anywhere. This module builds a classic-BPF seccomp filter (no library: the program is
small, and every instruction is tested) that refuses such calls with ``EPERM``, so a bot gets a
plain ``PermissionError`` instead of dying. What it refuses, and why:

- cross-process channels: ``flock``; ``fcntl`` record, open-file-description and lease locks,
  ``F_NOTIFY`` and ``F_SET_RW_HINT``; inotify, fanotify; SysV IPC and POSIX message queues (machine-wide without
  bubblewrap); the page cache's state of a shared file, dropped or read back without reading
  the file: ``fadvise(POSIX_FADV_DONTNEED)``, ``madvise(MADV_COLD, MADV_PAGEOUT)``,
  ``process_madvise``, ``mincore``, ``cachestat`` and ``preadv2(RWF_NOWAIT)`` (the view's
  files are kept resident, so what remains, timing a plain read, finds every page cached:
  ``_resident``);
- the network: ``connect``, ``bind``, ``listen``, ``accept``; sockets other than ``AF_UNIX``
  streams and sequenced packets; ``sendto`` with an address;
- reaching into other processes or the kernel: ``ptrace``, ``process_vm_*``, ``kcmp``,
  ``pidfd_getfd``, keyrings, ``perf_event_open``, ``bpf``, ``userfaultfd``, io_uring (its
  operations, a socket's connect among them, run behind the filter's back), file handles,
  terminal input injection (``TIOCSTI``, ``TIOCLINUX``) and the administrator's calls;
- leaving the sandbox: new namespaces (``unshare``, ``setns``, ``clone`` with a ``CLONE_NEW*``
  flag), ``mount`` and the new mount API, ``pivot_root``, ``chroot``.

``clone3`` answers ``ENOSYS`` (its flags lie in memory a filter cannot read): the C library,
Go, Java and Node then use ``clone``, which is checked. A system call of another ABI (i386
through ``int 0x80`` on x86_64) kills the process: its numbers mean other calls; x32 calls
answer ``ENOSYS``, as on kernels built without x32.

Only x86_64 and aarch64 are known; elsewhere :func:`bot_filter` returns ``None`` and the
sandbox reports the protection as missing.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# -- the kernel's constants (linux/seccomp.h, linux/audit.h, linux/filter.h) ---------------------

RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
RET_ALLOW = 0x7FFF0000
#: struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6]
NR_OFFSET, ARCH_OFFSET, ARGS_OFFSET = 0, 4, 16
X32_SYSCALL_BIT = 0x40000000

# classic BPF opcodes: the class | size | mode, or class | operation | source
LD_W_ABS = 0x20
ALU_AND_K = 0x54
JEQ_K, JGE_K, JSET_K = 0x15, 0x35, 0x45
RET_K = 0x06

#: arguments compared by value, from the uapi headers
F_LOCKS = (5, 6, 7, 12, 13, 14, 36, 37, 38)  # F_GETLK, F_SETLK, F_SETLKW, their *64 (refused
# by 64-bit kernels anyway), F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW
#: F_SETLEASE, F_GETLEASE, F_NOTIFY; F_SET_RW_HINT (a hint kept on the inode that anyone reads
#: back with F_GET_RW_HINT; recent kernels let only the file's owner set it, older may not)
F_INODE_STATE = (1024, 1025, 1026, 1036)
TIOCSTI, TIOCLINUX = 0x5412, 0x541C
AF_UNIX = 1
SOCK_STREAM, SOCK_SEQPACKET = 1, 5
SOCK_NONBLOCK, SOCK_CLOEXEC = 0o4000, 0o2000000
#: CLONE_NEWTIME, NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
CLONE_NEW_ANY = 0x80 | 0x20000 | 0x2000000 | 0x4000000 | 0x8000000 | 0x10000000 | 0x20000000 | 0x40000000
POSIX_FADV_DONTNEED = 4
#: MADV_COLD, MADV_PAGEOUT: a file page mapped by this process alone is deactivated or written
#: out of the page cache
MADV_EVICTING = (20, 21)
RWF_NOWAIT = 0x8


@dataclass(frozen=True)
class Arch:
    """One architecture: its ``AUDIT_ARCH_*`` value and the numbers of the calls named here."""

    name: str
    audit: int
    numbers: dict[str, int]
    #: numbers at or above this are another ABI's of the same audit arch (x86_64's x32)
    foreign_from: int | None = None


#: Refused outright with EPERM (those an architecture lacks are left out for it).
REFUSED = (
    "flock", "inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init", "fanotify_mark",
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "keyctl", "add_key", "request_key", "unshare", "setns",
    "perf_event_open", "bpf", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "mount", "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    "umount2", "pivot_root", "chroot",
    "shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop", "semctl",
    "msgget", "msgsnd", "msgrcv", "msgctl",
    "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
    "name_to_handle_at", "open_by_handle_at",
    "acct", "swapon", "swapoff", "reboot", "kexec_load", "kexec_file_load",
    "init_module", "finit_module", "delete_module", "iopl", "ioperm", "syslog", "quotactl", "quotactl_fd",
    "lookup_dcookie", "mincore", "cachestat", "process_madvise",
    "connect", "bind", "listen", "accept", "accept4",
)

# x86_64: /usr/include/x86_64-linux-gnu/asm/unistd_64.h (linux-libc-dev 6.1), which is the
# kernel's arch/x86/entry/syscalls/syscall_64.tbl.
X86_64 = Arch("x86_64", 0xC000003E, {
    "ioctl": 16, "mincore": 27, "madvise": 28, "shmget": 29, "shmat": 30, "shmctl": 31, "socket": 41, "connect": 42, "accept": 43,
    "sendto": 44, "sendmsg": 46, "bind": 49, "listen": 50, "socketpair": 53, "clone": 56,
    "semget": 64, "semop": 65, "semctl": 66, "shmdt": 67, "msgget": 68, "msgsnd": 69, "msgrcv": 70,
    "msgctl": 71, "fcntl": 72, "flock": 73, "ptrace": 101, "syslog": 103, "pivot_root": 155,
    "chroot": 161, "acct": 163, "mount": 165, "umount2": 166, "swapon": 167, "swapoff": 168,
    "reboot": 169, "iopl": 172, "ioperm": 173, "init_module": 175, "delete_module": 176,
    "quotactl": 179, "lookup_dcookie": 212, "semtimedop": 220, "fadvise64": 221, "mq_open": 240,
    "mq_unlink": 241, "mq_timedsend": 242, "mq_timedreceive": 243, "mq_notify": 244,
    "mq_getsetattr": 245, "kexec_load": 246, "add_key": 248, "request_key": 249, "keyctl": 250,
    "inotify_init": 253, "inotify_add_watch": 254, "unshare": 272, "accept4": 288,
    "inotify_init1": 294, "perf_event_open": 298, "fanotify_init": 300, "fanotify_mark": 301,
    "name_to_handle_at": 303, "open_by_handle_at": 304, "setns": 308, "process_vm_readv": 310,
    "process_vm_writev": 311, "kcmp": 312, "finit_module": 313, "kexec_file_load": 320, "bpf": 321,
    "userfaultfd": 323, "preadv2": 327, "pwritev2": 328, "io_uring_setup": 425,
    "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428, "move_mount": 429,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "clone3": 435,
    "pidfd_getfd": 438, "process_madvise": 440, "mount_setattr": 442, "quotactl_fd": 443, "cachestat": 451,
}, foreign_from=X32_SYSCALL_BIT)

# aarch64: the generic table, /usr/include/asm-generic/unistd.h (linux-libc-dev 6.1; the
# kernel's include/uapi/asm-generic/unistd.h); no inotify_init, iopl or ioperm there.
AARCH64 = Arch("aarch64", 0xC00000B7, {
    "lookup_dcookie": 18, "fcntl": 25, "inotify_init1": 26, "inotify_add_watch": 27, "ioctl": 29,
    "flock": 32, "umount2": 39, "mount": 40, "pivot_root": 41, "chroot": 51, "quotactl": 60,
    "acct": 89, "unshare": 97, "kexec_load": 104, "init_module": 105, "delete_module": 106,
    "syslog": 116, "ptrace": 117, "reboot": 142, "mq_open": 180, "mq_unlink": 181,
    "mq_timedsend": 182, "mq_timedreceive": 183, "mq_notify": 184, "mq_getsetattr": 185,
    "msgget": 186, "msgctl": 187, "msgrcv": 188, "msgsnd": 189, "semget": 190, "semctl": 191,
    "semtimedop": 192, "semop": 193, "shmget": 194, "shmctl": 195, "shmat": 196, "shmdt": 197,
    "socket": 198, "socketpair": 199, "bind": 200, "listen": 201, "accept": 202, "connect": 203,
    "sendto": 206, "sendmsg": 211, "add_key": 217, "request_key": 218, "keyctl": 219, "clone": 220,
    "fadvise64": 223, "swapon": 224, "swapoff": 225, "perf_event_open": 241, "accept4": 242,
    "fanotify_init": 262, "fanotify_mark": 263, "name_to_handle_at": 264, "open_by_handle_at": 265,
    "setns": 268, "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272,
    "finit_module": 273, "bpf": 280, "userfaultfd": 282, "preadv2": 286, "pwritev2": 287,
    "kexec_file_load": 294, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
    "fspick": 433, "clone3": 435, "pidfd_getfd": 438, "process_madvise": 440, "mount_setattr": 442,
    "quotactl_fd": 443, "cachestat": 451, "mincore": 232, "madvise": 233,
})

ARCHES = {arch.name: arch for arch in (X86_64, AARCH64)}


def current_arch() -> Arch | None:
    """The table for the machine this Python runs on (a 64-bit process), or ``None``."""
    if struct.calcsize("P") != 8 or sys.byteorder != "little":
        return None
    machine = platform.machine().lower()
    return ARCHES.get({"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine))


# -- a tiny assembler: instructions with symbolic jump targets -----------------------------------

@dataclass(frozen=True)
class _Op:
    code: int
    k: int
    true: str | None = None  # label a conditional jump takes when the test holds
    false: str | None = None  # ... and when it does not (None: the next instruction)


def _assemble(ops: Sequence[_Op | str]) -> bytes:
    """Resolve labels (the strings in ``ops``) into the ``struct sock_filter`` array."""
    where, index = {}, 0
    for op in ops:
        if isinstance(op, str):
            where[op] = index
        else:
            index += 1
    out, index = bytearray(), 0
    for op in ops:
        if isinstance(op, str):
            continue
        index += 1
        jt = where[op.true] - index if op.true else 0
        jf = where[op.false] - index if op.false else 0
        if not (0 <= jt <= 255 and 0 <= jf <= 255):
            raise ValueError(f"jump out of range at instruction {index - 1}")
        out += struct.pack("=HBBI", op.code, jt, jf, op.k & 0xFFFFFFFF)
    return bytes(out)


def _load(offset: int) -> _Op:
    return _Op(LD_W_ABS, offset)


def _low(arg: int) -> int:
    """Offset of the low 32 bits of ``args[arg]`` (little-endian). The calls checked here take
    their compared arguments as ``int``/``unsigned int``: the kernel never looks at the high
    half, so the filter must not either (a high bit set would slip past a 64-bit compare)."""
    return ARGS_OFFSET + 8 * arg


def _ret(value: int) -> _Op:
    return _Op(RET_K, value)


def _errno(number: int) -> _Op:
    return _ret(RET_ERRNO | number)


def _arg_checks(numbers: dict[str, int]) -> list[_Op | str]:
    """The calls allowed or refused by their arguments; each block ends in a return."""
    ops: list[_Op | str] = []

    def block(name: str, body: list[_Op | str]) -> None:
        if name in numbers:
            ops.extend([_Op(JEQ_K, numbers[name], false=f"after-{name}"), *body, f"after-{name}"])

    def refuse_values(name: str, arg: int, values: Sequence[int], answer: int = errno.EPERM) -> None:
        tests = [_Op(JEQ_K, value, true=f"no-{name}") for value in values]
        block(name, [_load(_low(arg)), *tests, _ret(RET_ALLOW), f"no-{name}", _errno(answer)])

    refuse_values("fcntl", 1, F_LOCKS + F_INODE_STATE)
    refuse_values("ioctl", 1, (TIOCSTI, TIOCLINUX))
    block("clone", [_load(_low(0)), _Op(JSET_K, CLONE_NEW_ANY, true="no-clone"), _ret(RET_ALLOW),
                    "no-clone", _errno(errno.EPERM)])
    # sendto with an address would reach whatever it names; with NULL it is write().
    block("sendto", [_load(_low(4)), _Op(JEQ_K, 0, false="no-sendto"), _load(_low(4) + 4),
                     _Op(JEQ_K, 0, true="yes-sendto"), "no-sendto", _errno(errno.EPERM),
                     "yes-sendto", _ret(RET_ALLOW)])
    # sendmsg stays allowed: its address sits in memory the filter cannot read, but no socket
    # a bot can hold goes anywhere by it. Its own sockets are unix streams (the kernel refuses
    # an address: EISCONN/EOPNOTSUPP) or sequenced packets (the address is ignored), and
    # connect/bind are refused, so only a socketpair's peer is ever reached. Its stdout is a
    # connected TCP socket: an address is ignored, or with MSG_FASTOPEN refused (EISCONN;
    # AF_UNSPEC there is EOPNOTSUPP, never a disconnect), and connect(AF_UNSPEC) is refused.
    for name in ("socket", "socketpair"):
        block(name, [_load(_low(0)), _Op(JEQ_K, AF_UNIX, false=f"no-{name}"), _load(_low(1)),
                     _Op(ALU_AND_K, ~(SOCK_NONBLOCK | SOCK_CLOEXEC)),
                     _Op(JEQ_K, SOCK_STREAM, true=f"yes-{name}"), _Op(JEQ_K, SOCK_SEQPACKET, true=f"yes-{name}"),
                     f"no-{name}", _errno(errno.EPERM), f"yes-{name}", _ret(RET_ALLOW)])
    # A shared file's pages in the page cache: dropped by one bot, probed without blocking by
    # another, they carry bits both ways. The plain read that remains only times them.
    refuse_values("fadvise64", 3, (POSIX_FADV_DONTNEED,))
    refuse_values("madvise", 2, MADV_EVICTING)
    for name in ("preadv2", "pwritev2"):
        block(name, [_load(_low(5)), _Op(JSET_K, RWF_NOWAIT, true=f"no-{name}"), _ret(RET_ALLOW),
                     f"no-{name}", _errno(errno.EOPNOTSUPP)])
    return ops


def program_for(arch: Arch) -> bytes:
    """The filter for ``arch``, as the ``struct sock_filter`` array (8 bytes an instruction).

    Order: the architecture; another ABI's numbers; the calls judged by their arguments;
    the calls refused outright; allow. The kernel (5.11 and later) caches, per call number, an
    "allow" that does not depend on the arguments: the ordinary calls never run the program.
    """
    numbers = arch.numbers
    ops: list[_Op | str] = [
        _load(ARCH_OFFSET), _Op(JEQ_K, arch.audit, true="native"), _ret(RET_KILL_PROCESS), "native",
        _load(NR_OFFSET),
    ]
    if arch.foreign_from is not None:
        ops += [_Op(JGE_K, arch.foreign_from, false="own-abi"), _errno(errno.ENOSYS), "own-abi"]
    ops += _arg_checks(numbers)
    ops += [_Op(JEQ_K, numbers["clone3"], false="not-clone3"), _errno(errno.ENOSYS), "not-clone3"]
    for name in REFUSED:
        if name in numbers:
            ops += [_Op(JEQ_K, numbers[name], false=f"not-{name}"), _errno(errno.EPERM), f"not-{name}"]
    ops.append(_ret(RET_ALLOW))
    return _assemble(ops)


def bot_filter() -> bytes | None:
    """The filter for bots on this machine, or ``None`` on an architecture not known here."""
    arch = current_arch()
    return program_for(arch) if arch is not None else None


# -- installing it ----------------------------------------------------------------------------------

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


class _Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


class FilterInstaller:
    """Installs a program on the calling process when called: made in the parent (the C
    library looked up, the program copied into C memory), so that the child of a fork, where a
    ``preexec_fn`` runs, only makes the two calls. Raises :class:`OSError` there if the kernel
    refuses (one without seccomp): the process must then not run the bot.

    ``PR_SET_NO_NEW_PRIVS`` first: the kernel requires it (or root) for a filter, and it keeps
    a set-uid program from gaining privileges the filter could not see.
    """

    def __init__(self, program: bytes) -> None:
        self._prctl = ctypes.CDLL(None, use_errno=True).prctl
        self._prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
        self._program = ctypes.create_string_buffer(program, len(program))
        self._fprog = _Fprog(len(program) // 8, ctypes.addressof(self._program))

    def __call__(self) -> None:
        if (self._prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                or self._prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(self._fprog), 0, 0) != 0):
            number = ctypes.get_errno()
            raise OSError(number, f"cannot install the system-call filter: {os.strerror(number)}")


def filter_installer(program: bytes) -> Callable[[], None]:
    """A :class:`FilterInstaller` of ``program``, for a ``preexec_fn``."""
    return FilterInstaller(program)


def install_filter(program: bytes) -> None:
    """Install ``program`` on the calling process, for good (there is no way back)."""
    filter_installer(program)()


def filter_fd(program: bytes) -> int:
    """A new file descriptor (a memfd, close-on-exec, read from its start) holding
    ``program``, for bubblewrap's ``--seccomp FD``: pass it to the child with ``pass_fds``
    and close it once the child started. One per process: bubblewrap reads it to its end."""
    fd = os.memfd_create("pirate-arena-seccomp", os.MFD_CLOEXEC)
    try:
        os.write(fd, program)
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


#: exit codes of the probe's child
_NO_SECCOMP, _NOT_REFUSED = 70, 71


def probe(program: bytes) -> str | None:
    """Try ``program`` in a child process: install it, then try ``flock`` and an ``AF_INET``
    socket, which must fail with ``EPERM``. Returns ``None`` if it holds, else why not."""
    import fcntl
    import socket
    import subprocess

    install = filter_installer(program)

    def child() -> None:
        try:
            install()
        except OSError:
            os._exit(_NO_SECCOMP)
        for attempt in (lambda: fcntl.flock(0, fcntl.LOCK_SH), lambda: socket.socket().close()):
            try:
                attempt()
            except PermissionError:
                continue
            except BaseException:
                pass
            os._exit(_NOT_REFUSED)

    try:
        result = subprocess.run(["/bin/true"], stdin=subprocess.DEVNULL, preexec_fn=child, timeout=60)
    except (OSError, subprocess.SubprocessError) as error:
        return f"the probe could not run: {error}"
    return {0: None, _NO_SECCOMP: "this kernel refuses seccomp filters (CONFIG_SECCOMP_FILTER)",
            _NOT_REFUSED: "a filtered process could still take a lock or make a network socket"}.get(
                result.returncode, f"the probe exited with code {result.returncode}")
