"""A bot that tries the system calls the sandbox refuses, and those a bot needs.

``python syscalls.py NUMBERS`` (NUMBERS: a JSON object of system-call numbers, read by the
test from the system's own headers, so the probe does not share the filter's table). Before
the handshake it makes each attempt and prints one line to stderr::

    SYSCALLS {"refused": {NAME: RESULT}, "needed": {NAME: RESULT}}

RESULT is ``"ok"`` or the errno's name (``EPERM``). ``refused`` holds what the filter must
stop, ``needed`` what every runtime does. Calls that change the process (a new namespace, a
traced child) are made in a forked child that reports back. Every attempt is harmless where
it succeeds, even run as root without a filter: mounts name a path that does not exist,
dnotify asks for nothing, terminal ioctls go to ``/dev/null``, what is created is removed.
Then it answers ``hello`` and exits at the next message.
"""

import asyncio
import ctypes
import errno
import fcntl
import json
import mmap
import multiprocessing
import os
import signal
import socket
import struct
import subprocess
import sys
import threading

from _frames import receive, send  # beside this script

NUMBERS = json.loads(sys.argv[1])
NUMBERS.setdefault("cachestat", 451)  # Linux 6.5, newer than Debian 12's headers; 451 everywhere
libc = ctypes.CDLL(None, use_errno=True)
HERE = os.path.abspath(__file__)
NOWHERE = "/nonexistent/pirate-arena-probe"
refused, needed = {}, {}


def mapped_address(mapping):
    """Where ``mapping`` (a read-only mapping of ``own``) starts: a read-only mapping cannot
    be a ctypes buffer, so /proc/self/maps says."""
    inode = os.fstat(own).st_ino
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 5 and int(fields[4]) == inode:
                return int(fields[0].split("-")[0], 16)
    raise OSError(errno.EFAULT, "mapping not found")


def arg(value):
    if isinstance(value, int):
        return ctypes.c_long(value)
    if isinstance(value, (bytes, str)):
        return ctypes.c_char_p(value.encode() if isinstance(value, str) else value)
    return value  # a ctypes object or pointer


def raw(name, *args):
    """The system call ``name`` by number; raises OSError as Python's own wrappers do."""
    result = libc.syscall(ctypes.c_long(NUMBERS[name]), *map(arg, args))
    if result == -1:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))
    return result


def outcome(attempt):
    try:
        attempt()
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno))
    except Exception as error:  # noqa: BLE001  (reported, the probe goes on)
        return f"{type(error).__name__}: {error}"
    return "ok"


