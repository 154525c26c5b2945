"""Bots' cgroups on this machine's real hierarchies (as root): freeze, thaw and kill in cgroup v1
and v2, CPU time counted over every process of a bot, a bot frozen while not on move, and a
memory hog that faults alone as ``memory`` wherever it puts its memory.

Skipped where the arena cannot write cgroups (not root); each test says which role it needs.
"""

import os
import subprocess
import sys
import time
import uuid
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
import trio

from arena.match._match import MatchSettings, play_match
from arena.match._result import EndReason
from arena.players._faults import FaultKind
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from arena.sandbox._botcgroup import BotCgroup
from arena.sandbox._cgroups import CgroupLayout, Hierarchy, find_cgroups, parse_mounts
from arena.sandbox._detect import detect_sandbox
from arena.sandbox._limits import Limits

from ._toy import TOY
from .test_hostile import processes_with, rss_mb

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

BOTS = Path(__file__).parent / "bots"


def _layout() -> CgroupLayout | None:
    layout = find_cgroups(f"pirate-arena-probe{uuid.uuid4().hex[:8]}")
    if layout is not None:
        layout.close()
    return layout


LAYOUT = _layout()


def needs(*roles: str):
    have = LAYOUT is not None and all(LAYOUT.hierarchy(role) for role in roles)
    return pytest.mark.skipif(not have, reason=f"needs writable cgroups for {', '.join(roles)} (run as root)")


def _unified() -> Path | None:
    """The cgroup2 mount, where its core files (freeze, kill, cpu.stat) work for us."""
    try:
        mounts = parse_mounts(Path("/proc/self/mountinfo").read_text())
    except OSError:
        return None
    for mount in mounts:
        if mount.version == 2 and os.access(mount.path, os.W_OK):
            return mount.path
    return None


def _single(version: int) -> CgroupLayout | None:
    """A layout of one hierarchy of ``version`` serving cputime and freezer (a bot's own
    folder name, removed by the test)."""
    name = f"pirate-arena-test{uuid.uuid4().hex[:8]}-{os.getpid()}"
    if version == 2:
        top = _unified()
        return None if top is None else CgroupLayout(name, (("cputime", Hierarchy(2, top)), ("freezer", Hierarchy(2, top))))
    if LAYOUT is None or LAYOUT.hierarchy("freezer") is None or LAYOUT.hierarchy("freezer").version != 1 \
            or LAYOUT.hierarchy("cputime") is None or LAYOUT.hierarchy("cputime").version != 1:
        return None
    return CgroupLayout(name, (("cputime", LAYOUT.hierarchy("cputime")), ("freezer", LAYOUT.hierarchy("freezer"))))


def _spinning_into(cgroup: BotCgroup) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import os\nos.fork()\nwhile True: pass"],
                            preexec_fn=cgroup.join, start_new_session=True)


@pytest.mark.parametrize("version", [1, 2])
async def test_a_frozen_cgroup_uses_no_cpu_and_is_killed_whole(version):
    layout = _single(version)
    if layout is None:
        pytest.skip(f"no writable cgroup v{version} freezer here" + (" (v2: a cgroup2 mount)" if version == 2 else ""))
    try:
        cgroup = BotCgroup(layout, "bot-0", cpu_s=1000)
        spinner = _spinning_into(cgroup)
        try:
            await trio.sleep(0.3)
            assert len(cgroup.pids()) == 2  # the process and its child
            cgroup.freeze()
            # In v2 a freeze is asynchronous, in v1 a running process stops at its next
            # interrupt: the next bot's clock waits until the cgroup says it took hold.
            for _ in range(1000):
                if not BotCgroup.still_freezing():
                    break
                await trio.sleep(0.001)
            assert cgroup.settled() and not BotCgroup.still_freezing()
            frozen_at = cgroup.cpu_seconds()
            await trio.sleep(0.3)
            assert cgroup.cpu_seconds() - frozen_at < 0.01, "frozen processes used the CPU"
            cgroup.thaw()
            await trio.sleep(0.3)
            assert cgroup.cpu_seconds() - frozen_at > 0.05, "thawed processes did not run"
            cgroup.freeze()  # killed while frozen: v1 delivers the SIGKILL only once thawed
            assert await cgroup.kill_and_remove(limit=5)
            assert spinner.wait(timeout=5) == -9
        finally:
            spinner.kill()
            spinner.wait()
    finally:
        layout.close()
    assert not any(layout.folder(hierarchy).exists() for hierarchy in layout.hierarchies)


SETTINGS = MatchSettings(TimeControl(move_ms=20_000, reserve_ms=0, startup_ms=20_000))


def cpu_bot(mode: str, *args: str, limits: Limits = Limits()) -> tuple[BotSpec, str]:
    marker = f"pirate-arena-test-{uuid.uuid4().hex}"
    return BotSpec(mode, (sys.executable, str(BOTS / "cpu.py"), mode, *args, marker), limits=limits), marker


async def play(sandbox, spec: BotSpec, other: BotSpec, settings=SETTINGS, options=None):
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(bot, 20, sandbox=sandbox)) for bot in (other, spec)]
        result = await play_match(TOY, players, seed=4, options=options or {"target": 12}, settings=settings)
        return result, players[1].process.stderr.tail(400)


