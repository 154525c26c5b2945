"""Bot processes across requests and games, with real bots: replies written before their
request, requests cut mid-frame, misbehaviour between games charged up to withdrawal, the deal
rule of the pool (no process that saw a deal is alive when another rotation of it starts: a
timeline bot and a deal carrier) and the start-up check of ``arena match`` and ``arena
tournament``."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
import trio

from arena.match._match import MatchSettings, play_match
from arena.match._result import EndReason
from arena.players._faults import FaultKind, FaultPolicy
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._pool import BotPool
from arena.players._timecontrol import TimeControl
from arena.sandbox._detect import detect_sandbox
from arena.tournament._config import load_config
from arena.tournament._database import open_store
from arena.tournament._runner import TournamentRunner, log_dir_of
from arena.tournament._store import ResultsStore

from ._toy import TOY
from ._warnings import without_sandbox_warnings

BOTS = Path(__file__).parent / "bots"
FAST = MatchSettings(TimeControl(move_ms=400, reserve_ms=0, startup_ms=10_000))


def lifecycle(mode: str, name: str | None = None) -> BotSpec:
    return BotSpec(name=name or mode, command=(sys.executable, str(BOTS / "lifecycle.py"), mode))


@pytest.fixture(scope="module", params=["auto", "none"])
def sandbox(request):
    box = detect_sandbox(request.param)
    yield box
    box.close()


async def duel(modes, settings=FAST, options=None):
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(lifecycle(m), 10)) for m in modes]
        result = await play_match(TOY, players, 3, options, settings)
    return result, players


# -- item 5: a reply must not exist before its request -------------------------------------------

@pytest.mark.parametrize("mode,detail", [
    ("pre-send", "was written before the request existed"),
    ("pre-send-half", "began before the request existed"),
])
async def test_a_reply_written_before_its_request_is_a_protocol_fault(mode, detail):
    result, _ = await duel(["good", mode])
    [fault] = result.faults
    assert (fault.seat, fault.kind) == (1, FaultKind.PROTOCOL)
    assert fault.detail.startswith("reply to id ") and fault.detail.endswith(detail)
    assert result.ranks == (1, 2) and result.reason is EndReason.FORFEIT


# -- item 11: a request cut mid-frame ends the bot's game ----------------------------------------

async def test_a_request_cut_mid_frame_puts_the_bot_out_of_the_game_even_under_substitute():
    """The bot stops reading for 2 s with a 200 kB request half in its pipe: under the
    substitute policy it used to get the next request spliced into that one."""
    settings = MatchSettings(FAST.time_control, FaultPolicy.SUBSTITUTE, max_substitutions=3)
    result, players = await duel(["good", "stop-reading"], settings, {"target": 30, "padding": 200_000})
    [fault] = result.faults
    assert (fault.seat, fault.kind) == (1, FaultKind.TIMEOUT)
    assert "a frame was cut after" in fault.detail and "out for the rest of the game" in fault.detail
    assert result.ranks == (1, 2) and result.reason is EndReason.FORFEIT
    assert not any(by_bot for seat, _, by_bot in result.moves[-3:] if seat == 1), "the fallback plays on"
    assert players[1].failure is fault or players[1].failure.detail == fault.detail


async def test_a_request_not_started_in_time_is_substituted_as_before():
    """A bot that does not read a request that fits in its pipe only times out: nothing was
    cut, and it answers the next request after its pause."""
    settings = MatchSettings(TimeControl(move_ms=1500, reserve_ms=0), FaultPolicy.SUBSTITUTE, max_substitutions=3)
    result, _ = await duel(["good", "stop-reading"], settings, {"target": 30})
    assert [(f.seat, f.kind) for f in result.faults] == [(1, FaultKind.TIMEOUT)]
    assert "cut" not in result.faults[0].detail
    assert result.reason is EndReason.NORMAL


async def test_a_bot_cut_mid_frame_gets_a_new_process_for_its_next_game():
    settings = MatchSettings(FAST.time_control, FaultPolicy.SUBSTITUTE, max_substitutions=3)
    specs = {"good": lifecycle("good"), "pauser": lifecycle("stop-reading", "pauser")}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2)
        await pool.preflight(specs)
        first = await pool.checkout_game(list(specs), 1)
        result = await play_match(TOY, first, 1, {"target": 30, "padding": 200_000}, settings)
        assert pool.checkin_game(list(specs), first) == {}
        second = await pool.checkout_game(list(specs), 2)
        assert second[0] is first[0] and second[1] is not first[1] and second[1].usable
        assert pool.started == 3
        pool.checkin_game(list(specs), second)
        pool.release_all()
    assert result.faults[0].kind is FaultKind.TIMEOUT


# Deaths and other misbehaviour between games: tests/arena/test_pool.py (the pool) and below
# (tournaments).


# -- tournaments: configs, runs, logs ------------------------------------------------------------

def write_tournament(folder: Path, entrants: dict[str, list[str]], rounds=2, concurrency=1, extra="",
                     ponder=False, cwd: Path | None = None) -> Path:
    """A tournament file in ``folder``; ``cwd``: the working folder of the entrants that are
    not ``RANDOM`` (default: ``folder``)."""
    lines = "".join(f"\n[[entrants]]\nname = {json.dumps(name)}\ncommand = {json.dumps(command)}\n"
                    + (f"cwd = {json.dumps(str(cwd))}\n" if cwd is not None and command != RANDOM else "")
                    for name, command in entrants.items())
    path = folder / "t.toml"
    path.write_text(textwrap.dedent(f"""\
        game = "dead-mans-draw"
        players = 2
        rounds = {rounds}
        seed = 11
        concurrency = {concurrency}
        database = "t.db"
        {extra}
        [time]
        move_ms = 2000
        ponder = {json.dumps(ponder)}
        [options]
        characters = false
        """) + lines)
    path.chmod(0o600)  # no warning that bots could read it
    return path


RANDOM = ["python", "-m", "bots.random"]


@pytest.fixture
def bot_folder():
    """A folder other users may read, holding copies of the test bots: a bot's working folder
    (``cwd``). Under bubblewrap a bot sees its own folder and the files its command names, not
    the modules beside them; a folder below a closed one (pytest's) it sees empty."""
    folder = Path(tempfile.mkdtemp(prefix="pirate-arena-bots-", dir="/tmp"))
    folder.chmod(0o755)
    for script in BOTS.glob("*.py"):
        shutil.copy(script, folder / script.name)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


async def run_tournament(path: Path, sandbox, **runner_options):
    config = load_config(path)
    store = open_store(config)
    try:
        runner = TournamentRunner(config, store, sandbox=sandbox.with_hidden([path, store.path]), **runner_options)
        await runner.run()
        return list(store.games()), store.entrant_events(), runner
    finally:
        store.close()


def log_lines(database: Path, name: str) -> list[str]:
    lines = []
    for log in sorted(log_dir_of(database).glob(f"{name}.*.log")):
        lines += log.read_text().splitlines()
    return lines


@pytest.fixture
def seen_between_games(sandbox, mode):
    """Skips (here, not inside the trio test, where pytest-trio drops a skip's reason) the one
    misbehaviour bubblewrap hides between games."""
    if mode == "close-after-end" and sandbox.bwrap:
        pytest.skip("under bubblewrap a closed stdout is not seen (its monitor keeps a copy open)")


@pytest.mark.parametrize("mode,detail", [
    ("exit-3-after-end", "exited with code 3 between games"),
    ("close-after-end", "closed its stdout between games"),
    ("write-after-end", "wrote 12 bytes between games"),
])
async def test_misbehaviour_between_games_costs_the_entrant_until_it_is_withdrawn(tmp_path, sandbox, bot_folder, mode,
                                                                                detail, seen_between_games):
    """Each of its processes misbehaves after its first game: the next game is charged (a
    fault between games, the seat forfeited, no process started for it), the one after gets a
    new process; at the limit (2 here) the entrant is withdrawn and forfeits the rest unstarted.
    The random bots are never charged, though the pool ends their processes at every pass. The
    bots ponder, so they run between games (a bot frozen after its moves runs then only while
    it reads its ``end``)."""
    path = write_tournament(tmp_path, {"leaver": ["python", "lifecycle.py", mode], "r1": RANDOM, "r2": RANDOM},
                            extra="[faults]\nwithdraw_after = 2", ponder=True, cwd=bot_folder)
    games, events, runner = await run_tournament(path, sandbox)
    assert len(games) == 12
    assert [f for game in games for f in game.faults if f["bot"] != "leaver"] == []
    assert runner._pool.statistics().ended_for_deals > 0  # the rule ended processes: no charge
    faults = [f for game in games for f in game.faults]
    charged = [f for f in faults if f.get("between_games")]
    withdrawn = [f for f in faults if f["detail"].startswith("withdrawn")]
    assert len(charged) == 2 and len(withdrawn) == 4 and len(faults) == 6
    for fault in charged:
        assert fault["kind"] == ("protocol" if mode == "write-after-end" else "crash")
        assert fault["detail"] in (detail, "closed its stdout between games")
        # A process found dead at hand-out is charged at step 0; one still exiting then, later
        # in the game (when its seat is first asked), as the game's crash.
        assert fault["step"] == 0 or mode == "exit-3-after-end"
    assert {(f["kind"], f["step"], f["detail"]) for f in withdrawn} == {
        ("crash", 0, "withdrawn after 2 faults between games (limit 2); not started again")}
    for game in games:  # every fault forfeits its seat
        for f in game.faults:
            assert game.ranks[f["seat"]] == max(game.ranks)
    assert runner.withdrawn == {"leaver": "withdrawn after 2 faults between games (limit 2)"}
    assert events == [("leaver", "withdrawn", "withdrawn after 2 faults between games (limit 2)")]
    # Two processes ever played: the pre-flight's and the one after the first charge.
    assert len(list(log_dir_of(tmp_path / "t.db").glob("leaver.*.log"))) == 2
    table = arena("standings", str(tmp_path / "t.db")).stdout
    assert "leaver: 2 faults between games (a process exited, closed its stdout or wrote between two games; " \
           "each forfeited the next game)" in table
    assert "leaver: withdrawn after 2 faults between games (limit 2); its remaining games were forfeited" in table
    assert [line.split()[-1] for line in table.splitlines() if " leaver " in line] == ["6"]  # faults column


def test_a_withdrawal_is_one_warning_and_holds_on_resume(tmp_path, bot_folder):
    path = write_tournament(tmp_path, {"leaver": ["python", "lifecycle.py", "write-after-end"], "r1": RANDOM,
                                       "r2": RANDOM}, rounds=1, extra="[faults]\nwithdraw_after = 1", ponder=True,
                            cwd=bot_folder)
    result = arena("tournament", "run", str(path), "-q", "--sandbox", "none", "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert without_sandbox_warnings(result.stderr) == ("warning: entrant 'leaver' withdrawn after 1 faults between "
                                                       "games (limit 1): it forfeited its remaining games\n")
    assert "leaver: withdrawn after 1 faults between games (limit 1)" in result.stdout
    # The report lists it with the other faults.
    assert arena("report", str(tmp_path / "t.db"), "-o", str(tmp_path / "r.html")).returncode == 0
    page = (tmp_path / "r.html").read_text()
    assert "wrote 12 bytes between games" in page and "withdrawn after 1 faults between games" in page
    # Resumed with more rounds, it is not started again.
    assert arena("tournament", "extend", str(tmp_path / "t.db"), "--rounds", "2").returncode == 0
    logs = len(list(log_dir_of(tmp_path / "t.db").glob("leaver.*.log")))
    result = arena("tournament", "resume", str(tmp_path / "t.db"), "-q", "--sandbox", "none", "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert "warning: entrant 'leaver' withdrawn after 1 faults" in result.stderr
    assert len(list(log_dir_of(tmp_path / "t.db").glob("leaver.*.log"))) == logs
    store = ResultsStore.open(tmp_path / "t.db")
    games = [game for game in store.games() if game.round == 1 and "leaver" in game.seats]
    assert store.entrant_events() == [("leaver", "withdrawn", "withdrawn after 1 faults between games (limit 1)")]
    store.close()
    assert len(games) == 4 and all(
        [f["detail"] for f in game.faults] == ["withdrawn after 1 faults between games (limit 1); not started again"]
        for game in games)


def test_an_old_databases_deaths_between_games_are_still_shown(tmp_path):
    path = write_tournament(tmp_path, {"r0": RANDOM, "r1": RANDOM}, rounds=1)
    assert arena("tournament", "run", str(path), "-q", "--sandbox", "none", "--workers", "1").returncode == 0
    store = ResultsStore.open(tmp_path / "t.db")
    store.record_event("r0", "died-between-games", "exited with code 0 between games")  # as before issue 25
    store.close()
    table = arena("standings", str(tmp_path / "t.db")).stdout
    assert "r0: its process died between games 1 time (charged to no game)" in table


# -- item 4: no process plays the same deal twice ------------------------------------------------

@pytest.fixture
def memo_token():
    token = uuid.uuid4().hex[:12]
    yield token
    for place in {os.environ.get("HOME", "/root"), "/tmp", "/dev/shm", "/var/tmp"}:
        for leftover in Path(place).glob(f"pirate-memo-{token}-*"):
            leftover.unlink()


@pytest.mark.parametrize("concurrency", [1, 2])
async def test_a_memorising_bot_never_sees_a_deal_twice(tmp_path, sandbox, bot_folder, memo_token, concurrency):
    path = write_tournament(tmp_path, {"memo": ["python", "memory.py", "memory", memo_token],
                                       "r1": RANDOM, "r2": RANDOM}, concurrency=concurrency, cwd=bot_folder)
    games, _, _ = await run_tournament(path, sandbox)
    assert [game.faults for game in games] == [()] * 12
    lines = log_lines(tmp_path / "t.db", "memo")
    assert sum(line.startswith("NEW ") for line in lines) == 8  # 2 rounds x 2 tables x 2 rotations
    assert [line for line in lines if line.startswith("SEEN ")] == []


async def test_processes_of_one_entrant_share_no_files_under_bubblewrap(tmp_path, sandbox, bot_folder, memo_token):
    """With files as memory: under bubblewrap no rotation sees the deal again; without it the
    second rotation of each block reads what the first one wrote (as docs/sandbox.md says). The
    bots ponder: a bot frozen after its last move would read its ``end``, where it writes its
    memory, only when it next runs (maybe after the other rotation)."""
    path = write_tournament(tmp_path, {"memo": ["python", "memory.py", "disk", memo_token],
                                       "r1": RANDOM, "r2": RANDOM}, ponder=True, cwd=bot_folder)
    games, _, _ = await run_tournament(path, sandbox)
    assert [game.faults for game in games] == [()] * 12
    lines = log_lines(tmp_path / "t.db", "memo")
    seen = [line for line in lines if line.startswith("SEEN ")]
    if sandbox.bwrap:
        assert seen == []
        # It could write (HOME and TMPDIR are /tmp; /dev/shm too where the bot's uid may), only
        # into its own private folders: the rest is read-only.
        assert {"WROTE /tmp", "READONLY /var/tmp", f"READONLY {bot_folder}"} <= set(lines)
    else:
        assert len(seen) == 4  # with concurrency 1 the first rotation has ended before the second


# -- issue 25: no deal crosses rotations --------------------------------------------------------

@pytest.fixture
def shared_folder():
    """A folder every bot uid may write, outside the test's own (closed) temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="pirate-arena-test-", dir="/tmp"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def deal_tournament(folder: Path, entrants: dict[str, list[str]], env: dict[str, str], players=2, rounds=2,
                    concurrency=1, ponder=False) -> Path:
    """A tournament file whose entrants get ``env``; its database is made (with its key)."""
    lines = "".join(f"\n[[entrants]]\nname = {json.dumps(name)}\ncommand = {json.dumps(command)}\n"
                    f"env = {{ {', '.join(f'{key} = {json.dumps(value)}' for key, value in env.items())} }}\n"
                    for name, command in entrants.items())
    path = folder / "t.toml"
    path.write_text(textwrap.dedent(f"""\
        game = "dead-mans-draw"
        players = {players}
        rounds = {rounds}
        seed = 25
        concurrency = {concurrency}
        database = "t.db"
        [time]
        move_ms = 2000
        ponder = {json.dumps(ponder)}
        [options]
        characters = false
        """) + lines)
    path.chmod(0o600)
    return path


def write_blocks(path: Path, target: Path) -> int:
    """Each game's bot seeds -> its block, from the schedule of the tournament at ``path`` under
    its database's key (made now); how many games."""
    config = load_config(path)
    store = open_store(config)
    try:
        games = list(TournamentRunner(config, store).pending()[0])
    finally:
        store.close()
    target.write_text(json.dumps({str(seed): game.block for game in games for seed in game.bot_seeds}))
    target.chmod(0o644)
    return len(games)


def timeline(folder: Path) -> dict[str, list[str]]:
    """Each process's record: ``ENTRANT.PID.STARTTIME`` -> the blocks of its games, in order."""
    return {record.name: [line.split()[1] for line in record.read_text().splitlines() if line.startswith("game ")]
            for record in folder.glob("t*.*.*")}


@pytest.mark.parametrize("how", ["one process", "2 workers", "a worker killed"])
def test_no_process_that_saw_a_deal_is_alive_when_another_rotation_of_it_starts(tmp_path, shared_folder, how):
    """Every entrant is a bot that, at each game's start, looks for a live process of its
    entrant that saw that game's deal (tests/arena/bots/timeline.py); 3-player tables, so each
    deal is played in three rotations by each entrant. Without bubblewrap, as processes can see
    each other."""
    entrants = {f"t{i}": ["python", str(BOTS / "timeline.py"), f"t{i}"] for i in range(4)}
    rounds = 6 if how == "a worker killed" else 2
    path = deal_tournament(tmp_path, entrants, {"TIMELINE_DIR": str(shared_folder),
                                                "TIMELINE_BLOCKS": str(shared_folder / "blocks.json")},
                           players=3, rounds=rounds, concurrency=2)
    total = write_blocks(path, shared_folder / "blocks.json")  # 4 tables x 3 rotations a round
    db = tmp_path / "t.db"
    workers = "1" if how == "one process" else "2"
    process = subprocess.Popen(["arena", "tournament", "run", str(path), "-q", "--sandbox", "none",
                                "--workers", workers], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if how == "a worker killed":
        from .test_workers import stored, worker_pids

        deadline = time.monotonic() + 120
        while (stored(db) < 12 or len(worker_pids(process.pid)) < 2) and process.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.005)
        victims = worker_pids(process.pid)
        assert process.poll() is None and len(victims) == 2, "the tournament ended before a worker was killed"
        os.kill(victims[0], signal.SIGKILL)
    _, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    assert ("was killed by signal 9" in err) == (how == "a worker killed")
    assert not (shared_folder / "violations").exists(), (shared_folder / "violations").read_text()
    records = timeline(shared_folder)
    games = [block for blocks in records.values() for block in blocks]
    assert len(games) >= 3 * total  # every seat of every game (a killed worker's games twice)
    for name, blocks in records.items():
        assert len(blocks) == len(set(blocks)), f"{name} saw a deal twice"
    # Processes are reused within a pass (a window's first rotations), not one per game.
    assert len(records) < len(games) / 2


@pytest.mark.parametrize("concurrency,workers", [(1, 1), (2, 1), (2, 2)])
def test_a_carrier_never_reads_the_draw_pile_from_its_earlier_rotation(tmp_path, shared_folder, concurrency, workers):
    """The attack of issue 25, item 3, over a channel only a live process can serve (a named
    pipe that a thread of the process writes to; without bubblewrap, so that the folder is
    shared): each process serves the draw sequences it saw, and its twin in the next rotation
    asks for them to predict the pile. The bots ponder: a bot frozen while not on move could
    serve nothing, but the rule must hold without a freezer too."""
    path = deal_tournament(tmp_path, {"carrier": ["python", str(BOTS / "carrier.py"), "carrier"],
                                      "r1": RANDOM, "r2": RANDOM}, {"CARRIER_DIR": str(shared_folder)},
                           rounds=3, concurrency=concurrency, ponder=True)
    result = arena("tournament", "run", str(path), "-q", "--sandbox", "none", "--workers", str(workers))
    assert result.returncode == 0, result.stderr
    assert not (shared_folder / "predictions").exists(), (shared_folder / "predictions").read_text()
    assert len(list(shared_folder.glob("carrier.*.fifo"))) >= 2  # it had twins, and served


# -- item 12: entrants that cannot start ---------------------------------------------------------

def arena(*args, cwd=None):
    return subprocess.run(["arena", *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def one_error_line(result, run: bool = False) -> str:
    """The one ``error:`` line of ``result`` (exit code 2); ``run``: a tournament run or resume,
    whose stderr may start with the machine's sandbox warnings (``tests/arena/_warnings.py``)."""
    stderr = without_sandbox_warnings(result.stderr) if run else result.stderr
    assert result.returncode == 2, result.stderr
    assert stderr.count("\n") == 1 and stderr.startswith("error: "), result.stderr
    return stderr.strip()


@pytest.mark.parametrize("command,expected", [
    (["python", "-m", "bots.randon"], "cannot start: it exited before answering hello (exit code 1); its stderr ends: "),
    (["./does-not-exist"], "cannot start: could not start './does-not-exist': no such program"),
])
def test_a_tournament_with_an_entrant_that_cannot_start_stops_before_any_game(tmp_path, command, expected):
    path = write_tournament(tmp_path, {"good": RANDOM, "broken": command, "r2": RANDOM})
    line = one_error_line(arena("tournament", "run", str(path), "-q", "--sandbox", "none", "--workers", "1"), run=True)
    assert line.startswith(f"error: entrant 'broken' {expected}")
    if "randon" in command[-1]:
        assert line.endswith("No module named bots.randon")
    store = ResultsStore.open(tmp_path / "t.db")
    assert store.completed_keys() == set()
    store.close()
    resumed = one_error_line(arena("tournament", "resume", str(tmp_path / "t.db"), "-q", "--sandbox", "none",
                                   "--workers", "1"),
                             run=True)
    assert resumed.startswith(f"error: entrant 'broken' {expected}")


def test_a_missing_folder_is_named_as_such(tmp_path):
    (tmp_path / "bot.toml").write_text('name = "lost"\ncommand = ["python", "-m", "bots.random"]\ncwd = "gone"\n')
    line = one_error_line(arena("match", "dead-mans-draw", "python -m bots.random", str(tmp_path / "bot.toml"),
                                "--sandbox", "none"))
    assert line == f"error: bot 'lost' cannot start: could not start: its folder (cwd) {tmp_path / 'gone'} does not exist"


def test_match_with_a_missing_program_exits_2():
    line = one_error_line(arena("match", "dead-mans-draw", "python -m bots.random", "./does-not-exist"))
    assert line == "error: bot 'does-not-exist' cannot start: could not start './does-not-exist': no such program"


def test_a_program_beside_the_manifest_named_without_a_path_is_not_looked_up_there(tmp_path):
    # SPEC §2.2: a first word without '/' is looked up on the bot's PATH only, as exec does.
    (tmp_path / "mybot").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "mybot").chmod(0o755)
    (tmp_path / "bot.toml").write_text('name = "mine"\ncommand = "mybot"\n')
    line = one_error_line(arena("match", "dead-mans-draw", "python -m bots.random", str(tmp_path / "bot.toml"),
                                "--sandbox", "none"))
    assert line == ("error: bot 'mine' cannot start: could not start 'mybot': no such program on the bot's PATH (a "
                    "name without '/' is looked up there only; for the program in the bot's folder write './mybot')")


def test_skip_broken_plays_on_and_the_broken_entrant_forfeits_every_game(tmp_path):
    path = write_tournament(tmp_path, {"good": RANDOM, "broken": ["python", "-m", "bots.randon"], "r2": RANDOM},
                            rounds=1)
    result = arena("tournament", "run", str(path), "-q", "--skip-broken", "--sandbox", "none", "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert "warning: entrant 'broken' could not start; it forfeited all its games" in result.stderr
    store = ResultsStore.open(tmp_path / "t.db")
    games = list(store.games())
    store.close()
    assert len(games) == 6
    broken = [game for game in games if "broken" in game.seats]
    assert len(broken) == 4
    for game in broken:
        assert [(f["bot"], f["kind"], f["step"]) for f in game.faults] == [("broken", "crash", 0)]
        assert game.ranks[game.seats.index("broken")] == 2
    assert all(game.faults == () for game in games if "broken" not in game.seats)
