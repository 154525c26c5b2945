"""A bot's processes as a normal user runs the arena, and when the arena dies (issue 43).

Without root, ``RLIMIT_NPROC`` counts every task of the user: a cap of 128 processes stopped
every bot from starting once the user ran 115 tasks (one Chromium tab). Each bot now gets a
user namespace of its own, where the cap counts its own processes alone. And every bot is
forked from threads that live as long as the arena, told to die with it: an arena killed with
``kill -9`` leaves no sandbox behind (bubblewrap passes the signal to the sandbox's init, whose
death ends its PID namespace); without bubblewrap the bot's own process dies with it. A bot
frozen by a cgroup v1 freezer (as root, while not on move) would not die of it until thawed:
the arena's guardian process thaws and kills it.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from pathlib import Path

import pytest
import trio

from arena.players._manifest import BotSpec
from arena.players._process import open_bot_process
from arena.sandbox._detect import detect_sandbox
from arena.sandbox._limits import Limits

from .test_hostile import processes_with

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

BOTS = Path(__file__).parent / "bots"
as_normal_user = pytest.mark.skipif(os.geteuid() == 0, reason="as root each bot has a uid of its own: this is the "
                                    "path of an arena run by a normal user (.ci/run runs it as one)")


@pytest.fixture(scope="module", params=["auto", "none"])
def sandbox(request):
    box = detect_sandbox(request.param)
    yield box
    box.close()


@pytest.fixture
def busy_user():
    """500 other tasks of this user (threads of one process), as a desktop's browser has."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, threading\nstop = threading.Event()\n"
         "for _ in range(500):\n    threading.Thread(target=stop.wait, daemon=True).start()\n"
         "print('ready', flush=True)\nsys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline() == "ready\n"
    yield holder
    holder.stdin.close()
    holder.wait()


#: forks children that wait, until a fork is refused (or 400 are made), says how many on
#: stderr, then sleeps; its children die with it
FORKER = textwrap.dedent("""
    import os, sys, time
    made = 0
    try:
        while made < 400:
            if os.fork() == 0:
                time.sleep(600)
                os._exit(0)
            made += 1
    except OSError as error:
        print(f"refused {error.errno}", file=sys.stderr, flush=True)
    print(f"forked {made}", file=sys.stderr, flush=True)
    time.sleep(600)
""")


async def forked_under(sandbox, processes: int) -> int:
    """How many children the forker made under a cap of ``processes``."""
    marker = f"pirate-arena-test-{uuid.uuid4().hex}"
    spec = BotSpec("forker", (sys.executable, "-c", FORKER, marker), limits=Limits(processes=processes))
    async with open_bot_process(spec, sandbox) as bot:
        with trio.fail_after(30):
            while "forked" not in bot.stderr.tail():
                assert bot.returncode() is None, bot.stderr.tail()
                await trio.sleep(0.01)
    assert processes_with(marker) == [], "its children outlived its slot"
    line = [line for line in bot.stderr.tail().splitlines() if line.startswith("forked")][-1]
    return int(line.split()[1])


@as_normal_user
async def test_a_bot_starts_and_its_cap_counts_its_own_processes_with_500_tasks_of_its_user_running(
        sandbox, busy_user):
    assert sandbox.own_namespaces, "user namespaces are needed here: arena doctor says why"
    made = await forked_under(sandbox, processes=40)
    # The cap counts the bot and, under bubblewrap, bubblewrap's two processes (its monitor
    # and the sandbox's init): not one of the user's 500 other tasks.
    assert made == (40 - 1 - (2 if sandbox.bwrap else 0)), made


@as_normal_user
def test_doctor_names_the_process_cap_and_how_bots_end_for_a_normal_user(sandbox):
    rows = {name: (active, how) for name, active, how in sandbox.describe()}
    assert rows["process count capped per bot, whatever else its user runs"] == (
        True, "RLIMIT_NPROC in a user namespace of the bot's own: it counts the bot's processes alone")
    ended = rows["every process it started killed when its slot ends, even after setsid"]
    assert ended == (True, "the sandbox's init killed: its PID namespace ends with it" if sandbox.bwrap else
                     "every process of the bot's user namespace killed (none can leave it)")
    # and the run's first line does not call the process cap missing
    assert not any(role.startswith("process cap") for role in sandbox.missing_cgroups()), sandbox.missing_cgroups()


#: a program that starts ``hostile.py MODE MARKER`` as a tournament would and then waits
#: forever: the test kills it with SIGKILL
HOLDER = textwrap.dedent("""
    import sys, trio
    from arena.players._manifest import BotSpec
    from arena.players._open_player import open_player
    from arena.sandbox._detect import detect_sandbox

    async def main():
        box = detect_sandbox(sys.argv[1])
        spec = BotSpec("stayer", (sys.executable, sys.argv[2], sys.argv[3], sys.argv[4]))
        async with open_player(spec, 10, sandbox=box) as player:
            assert player.usable, player.failure
            print("ready", flush=True)
            await trio.sleep(600)

    trio.run(main)
""")


