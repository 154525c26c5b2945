"""The uid layer: which bots get their own uid (through a private mount view where their
program is below a closed folder), which are refused, ``--allow-root-bots``, ``arena doctor``."""

import dataclasses
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import trio

from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.sandbox._mounts import MountPlan, plan_mounts
from arena.sandbox._detect import detect_sandbox
from arena.sandbox._sandbox import SandboxError

from ._warnings import without_sandbox_warnings

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="bots get uids of their own only when the arena runs as root")


def folder(path: Path, mode: int) -> Path:
    path.mkdir()
    path.chmod(mode)
    return path


def file(path: Path, mode: int, text: str = "") -> Path:
    path.write_text(text)
    path.chmod(mode)
    return path


@pytest.fixture
def tree():
    """/tmp/top (0700) / open (0755) / {bot.sh 0755, data 0644, closed (0700) / hidden.sh 0755}.

    Not below pytest's ``tmp_path``, whose own folders are closed to other users.
    """
    top = Path(tempfile.mkdtemp(prefix="pirate-arena-tree-"))
    shown = folder(top / "open", 0o755)
    file(shown / "bot.sh", 0o755, f"#!/bin/sh\nexec {sys.executable} -m bots.random\n")
    file(shown / "data", 0o644)
    closed = folder(shown / "closed", 0o700)
    file(closed / "hidden.sh", 0o755, "#!/bin/sh\n")
    yield top
    shutil.rmtree(top)


# -- the plan (pure: stat calls only) -------------------------------------------------------------

def test_a_path_below_one_closed_folder_is_shown_under_a_tmpfs(tree):
    plan, problems = plan_mounts([tree / "open" / "bot.sh"], executable=tree / "open" / "bot.sh")
    assert problems == []
    assert plan == MountPlan(covers=(tree,), binds=((tree / "open" / "bot.sh", False),))
    assert plan.visible(tree / "open" / "bot.sh") and plan.visible(tree / "open")
    assert not plan.visible(tree / "open" / "data")


def test_nothing_below_a_second_closed_folder_is_ever_shown(tree):
    shown, closed = tree / "open", tree / "open" / "closed"
    secret = file(closed / "secret", 0o644)
    plan, problems = plan_mounts([secret], [closed], folder=closed)
    assert problems == [f"{secret} is below {closed}, which other users cannot enter"]
    assert plan == MountPlan(covers=(tree,), binds=(), empty=(closed,))
    assert plan.visible(closed) and not plan.visible(secret)
    plan, problems = plan_mounts([shown], [secret])
    assert (plan.binds, problems) == (((shown, True),), [])
    unreadable = file(shown / "mine", 0o600)
    assert plan_mounts([unreadable])[1] == [f"{unreadable} is not readable by other users"]


def test_paths_open_to_everyone_need_no_view():
    plan, problems = plan_mounts([Path("/bin/sh")], [Path("/usr")], folder=Path("/"), executable=Path("/bin/sh"))
    assert (plan, problems, bool(plan)) == (MountPlan(), [], False)


# -- what the arena does with it, as root ---------------------------------------------------------

@as_root
@pytest.mark.parametrize("mode", ["auto", "none"])
def test_a_bot_that_cannot_get_its_own_uid_is_refused_unless_allowed(tree, mode):
    spec = BotSpec("locked", (str(tree / "open" / "closed" / "hidden.sh"),))

    async def start(box):
        async with open_player(spec, 10, sandbox=box) as player:
            return player.process.uid if player.process else "no process"

    box = detect_sandbox(mode)
    try:
        with pytest.raises(SandboxError, match=r"^bot 'locked' would run as root: .*hidden.sh is below .*closed, "
                                               r"which other users cannot enter, so it cannot run under another uid; "
                                               r"make its program and folder readable by other users, or pass "
                                               r"--allow-root-bots to run it as root$"):
            trio.run(start, box)
        allowed = dataclasses.replace(box, allow_root=True)
        assert trio.run(start, allowed) is None
        assert allowed.root_bots == {"locked"}
    finally:
        box.close()


