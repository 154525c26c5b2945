"""A private loopback: the empty network namespace in which bots' stdout sockets are made.

A bot's stdout is a TCP loopback socket (the kernel stamps each reply's arrival; see
``arena.players._process``). A socket belongs to the network namespace it was made in, whatever namespace
its holder later enters: a socket made in the host's namespace and handed to a bot under
``bwrap --unshare-net`` still reaches the host. A bot could dissolve it
(``connect(fd, AF_UNSPEC)``) and connect it anywhere: the host's 127.0.0.1 services, a Dask
scheduler, the network.

So the arena makes these sockets in a namespace of their own, made once per arena process,
that holds nothing but an ``lo`` interface: no route out, and no listener but the arena's own
for the instant it takes to connect a pair. The arena's other sockets (Dask, the ladder's
server) stay in the host's namespace: only the calling thread enters the private one
(``setns`` changes one thread's namespace), for the few system calls that make a pair.

Making a namespace needs ``CAP_SYS_ADMIN`` (an arena run as root). Without it the sockets are
made in the host's namespace, and only the seccomp filter (which refuses ``connect``) keeps a
bot from re-connecting its stdout; ``arena doctor`` says which holds.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_CLONE_NEWNET = 0x40000000
_SIOCGIFFLAGS, _SIOCSIFFLAGS, _IFF_UP = 0x8913, 0x8914, 0x1
#: ``struct ifreq``: a 16-byte name, then a union whose first member is the short flags
_IFREQ = struct.Struct("16sH22x")


class PrivateLoopback:
    """A handle on one empty network namespace (with ``lo`` up); :meth:`inside` runs a block
    of socket calls in it. Create with :meth:`create`; :meth:`close` lets the namespace go
    once the last socket made in it is closed."""

    def __init__(self, netns: int, home: int) -> None:
        self._netns = netns
        self._home = home
        self._libc = ctypes.CDLL(None, use_errno=True)

    @classmethod
    def create(cls) -> PrivateLoopback | None:
        """A new private loopback, or ``None`` where this process may not make one."""
        made: dict[str, int | OSError] = {}

        def make() -> None:
            # A thread of its own, which ends here: the namespace lives on through the
            # descriptor, and no thread of the arena is left inside it.
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                if libc.unshare(_CLONE_NEWNET) != 0:
                    error = ctypes.get_errno()
                    raise OSError(error, f"unshare(CLONE_NEWNET): {os.strerror(error)}")
                _bring_up_lo()
                made["netns"] = os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
            except OSError as error:
                made["error"] = error

        worker = threading.Thread(target=make, name="pirate-arena-netns")
        worker.start()
        worker.join()
        if "netns" not in made:
            return None
        home = os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
        loopback = cls(made["netns"], home)
        try:
            with loopback.inside():  # the round trip the arena will make for every bot
                pass
        except OSError:
            loopback.close()
            return None
        return loopback

    @contextmanager
    def inside(self) -> Iterator[None]:
        """Run the block with the calling thread in the private namespace (sockets made there
        belong to it), and bring the thread back to its own namespace after it, however it
        ends. Raises ``OSError`` if the thread cannot enter."""
        self._setns(self._netns)
        try:
            yield
        finally:
            # Failing to come back would leave every later socket of this thread (the
            # ladder's, Dask's) without a network: that is not a state to go on in.
            try:
                self._setns(self._home)
            except OSError as error:
                raise SystemExit(f"pirate-arena: cannot leave the bots' network namespace ({error})") from None

    def close(self) -> None:
        for fd in (self._netns, self._home):
            try:
                os.close(fd)
            except OSError:
                pass
        self._netns = self._home = -1

    def _setns(self, fd: int) -> None:
        if self._libc.setns(fd, _CLONE_NEWNET) != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"setns: {os.strerror(error)}")


def _bring_up_lo() -> None:
    """Set ``lo`` up in the calling thread's network namespace (a new one starts with it down)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        request = _IFREQ.pack(b"lo", 0)
        flags = _IFREQ.unpack(fcntl.ioctl(probe, _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(probe, _SIOCSIFFLAGS, _IFREQ.pack(b"lo", flags | _IFF_UP))
