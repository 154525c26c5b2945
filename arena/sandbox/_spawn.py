"""Processes that die with the arena, however it ends: forked from threads that live as long
as the arena's process, each told to die with its parent.

Linux sends a child its parent-death signal (``PR_SET_PDEATHSIG``) when the *thread* that
forked it ends, not the process. trio forks from the worker threads of its cache, which end
after ten idle seconds: a child told to die with its parent there would be killed ten seconds
into a healthy game. So every process the arena starts for a bot, a build or a worker is forked
here, from a few threads started on first use that never end before the process does, and its
last step before ``exec`` is ``PR_SET_PDEATHSIG(SIGKILL)``. An arena killed with ``kill -9``
or by the OOM killer then takes its children with it; bubblewrap's ``--die-with-parent``
passes the signal on to the sandbox's init, whose death ends its whole PID namespace.

:class:`Child` is the started process: its pipes as trio streams, and a wait that sleeps on a
pidfd, as :class:`trio.Process` (which cannot be made from a process started elsewhere).
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import os
import signal
import subprocess
import threading
from collections.abc import Callable, Sequence
from typing import Any

import trio

PR_SET_PDEATHSIG = 1
#: the threads that fork (a few, so one slow start does not hold up the others)
_THREADS = 4

_lock = threading.Lock()
_spawner: list[concurrent.futures.ThreadPoolExecutor] = []
_prctl = ctypes.CDLL(None, use_errno=True).prctl
_prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]


def die_with_parent(parent: int) -> None:
    """In a child before ``exec``: be killed when the thread that forked it ends (the arena's
    process ends: see the module docstring). ``parent``: the arena's pid, as seen before the
    fork; if it already died, exit at once (its signal came before we asked for it).

    Call it after any change of uid: the kernel forgets the signal when credentials change."""
    if _prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")
    if os.getppid() != parent:
        os._exit(127)


def _executor() -> concurrent.futures.ThreadPoolExecutor:
    """The threads that fork; a pool's threads never end before the process (nor after a fork:
    a child process that imports this makes its own)."""
    with _lock:
        if not _spawner or _spawner[0]._pid != os.getpid():  # type: ignore[attr-defined]
            pool = concurrent.futures.ThreadPoolExecutor(max_workers=_THREADS, thread_name_prefix="arena-spawn")
            pool._pid = os.getpid()  # type: ignore[attr-defined]
            _spawner[:] = [pool]
        return _spawner[0]


class Child:
    """A process started by :func:`spawn`: ``pid``, ``stdin`` (a :class:`trio.abc.SendStream`),
    ``stdout`` and ``stderr`` (:class:`trio.abc.ReceiveStream`), each ``None`` unless it was a
    pipe; :meth:`poll` and :meth:`wait` as :class:`trio.Process` has them."""

    def __init__(self, popen: subprocess.Popen, stdin: trio.lowlevel.FdStream | None,
                 stdout: trio.lowlevel.FdStream | None, stderr: trio.lowlevel.FdStream | None) -> None:
        self._popen = popen
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.pid = popen.pid
        try:
            self._pidfd: int | None = os.pidfd_open(popen.pid)
        except OSError:  # Linux before 5.3: wait polls instead
            self._pidfd = None

    @property
    def returncode(self) -> int | None:
        return self._popen.returncode

    def poll(self) -> int | None:
        """The exit code (``-N``: killed by signal N) once it ended, else ``None``; reaps it."""
        code = self._popen.poll()
        if code is not None:
            self._close_pidfd()
        return code

    async def wait(self) -> int:
        """Wait until it ends (reaping it) and return :meth:`poll`'s code."""
        delay = 0.001
        while self.poll() is None:
            if self._pidfd is not None:
                await trio.lowlevel.wait_readable(self._pidfd)
            else:
                await trio.sleep(delay)
                delay = min(delay * 2, 0.05)
        return self._popen.returncode

    def send_signal(self, signum: int) -> None:
        """Signal it unless it was reaped (its pid may belong to another process then)."""
        if self._popen.returncode is None:
            try:
                if self._pidfd is not None:
                    signal.pidfd_send_signal(self._pidfd, signum)
                else:
                    os.kill(self.pid, signum)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def _close_pidfd(self) -> None:
        if self._pidfd is not None:
            trio.lowlevel.notify_closing(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None


def _pipe(child_reads: bool) -> tuple[trio.lowlevel.FdStream, int]:
    """A pipe: the arena's end as a stream, the child's end as a descriptor."""
    read_end, write_end = os.pipe()
    if child_reads:
        return trio.lowlevel.FdStream(write_end), read_end
    return trio.lowlevel.FdStream(read_end), write_end


async def spawn(argv: Sequence[str], *, stdin: Any = None, stdout: Any = None, stderr: Any = None,
                preexec_fn: Callable[[], None] | None = None, die_with_arena: bool = True,
                **options: Any) -> Child:
    """Start ``argv`` as :class:`subprocess.Popen` would (``stdin``, ``stdout``, ``stderr``:
    ``subprocess.PIPE`` for a pipe whose end becomes a stream of the :class:`Child`, or what
    ``Popen`` takes; ``options``: ``Popen``'s others), forked from the spawning threads, with
    ``preexec_fn`` and then, unless ``die_with_arena`` is false, :func:`die_with_parent` as its
    last steps before ``exec``. Raises what ``Popen`` raises."""
    ours: list[trio.lowlevel.FdStream | None] = [None, None, None]
    theirs: list[int] = []
    streams = [stdin, stdout, stderr]
    try:
        for index, wanted in enumerate(streams):
            if wanted == subprocess.PIPE:
                ours[index], fd = _pipe(child_reads=index == 0)
                theirs.append(fd)
                streams[index] = fd
        parent = os.getpid()

        def setup() -> None:
            if preexec_fn is not None:
                preexec_fn()
            if die_with_arena:
                die_with_parent(parent)

        future = _executor().submit(subprocess.Popen, list(argv), stdin=streams[0], stdout=streams[1],
                                    stderr=streams[2], preexec_fn=setup, **options)
        popen = await trio.to_thread.run_sync(future.result)
    except BaseException:
        for stream in ours:
            if stream is not None:
                stream.close()
        raise
    finally:
        for fd in theirs:
            os.close(fd)
    return Child(popen, *ours)
