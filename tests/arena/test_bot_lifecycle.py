"""Bot processes across requests and games, with real bots: replies written before their
request, requests cut mid-frame, deaths between games, the deal rule of the pool (no process
plays a deal twice) and the start-up check of ``arena match`` and ``arena tournament``."""

import json
import os
import subprocess
import sys
import textwrap
import uuid
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
import trio

from arena._cli_tournament import open_store
from arena._config import load_config
from arena._faults import FaultKind, FaultPolicy
from arena._manifest import BotSpec
from arena._match import EndReason, MatchSettings, play_match
from arena._player import open_player
from arena._pool import BotPool
from arena._sandbox import detect_sandbox
from arena._store import ResultsStore
from arena._timecontrol import TimeControl
from arena._tournament import TournamentRunner, log_dir_of

from ._toy import TOY

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
        first = [await pool.checkout(name, 1) for name in specs]
        result = await play_match(TOY, first, 1, {"target": 30, "padding": 200_000}, settings)
        assert [pool.checkin(name, p) for name, p in zip(specs, first)] == [False, False]
        second = [await pool.checkout(name, 2) for name in specs]
        assert second[0] is first[0] and second[1] is not first[1] and second[1].usable
        assert pool.started == 3
        for name, player in zip(specs, second):
            pool.checkin(name, player)
        pool.release_all()
    assert result.faults[0].kind is FaultKind.TIMEOUT


# -- item 10: a bot that exits between games -----------------------------------------------------

async def test_a_process_dead_between_games_is_replaced_and_reported_not_charged():
    deaths = []
    specs = {"good": lifecycle("good"), "leaver": lifecycle("exit-after-end", "leaver")}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2, on_death=lambda name, detail: deaths.append((name, detail)))
        await pool.preflight(specs)
        players = [await pool.checkout(name, 1) for name in specs]
        assert (await play_match(TOY, players, 1, settings=FAST)).faults == ()
        leaver = players[1]
        assert [pool.checkin(name, p) for name, p in zip(specs, players)] == [False, False]
        await leaver.process.process.wait()
        players = [await pool.checkout(name, 2) for name in specs]
        assert players[1] is not leaver
        result = await play_match(TOY, players, 2, settings=FAST)
        for name, player in zip(specs, players):
            pool.checkin(name, player)
        pool.release_all()
    assert result.faults == ()
    assert [(name, detail.partition(";")[0]) for name, detail in deaths] == [("leaver", "exited with code 0 between games")]


async def test_a_death_found_only_in_the_next_game_asks_for_that_game_again():
    """The process is handed out alive and dies before reading its game's first byte."""
    deaths = []
    specs = {"good": lifecycle("good"), "leaver": lifecycle("exit-after-end", "leaver")}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2, on_death=lambda name, detail: deaths.append(name))
        await pool.preflight(specs)
        players = [await pool.checkout(name, 1) for name in specs]
        await play_match(TOY, players, 1, settings=FAST)
        leaver = players[1]
        leaver.alive = lambda: True  # stands for "still exiting" when the pool looked
        assert [pool.checkin(name, p) for name, p in zip(specs, players)] == [False, False]
        players = [await pool.checkout(name, 2) for name in specs]
        assert players[1] is leaver
        await leaver.process.process.wait()
        result = await play_match(TOY, players, 2, settings=FAST)
        assert [f.kind for f in result.faults] == [FaultKind.CRASH]
        del leaver.alive
        assert [pool.checkin(name, p) for name, p in zip(specs, players)] == [False, True]
        pool.release_all()
    assert deaths == ["leaver"]


# -- tournaments: configs, runs, logs ------------------------------------------------------------