@pytest.fixture(scope="module", params=["auto", "none"])
def sandbox(request):
    """The strongest sandbox here, and the one without bubblewrap (limits, uid, cgroups)."""
    box = detect_sandbox(request.param)
    yield box
    box.close()


@pytest.fixture(scope="module")
def strongest():
    """The strongest sandbox here (the cgroups are the same without bubblewrap)."""
    box = detect_sandbox("auto")
    yield box
    box.close()


@needs("cputime")
async def test_cpu_s_counts_every_process_of_the_bot(strongest):
    # Four children of 0.35 s each: none is over 1 s (RLIMIT_CPU, per process, would let it
    # be), together they are.
    forks, _ = cpu_bot("fork-cpu", "0.35", limits=Limits(cpu_s=1))
    good, _ = cpu_bot("busy", "0")
    result, _ = await play(strongest, forks, good)
    assert [(fault.seat, fault.kind) for fault in result.faults] == [(1, FaultKind.TIMEOUT)]
    detail = result.faults[0].detail
    assert detail.startswith("used ") and detail.endswith(" s of CPU time, more than its cpu_s of 1 s (all its "
                                                          "processes together)"), detail
    assert float(detail.split()[1]) >= 1.4
    assert result.ranks == (1, 2)


@needs("freezer")
async def test_a_bot_not_on_move_is_frozen_unless_ponder(strongest):
    # The counter's child counts while its bot is not on move; the other bot spends 50 ms of
    # CPU on each of its moves. Frozen, the child counts only between the bot's thaw and its
    # reading the count (on move), and between its reply and its freezing: measured here, 3%
    # of what it counts pondering.
    counts = {}
    for ponder in (True, False):
        counter, _ = cpu_bot("counter")
        other, _ = cpu_bot("busy", "50")
        settings = MatchSettings(TimeControl(move_ms=5000, startup_ms=20_000, ponder=ponder))
        result, stderr = await play(strongest, counter, other, settings, options={"target": 8})
        assert result.faults == ()
        counts[ponder] = sum(int(line.split()[1]) for line in stderr.splitlines() if line.startswith("IDLE "))
    assert counts[False] < counts[True] / 4, counts


@needs("memory")
@pytest.mark.parametrize("mode", ["hog-process", "hog-children", "hog-tmp", "hog-shm"])
async def test_a_memory_hog_faults_alone_as_memory(sandbox, mode):
    hog, marker = cpu_bot(mode, limits=Limits(memory_mb=256))
    good, _ = cpu_bot("busy", "0")
    before = rss_mb()
    try:
        result, _ = await play(sandbox, hog, good, MatchSettings(TimeControl(move_ms=5000, startup_ms=20_000)))
    finally:
        for folder in (Path("/tmp"), Path("/dev/shm")):  # without bubblewrap its files are the host's
            for path in folder.glob(f"{marker}-*"):
                path.unlink()
    assert [(fault.seat, fault.kind) for fault in result.faults] == [(1, FaultKind.MEMORY)], result.faults
    assert result.faults[0].detail.startswith("used more than its 256 MiB of memory")
    assert result.reason is EndReason.FORFEIT and result.ranks == (1, 2), "the other bot keeps its result"
    assert processes_with(marker) == []
    assert rss_mb() - before < 100, "the arena's memory grew by more than 100 MB"


def _dead(pid: int) -> bool:
    """Whether ``pid`` is gone or a zombie (its reaper, init, may not have come by yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] in "ZX"
    except OSError:
        return True


@needs("pids", "freezer")
async def test_the_folders_of_a_dead_arena_are_swept_in_every_hierarchy():
    # An arena killed with kill -9 leaves its folders, and a frozen bot in them. The arena (a
    # stand-in process) lives while they are made: any arena that starts sweeps a dead arena's
    # folders (the suite's other worker starts many), and would take them away half made.
    arena = subprocess.Popen(["sleep", "600"])
    dead = LAYOUT.renamed(f"pirate-arena-{arena.pid}")
    try:
        cgroup = BotCgroup(dead, "bot-0", processes=8)
        # orphaned at once, as a dead arena's bots are: init reaps it once it is killed
        shell = subprocess.run(["sh", "-c", "sleep 600 >/dev/null 2>&1 & echo $!"], preexec_fn=cgroup.join,
                               capture_output=True, text=True, check=True)
        sleeper = int(shell.stdout)
        cgroup.freeze()
        arena.kill()  # kill -9
        arena.wait()
        later = LAYOUT.renamed(f"pirate-arena-test{uuid.uuid4().hex[:8]}")
        later.sweep_stale()  # a later arena
        # Another arena that started at the same moment sweeps them too: this sweep then finds
        # the bot killed by that one and leaves its folder to it, which removes it once the
        # bot has exited (it waits up to a second for that). On a loaded machine the killed
        # bot may take longer to exit, and its folder is left to the next arena that starts:
        # later arenas keep starting here (one sweep each) until it is gone.
        deadline = time.monotonic() + 60
        while any(dead.folder(hierarchy).exists() for hierarchy in dead.hierarchies) and time.monotonic() < deadline:
            time.sleep(0.1)
            later.sweep_stale()
        assert not any(dead.folder(hierarchy).exists() for hierarchy in dead.hierarchies)
        assert _dead(sleeper)
    finally:
        arena.kill()
        arena.wait()
        dead.close()
