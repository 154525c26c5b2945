"""Vetting a submission hides the ladder from it: a hostile build step, or a bot under check-bot,
that tries to read another author's submission, the database, the ladder file or the logs finds
nothing, so it cannot copy them out through its report or its own folder (real processes, under
bubblewrap). The same probe without the hidden paths finds the other author's code: the test
would see a leak."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import trio

from arena.ladder import _vetting
from arena.ladder._config import load_ladder
from arena.ladder._intake import Admission, admit
from arena.ladder._runner import LadderRunner, hide_submissions
from arena.ladder._store import LadderStore
from arena.sandbox._detect import detect_sandbox
from arena.sandbox._sandbox import Sandbox

from .._warnings import cgroups_warning_here
from ._server import Server, ladder_folder, remove
from .test_intake import GOOD_BOT, archive

needs_bwrap = pytest.mark.skipif(detect_sandbox("auto").bwrap is None,
                                 reason="needs bubblewrap (apt-get install bubblewrap): it hides the ladder's files")

SECRET = "treasure-map-7f3a"
#: what the probe reads (label, path below the ladder's folder); -shm is hidden but absent
TARGETS = [("code", "ladder.db.bots/1/their-bot/bot.py"), ("ladder", "ladder.toml"), ("db", "ladder.db"),
           ("wal", "ladder.db-wal"), ("shm", "ladder.db-shm"), ("log", "ladder.db.logs/game-1.log")]
#: the probe: one line saying what each target held: its content, or nothing
PROBE = """\
import sys
found = []
for label, path in {targets!r}:
    try:
        with open(path) as file:
            found.append(f"{{label}}:{{file.read().strip() or 'nothing'}}")
    except OSError:  # missing, or not readable (as root, the null device bubblewrap shows is not)
        found.append(f"{{label}}:nothing")
line = " ".join(found)
print(line, file=sys.stderr, flush=True)
try:
    with open("loot.txt", "w") as loot:
        loot.write(line)
except OSError:
    pass  # a bot's folder is read-only to it
"""


@pytest.fixture
def ladder():
    """A ladder's folder as ``arena ladder serve`` lays it out, every file holding the secret:
    another author's built submission (readable by any uid, as after its build), the ladder
    file, the database and its WAL (no -shm), the logs."""
    top = Path(tempfile.mkdtemp(prefix="pirate-arena-vetting-"))
    top.chmod(0o755)
    (top / "ladder.db.bots" / "1" / "their-bot").mkdir(parents=True, mode=0o755)
    (top / "ladder.db.logs").mkdir(mode=0o700)
    for _, path in TARGETS:
        if not path.endswith("-shm"):
            (top / path).write_text(SECRET)
            (top / path).chmod(0o644)
    yield top
    shutil.rmtree(top)


def probe(top: Path) -> str:
    return PROBE.format(targets=[(label, str(top / path)) for label, path in TARGETS])


def vetting_sandbox(top: Path, hide: str):
    """The sandbox the ladder vets in (serve_ladder's hidden paths, then the runner's
    hide_submissions); ``"bare"``: without hidden paths (the bubblewrap view alone shows
    nothing of the ladder); ``"none"``: without bubblewrap (then only uids protect, and files
    others may read are read: the probe works)."""
    box = detect_sandbox("auto" if hide != "none" else "none")
    if hide != "hidden":
        return box
    database = top / "ladder.db"
    return hide_submissions(box.with_hidden([top / "ladder.toml", database, Path(f"{database}-wal"),
                                             Path(f"{database}-shm"), top / "ladder.db.logs"]),
                            top / "ladder.db.bots")


def loot(bot_dir: Path) -> str:
    return "\n".join(path.read_text(errors="replace") for path in bot_dir.rglob("*") if path.is_file())


#: what the probe finds when vetting hides the ladder (the other submission's folder and the logs
#: are empty folders, the ladder's files the null device)
HIDDEN = " ".join(f"{label}:nothing" for label, _ in TARGETS)


@needs_bwrap
@pytest.mark.parametrize("hide", ["hidden", "bare", "none"])
async def test_a_build_step_cannot_read_other_submissions_or_the_database(ladder, hide):
    manifest = 'name = "thief"\ncommand = ["python", "bot.py"]\nbuild = ["python", "steal.py"]\n'
    admission = await admit(archive(manifest, steal__py=probe(ladder), bot__py=GOOD_BOT),
                            ladder / "ladder.db.bots" / "2", "karibik", 2, sandbox=vetting_sandbox(ladder, hide))
    report = admission.report.splitlines()
    assert report[:3] == ["build: python steal.py", "last 40 lines of its output:", report[2]]
    if hide != "none":
        assert admission.passed  # the build ran, and the bot entered: it just learnt nothing
        assert report[2] == HIDDEN
        assert SECRET not in admission.report
        assert SECRET not in loot(admission.bot_dir)
        assert (admission.bot_dir / "loot.txt").read_text() == HIDDEN
    else:  # the probe works: without bubblewrap it copies the other author's code out
        assert report[2].startswith(f"code:{SECRET} ")
        assert SECRET in loot(admission.bot_dir)


@needs_bwrap
@pytest.mark.parametrize("hide", ["hidden", "bare", "none"])
async def test_a_bot_under_check_bot_cannot_read_other_submissions_or_the_database(ladder, hide):
    # it prints what it found on stderr and exits before its hello: the report tails its stderr
    admission = await admit(archive('name = "thief"\ncommand = ["python", "steal.py"]\n', steal__py=probe(ladder)),
                            ladder / "ladder.db.bots" / "2", "karibik", 2, sandbox=vetting_sandbox(ladder, hide))
    assert not admission.passed
    stderr = [line for line in admission.report.splitlines() if line.lstrip().startswith("stderr:")]
    assert len(stderr) == 1
    if hide != "none":
        assert stderr[0].split("stderr:", 1)[1].strip() == HIDDEN
        assert SECRET not in admission.report
    else:
        assert f"code:{SECRET} " in stderr[0]
    # the bot's folder is read-only to it during check-bot (bubblewrap's view, or its own uid):
    # nothing could be left there. Without either it runs as the ladder's user, who owns the
    # folder; the ladder says so when it starts (test_serve_without_bubblewrap_warns...).
    if hide != "none" or os.geteuid() == 0:
        assert not (admission.bot_dir / "loot.txt").exists()


async def test_the_runner_vets_in_its_sandbox_hiding_every_submission_folder(tmp_path, monkeypatch):
    # The wiring, without processes: serve_ladder's sandbox (here hiding the database) reaches
    # admit with the submissions' folder added; the sandbox shows the vetted one all the same.
    (tmp_path / "ladder.toml").write_text('game = "dead-mans-draw"\n[time]\nmove_ms = 2500\n')
    store = LadderStore.open(tmp_path / "ladder.db", "dead-mans-draw", 2)
    bots = tmp_path / "bots"
    (bots / "7").mkdir(parents=True)  # another author's, vetted before
    seen = []

    async def fake_admit(data, workdir, game, players, *, build_timeout_s, sandbox, caps, time_control):
        seen.append((data, workdir, sandbox.hidden_paths, time_control.move_ms))
        return Admission(False, None, "refused")

    monkeypatch.setattr(_vetting, "admit", fake_admit)
    runner = LadderRunner(load_ladder(tmp_path / "ladder.toml"), store, None, bots,
                          Sandbox().with_hidden([tmp_path / "ladder.db"]))
    number, _ = store.add_submission("ann", b"the archive")
    try:
        with trio.fail_after(30):  # a guard, not a measure
            async with trio.open_nursery() as nursery:
                nursery.start_soon(runner._vet_forever)
                while store.pending():
                    await trio.sleep(0.01)
                nursery.cancel_scope.cancel()
    finally:
        store.close()
    own = bots / str(number)
    assert seen == [(b"the archive", own, ((tmp_path / "ladder.db").resolve(), bots.resolve()), 2500)]


#: a bot that waits for a line, then says what it sees of the submissions' folder and of a
#: submission unpacked after it started
LATE_READER = """\
import os, sys
print("ready", flush=True)
sys.stdin.readline()
try:
    late = open(sys.argv[2]).read()