def in_child(attempt):
    """``attempt`` run in a forked child (it may change the process): the child's outcome."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        os.write(write, outcome(attempt).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        result = pipe.read().decode() or "the child died"
    os.waitpid(pid, 0)
    return result


def try_refused(name, attempt, child=False):
    refused[name] = in_child(attempt) if child else outcome(attempt)


def try_needed(name, attempt):
    needed[name] = outcome(attempt)


own = os.open(HERE, os.O_RDONLY)  # a file every process can read: the channel of the attack
folder = os.open(os.path.dirname(HERE), os.O_RDONLY)
flock_struct = struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 1, 0) + b"\0" * 4
buffer = ctypes.create_string_buffer(256)

# -- cross-process channels -------------------------------------------------------------------------
try_refused("flock", lambda: fcntl.flock(own, fcntl.LOCK_SH | fcntl.LOCK_NB))
try_refused("fcntl F_GETLK", lambda: fcntl.fcntl(own, fcntl.F_GETLK, flock_struct))
try_refused("fcntl F_SETLK", lambda: fcntl.fcntl(own, fcntl.F_SETLK, flock_struct))
try_refused("fcntl F_SETLKW", lambda: fcntl.fcntl(own, fcntl.F_SETLKW, flock_struct))
try_refused("fcntl F_OFD_GETLK", lambda: fcntl.fcntl(own, 36, flock_struct))
try_refused("fcntl F_OFD_SETLK", lambda: fcntl.fcntl(own, 37, flock_struct))
try_refused("fcntl F_OFD_SETLKW", lambda: fcntl.fcntl(own, 38, flock_struct))
try_refused("fcntl F_SETLEASE", lambda: fcntl.fcntl(own, 1024, fcntl.F_UNLCK))
try_refused("fcntl F_GETLEASE", lambda: fcntl.fcntl(own, 1025))
try_refused("fcntl F_NOTIFY", lambda: fcntl.fcntl(folder, 1026, 0))  # 0: no signals wanted
hint = ctypes.c_uint64(2)  # RWH_WRITE_LIFE_SHORT
try_refused("fcntl F_SET_RW_HINT", lambda: raw("fcntl", own, 1036, ctypes.byref(hint)))
lock = ctypes.create_string_buffer(flock_struct)
# the kernel reads cmd as unsigned int: a high bit must not let F_SETLK through
try_refused("fcntl F_SETLK with high bits", lambda: raw("fcntl", own, (1 << 32) | fcntl.F_SETLK, lock))
if "inotify_init" in NUMBERS:
    try_refused("inotify_init", lambda: os.close(raw("inotify_init")))
try_refused("inotify_init1", lambda: os.close(raw("inotify_init1", 0)))
try_refused("inotify_add_watch", lambda: raw("inotify_add_watch", -1, HERE, 0x1))
try_refused("fanotify_init", lambda: os.close(raw("fanotify_init", 0, 0)))
try_refused("fanotify_mark", lambda: raw("fanotify_mark", -1, 1, 0x1, -100, HERE))
try_refused("shmget", lambda: raw("shmctl", raw("shmget", 0, 4096, 0o600), 0, 0))  # IPC_RMID
try_refused("shmat", lambda: raw("shmat", -1, 0, 0))
try_refused("shmdt", lambda: raw("shmdt", 0))
try_refused("shmctl", lambda: raw("shmctl", -1, 0, 0))
try_refused("semget", lambda: raw("semctl", raw("semget", 0, 1, 0o600), 0, 0))
try_refused("semop", lambda: raw("semop", -1, 0, 0))
try_refused("semtimedop", lambda: raw("semtimedop", -1, 0, 0, 0))
try_refused("semctl", lambda: raw("semctl", -1, 0, 0))
try_refused("msgget", lambda: raw("msgctl", raw("msgget", 0, 0o600), 0, 0))
try_refused("msgsnd", lambda: raw("msgsnd", -1, 0, 0, 0))
try_refused("msgrcv", lambda: raw("msgrcv", -1, 0, 0, 0, 0))
try_refused("msgctl", lambda: raw("msgctl", -1, 0, 0))
queue = f"/pirate-arena-probe-{os.getpid()}"
try_refused("mq_open", lambda: (os.close(raw("mq_open", queue, os.O_CREAT | os.O_RDWR, 0o600, 0)),
                                raw("mq_unlink", queue)))
try_refused("mq_unlink", lambda: raw("mq_unlink", queue))
for name in ("mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr"):
    try_refused(name, lambda name=name: raw(name, -1, 0, 0, 0, 0))
try_refused("fadvise DONTNEED", lambda: os.posix_fadvise(own, 0, 0, os.POSIX_FADV_DONTNEED))
try_refused("preadv2 RWF_NOWAIT", lambda: os.preadv(own, [bytearray(16)], 0, os.RWF_NOWAIT))
# the page cache's state of a file both can read: asked (mincore, cachestat) or dropped (madvise)
shared_map = mmap.mmap(own, 0, prot=mmap.PROT_READ)
vector = ctypes.create_string_buffer(1)
try_refused("mincore", lambda: raw("mincore", mapped_address(shared_map), 4096, vector))
try_refused("madvise MADV_PAGEOUT", lambda: raw("madvise", mapped_address(shared_map), 4096, 21))
try_refused("madvise MADV_COLD", lambda: raw("madvise", mapped_address(shared_map), 4096, 20))
try_refused("process_madvise", lambda: raw("process_madvise", -1, 0, 0, 21, 0))
cache_range = ctypes.create_string_buffer(16)
cache_stat = ctypes.create_string_buffer(64)
try_refused("cachestat", lambda: raw("cachestat", own, cache_range, cache_stat, 0))

# -- the network ---------------------------------------------------------------------------------------
for family, kind in [("AF_INET", "SOCK_STREAM"), ("AF_INET", "SOCK_DGRAM"), ("AF_INET6", "SOCK_STREAM"),
                     ("AF_NETLINK", "SOCK_RAW"), ("AF_UNIX", "SOCK_DGRAM"), ("AF_UNIX", "SOCK_RAW")]:
    try_refused(f"socket {family} {kind}",
                lambda f=family, k=kind: socket.socket(getattr(socket, f), getattr(socket, k)).close())
try_refused("socket AF_INET with high bits",
            lambda: os.close(raw("socket", (1 << 32) | socket.AF_INET, socket.SOCK_STREAM, 0)))
try_refused("socketpair AF_UNIX SOCK_DGRAM", lambda: [s.close() for s in socket.socketpair(type=socket.SOCK_DGRAM)])
stream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
stream.setblocking(False)  # unfiltered, bind and listen succeed: accept must not wait
try_refused("connect", lambda: stream.connect(NOWHERE))
try_refused("bind", lambda: stream.bind(f"\0pirate-arena-probe-{os.getpid()}"))
try_refused("listen", lambda: stream.listen(1))
try_refused("accept", lambda: raw("accept", stream.fileno(), 0, 0))
try_refused("accept4", lambda: raw("accept4", stream.fileno(), 0, 0, 0))
left, right = socket.socketpair()
try_refused("sendto with an address", lambda: left.sendto(b"x", f"\0pirate-arena-probe-{os.getpid()}"))

# -- other processes, the kernel ----------------------------------------------------------------------


def traced():
    child = os.fork()
    if child == 0:
        try:
            signal.pause()
        finally:
            os._exit(0)
    try:
        raw("ptrace", 16, child, 0, 0)  # PTRACE_ATTACH
    finally:
        os.kill(child, 9)
        os.waitpid(child, 0)


try_refused("ptrace", traced, child=True)
iovec = struct.pack("PN", ctypes.addressof(buffer), 16)
local, remote = ctypes.create_string_buffer(iovec), ctypes.create_string_buffer(iovec)
try_refused("process_vm_readv", lambda: raw("process_vm_readv", os.getpid(), local, 1, remote, 1, 0))
try_refused("process_vm_writev", lambda: raw("process_vm_writev", os.getpid(), local, 1, remote, 1, 0))
try_refused("kcmp", lambda: raw("kcmp", os.getpid(), os.getpid(), 0, 0, 0))  # KCMP_FILE
try_refused("pidfd_getfd", lambda: os.close(raw("pidfd_getfd", os.pidfd_open(os.getpid()), 0, 0)))
try_refused("keyctl", lambda: raw("keyctl", 0, -3, 0))  # KEYCTL_GET_KEYRING_ID of the session keyring
try_refused("add_key", lambda: raw("add_key", "user", "pirate-probe", "x", 1, -2), child=True)
try_refused("request_key", lambda: raw("request_key", "user", "pirate-probe", 0, 0))
perf_attr = ctypes.create_string_buffer(struct.pack("II", 1, 128) + b"\0" * 120)  # software cpu-clock
try_refused("perf_event_open", lambda: os.close(raw("perf_event_open", perf_attr, 0, -1, -1, 0)))
try_refused("bpf", lambda: raw("bpf", 0, 0, 0))
try_refused("userfaultfd", lambda: os.close(raw("userfaultfd", 1)))  # UFFD_USER_MODE_ONLY
uring = ctypes.create_string_buffer(120)
try_refused("io_uring_setup", lambda: os.close(raw("io_uring_setup", 1, uring)))
try_refused("io_uring_enter", lambda: raw("io_uring_enter", -1, 0, 0, 0, 0, 0))
try_refused("io_uring_register", lambda: raw("io_uring_register", -1, 0, 0, 0))
try_refused("name_to_handle_at", lambda: raw("name_to_handle_at", -100, "/", ctypes.create_string_buffer(8),
                                             ctypes.create_string_buffer(8), 0))
try_refused("open_by_handle_at", lambda: raw("open_by_handle_at", -100, ctypes.create_string_buffer(16), 0))
for name, args in [("acct", (NOWHERE,)), ("swapon", (NOWHERE, 0)), ("swapoff", (NOWHERE,)),
                   ("reboot", (0, 0, 0, 0)), ("kexec_load", (0, 0, 0, 0xDEAD0000)), ("kexec_file_load", (-1, -1, 0, 0, 0)),
                   ("init_module", (0, 0, "")), ("finit_module", (-1, "", 0)), ("delete_module", ("none", 0)),
                   ("syslog", (10, 0, 0)), ("quotactl", (0, 0, 0, 0)), ("quotactl_fd", (-1, 0, 0, 0)),
                   ("lookup_dcookie", (0, 0, 0)), ("iopl", (0,)), ("ioperm", (0, 0, 0))]:
    if name in NUMBERS:
        try_refused(name, lambda name=name, args=args: raw(name, *args))
null = os.open("/dev/null", os.O_RDONLY)
try_refused("ioctl TIOCSTI", lambda: fcntl.ioctl(null, 0x5412, b"x"))
try_refused("ioctl TIOCLINUX", lambda: fcntl.ioctl(null, 0x541C, b"\0"))

# -- leaving the sandbox ------------------------------------------------------------------------------
try_refused("unshare CLONE_NEWUSER", lambda: raw("unshare", 0x10000000), child=True)
try_refused("unshare CLONE_NEWNET", lambda: raw("unshare", 0x40000000), child=True)
try_refused("setns", lambda: raw("setns", os.open("/proc/self/ns/uts", os.O_RDONLY), 0), child=True)


def clone_new_user():
    child = raw("clone", 0x10000000 | 17, 0, 0, 0, 0)  # CLONE_NEWUSER | SIGCHLD
    if child == 0:
        os._exit(0)
    os.waitpid(child, 0)


try_refused("clone CLONE_NEWUSER", clone_new_user, child=True)
try_refused("clone3", lambda: raw("clone3", 0, 0))
try_refused("mount", lambda: raw("mount", "none", NOWHERE, "tmpfs", 0, 0))
try_refused("open_tree", lambda: os.close(raw("open_tree", -100, "/", 0)))
try_refused("move_mount", lambda: raw("move_mount", -1, "", -1, "", 0))
try_refused("fsopen", lambda: os.close(raw("fsopen", "tmpfs", 0)))
try_refused("fsconfig", lambda: raw("fsconfig", -1, 0, 0, 0, 0))
try_refused("fsmount", lambda: raw("fsmount", -1, 0, 0))
try_refused("fspick", lambda: os.close(raw("fspick", -100, "/", 0)))
try_refused("mount_setattr", lambda: raw("mount_setattr", -1, "", 0, 0, 0))
try_refused("umount2", lambda: raw("umount2", NOWHERE, 0))
try_refused("pivot_root", lambda: raw("pivot_root", NOWHERE, NOWHERE))
try_refused("chroot", lambda: os.chroot("/"), child=True)

# -- what every runtime needs ---------------------------------------------------------------------------


def fork_and_wait():
    child = os.fork()
    if child == 0:
        os._exit(7)
    assert os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) == 7


def thread():
    seen = []
    worker = threading.Thread(target=seen.append, args=(1,))
    worker.start()
    worker.join()
    assert seen == [1]


def pipe():
    read, write = os.pipe()
    os.write(write, b"ahoy")
    assert os.read(read, 4) == b"ahoy"
    assert fcntl.ioctl(read, 0x541B, b"\0\0\0\0") == b"\0\0\0\0"  # FIONREAD
    os.close(read), os.close(write)


def unix_pair(kind):
    def attempt():
        one, two = socket.socketpair(socket.AF_UNIX, kind)
        one.send(b"ahoy")
        assert two.recv(4) == b"ahoy"
        one.sendmsg([b"fd"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("i", own))])
        assert two.recvmsg(2, 64)[0] == b"fd"
        one.close(), two.close()
    return attempt


def fcntl_ordinary():
    flags = fcntl.fcntl(own, fcntl.F_GETFL)
    fcntl.fcntl(own, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    os.close(fcntl.fcntl(own, fcntl.F_DUPFD, 10))
    os.close(fcntl.fcntl(own, fcntl.F_DUPFD_CLOEXEC, 10))
    fcntl.fcntl(own, fcntl.F_SETFD, fcntl.FD_CLOEXEC)
    assert fcntl.fcntl(own, fcntl.F_GETFD) == fcntl.FD_CLOEXEC


def memory_maps():
    anonymous = mmap.mmap(-1, 1 << 20)
    anonymous[:4] = b"ahoy"
    anonymous.madvise(mmap.MADV_DONTNEED)  # what allocators and garbage collectors do
    with open(HERE, "rb") as file, mmap.mmap(file.fileno(), 0, prot=mmap.PROT_READ) as mapped:
        assert mapped[:3] == b'"""'
    anonymous.close()


