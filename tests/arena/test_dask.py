"""Tournaments on a Dask cluster, with a real LocalCluster of worker processes (no mocks): the
standings equal a local run's, a Dask worker killed with SIGKILL mid-tournament loses nothing
and stores nothing twice, a broken entrant fails pre-flight naming the worker."""

import json
import logging
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from arena.tournament._config import TournamentConfig, load_config

from .test_bot_lifecycle import BOTS, deal_tournament, shared_folder, timeline, write_blocks  # noqa: F401 (a fixture)
from .test_tournament import arena, write_tournament
from .test_workers import stored
from ._warnings import without_sandbox_warnings

distributed = pytest.importorskip("distributed", reason="Dask is not installed: pip install 'pirate-arena[cluster]'")


@pytest.fixture(scope="module")
def cluster():
    """Two Dask worker processes (with nannies, which restart a killed worker), shared by the
    tests that pass --scheduler: starting a cluster costs seconds on a loaded machine."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  scheduler_kwargs={"dashboard_address": ":0"},  # not 8787: a run's cluster may want it
                                  silence_logs=logging.CRITICAL) as local, distributed.Client(local) as client:
        yield client


def outcomes(db: Path) -> list[tuple]:
    """What happened in each game (seats, ranks, scores, every action), by schedule key."""
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT key, seats, ranks, scores, faults, replay FROM games ORDER BY key").fetchall()


def same_tournament_on_one_process(db: Path, folder: Path) -> Path:
    """A copy of ``db`` without its games (same secret key), played with the local executor."""
    reference = folder / "ref.db"
    with sqlite3.connect(db) as source, sqlite3.connect(reference) as copy:
        source.backup(copy)
        copy.execute("DELETE FROM games")
    arena("tournament", "resume", str(reference), "-q", "--executor", "local", "--workers", "1", "--sandbox", "none")
    return reference


def test_executor_keys_defaults_and_reference_file(tmp_path):
    config = load_config(write_tournament(tmp_path, extra='executor = "dask"\nscheduler = "tcp://h:8786"\n'
                                                          'listen = "10.0.0.5:7700"'))
    assert (config.executor, config.scheduler, config.listen) == ("dask", "tcp://h:8786", "10.0.0.5:7700")
    # where games run does not change which games are played
    assert config.fingerprint() == load_config(write_tournament(tmp_path, "u.toml")).fingerprint()
    reference = tomllib.loads((Path(__file__).parents[2] / "examples" / "tournament-reference.toml").read_text())
    assert reference["executor"] == TournamentConfig.executor == "local"
    assert reference["scheduler"] == TournamentConfig.scheduler == ""
    assert reference["listen"] == TournamentConfig.listen == ""


@pytest.mark.parametrize("extra,message", [
    ('executor = "ray"', "key 'executor' must be one of ['local', 'dask'], got 'ray'"),
    ('scheduler = "tcp://h:8786"', """key 'scheduler' is for executor = "dask\""""),
    ('listen = "10.0.0.5:7700"', """key 'listen' is for executor = "dask\""""),
    ('executor = "dask"\nlisten = "7700"',
     """key 'listen' must be HOST:PORT, e.g. "10.0.0.5:7700" (":7700": every interface), got '7700'"""),
    ('executor = "dask"\nlisten = "::1:7700"',
     """key 'listen' must be HOST:PORT, e.g. "10.0.0.5:7700" (":7700": every interface), with an IPv6 """
     """address in brackets ([::1]:7700), got '::1:7700'"""),
    ('executor = "dask"\nlisten = "10.0.0.5:70000"', "key 'listen' has port 70000, beyond 65535"),
])
def test_bad_executor_keys_are_one_line(tmp_path, extra, message):
    result = arena("tournament", "run", str(write_tournament(tmp_path, extra=extra)), check=False)
    assert (result.returncode, result.stderr) == (2, f"error: {tmp_path / 't.toml'}: {message}\n")


