"""The hostile-bot suite: every misbehaviour a bot can try, with real processes in the sandbox.

For each: the fault is classified and attributed to the hostile seat, the other bot finishes
its game with its result and no fault, no process the bot started outlives its slot (found
by a marker in their command lines), the arena's memory stays bounded, and the other bot's
moves stay fast (stated tolerance: every move under 1 s, while a normal move takes well
under a millisecond).
"""

import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from arena.match._match import MatchSettings, play_match
from arena.match._result import EndReason
from arena.players._faults import FaultKind
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from arena.sandbox._detect import detect_sandbox
from arena.sandbox._limits import Limits
from arena.tournament._schedule import ScheduledGame
from arena.tournament._store import ResultsStore, StoreError

from ._toy import TOY

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

BOTS = Path(__file__).parent / "bots"
SETTINGS = MatchSettings(TimeControl(move_ms=1500, reserve_ms=0, startup_ms=10_000))
OTHER_BOT_TOLERANCE_MS = 1000


@pytest.fixture(scope="module", params=["auto", "none"])
def sandbox(request):
    """The strongest sandbox here, and the one without bubblewrap (limits, uid, cgroup)."""
    box = detect_sandbox(request.param)
    yield box
    box.close()


def processes_with(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def rss_mb() -> float:
    """The arena's own resident memory (anonymous and shared memory), without the pages of the
    files it maps: as root the arena locks every file of a bot's view in the page cache
    (``arena/sandbox/_resident.py``), hundreds of MB of pages it shares with every process
    reading those files, mapped the first time the process starts a bot of that view; so which
    test does that first would depend on which ran before it in the same process."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "RssAnon", "RssShmem"):
            fields[name] = int(value.split()[0]) / 1024
    if "RssAnon" in fields:  # Linux 4.5 and later
        return fields["RssAnon"] + fields.get("RssShmem", 0.0)
    return fields.get("VmRSS", 0.0)


async def duel(sandbox, mode, limits=Limits(), options=None, settings=SETTINGS, extra=(), players_out=None):
    """A match of a good bot against ``hostile.py MODE MARKER *extra``; the good bot's
    command line holds ``victim-MARKER``, which ``{reversed-victim}`` in ``extra`` spells backwards."""
    marker = f"pirate-arena-test-{uuid.uuid4().hex}"
    extra = tuple(arg.replace("{reversed-victim}", f"victim-{marker}"[::-1]) for arg in extra)
    good = BotSpec("good", (sys.executable, str(BOTS / "scripted.py"), "good", f"victim-{marker}"))
    hostile = BotSpec(mode, (sys.executable, str(BOTS / "hostile.py"), mode, marker, *extra), limits=limits)
    before = rss_mb()
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(spec, 10, sandbox=sandbox)) for spec in (good, hostile)]
        if players_out is not None:
            players_out.extend(players)
        result = await play_match(TOY, players, seed=4, options=options or {"target": 30}, settings=settings)
    assert processes_with(marker) == [], f"{mode}: processes outlived the bot's slot"
    assert rss_mb() - before < 100, "the arena's memory grew by more than 100 MB"
    other_moves = [elapsed for seat, elapsed, by_bot in result.moves if seat == 0]
    assert max(other_moves) < OTHER_BOT_TOLERANCE_MS
    assert [f.seat for f in result.faults] == [1] * len(result.faults)
    if result.faults:
        assert result.ranks == (1, 2), "the other bot keeps its result"
    return result


@pytest.mark.parametrize("mode,kind", [
    ("flood-stdout", FaultKind.TIMEOUT),
    ("never-read", FaultKind.TIMEOUT),
    ("spin", FaultKind.TIMEOUT),
    ("exit-zero", FaultKind.CRASH),
    ("nest-bomb", FaultKind.PROTOCOL),
])
async def test_hostile_bot_forfeits_with_the_right_fault(sandbox, mode, kind):
    result = await duel(sandbox, mode)
    assert [f.kind for f in result.faults] == [kind]
    assert result.reason is EndReason.FORFEIT


async def test_closing_stdout_is_a_crash_or_under_bubblewrap_a_timeout(sandbox):
    # bubblewrap's monitor process keeps its copy of the pipe open, so no end of file arrives.
    result = await duel(sandbox, "close-stdout")
    expected = FaultKind.TIMEOUT if sandbox.bwrap else FaultKind.CRASH
    assert [f.kind for f in result.faults] == [expected]


async def test_never_reading_bot_cannot_block_a_large_write(sandbox):
    result = await duel(sandbox, "never-read", options={"target": 30, "padding": 200_000})
    assert [f.kind for f in result.faults] == [FaultKind.TIMEOUT]


#: for a bot that must meet its memory limit before its deadline, however loaded the machine:
#: at load 20-120 the hog's 1.5 s ran out before it had allocated 256 MiB (issue 43)
UNHURRIED = MatchSettings(TimeControl(move_ms=120_000, reserve_ms=0, startup_ms=10_000))


async def test_memory_hog_is_stopped_by_its_limit(sandbox):
    result = await duel(sandbox, "allocate", limits=Limits(memory_mb=256), settings=UNHURRIED)
    if sandbox.cgroups is not None and sandbox.cgroups.hierarchy("memory") is not None:
        # its memory cgroup: the kernel kills it at 256 MiB (no address-space limit is set)
        assert [f.kind for f in result.faults] == [FaultKind.MEMORY]
        assert result.faults[0].detail.startswith("used more than its 256 MiB of memory")
    else:  # its address space: Python raises MemoryError
        assert [f.kind for f in result.faults] == [FaultKind.CRASH]
        assert "MemoryError" in result.faults[0].stderr_tail


async def test_stderr_flood_is_capped_and_the_game_goes_on(sandbox):
    result = await duel(sandbox, "flood-stderr")
    assert result.faults == ()
    assert result.reason is EndReason.NORMAL


@pytest.mark.parametrize("mode", ["answer-twice", "setsid-child", "ignore-sigterm"])
async def test_misbehaviour_outside_the_game_is_cleaned_up(sandbox, mode):
    result = await duel(sandbox, mode)
    assert result.faults == ()


@pytest.mark.skipif(os.geteuid() != 0, reason="bots get uids of their own only when the arena runs as root")
async def test_a_bot_run_by_root_cannot_write_results_kill_its_opponent_or_stay_behind(sandbox):
    # The bot runs with pyenv's Python (below /root, mode 0700) when the suite does: it must
    # still get its own uid. The database sits where only its mode (0600) protects it.
    folder = Path(tempfile.mkdtemp(prefix="pirate-arena-attack-"))
    try:
        folder.chmod(0o755)
        database = folder / "results.db"
        database.write_bytes(b"REAL-RESULTS")
        database.chmod(0o600)
        players = []
        result = await duel(sandbox, "attack", extra=(str(database), "{reversed-victim}"), players_out=players)
        report = players[1].process.stderr.tail(100)
        assert database.read_bytes() == b"REAL-RESULTS"
    finally:
        shutil.rmtree(folder)
    assert result.faults == (), "the opponent was not killed and the attacker played on"
    uids = [player.process.uid for player in players]
    assert None not in uids and len(set(uids)) == 2, uids
    assert f"UID {uids[1]}" in report, report
    # Its mode keeps it from reading; writing, a read-only view answers first (EROFS: an image
    # of the folder, or a read-only bind) where there is one.
    assert "DENIED reading EACCES" in report, report
    assert "DENIED database EACCES" in report or (sandbox.bwrap and "DENIED database EROFS" in report), report
    assert "WROTE" not in report and "READ " not in report and "KILLED" not in report, report
    if sandbox.bwrap is None:  # under bubblewrap it sees no other process to try
        assert "DENIED kill" in report, report


async def test_fork_bomb_is_contained(sandbox):
    if sandbox.cgroup_root is None and os.geteuid() == 0:
        pytest.skip("as root without a cgroup pids controller nothing caps a fork bomb; enable it: "
                    "`echo +pids > /sys/fs/cgroup/cgroup.subtree_control` (a container needs a writable cgroup2)")
    result = await duel(sandbox, "fork-bomb", limits=dataclasses.replace(Limits(), processes=64))
    assert [f.kind for f in result.faults] == [FaultKind.TIMEOUT]


async def test_bot_cannot_read_the_database_logs_or_seed(sandbox, tmp_path):
    if sandbox.bwrap is None and os.geteuid() != 0:
        pytest.skip("without bubblewrap or root a bot runs as the arena's user and reads what it reads: "
                    "a tournament says so in its first line (tests/arena/test_bot_lifecycle.py)")
    database = tmp_path / "results.db"
    database.write_bytes(b"SECRET-RESULTS")
    database.chmod(0o600)
    logs = tmp_path / "results.db.logs"
    logs.mkdir(mode=0o700)
    (logs / "other-bot.1.log").write_bytes(b"SECRET-LOG")
    config = tmp_path / "tournament.toml"
    config.write_bytes(b"seed = 12345 # SECRET-CONFIG")
    config.chmod(0o600)
    box = sandbox.with_hidden([config, database, logs])
    decoy = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "SECRETSEED"])
    try:
        spy = BotSpec("spy", ("/usr/bin/python3", str(BOTS / "spy.py"), str(database), str(logs / "other-bot.1.log"),
                              str(logs), str(config)), cwd=BOTS)
        async with open_player(spy, 10, sandbox=box) as player:
            assert player.usable, player.failure
        report = player.process.stderr.tail(100)
    finally:
        decoy.kill()
        decoy.wait()
    assert report.count("DENIED") + report.count("READ") == 4, report
    for secret in ("SECRET-RESULTS", "SECRET-LOG", "SECRET-CONFIG", "['other-bot"):
        assert secret not in report, f"the bot read {secret}:\n{report}"
    if sandbox.bwrap:
        assert "SAW-SEED" not in report, "the arena's command lines are visible to the bot"


async def test_a_game_stored_with_another_outcome_is_an_error_never_ignored(sandbox, tmp_path):
    # What a bot with write access to the database would try: store its own outcome first.
    good = BotSpec("good", (sys.executable, str(BOTS / "scripted.py"), "good"))
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(good, 10, sandbox=sandbox)) for _ in range(2)]
        result = await play_match(TOY, players, seed=4, options={"target": 30}, settings=SETTINGS)
    game = ScheduledGame(key="r0-t0-s0", round=0, table=0, rotation=0, seats=("good", "good"), seed=4, block="r0-t0")
    store = ResultsStore.create(tmp_path / "r.db", "{}", {}, tmp_path / "t.toml", [])
    try:
        assert store.record(game, result) is True
        replayed = dataclasses.replace(result, duration_s=result.duration_s + 1,
                                       moves=tuple((seat, ms + 1, by_bot) for seat, ms, by_bot in result.moves))
        assert store.record(game, replayed) is False  # the same game again (resume, retry): no-op
        forged = dataclasses.replace(result, ranks=tuple(reversed(result.ranks)))
        with pytest.raises(StoreError) as error:
            store.record(game, forged)
        assert str(error.value) == (f"{tmp_path / 'r.db'}: game r0-t0-s0 is already stored with a different "
                                    f"outcome; the database was changed by something other than this tournament")
        assert [stored.ranks for stored in store.games()] == [result.ranks]
    finally:
        store.close()