def write_tournament(folder: Path, entrants: dict[str, list[str]], rounds=2, concurrency=1, extra="",
                     ponder=False) -> Path:
    lines = "".join(f"\n[[entrants]]\nname = {json.dumps(name)}\ncommand = {json.dumps(command)}\n"
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


async def test_a_leaver_is_never_charged_and_its_deaths_are_stored(tmp_path, sandbox):
    path = write_tournament(tmp_path, {"leaver": ["python", str(BOTS / "lifecycle.py"), "exit-after-end"],
                                       "r1": RANDOM, "r2": RANDOM})
    games, events, _ = await run_tournament(path, sandbox)
    assert len(games) == 12
    assert [game.faults for game in games] == [()] * 12
    deaths = [entrant for entrant, kind, _ in events if kind == "died-between-games"]
    # Each of its 8 processes dies after one game; all but the last are found before reuse
    # (the last ones may still be exiting when the tournament ends).
    assert set(deaths) == {"leaver"} and 1 <= len(deaths) <= 7
    table = arena("standings", str(tmp_path / "t.db")).stdout
    assert f"leaver: its process died between games {len(deaths)} time" in table


# -- item 4: no process plays the same deal twice ------------------------------------------------

@pytest.fixture
def memo_token():
    token = uuid.uuid4().hex[:12]
    yield token
    for place in {os.environ.get("HOME", "/root"), "/tmp", "/dev/shm", "/var/tmp"}:
        for leftover in Path(place).glob(f"pirate-memo-{token}-*"):
            leftover.unlink()


@pytest.mark.parametrize("concurrency", [1, 2])
async def test_a_memorising_bot_never_sees_a_deal_twice(tmp_path, sandbox, memo_token, concurrency):
    path = write_tournament(tmp_path, {"memo": ["python", str(BOTS / "memory.py"), "memory", memo_token],
                                       "r1": RANDOM, "r2": RANDOM}, concurrency=concurrency)
    games, _, _ = await run_tournament(path, sandbox)
    assert [game.faults for game in games] == [()] * 12
    lines = log_lines(tmp_path / "t.db", "memo")
    assert sum(line.startswith("NEW ") for line in lines) == 8  # 2 rounds x 2 tables x 2 rotations
    assert [line for line in lines if line.startswith("SEEN ")] == []


async def test_processes_of_one_entrant_share_no_files_under_bubblewrap(tmp_path, sandbox, memo_token):
    """With files as memory: under bubblewrap no rotation sees the deal again; without it the
    second rotation of each block reads what the first one wrote (as the README says). The
    bots ponder: a bot frozen after its last move would read its ``end``, where it writes its
    memory, only when it next runs (maybe after the other rotation)."""
    path = write_tournament(tmp_path, {"memo": ["python", str(BOTS / "memory.py"), "disk", memo_token],
                                       "r1": RANDOM, "r2": RANDOM}, ponder=True)
    games, _, _ = await run_tournament(path, sandbox)
    assert [game.faults for game in games] == [()] * 12
    lines = log_lines(tmp_path / "t.db", "memo")
    seen = [line for line in lines if line.startswith("SEEN ")]
    if sandbox.bwrap:
        assert seen == []
        # It could write (HOME and TMPDIR are /tmp; /dev/shm too where the bot's uid may), only
        # into its own private folders: the rest is read-only.
        assert {"WROTE /tmp", "READONLY /var/tmp", f"READONLY {tmp_path}"} <= set(lines)
    else:
        assert len(seen) == 4  # with concurrency 1 the first rotation has ended before the second


# -- item 12: entrants that cannot start ---------------------------------------------------------

def arena(*args, cwd=None):
    return subprocess.run(["arena", *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def one_error_line(result) -> str:
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), result.stderr
    return result.stderr.strip()


@pytest.mark.parametrize("command,expected", [
    (["python", "-m", "bots.randon"], "cannot start: it exited before answering hello (exit code 1); its stderr ends: "),
    (["./does-not-exist"], "cannot start: could not start './does-not-exist': no such program"),
])
def test_a_tournament_with_an_entrant_that_cannot_start_stops_before_any_game(tmp_path, command, expected):
    path = write_tournament(tmp_path, {"good": RANDOM, "broken": command, "r2": RANDOM})
    line = one_error_line(arena("tournament", "run", str(path), "-q", "--sandbox", "none"))
    assert line.startswith(f"error: entrant 'broken' {expected}")
    if "randon" in command[-1]:
        assert line.endswith("No module named bots.randon")
    store = ResultsStore.open(tmp_path / "t.db")
    assert store.completed_keys() == set()
    store.close()
    resumed = one_error_line(arena("tournament", "resume", str(tmp_path / "t.db"), "-q", "--sandbox", "none"))
    assert resumed.startswith(f"error: entrant 'broken' {expected}")


def test_a_missing_folder_is_named_as_such(tmp_path):
    (tmp_path / "bot.toml").write_text('name = "lost"\ncommand = ["python", "-m", "bots.random"]\ncwd = "gone"\n')
    line = one_error_line(arena("match", "dead-mans-draw", "python -m bots.random", str(tmp_path / "bot.toml"),
                                "--sandbox", "none"))
    assert line == f"error: bot 'lost' cannot start: could not start: its folder (cwd) {tmp_path / 'gone'} does not exist"


def test_match_with_a_missing_program_exits_2():
    line = one_error_line(arena("match", "dead-mans-draw", "python -m bots.random", "./does-not-exist"))
    assert line == "error: bot 'does-not-exist' cannot start: could not start './does-not-exist': no such program"


def test_skip_broken_plays_on_and_the_broken_entrant_forfeits_every_game(tmp_path):
    path = write_tournament(tmp_path, {"good": RANDOM, "broken": ["python", "-m", "bots.randon"], "r2": RANDOM},
                            rounds=1)
    result = arena("tournament", "run", str(path), "-q", "--skip-broken", "--sandbox", "none")
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
