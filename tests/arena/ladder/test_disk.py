"""The ladder's disk (issue 33, point 3): an uploaded version that can play no more (superseded,
not in the games in flight) loses its folder and archive between two stretches of play; an
author's kept submissions have a quota (``author_disk_mb``); ``arena rerun`` of a game of a
removed version says so in one line. The runner and the store in process, real folders."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio

from arena.ladder import _api
from arena.ladder._config import load_ladder
from arena.ladder._pages import bot_page
from arena.ladder._rerun import ladder_rerun
from arena.ladder._runner import LadderRunner
from arena.ladder._store import LadderStore, SubmissionRefused
from arena.match._result import EndReason, MatchResult
from arena.players._manifest import log_name
from arena.tournament._config import ConfigError
from engines import Replay

from ._server import ROOT

MANIFEST = 'name = "bot"\ncommand = ["python", "-m", "bots.random"]\n'
MiB = 2**20


@pytest.fixture
def ladder(tmp_path):
    (tmp_path / "ladder.toml").write_text(f'game = "dead-mans-draw"\nplayers = 2\n[[bots]]\nauthor = "house"\n'
                                          f'manifest = "{ROOT / "examples" / "bots" / "py-random.toml"}"\n')
    config = load_ladder(tmp_path / "ladder.toml")
    store = LadderStore.open(config.database, config.game, config.players)
    runner = LadderRunner(config, store, None, tmp_path / "ladder.db.bots")
    runner.enter_house_bots()
    yield runner
    store.close()


def upload(runner: LadderRunner, author: str, archive_bytes: int, folder_bytes: int) -> tuple[int, str]:
    """An uploaded version that passed vetting: its folder (measured at ``folder_bytes``) and
    its stored archive, as :class:`arena.ladder._vetting.Vetting` leaves them."""
    number, entrant = runner.store.add_submission(author, b"a" * archive_bytes)
    folder = runner.workdir / str(number)
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text(MANIFEST)
    (folder / "data").write_bytes(b"d" * 1024)  # the size the store holds is what counts
    runner.store.decide(number, True, "passed", folder / "bot.toml", folder_bytes)
    runner.store.activate(runner.config.active_versions)
    return number, entrant


def test_a_superseded_version_is_removed_once_no_game_of_it_is_in_flight(ladder):
    v1, alice1 = upload(ladder, "alice", 3 * MiB, 5 * MiB)
    assert ladder.store.disk_used("alice") == 8 * MiB
    v2, alice2 = upload(ladder, "alice", 2 * MiB, 4 * MiB)
    assert [e.name for e in ladder.store.active()] == ["house-v1", alice2]
    assert ladder.store.disk_used("alice") == 14 * MiB
    # The stretch that started before v2 passed still plays alice-v1: it stays.
    trio.run(ladder._remove_retired, {"house-v1", alice1})
    assert (ladder.workdir / str(v1) / "bot.toml").is_file() and ladder.store.disk_used("alice") == 14 * MiB
    # The next stretch plays the active versions only: alice-v1 can play no more.
    trio.run(ladder._remove_retired, {"house-v1", alice2})
    assert sorted(p.name for p in ladder.workdir.iterdir()) == [str(v2)]
    assert ladder.store.disk_used("alice") == 6 * MiB
    assert ladder.store.submission(v1)["removed"] is not None and ladder.store.submission(v2)["removed"] is None
    assert ladder.store.removable({"house-v1", alice2}) == []
    # Its history stays: it is still a passed version with its report; its page says it was removed.
    assert (ladder.store.submission(v1)["status"], ladder.store.submission(v1)["report"]) == ("passed", "passed")
    data = _api.bot(ladder.store, alice1)
    day = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(data["removed"]))
    assert f"(retired; its folder was removed on {day}, as it can play no more)" in bot_page(data)
    assert _api.bot(ladder.store, alice2)["removed"] is None


def test_house_bots_and_refused_submissions(ladder):
    """A house bot is the organiser's files: never removed. A refused submission keeps no
    archive (its folder is removed at its verdict already)."""
    ladder.store.add_submission("house", None, ROOT / "examples" / "bots" / "py-random.toml")
    ladder.store.activate(1)
    trio.run(ladder._remove_retired, set())
    assert ladder.store.removable(set()) == []
    number, _ = ladder.store.add_submission("bob", b"b" * MiB)
    assert ladder.store.disk_used("bob") == MiB
    ladder.store.decide(number, False, "refused", None)
    assert ladder.store.disk_used("bob") == 0


def test_an_author_over_its_disk_quota_is_refused(ladder):
    upload(ladder, "alice", 1 * MiB, 600 * MiB)
    quota = ladder.config.author_disk_bytes
    assert quota == 1000 * MiB
    ladder.store.add_submission("alice", b"p" * (19 * MiB), limits=(0, 5, quota))  # pending: 620 MiB in all
    with pytest.raises(SubmissionRefused) as refused:
        ladder.store.add_submission("alice", b"p" * (20 * MiB), limits=(0, 5, 630 * MiB))
    assert str(refused.value) == (
        "alice's submissions take 620.0 MiB of the ladder's disk; with this archive (20.0 MiB) that is over its "
        "quota of 630 MiB (author_disk_mb); a version superseded by a newer one is removed once it plays no more")
    assert ladder.store.submission_limit("alice", 0, 5, 620 * MiB) is not None  # at the quota: refused before reading
    assert ladder.store.submission_limit("bob", 0, 5, 620 * MiB) is None


@pytest.mark.parametrize("value,problem", [
    ("219", "must be an integer in 220..10000000, got 219"),
    ('"lots"', "must be an integer in 220..10000000, got 'lots'")])
def test_the_quota_holds_at_least_one_version_and_one_archive(tmp_path, value, problem):
    (tmp_path / "ladder.toml").write_text(f'game = "dead-mans-draw"\nauthor_disk_mb = {value}\n')
    with pytest.raises(ConfigError) as error:
        load_ladder(tmp_path / "ladder.toml")
    assert str(error.value) == f"{tmp_path / 'ladder.toml'}: key 'author_disk_mb' {problem}"


def test_rerun_of_a_game_of_a_removed_version_says_so(ladder):
    v1, alice1 = upload(ladder, "alice", MiB, MiB)
    names = tuple(entrant.name for entrant in ladder.store.active())
    stretch = ladder._stretch(names, ladder._generation)
    for game in (next(stretch), next(stretch)):
        ladder._stored(game, MatchResult("dead-mans-draw", game.seed, game.seats, (1, 2), (1, 2), (5, 3), (),
                                         EndReason.NORMAL, Replay("dead-mans-draw", 2, game.seed), (), 0.1))
    seat = game.seats.index(alice1)
    assert ladder_rerun(ladder.config.path, game.key).missing == {}
    upload(ladder, "alice", MiB, MiB)
    trio.run(ladder._remove_retired, set())
    at = ladder.store.submission(v1)["removed"]
    rerun = subprocess.run([sys.executable, "-m", "arena.cli", "rerun", str(ladder.config.path), game.key,
                            "--sandbox", "none"], capture_output=True, text=True, timeout=120)
    day = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))
    assert (rerun.returncode, rerun.stdout) == (2, "")
    assert rerun.stderr == (f"error: seat {seat} ({alice1}): its folder was removed on {day}, once a newer version "
                            f"of its author superseded it (ladder versions that can play no more are removed); "
                            f"give a bot for it with --seat {seat}=MANIFEST\n")
    # Another bot in its seat plays the game again.
    other = subprocess.run([sys.executable, "-m", "arena.cli", "rerun", str(ladder.config.path), game.key,
                            "--sandbox", "none", "--seat", f"{seat}={ROOT / 'examples' / 'bots' / 'py-random.toml'}"],
                           capture_output=True, text=True, timeout=120)
    assert other.returncode == 0, other.stderr


def test_the_running_ladder_deletes_a_removed_versions_logs(ladder, tmp_path):
    """Issue 47: the runner removes a superseded version at the start of the next stretch, and
    its pruning task deletes that version's stderr logs; the others' stay."""
    logs = tmp_path / "ladder.db.logs"
    logs.mkdir()
    ladder.log_dir = logs
    v1, alice1 = upload(ladder, "alice", MiB, MiB)
    for pid in (11, 12):  # two processes of alice-v1 played
        (logs / log_name(alice1, pid)).write_bytes(b"x" * 1000)
    v2, alice2 = upload(ladder, "alice", MiB, MiB)  # supersedes alice-v1
    kept = [log_name("house-v1", 13), log_name(alice2, 14)]
    for name in kept:
        (logs / name).write_bytes(b"y" * 1000)
    stretches = []

    async def executor(config, source, on_result, on_death):
        stretches.append(sorted(spec.name for spec in config.entrants))
        await trio.sleep_forever()  # a stretch that plays no game

    ladder.executor = executor

    async def serve() -> None:
        with trio.fail_after(60):  # a guard, not a measure: the pruning passes every second
            async with trio.open_nursery() as nursery:
                nursery.start_soon(ladder.run)
                while any(path.name.startswith(f"{alice1}.") for path in logs.iterdir()):
                    await trio.sleep(0.05)
                nursery.cancel_scope.cancel()

    trio.run(serve)
    assert stretches == [sorted(["house-v1", alice2])]
    assert ladder.store.submission(v1)["removed"] is not None and not (ladder.workdir / str(v1)).exists()
    assert sorted(path.name for path in logs.iterdir()) == sorted(kept)


@pytest.mark.slow
def test_a_real_ladder_removes_a_superseded_version_and_keeps_the_quota():
    """A real ``arena ladder serve``: alice-v1 plays, alice-v2 (a bot with 900 KB of data)
    passes and supersedes it, so v1's folder is removed once the next stretch starts; the same
    upload again would take alice past her 2 MiB quota (v2's folder and archive, and this
    archive): 429 with the figures."""
    import io
    import json
    import os
    import zipfile

    from ._server import Server, archive, arena, house_bots, ladder_folder, remove

    folder = ladder_folder("build_max_mb = 1\nauthor_disk_mb = 2\n" + house_bots(random="py-random.toml"))
    token = arena("ladder", "token", "add", str(folder / "ladder.toml"), "alice").strip()
    server = Server(folder, "auto")
    bots = folder / "ladder.db.bots"

    def status(number: int) -> dict | None:
        found = server.json(f"/api/submissions/{number}")
        return found if found["status"] != "pending" else None

    try:
        v1 = server.submit(token, archive("good"))
        assert server.wait_for(lambda: status(v1["id"]), "alice-v1's verdict")["status"] == "passed"
        server.wait_for(lambda: server.json("/api/bots/alice-v1")["games"], "a game of alice-v1")
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as out:
            out.writestr("bot.toml", (ROOT / "tests/arena/ladder/bots/good/bot.toml").read_text())
            out.writestr("bot.py", (ROOT / "tests/arena/ladder/bots/good/bot.py").read_text())
            out.writestr("data", os.urandom(900_000))  # incompressible: the archive is as large
        v2 = server.submit(token, buffer.getvalue())
        assert server.wait_for(lambda: status(v2["id"]), "alice-v2's verdict")["status"] == "passed"
        removed = server.wait_for(lambda: status(v1["id"])["removed"] and status(v1["id"]), "alice-v1 removed")
        assert not (bots / str(v1["id"])).exists() and (bots / str(v2["id"]) / "data").is_file()
        page = server.get("/bots/alice-v1")[1].decode()
        day = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(removed["removed"]))
        assert f"its folder was removed on {day}, as it can play no more" in page
        code, body = server.post("/api/submissions", {"archive": buffer.getvalue()}, token)
        error = json.loads(body)["error"]
        assert code == 429 and error.startswith("alice's submissions take 1.") and error.endswith(
            " MiB of the ladder's disk; with this archive (0.9 MiB) that is over its quota of 2 MiB "
            "(author_disk_mb); a version superseded by a newer one is removed once it plays no more"), (code, body)
    finally:
        server.stop()
        remove(folder)