def wait_until_gone(pids, limit: float = 30.0) -> list[int]:
    """Poll until none of ``pids`` is alive (zombies are dead); those still alive after
    ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while (left := [pid for pid in pids if _alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])
    except (OSError, IndexError, ValueError):
        return None


@pytest.mark.parametrize("mode", ["setsid-child", "ignore-sigterm"])
def test_an_arena_killed_with_kill_9_takes_its_bots_with_it(sandbox, mode):
    marker = f"pirate-arena-test-{uuid.uuid4().hex}"
    arena = subprocess.Popen([sys.executable, "-c", HOLDER, "auto" if sandbox.bwrap else "none",
                              str(BOTS / "hostile.py"), mode, marker],
                             stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    try:
        assert arena.stdout.readline() == "ready\n"
        started = processes_with(marker)
        own = [pid for pid in started if _parent(pid) == arena.pid]  # the bot, or its bubblewrap
        assert len(own) == 1, (started, own)
        arena.kill()
        arena.wait()
        assert wait_until_gone(own) == [], "the bot's own process outlived the arena"
        if sandbox.bwrap is not None or mode != "setsid-child":
            assert wait_until_gone(started) == [], "a process the bot started outlived the arena"
        # Without bubblewrap, a child that left the bot's session outlives an arena killed with
        # kill -9 (only the bot's own process has the parent-death signal): arena doctor's row
        # "dies with the arena" says no there.
    finally:
        arena.kill()
        for pid in processes_with(marker):
            os.kill(pid, signal.SIGKILL)


def test_a_bubblewrap_probe_past_its_limit_leaves_nothing_behind():
    """detect_sandbox's probe of bubblewrap, killed past its limit, kills its whole group: the
    sandbox's init, left by a bubblewrap killed alone, waited on its eventfd forever (found
    asleep an hour later, on a loaded machine with the old 10 s limit)."""
    from arena.sandbox._detect import _probe_bwrap

    folder = Path(tempfile.mkdtemp(prefix="pirate-arena-probe-test-"))  # as root the probe runs as nobody
    try:
        folder.chmod(0o777)
        pids = folder / "pids"
        stuck = folder / "bwrap"  # a bubblewrap that hangs with a child in its group, as one did
        stuck.write_text(f"#!/bin/sh\nsleep 600 &\necho $! $$ > {pids}\nwait\n")
        stuck.chmod(0o755)
        assert _probe_bwrap(str(stuck), limit_s=2) is False
        started = [int(pid) for pid in pids.read_text().split()]
    finally:
        shutil.rmtree(folder)
    assert len(started) == 2 and wait_until_gone(started) == []


def test_a_worker_killed_with_kill_9_leaves_nothing_its_bots_started(tmp_path):
    """Without bubblewrap only a bot's own process has the parent-death signal: the children
    that left its session outlived a worker killed with kill -9, and ran when another worker
    played the dead one's deals. Its coordinator now ends them first: as root through the
    worker's cgroups, without root through the worker's user namespace, which holds its bots'."""
    from .test_workers import stored, worker_pids

    marker = f"pirate-arena-test-{uuid.uuid4().hex}"
    folder = Path(tempfile.mkdtemp(prefix="pirate-arena-workers-"))
    try:
        folder.chmod(0o755)  # as root a bot runs under a uid of its own
        bot = f'["{sys.executable}", "{BOTS / "hostile.py"}", "setsid-child", "{marker}"]'
        entrants = "".join(f'[[entrants]]\nname = "b{number}"\ncommand = {bot}\n' for number in range(3))
        (folder / "t.toml").write_text(f'game = "dead-mans-draw"\nplayers = 2\nrounds = 6\nseed = 3\nconcurrency = 2\n'
                                       f'workers = 2\n[options]\ncharacters = false\n{entrants}')
        (folder / "t.toml").chmod(0o600)
        run = subprocess.Popen(["arena", "tournament", "run", str(folder / "t.toml"), "-q", "--sandbox", "none"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while (stored(folder / "t.db") < 4 or len(worker_pids(run.pid)) < 2) and run.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.005)
        victims = worker_pids(run.pid)
        assert run.poll() is None and len(victims) == 2, "the tournament ended before a worker was killed"
        os.kill(victims[0], signal.SIGKILL)
        _, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
        assert f"warning: worker process {victims[0]} was killed by signal 9;" in err
        assert processes_with(marker) == [], "a process a bot of the killed worker started is still running"
    finally:
        for pid in processes_with(marker):
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder)