def read_files():
    with open(HERE, "rb") as file:
        assert file.read(3) == b'"""'
    assert os.listdir(os.path.dirname(HERE))
    os.posix_fadvise(own, 0, 0, os.POSIX_FADV_SEQUENTIAL)
    assert os.preadv(own, [bytearray(3)], 0) == 3


def multiprocessing_lock():
    lock = multiprocessing.Lock()  # a POSIX semaphore in /dev/shm, waited on with a futex
    with lock:
        pass


try_needed("fork", fork_and_wait)
try_needed("thread", thread)
try_needed("subprocess", lambda: subprocess.run([sys.executable, "-c", "print(7)"], capture_output=True,
                                                check=True).stdout == b"7\n" or 1 / 0)
try_needed("pipe", pipe)
try_needed("socketpair AF_UNIX SOCK_STREAM", unix_pair(socket.SOCK_STREAM))
try_needed("socketpair AF_UNIX SOCK_SEQPACKET", unix_pair(socket.SOCK_SEQPACKET))
try_needed("socket AF_UNIX SOCK_STREAM", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close())
try_needed("sendto without an address", lambda: raw("sendto", left.fileno(), b"x", 1, 0, 0, 0) and right.recv(1))
try_needed("fcntl F_GETFL F_SETFL F_DUPFD F_SETFD", fcntl_ordinary)
try_needed("mmap", memory_maps)
try_needed("read files", read_files)
try_needed("asyncio", lambda: asyncio.run(asyncio.sleep(0)))
try_needed("multiprocessing lock", multiprocessing_lock)

print("SYSCALLS", json.dumps({"refused": refused, "needed": needed}), file=sys.stderr, flush=True)
receive()
send({"type": "hello", "protocol": "1.0", "name": "syscalls", "version": "1", "games": []})
receive()