except OSError:
    late = "nothing"
print(sorted(os.listdir(sys.argv[1])), late, open("bot.py").read(), flush=True)
"""


@needs_bwrap
def test_a_playing_bot_does_not_see_a_submission_unpacked_after_it_started(ladder):
    # Bots of a stretch of games start before later submissions are unpacked and vetted.
    bots = ladder / "ladder.db.bots"
    own = bots / "1" / "their-bot"
    late = bots / "2" / "my-bot" / "bot.py"
    box = hide_submissions(detect_sandbox("auto"), bots)
    command = box.command([sys.executable, "-c", LATE_READER, str(bots), str(late)], own)
    with subprocess.Popen(command, cwd=own, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                          env=box.environment(dict(os.environ))) as bot:
        assert bot.stdout.readline() == "ready\n"
        late.parent.mkdir(parents=True)
        late.write_text("late secret")
        out, _ = bot.communicate("go\n", timeout=30)
    assert out == f"['1'] nothing {SECRET}\n"  # its own submission only, as it was


@pytest.mark.slow
def test_serve_without_bubblewrap_warns_that_submissions_are_readable():
    folder = ladder_folder()
    database = (folder / "ladder.db").resolve()  # ladder.toml's, as the ladder names it
    try:
        server = Server(folder, "none")
        warnings = [line for line in server.lines if line.startswith("warning:")]
        server.stop()
    finally:
        remove(folder)
    # --sandbox none: without bubblewrap whether or not this machine has it (then the advice is
    # to leave the option out); then the cgroup protections this machine lacks for this user, if
    # any (none as root with cgroups).
    advice = "leave out --sandbox none (bubblewrap is installed)" if shutil.which("bwrap") else "install bubblewrap"
    if os.geteuid() == 0:  # own uids keep the database and logs out of reach, not the submissions
        expected = ["warning: without bubblewrap, bots and build steps (under their own uids) can read the other "
                    f"authors' submissions; {advice}"]
    else:  # the bots run as this user: everything it may read, they may
        expected = [f"warning: without bubblewrap (or root), bots run as your user: they can read "
                    f"{database} (the key of every deal) and the other authors' "
                    f"submissions; {advice}"]
    assert warnings == [line + "\n" for line in expected + cgroups_warning_here("none")]