@pytest.mark.parametrize("options,message", [
    (["--executor", "ray"], "--executor must be one of local, dask, got 'ray'"),
    (["--executor", "local", "--scheduler", "tcp://h:8786"], "--scheduler is for --executor dask"),
    (["--scheduler", "nonsense"], "scheduler 'nonsense': missing port number in address 'nonsense'; "
                                  "e.g. tcp://host:8786"),
    (["--listen", "10.0.0.5:7700"], "--listen is for --executor dask (or --scheduler)"),
    (["--scheduler", "tcp://h:8786", "--executor", "local", "--listen", ":7700"], "--scheduler is for --executor dask"),
    (["--executor", "dask", "--listen", "tcp://10.0.0.5:7700"],
     """--listen must be HOST:PORT, e.g. "10.0.0.5:7700" (":7700": every interface), got 'tcp://10.0.0.5:7700'"""),
])
def test_bad_executor_options_are_one_line(tmp_path, options, message):
    result = arena("tournament", "run", str(write_tournament(tmp_path)), "-q", *options, check=False)
    assert (result.returncode, without_sandbox_warnings(result.stderr)) == (2, f"error: {message}\n")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("held", [True, False], ids=["port-taken", "not-this-machine"])
def test_a_listen_address_that_cannot_be_had_is_one_line(tmp_path, held):
    # Before any cluster is started (none here: a LocalCluster would take seconds).
    with socket.socket() as holder:
        if held:
            holder.bind(("127.0.0.1", 0))
            holder.listen()
            listen, reason = f"127.0.0.1:{holder.getsockname()[1]}", "Address already in use"
        else:
            listen, reason = "192.0.2.1:7700", "Cannot assign requested address"  # TEST-NET-1: nobody's
        result = arena("tournament", "run", str(write_tournament(tmp_path, extra='executor = "dask"')), "-q",
                       "--sandbox", "none", "--listen", listen, check=False)
    assert (result.returncode, without_sandbox_warnings(result.stderr)) == (
        2, f"error: listen {listen!r}: cannot listen there for the Dask workers: {reason} (give an address of this "
           f"machine and a port no other program holds)\n")
    assert stored(tmp_path / "t.db") == 0


def test_workers_with_a_scheduler_is_ignored_with_one_warning(tmp_path, cluster):
    path = write_tournament(tmp_path, rounds=1, extra='workers = 3')
    result = arena("tournament", "run", str(path), "-q", "--sandbox", "none", "--scheduler", cluster.scheduler.address)
    assert result.stderr.splitlines()[0] == (
        "warning: workers = 3 is ignored with a Dask scheduler: the run places one arena worker on each of the "
        "cluster's Dask workers (how many is set where they start, e.g. dask worker --nworkers N)")
    assert stored(tmp_path / "t.db") == 6
    # the option says so in its own words; the warning comes before anything is tried
    result = arena("tournament", "run", str(write_tournament(tmp_path, "u.toml")), "-q", "--workers", "2",
                   "--scheduler", "nonsense", check=False)
    assert result.returncode == 2
    lines = without_sandbox_warnings(result.stderr).splitlines()
    assert lines[0].startswith("warning: --workers 2 is ignored with a Dask scheduler: ")
    assert lines[1].startswith("error: scheduler 'nonsense': ") and len(lines) == 2, result.stderr


# Run by the arena workers on the Dask workers, while the coordinator serves them: which
# sockets listen on the port, then the reference random bot in its place.
LISTENERS_BOT = """\
import json, os, sys
import psutil
port, folder = int(sys.argv[1]), sys.argv[2]
found = sorted({(c.laddr.ip, c.laddr.port) for c in psutil.net_connections("tcp")
                if c.status == psutil.CONN_LISTEN and c.laddr.port == port})
with open(os.path.join(folder, f"{os.getpid()}.json"), "w") as out:
    json.dump(found, out)
os.execv(sys.executable, [sys.executable, "-m", "bots.random"])
"""


