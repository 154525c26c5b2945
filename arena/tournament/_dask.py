"""Tournaments on a Dask distributed cluster (``executor = "dask"``).

Each Dask worker hosts one long-lived arena worker: a Dask task (:func:`host_arena_worker`)
connects back to the coordinator over TCP and starts ``python -m arena.tournament._dask``, the very
program of a local worker (:mod:`arena.tournament._worker_process`) with that socket as its stdin and stdout.
The coordinator serves it exactly as it serves a local worker process (:class:`DaskWorkers`
is a :class:`~arena.tournament._workers.Workers`): it owns the schedule, is the only store writer, sends
games and stores the results. So everything a local worker guarantees holds unchanged on the
cluster: one bot pool per worker, kept for the whole run (every rotation of a block on one
worker, whose pool ends a process before another rotation of a deal it saw starts; bot
start-up paid per process, not per Dask task), fault policies, per-entrant logs (on the
worker's machine, at the coordinator's path), sandboxing; and a lost worker is handled the
same way: the coordinator plays its unfinished games on another, which first kills what arena
workers that died left on its machine (the coordinator cannot reach another machine's cgroups;
a lost worker's bots can reach only processes of their own machine).
(One Dask task per batch of games was the alternative: it would start every bot again per
batch, and a batch lost with its worker would send back nothing of what it finished.)

Where the coordinator listens is the tournament's ``listen`` (``HOST:PORT``, for a firewall
that opens one port of one interface; :func:`arena.tournament._config.parse_listen`); without it,
every interface and a free port with a scheduler, the loopback interface with a LocalCluster.

The socket is authenticated by a one-time random token, sent through the scheduler with the
task, before the coordinator unpickles anything from it. Dask itself is imported only here,
and only when a run asks for it.

A Dask worker process that dies takes its arena worker with it (``PR_SET_PDEATHSIG``); the
scheduler runs the hosting task again on a live worker (a nanny restarts a killed worker),
and it connects again. Bots must be at the same paths on every machine, and every machine
must run the same pirate-arena version (checked when a worker connects).
"""

from __future__ import annotations

import dataclasses
import hmac
import os
import secrets
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import trio

from ._config import ConfigError, parse_listen
from ._frames import frame
from ._workers import WorkerLost, Workers

INSTALL = "pip install 'pirate-arena[cluster]'"
_TOKEN_BYTES = 32
#: how long a hosting task waits for the coordinator to accept its connection
_CONNECT_S = 30
_PARENT_ENV = "ARENA_DASK_PARENT"
#: how long, from the first worker's pre-flight passing, the others are waited for before the
#: games start without them (a worker of a shared cluster may be busy with other work and
#: never start its hosting task); a late one plays once its own pre-flight passes
PREFLIGHT_WAIT_S = 120.0
#: hosts that mean "every interface": the workers are sent this machine's address instead
_EVERY_INTERFACE = ("", "0.0.0.0", "::")


class ClusterError(ConfigError):
    """The Dask cluster cannot be used: Dask is not installed, the scheduler cannot be
    reached or has no workers, a worker cannot reach this machine or runs another version."""


def arena_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pirate-arena")
    except PackageNotFoundError:
        return "unknown"


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(f'executor = "dask" needs Dask distributed: {INSTALL}') from None
    return distributed


# -- on a Dask worker ------------------------------------------------------------------------

def host_arena_worker(host: str, port: int, token: bytes) -> str:
    """A Dask task: host one arena worker on this Dask worker until the coordinator at
    ``host:port`` is done with it; start another if it dies while this worker lives."""
    from distributed import get_worker

    address = get_worker().address
    connected = False
    while True:
        try:
            connection = socket.create_connection((host, port), timeout=_CONNECT_S)
        except OSError as error:
            if connected:
                return "done"  # the coordinator has finished (it closes its listener)
            raise ClusterError(f"Dask worker {address} cannot connect to the coordinator at "
                               f"{host}:{port}: {error}") from None
        connected = True
        with connection:
            connection.settimeout(None)
            connection.sendall(token + frame(("hello", address, arena_version(), os.getpid())))
            env = {**os.environ, _PARENT_ENV: str(os.getpid())}
            process = subprocess.Popen([sys.executable, "-m", "arena.tournament._dask"], stdin=connection.fileno(),
                                       stdout=connection.fileno(), env=env)
        # Our copy of the socket is closed: when the arena worker ends, the coordinator sees it.
        if process.wait() == 0:
            return "done"


