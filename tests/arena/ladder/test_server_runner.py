"""The runner's stretch of play, without processes: duplicate blocks from choose_tables with
fresh keys after the stored ones, the tables in flight and those finished since matchmaking's
fit passed as pending, the stretch ending when the active set changes, and a version benched
losing its games not handed out."""

import importlib.util

import pytest
import trio

from arena.ladder import _runner, _store, _vetting
from arena.ladder._config import load_ladder
from arena.ladder._executor import LadderSource
from arena.ladder._faulting import GameFaults
from arena.ladder._matchmaking import LadderGame
from arena.ladder._runner import LadderRunner
from arena.ladder._store import LadderStore
from arena.match._result import EndReason, MatchResult
from arena.players._faults import Fault, FaultKind
from arena.tournament._handout import WindowPlan
from engines import Replay

from ._server import ROOT


@pytest.fixture
def runner(tmp_path):
    spec = importlib.util.spec_from_file_location("ladder_load", ROOT / "benchmarks" / "ladder_load.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.build(tmp_path / "ladder.db", bots=4, games=40, fits=1)
    (tmp_path / "ladder.toml").write_text('game = "dead-mans-draw"\n')
    store = LadderStore.open(tmp_path / "ladder.db", "dead-mans-draw", 2)
    yield LadderRunner(load_ladder(tmp_path / "ladder.toml"), store, None, tmp_path)
    store.close()


def test_a_stretch_plays_duplicate_blocks_until_the_active_set_changes(runner, monkeypatch):
    monkeypatch.setattr(_runner, "INLINE_FIT_GAMES", 10)  # a "big" ladder: the fit is kept, not redone
    names = tuple(entrant.name for entrant in runner.store.active())
    assert len(runner.games) == 40 and runner.store.next_block() == 21
    stretch = runner._stretch(names, runner._generation)
    first = [next(stretch) for _ in range(2)]
    assert [g.key for g in first] == ["b21s0", "b21s1"]
    assert first[0].seats == first[1].seats[::-1] and first[0].seed == first[1].seed
    assert first[0].bot_seeds != first[1].bot_seeds
    assert runner._fit.n_games == 40 and list(runner._pending) == ["b21"]
    # Games finish after the fit: the kept fit is not redone, they are passed as pending.
    calls = []
    real = _runner.choose_tables
    monkeypatch.setattr(_runner, "choose_tables", lambda *a, **k: calls.append(k["pending"]) or real(*a, **k))
    runner.games.append(LadderGame(names[:2], (1, 2)))
    runner.blocks.append("b99")
    second = next(stretch)
    assert second.key == "b22s0" and runner._fit.n_games == 40
    assert calls == [[first[0].seats, names[:2]]]
    # The active set changes: the stretch ends after its current block.
    runner._active_changed()
    assert [g.key for g in stretch] == ["b22s1"]


def test_stored_games_leave_pending(runner):
    names = tuple(entrant.name for entrant in runner.store.active())
    stretch = runner._stretch(names, runner._generation)
    block = [next(stretch), next(stretch)]
    assert list(runner._pending) == ["b21"]
    for game in block:
        runner._stored(game, MatchResult("dead-mans-draw", game.seed, game.seats, (1, 2), (1, 2), (5, 3), (),
                                         EndReason.NORMAL, Replay("dead-mans-draw", 2, game.seed), (), 0.1))
    assert runner._pending == {} and len(runner.games) == 42 and runner.store.game_count() == 42


def test_the_runner_drops_a_version_s_games_not_handed_out_when_it_is_benched(runner):
    names = tuple(entrant.name for entrant in runner.store.active())
    runner._in_game = GameFaults(10, 50)  # no faults before (the stored games have some)
    runner._source = source = LadderSource(runner._stretch(names, runner._generation),
                                           WindowPlan(players=2, entrants=len(names), games_per_pass=8))
    first = trio.run(source.take)  # the window, 16 blocks, is chosen; one game handed out
    bomb = first.seats[0]
    window = [first, *source._windows[None]]
    seating = {game.block for game in window if bomb in game.seats}
    chosen = set(runner._pending)  # the window's blocks, and the next one, read to end the last
    assert len(window) == 32 and len(seating) > 2 and chosen >= {game.block for game in window}
    runner._in_game.load(bomb, [[{"bot": bomb, "kind": "crash"}]])  # one game with a fault before
    crash = (Fault(0, bomb, FaultKind.CRASH, "exited", 3),)
    runner._stored(first, MatchResult("dead-mans-draw", first.seed, first.seats, (1, 2), (1, 2), (5, 3), crash,
                                      EndReason.NORMAL, Replay("dead-mans-draw", 2, first.seed), (), 0.1))
    assert runner._in_game.benched([bomb]) == {bomb}
    # Benched at its second: its games not handed out went, its first block with the rest.
    left = list(source._windows[None])
    assert [game for game in left if bomb in game.seats] == []
    assert len(left) == 32 - 2 * len(seating)
    assert set(runner._pending) == chosen - seating
    assert runner.games[-1] == LadderGame(first.seats, (1, 2)) and runner.blocks[-1] == first.block


def test_a_bot_sees_no_other_submission(tmp_path):
    from arena.sandbox._sandbox import Sandbox

    for folder in ("1/bot", "2", "3"):
        (tmp_path / folder).mkdir(parents=True)
    box = _runner.hide_submissions(Sandbox(bwrap="/usr/bin/bwrap"), tmp_path)
    own = tmp_path / "1" / "bot"

    def mounts(command: list[str], kind: str) -> list[str]:
        return [command[i + 2] for i, word in enumerate(command) if word == kind]

    command = box.command(["python", "bot.py"], own)
    assert str(own) in mounts(command, "--ro-bind")
    assert not {str(tmp_path), str(tmp_path / "2"), str(tmp_path / "3")} & set(mounts(command, "--ro-bind"))
    # A file of another submission named on its command line is not shown (nor its folder),
    # nor the submissions' folder named there.
    (tmp_path / "2" / "bot.py").write_text("")
    command = box.command(["python", "bot.py", str(tmp_path / "2" / "bot.py"), str(tmp_path)], own)
    assert str(own) in mounts(command, "--ro-bind")
    assert not {str(tmp_path), str(tmp_path / "2"), str(tmp_path / "2" / "bot.py")} & set(mounts(command, "--ro-bind"))


def test_a_failing_matchmaking_plays_a_random_table(runner, monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise ValueError("singular matrix")

    monkeypatch.setattr(_runner, "choose_tables", broken)
    monkeypatch.setattr(_runner, "fit_ladder", broken)
    names = tuple(entrant.name for entrant in runner.store.active())
    game = next(runner._stretch(names, runner._generation))
    assert set(game.seats) <= set(names) and len(set(game.seats)) == 2
    assert "warning: matchmaking failed (singular matrix); playing a random table" in capsys.readouterr().err


async def _vet_all(runner) -> None:
    """Run the vetting task until no submission is pending (a deadline, no fixed sleep)."""
    import trio

    async with trio.open_nursery() as nursery:
        nursery.start_soon(runner._vet_forever)
        with trio.fail_after(20):
            while runner.store.pending():
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()


async def test_an_error_in_vetting_refuses_that_submission_and_the_next_is_vetted(runner, monkeypatch, capsys):
    from arena.ladder._intake import Admission

    async def admit(archive, folder, *args, **kwargs):
        if archive == b"hostile":  # what a 1,500-level folder did: the error escaped and ended the ladder
            raise RecursionError("maximum recursion depth exceeded")
        (folder / "left").write_text("a refused submission's file")
        return Admission(False, None, "archive refused: for the test")

    monkeypatch.setattr(_vetting, "admit", admit)
    hostile, _ = runner.store.add_submission("mallory", b"hostile")
    other, _ = runner.store.add_submission("alice", b"other")
    await _vet_all(runner)
    refused = runner.store.submission(hostile)
    assert (refused["status"], refused["report"]) == (
        "failed", "not checked: the ladder failed while checking it (RecursionError: maximum recursion depth "
                  "exceeded); tell the organiser")
    assert runner.store.submission(other)["report"] == "archive refused: for the test"
    assert not (runner.workdir / str(hostile)).exists() and not (runner.workdir / str(other)).exists()
    assert "warning: vetting mallory-v1 raised RecursionError: maximum recursion depth exceeded" in capsys.readouterr().err


async def test_a_submission_whose_vetting_was_cut_short_three_times_is_refused(runner, monkeypatch):
    async def admit(*args, **kwargs):
        raise AssertionError("not vetted a fourth time")

    monkeypatch.setattr(_vetting, "admit", admit)
    number, _ = runner.store.add_submission("mallory", b"kills the ladder")
    for _ in range(3):  # three starts, each ended by a kill of the server
        runner.store.start_vetting(number)
    await _vet_all(runner)
    assert runner.store.submission(number)["report"] == (
        "not checked: its check was cut short 3 times (the ladder stopped while checking it); tell the organiser")


def test_submissions_per_author_are_limited_in_the_store(runner):
    store = runner.store
    assert store.submission_limit("alice", 2, 5) is None
    store.add_submission("alice", b"a", limits=(2, 5))
    store.add_submission("alice", b"b", limits=(2, 5))
    with pytest.raises(_store.SubmissionRefused, match="^alice has made 2 submissions in the last hour"):
        store.add_submission("alice", b"c", limits=(2, 5))
    assert store.submission_limit("alice", 0, 2) == (
        "alice has 2 submissions waiting to be checked, the ladder's limit (max_pending_submissions); "
        "submit again once it has a verdict")
    store.add_submission("bob", None, ROOT / "examples/bots/py-random.toml")  # a house bot counts in no limit
    assert store.submission_limit("bob", 1, 1) is None


def test_stored_messages_are_capped_with_a_note(runner):
    number, _ = runner.store.add_submission("alice", b"a")
    runner.store.decide(number, False, "x" * 100_000, None)
    report = runner.store.submission(number)["report"]
    assert len(report.encode()) <= _store.REPORT_MAX
    assert report.endswith("\n[... cut here: 100000 bytes in all, 16384 are kept]")