def test_the_coordinator_listens_at_the_pinned_address(tmp_path, cluster, shared_folder):
    # One interface (loopback, not every interface as without `listen`), one port: the
    # workers connect there, and nothing else of this machine listens on that port.
    port = _free_port()
    (shared_folder / "listeners.py").write_text(LISTENERS_BOT)
    path = write_tournament(tmp_path, rounds=1, entrants=1, extra=f'executor = "dask"\nlisten = "127.0.0.1:{port}"')
    command = ["python", str(shared_folder / "listeners.py"), str(port), str(shared_folder)]
    with path.open("a") as file:
        file.write(f'\n[[entrants]]\nname = "listeners"\ncommand = {json.dumps(command)}\n')
    result = arena("tournament", "run", str(path), "-q", "--sandbox", "none", "--scheduler", cluster.scheduler.address)
    assert without_sandbox_warnings(result.stderr) == "", result.stderr
    assert stored(tmp_path / "t.db") == 2
    seen = [json.loads(report.read_text()) for report in shared_folder.glob("*.json")]
    assert len(seen) >= 2  # its pre-flight on each of the two workers, at least
    assert all(found == [["127.0.0.1", port]] for found in seen), seen


def test_without_dask_the_error_says_what_to_install(tmp_path):
    path = write_tournament(tmp_path, extra='executor = "dask"')
    blocked = "import sys; sys.modules['distributed'] = None; from arena.cli import main; main()"
    result = subprocess.run([sys.executable, "-c", blocked, "tournament", "run", str(path), "-q", "--sandbox", "none"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines()[-1] == ("""error: executor = "dask" needs Dask distributed: """
                                              "pip install 'pirate-arena[cluster]'")


@pytest.mark.slow
def test_interrupted_and_resumed_on_dask_the_games_equal_the_local_executors(tmp_path, cluster):
    # no scheduler: the run starts a LocalCluster of `workers` processes; Ctrl-C reaches the
    # whole process group (as from a terminal), the Dask workers too
    path = write_tournament(tmp_path, rounds=2, extra='workers = 2\nexecutor = "dask"')  # 12 games
    db = tmp_path / "t.db"
    process = subprocess.Popen(["arena", "tournament", "run", str(path), "-q", "--sandbox", "none"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while stored(db) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert process.poll() is None, process.communicate()
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130
    err = without_sandbox_warnings(err)
    assert err.endswith(f"games stored; resume with: arena tournament resume {db}\n") and err.count("\n") == 1, err
    # resumed on the other cluster, by its scheduler's address
    arena("tournament", "resume", str(db), "-q", "--sandbox", "none", "--scheduler", cluster.scheduler.address)
    keys = [row[0] for row in outcomes(db)]
    assert len(keys) == len(set(keys)) == 12
    # every game the same, so the standings too (deterministic bots, same secret key)
    assert outcomes(db) == outcomes(same_tournament_on_one_process(db, tmp_path))


# The sandbox matters on a Dask worker too; the test above runs without it.
@pytest.mark.slow
def test_dask_worker_killed_mid_tournament_loses_nothing(tmp_path, cluster):
    path = write_tournament(tmp_path, rounds=2)  # 12 games, 2 at once: one on each worker
    db = tmp_path / "t.db"
    process = subprocess.Popen(["arena", "tournament", "run", str(path), "-q", "--sandbox", "auto",
                                "--scheduler", cluster.scheduler.address],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while stored(db) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    victim, pid = sorted(cluster.run(os.getpid).items())[0]
    assert process.poll() is None, process.communicate()
    os.kill(pid, signal.SIGKILL)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert f"warning: the arena worker on Dask worker {victim} was lost; its " in err
    keys = [row[0] for row in outcomes(db)]
    assert len(keys) == len(set(keys)) == 12
    cluster.wait_for_workers(2, timeout=60)  # the nanny restarts the killed worker for the next test


def test_broken_entrant_fails_preflight_naming_the_worker(tmp_path, cluster):
    path = write_tournament(tmp_path, extra='[[entrants]]\nname = "gone"\ncommand = "/nonexistent/bot"\n')
    result = arena("tournament", "run", str(path), "-q", "--sandbox", "none", "--scheduler",
                   cluster.scheduler.address, check=False)
    assert result.returncode == 2
    error = result.stderr.splitlines()[-1]
    assert error.startswith("error: ") and "'gone'" in error
    assert any(f"(on Dask worker {address})" in error for address in cluster.scheduler_info()["workers"]), error
    assert stored(tmp_path / "t.db") == 0


def test_a_worker_that_cannot_reach_the_coordinator_says_so(cluster):
    from arena.tournament._dask import ClusterError, host_arena_worker

    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    error = cluster.submit(host_arena_worker, "127.0.0.1", port, b"x" * 32, pure=False).exception(timeout=60)
    assert isinstance(error, ClusterError)
    assert re.fullmatch(rf"Dask worker tcp://127\.0\.0\.1:\d+ cannot connect to the coordinator at 127\.0\.0\.1:{port}: "
                        rf"\[Errno 111\] Connection refused", str(error)), error


def _waiting_workers(lines: list[str]):
    import trio

    from arena.tournament._dask import DaskWorkers

    workers = DaskWorkers(None, 2, None, None, None, lines.append)
    workers._ready, workers._all_ready = 0, trio.Event()
    workers._workers = ["tcp://10.1.1.1:4000", "tcp://10.1.1.2:4000"]
    workers.addresses.append("tcp://10.1.1.1:4000")
    return workers


async def test_preflight_waits_for_a_silent_worker_only_so_long(autojump_clock):
    # A worker of a shared cluster may never start its hosting task (busy with other work):
    # the others start the games PREFLIGHT_WAIT_S after the first passed pre-flight, and say so.
    import trio

    from arena.tournament._dask import PREFLIGHT_WAIT_S

    lines: list[str] = []
    workers = _waiting_workers(lines)
    async with trio.open_nursery() as nursery:
        workers._nursery = nursery
        started = trio.current_time()
        await workers.preflight_done()
        assert trio.current_time() - started == pytest.approx(PREFLIGHT_WAIT_S)
    assert lines == ["1 of 2 Dask workers had not passed pre-flight 120 s after the first (tcp://10.1.1.2:4000 never "
                     "connected); the games started without them, and a late one plays once its pre-flight passes"]
    late = trio.current_time()
    await workers.preflight_done()  # the straggler, once it is there: no further wait
    assert trio.current_time() == late


async def test_preflight_of_every_worker_in_time_starts_the_games_at_once(autojump_clock):
    import trio

    lines: list[str] = []
    workers = _waiting_workers(lines)
    done = []

    async def worker(delay: float) -> None:
        await trio.sleep(delay)
        await workers.preflight_done()
        done.append(trio.current_time())

    async with trio.open_nursery() as nursery:
        workers._nursery = nursery
        nursery.start_soon(worker, 1.0)
        nursery.start_soon(worker, 30.0)
    assert done == [pytest.approx(30.0)] * 2 and lines == []


def test_no_deal_crosses_rotations_when_a_dask_worker_dies(tmp_path, cluster, shared_folder):
    """Timeline bots (tests/arena/bots/timeline.py) on the cluster: every rotation of a block on
    one arena worker; a lost worker's games go to another, which first kills what the lost one
    left on its machine. No bot ever finds a live process of its entrant that saw its deal."""
    entrants = {f"t{i}": ["python", str(BOTS / "timeline.py"), f"t{i}"] for i in range(3)}
    path = deal_tournament(tmp_path, entrants, {"TIMELINE_DIR": str(shared_folder),
                                                "TIMELINE_BLOCKS": str(shared_folder / "blocks.json")},
                           rounds=8, concurrency=2)
    total = write_blocks(path, shared_folder / "blocks.json")  # 3 tables x 2 rotations x 8 rounds
    process = subprocess.Popen(["arena", "tournament", "run", str(path), "-q", "--sandbox", "none",
                                "--scheduler", cluster.scheduler.address],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while stored(tmp_path / "t.db") < 8 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    victim, pid = sorted(cluster.run(os.getpid).items())[0]
    assert process.poll() is None, process.communicate()
    os.kill(pid, signal.SIGKILL)
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert f"warning: the arena worker on Dask worker {victim} was lost; its " in err
    assert not (shared_folder / "violations").exists(), (shared_folder / "violations").read_text()
    assert sum(len(blocks) for blocks in timeline(shared_folder).values()) >= 2 * total
    # The last test of the module's cluster: no waiting for the nanny's restart of the worker
    # (over a minute at load 40).