@as_root
def test_without_private_mount_namespaces_a_bot_below_a_closed_folder_is_refused(tree):
    box = dataclasses.replace(detect_sandbox("none"), namespaces=False)
    confinement = box.confinement([str(tree / "open" / "bot.sh")], tree / "open", {})
    assert not confinement.own_uid and confinement.refused
    assert confinement.why == (f"{tree} is closed to other users and this machine allows no private mount "
                               f"namespace, so it cannot run under another uid")


@as_root
def test_the_arenas_own_python_gets_its_own_uid():
    box = detect_sandbox("none")
    confinement = box.confinement([sys.executable, "-m", "bots.random"], Path.cwd(), dict(os.environ))
    assert confinement.own_uid and not confinement.refused, confinement.why


# -- the command line -----------------------------------------------------------------------------

def arena(*args, cwd=None):
    # Without the test runner's COLUMNS: doctor's tables fit the terminal, and its bots' rows
    # are read as whole lines.
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    return subprocess.run(["arena", *args], capture_output=True, text=True, timeout=120, cwd=cwd, env=env)


@as_root
def test_match_refuses_a_root_bot_in_one_line_and_runs_it_when_allowed(tree):
    locked = tree / "open" / "closed" / "locked.sh"
    file(locked, 0o755, f"#!/bin/sh\nexec {sys.executable} -m bots.random\n")
    refused = arena("match", "dead-mans-draw", str(locked), "python -m bots.random", "--sandbox", "none")
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr.startswith("error: bot 'locked' would run as root: ")
    assert refused.stderr.count("\n") == 1
    allowed = arena("match", "dead-mans-draw", str(locked), "python -m bots.random", "--sandbox", "none",
                    "--allow-root-bots")
    assert allowed.returncode == 0, allowed.stderr
    assert "fault:" not in allowed.stdout, allowed.stdout  # it really ran
    assert allowed.stdout.splitlines()[-1] == ("warning: locked ran as root (--allow-root-bots): they could "
                                               "have changed these results or harmed other bots")


def test_doctor_says_what_each_bot_gets(tree):
    locked = tree / "open" / "closed" / "hidden.sh"
    result = arena("doctor", "examples/bots/py-random.toml", str(locked), "--sandbox", "none",
                   cwd=Path(__file__).parents[2])
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[-2:]}
    if os.geteuid() != 0:
        assert "arena's uid: the arena does not run as root" in rows["py-random"]
        assert "arena's uid" in rows["hidden"]
        return
    assert "own uid (" in rows["py-random"]
    assert f"REFUSED: {locked} is below {locked.parent}, which other users cannot enter" in rows["hidden"]
    assert rows["hidden"].split()[-2:] == ["no", "yes" if Path("/sys/fs/cgroup/pids").is_dir() else "no"]


@as_root
def test_a_tournament_with_a_root_bot_warns_under_its_standings(tree):
    locked = tree / "open" / "closed" / "locked.sh"
    file(locked, 0o755, f"#!/bin/sh\nexec {sys.executable} -m bots.random\n")
    path = file(tree / "open" / "closed" / "t.toml", 0o600, f"""
game = "dead-mans-draw"
players = 2
database = "t.db"
[[entrants]]
name = "locked"
command = "{locked}"
[[entrants]]
name = "free"
command = "python -m bots.random"
""")
    refused = arena("tournament", "run", str(path), "-q", "--sandbox", "none")
    assert (refused.returncode, refused.stdout) == (2, "")
    error = without_sandbox_warnings(refused.stderr)  # a machine without every cgroup warns first
    assert error.startswith("error: bot 'locked' would run as root: ") and error.count("\n") == 1, refused.stderr
    allowed = arena("tournament", "resume", str(path.parent / "t.db"), "-q", "--sandbox", "none", "--allow-root-bots")
    assert allowed.returncode == 0, allowed.stderr
    with sqlite3.connect(path.parent / "t.db") as db:  # it really ran
        assert {row[0] for row in db.execute("SELECT faults FROM games")} == {"[]"}
    assert allowed.stdout.splitlines()[-1] == ("warning: locked ran as root (--allow-root-bots): they could have "
                                               "changed these results or harmed other bots")