def dask_setup(worker: Any) -> None:
    """Run by the workers of the LocalCluster a run starts (a Dask preload): they share the
    terminal's process group, and Ctrl-C is the coordinator's to handle (it closes the cluster)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _die_with_parent() -> None:
    """Make the kernel kill this process when the Dask worker that started it dies, so that
    its socket closes and the coordinator plays its games again elsewhere."""
    parent = int(os.environ.pop(_PARENT_ENV, "0"))
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if parent and os.getppid() != parent:
        os._exit(1)  # the Dask worker died before the line above


# -- the coordinator's side ------------------------------------------------------------------

@dataclass
class DaskWorkers(Workers):
    """Plays the games of ``source`` on the workers of the Dask cluster at ``scheduler``
    (``""``: a LocalCluster of ``count`` worker processes, closed after the run), one arena
    worker on each, with ``slots`` games at once in all. With a scheduler, ``count`` is
    replaced by the number of the cluster's workers: the run uses every one.

    The arena workers connect back to the address in the tournament's ``listen``
    (``setup.config.listen``), or to one chosen for the run. Every worker's pre-flight passes
    before the first game. Raises :class:`ClusterError` when the cluster cannot be used or
    this machine cannot listen there; :attr:`error` is as for :class:`Workers`.
    """

    scheduler: str = ""
    slots: int = 1
    #: the Dask workers' addresses, as they connected (for tests and messages)
    addresses: list[str] = dataclasses.field(default_factory=list)

    async def run(self) -> None:
        distributed = _import_distributed()
        self._token = secrets.token_bytes(_TOKEN_BYTES)
        self._ready = 0
        self._all_ready = trio.Event()
        self._client = self._cluster = None
        listeners: list[trio.SocketListener] = []
        try:
            # First: a pinned address that cannot be had fails before the cluster is touched.
            listeners = await self._listen()
            port = listeners[0].socket.getsockname()[1]
            await trio.to_thread.run_sync(self._open_cluster, distributed)
            self.plan_windows()
            await trio.to_thread.run_sync(self._submit, port)
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                token = trio.lowlevel.current_trio_token()
                for future in self._futures:
                    future.add_done_callback(lambda done: _call_soon(token, self._hosting_ended, done))
                nursery.start_soon(trio.serve_listeners, self._connected, listeners)
        finally:
            with trio.CancelScope(shield=True):
                for listener in listeners:
                    await listener.aclose()
                await trio.to_thread.run_sync(self._close_cluster)

    async def _listen(self) -> list[trio.SocketListener]:
        """Listen where ``listen`` says; set :attr:`_advertise` to its host unless that is every
        interface (then :meth:`_open_cluster` sets it)."""
        listen = self.setup.config.listen
        # Unpinned: every interface with a scheduler (the workers are elsewhere), else loopback.
        host, port = parse_listen(listen) or ("" if self.scheduler else "127.0.0.1", 0)
        self._advertise = None if host in _EVERY_INTERFACE else host
        try:
            return await trio.open_tcp_listeners(port, host=host or None)
        except OSError as error:  # the port taken, not an address of this machine, an unknown name
            raise ClusterError(f"listen {listen!r}: cannot listen there for the Dask workers: "
                               f"{error.strerror or error} (give an address of this machine and a port "
                               f"no other program holds)") from None

    def _open_cluster(self, distributed: Any) -> None:
        """Connect to the scheduler (or start a LocalCluster); spread the slots over its workers."""
        import logging

        # Distributed logs a warning for every lost worker and closed comm: the run reports
        # what matters itself, on one line each.
        logging.getLogger("distributed").setLevel(logging.ERROR)
        if self.scheduler:
            try:
                self._client = distributed.Client(self.scheduler, timeout=_CONNECT_S)
                self._client.wait_for_workers(1, timeout=_CONNECT_S)
                if self._advertise is None:
                    # The address of this machine that the scheduler's network reaches.
                    self._advertise = distributed.utils.get_ip(distributed.comm.get_address_host(self.scheduler))
            except ValueError as error:  # not an address
                raise ClusterError(f"scheduler {self.scheduler!r}: {error}; e.g. tcp://host:8786") from None
            except (OSError, TimeoutError) as error:
                raise ClusterError(f"Dask scheduler {self.scheduler}: {error or type(error).__name__} "
                                   f"(is it running, with workers?)") from None
        else:
            self._advertise = self._advertise or "127.0.0.1"
            # No dashboard; the scheduler's own HTTP server on a free port (its default, 8787,
            # would be taken by a second run or any other cluster on this machine).
            self._cluster = distributed.LocalCluster(n_workers=self.count, threads_per_worker=1, processes=True,
                                                     dashboard_address=None, silence_logs=logging.CRITICAL,
                                                     scheduler_kwargs={"dashboard_address": ":0"},
                                                     preload=[__name__])  # dask_setup below
            self._client = distributed.Client(self._cluster)
        self._workers = sorted(self._client.scheduler_info(n_workers=-1)["workers"])
        self.count = len(self._workers)
        self.setup = self.setup.spread(self.slots, self.count)

    def _submit(self, port: int) -> None:
        # One hosting task per worker, preferably there; if that worker dies, the scheduler
        # runs it on another (which then hosts two arena workers until the nanny's restart).
        self._futures = [self._client.submit(host_arena_worker, self._advertise, port, self._token, pure=False,
                                             workers=[address], allow_other_workers=True)
                         for address in self._workers]

    def _close_cluster(self) -> None:
        if self._client is not None:
            futures = getattr(self, "_futures", [])
            try:
                self._client.cancel(futures)
            finally:
                self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    def _hosting_ended(self, future: Any) -> None:
        """A hosting task ended: if it failed (e.g. its worker cannot reach this machine,
        or its workers keep dying), the run stops with its error."""
        if future.status == "error" and not self._nursery.cancel_scope.cancel_called:
            error = future.exception()
            self._stop(error if isinstance(error, ClusterError) else
                       WorkerLost(f"a Dask task hosting an arena worker failed: {type(error).__name__}: {error}"))

    async def _connected(self, stream: trio.SocketStream) -> None:
        """Serve one arena worker that connected: check its token, then play games on it."""
        address = "?"
        served = None
        try:
            with trio.move_on_after(_CONNECT_S):
                token = await _receive_exactly(stream, _TOKEN_BYTES)
            if token is None or not hmac.compare_digest(token, self._token):
                return  # not ours: nothing it sent is unpickled
            served = self.served(stream, stream)
            hello = await served.reader.receive()
            if hello is None:
                return
            _, address, version, _ = hello
            if version != arena_version():
                self._stop(ClusterError(f"Dask worker {address} runs pirate-arena {version}, "
                                        f"this machine {arena_version()}: install the same version on every machine"))
                return
            self.addresses.append(address)
            await self.serve(served, f" (on Dask worker {address})")
            if served.drained and not served.died:
                # Its last take found nothing to play and nothing in flight anywhere: the run is over.
                self._nursery.cancel_scope.cancel()
        finally:
            with trio.CancelScope(shield=True):
                await self._close(stream, served is not None)
                if served is not None:
                    games = self.give_back(served)
                    if served.died:
                        self._lost(f"the arena worker on Dask worker {address} was lost; "
                                   f"its {games} unfinished games are played again")

    async def _close(self, stream: trio.SocketStream, wait: bool) -> None:
        # Its end of the socket closes when it has stopped its bots (each with its grace period).
        try:
            await stream.send_eof()
            if wait:
                with trio.move_on_after(60):
                    while await stream.receive_some(1 << 16):
                        pass
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        await stream.aclose()

    def _lost(self, message: str) -> None:
        self.on_lost(message)
        self.lost += 1
        if self.lost > 2 * self.count + 2:
            self._stop(WorkerLost(f"{self.lost} arena workers on the Dask cluster were lost; stored games "
                                  f"are kept, resume to play the rest"))

    async def preflight_done(self) -> None:
        # Every entrant passes pre-flight on every worker before the first game anywhere, or
        # on those that passed it within PREFLIGHT_WAIT_S of the first.
        self._ready += 1
        if self._ready >= self.count:
            self._all_ready.set()
        elif self._ready == 1:
            self._nursery.start_soon(self._start_without_stragglers)
        await self._all_ready.wait()

    async def _start_without_stragglers(self) -> None:
        with trio.move_on_after(PREFLIGHT_WAIT_S):
            await self._all_ready.wait()
            return
        waiting = self.count - self._ready
        silent = sorted(set(self._workers) - set(self.addresses))
        self.on_lost(f"{waiting} of {self.count} Dask workers had not passed pre-flight {PREFLIGHT_WAIT_S:.0f} s after "
                     f"the first ({', '.join(silent) + ' never connected' if silent else 'still checking the bots'}); "
                     f"the games started without them, and a late one plays once its pre-flight passes")
        self._all_ready.set()


def _call_soon(token: trio.lowlevel.TrioToken, function: Any, *args: Any) -> None:
    try:
        token.run_sync_soon(function, *args)
    except trio.RunFinishedError:
        pass  # the run is over: nothing to tell


async def _receive_exactly(stream: trio.abc.ReceiveStream, size: int) -> bytes | None:
    data = bytearray()
    while len(data) < size:
        chunk = await stream.receive_some(size - len(data))
        if not chunk:
            return None
        data += chunk
    return bytes(data)


def main() -> None:
    _die_with_parent()
    from ._worker_process import main as worker_main

    worker_main()


if __name__ == "__main__":
    main()
