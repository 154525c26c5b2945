"""Admitting submissions with real processes: a good bot passes check-bot; a broken one is refused
with the report; a build step that phones home, forks forever or writes outside its folder is
stopped; the author reads why in plain words."""

import io
import os
import shutil
import socket
import stat
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
import trio

from arena.ladder._intake import BUILD_LIMITS, BUILD_MAX_BYTES, admit
from arena.ladder._tree import remove_tree
from arena.players._timecontrol import TimeControl
from arena.sandbox._detect import detect_sandbox

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

ROOT = Path(__file__).resolve().parents[3]
GOOD_BOT = (ROOT / "examples" / "bots" / "python-random" / "bot.py").read_bytes()
BWRAP = detect_sandbox("auto").bwrap is not None
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="a build gets its own uid and cgroup only when the arena runs as root")
needs_bwrap = pytest.mark.skipif(not BWRAP, reason="needs bubblewrap (apt-get install bubblewrap): it takes the network away")
#: sandbox modes: "auto" (bubblewrap where it works) and "none" (uid, cgroup and limits only, as root)
MODES = ["auto", pytest.param("none", marks=as_root)]
#: the modes that keep a build inside its folder: bubblewrap's read-only view, or its own uid (root)
CONTAINED = [pytest.param("auto", marks=pytest.mark.skipif(
    not BWRAP and os.geteuid() != 0, reason="needs bubblewrap or root: otherwise a build runs as the arena's uid")),
    pytest.param("none", marks=as_root)]


def archive(manifest: str, **files: bytes | str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        out.writestr("my-bot/bot.toml", manifest)
        for name, content in files.items():
            out.writestr(f"my-bot/{name.replace('__', '.')}", content)
    return buffer.getvalue()


@pytest.fixture
def workdir():
    """An empty folder other users can reach (pytest's tmp_path cannot be entered by bot uids)."""
    top = Path(tempfile.mkdtemp(prefix="pirate-arena-intake-"))
    top.chmod(0o755)
    yield top / "submission"
    remove_tree(top)  # shutil.rmtree recurses: a build may leave 1,500 levels


def processes_below(folder: Path) -> list[int]:
    """Processes whose working folder lies in ``folder`` (a build's leftovers)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and Path(os.readlink(f"/proc/{entry}/cwd")).is_relative_to(folder):
                found.append(int(entry))
        except OSError:
            pass
    return found


# -- what the author sees for each kind of refusal (no bot process needed) --------------------------

async def test_a_refused_archive_says_why(workdir):
    admission = await admit(b"not an archive", workdir, "karibik", 2)
    assert not admission.passed and admission.bot_dir is None
    assert admission.report.startswith("archive refused: the archive is damaged or not a zip or tar archive")


@as_root
async def test_a_workdir_other_users_cannot_reach_is_the_arenas_error(tmp_path):
    tmp_path.chmod(0o700)
    with pytest.raises(ValueError, match=f"^{tmp_path}/sub: {tmp_path} is closed to other users, so bots "):
        await admit(archive('command = "python bot.py"\n'), tmp_path / "sub", "karibik", 2)


async def test_a_bad_manifest_is_reported_without_the_servers_paths(workdir):
    admission = await admit(archive('command = ["python", "bot.py"]\nport = 1\n'), workdir, "karibik", 2)
    assert not admission.passed and admission.bot_dir == workdir / "my-bot"
    assert admission.report == ("bot.toml: unknown key 'port'; known keys: "
                                "['build', 'command', 'cwd', 'env', 'games', 'limits', 'name']")


@pytest.mark.parametrize("manifest, problem", [
    ('command = ["python", "bot.py"]\ncwd = ".."\n',
     "bot.toml: 'cwd' would show the bot more than its own folder: '..' lies outside the bot's folder"),
    ('command = ["python", "bot.py"]\n[env]\nPYTHONPATH = "/"\n',
     "bot.toml: 'env.PYTHONPATH' would show the bot more than its own folder: / lies outside the bot's folder "
     "the archive and its runtime"),
    ('command = ["../../bin/sh"]\n',
     "bot.toml: 'command' would show the bot more than its own folder: its program '../../bin/sh' lies outside "
     "the bot's folder"),
])
async def test_a_bot_that_would_start_outside_its_folder_is_refused(workdir, manifest, problem):
    admission = await admit(archive(manifest), workdir, "karibik", 2)
    assert (admission.passed, admission.report) == (False, problem)


@pytest.mark.parametrize("limits, problem", [
    ("memory_mb = 0", "'limits.memory_mb' may not be above the ladder's 2048 (0, no limit, is not allowed either)"),
    ("processes = 129", "'limits.processes' may not be above the ladder's 128 (0, no limit, is not allowed either)"),
])
async def test_a_bot_may_not_raise_its_limits(workdir, limits, problem):
    admission = await admit(archive(f'command = "python bot.py"\n[limits]\n{limits}\n'), workdir, "karibik", 2)
    assert (admission.passed, admission.report) == (False, f"bot.toml: {problem}")


async def test_a_missing_build_program_is_reported(workdir):
    admission = await admit(archive('command = "python bot.py"\nbuild = ["no-such-compiler", "-O2"]\n'),
                            workdir, "karibik", 2)
    assert (admission.passed, admission.report) == (
        False, "build: 'no-such-compiler': no such program on the ladder's machine")


# -- real processes ----------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("sandbox", MODES)
async def test_a_good_bot_with_a_build_step_passes_and_its_output_stays(workdir, sandbox):
    build = "open('built.txt', 'w').write('ok')\nprint('compiled')\n"
    admission = await admit(archive('name = "good"\ncommand = ["python", "bot.py"]\nbuild = "python build.py"\n',
                                    bot__py=GOOD_BOT, build__py=build), workdir, "karibik", 2, sandbox=sandbox)
    assert admission.passed, admission.report
    lines = admission.report.splitlines()
    assert lines[:3] == ["build: python build.py", "last 40 lines of its output:", "compiled"]
    assert lines[-1] == "result: PASS" and any(line.startswith("PASS  karibik: ") and ", 2 players," in line
                                                for line in lines)
    built = admission.bot_dir / "built.txt"
    assert built.read_text() == "ok"
    info = built.stat()
    assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (os.getuid(), 0o644)  # back to the arena, read-only to bots


async def test_check_bot_plays_at_the_ladders_time_control(workdir):
    # A bot that thinks 1.3 s over its first decision: too slow for the default clock (1000 ms a
    # move, no reserve), in time for a ladder that gives 3000 ms a move.
    slow = GOOD_BOT.replace(b"def random_legal(request: Request, rng: random.Random):\n",
                            b"import time\nfirst = [True]\n\n\ndef random_legal(request: Request, rng: random.Random):\n"
                            b"    if first.pop() if first else False:\n        time.sleep(1.3)\n")
    assert slow != GOOD_BOT
    verdicts = []
    for number, clock in enumerate([TimeControl(), TimeControl(move_ms=3000)]):
        admission = await admit(archive('name = "slow"\ncommand = ["python", "bot.py"]\n', bot__py=slow),
                                workdir.with_name(f"submission{number}"), "dead-mans-draw", 2, time_control=clock)
        verdicts.append((admission.passed, "timeout" in admission.report))
    assert verdicts == [(False, True), (True, False)]


@pytest.mark.parametrize("sandbox", MODES)
async def test_a_bot_that_fails_check_bot_is_refused_with_the_report(workdir, sandbox):
    admission = await admit(archive('name = "mute"\ncommand = ["python", "bot.py"]\n',
                                    bot__py="import sys\nsys.stderr.write('I have nothing to say')\n"),
                            workdir, "karibik", 2, sandbox=sandbox)
    assert not admission.passed
    lines = admission.report.splitlines()
    assert lines[0].startswith("check-bot mute: protocol ")
    assert lines[1].startswith("FAIL  start and handshake: ")
    assert "I have nothing to say" in admission.report
    assert lines[-1] == "result: FAIL (1 failure(s))"


@needs_bwrap
async def test_a_build_that_phones_home_cannot_reach_the_network(workdir):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        port = listener.getsockname()[1]
        phone = f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=5).sendall(b'secrets')\n"
        admission = await admit(archive('command = "python bot.py"\nbuild = ["python", "phone.py"]\n',
                                        phone__py=phone, bot__py=GOOD_BOT), workdir, "karibik", 2)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody called
    lines = admission.report.splitlines()
    assert not admission.passed
    assert lines[:3] == ["build failed: it exited with code 1", "build: python phone.py", "last 40 lines of its output:"]
    assert lines[-1] in ("OSError: [Errno 101] Network is unreachable",
                         "ConnectionRefusedError: [Errno 111] Connection refused")


@pytest.mark.slow
@as_root
@pytest.mark.parametrize("sandbox", ["auto", "none"])
async def test_a_fork_bomb_build_is_capped_and_killed_at_the_time_limit(workdir, sandbox, nursery):
    # bash, not sh: dash exits when a fork fails, bash retries, so the bomb lasts
    bomb = 'while :; do bash bomb.sh & sleep 0.05; done\n'
    counts = []

    async def watch():
        while True:
            counts.append(len(processes_below(workdir)))
            await trio.sleep(0.2)

    nursery.start_soon(watch)
    admission = await admit(archive('command = "python bot.py"\nbuild = ["bash", "bomb.sh"]\n', bomb__sh=bomb),
                            workdir, "karibik", 2, build_timeout_s=3, sandbox=sandbox)
    nursery.cancel_scope.cancel()
    assert not admission.passed
    assert admission.report.splitlines()[0] == (
        "build stopped: still running after 3 s (the time limit); every process it started was killed")
    assert 10 < max(counts) <= BUILD_LIMITS.processes  # it did fork, up to the cap (bwrap's own count too)
    assert processes_below(workdir) == []


@as_root  # without root, a process that outlives bubblewrap's own is out of the arena's reach
@pytest.mark.parametrize("sandbox", ["auto", "none"])
async def test_a_cancelled_admission_leaves_no_build_process(workdir, sandbox):
    build = "sleep 60 & sleep 60"
    with trio.move_on_after(1.5) as scope:  # the ladder shutting down mid-build
        await admit(archive(f'command = "python bot.py"\nbuild = ["sh", "-c", "{build}"]\n'), workdir, "karibik", 2,
                    sandbox=sandbox)
    assert scope.cancelled_caught
    assert processes_below(workdir) == []
    assert (workdir / "my-bot").stat().st_uid == os.getuid()  # the folder went back to the arena


async def test_a_build_that_takes_too_much_memory_fails(workdir):
    hog = "python -c 'bytearray(3 * 2**30)'"  # 3 GiB, over the 2 GiB a build gets
    admission = await admit(archive(f'command = "python bot.py"\nbuild = "{hog}"\n'), workdir, "karibik", 2)
    lines = admission.report.splitlines()
    if _memory_cgroup():  # its memory cgroup: the kernel kills it (no address-space limit is set)
        assert (admission.passed, lines[0]) == (False, "build failed: it used more than its 2048 MiB of memory "
                                                       "(its processes, and its files in /tmp and /dev/shm, together); "
                                                       "the kernel killed 1 of its processes")
    else:  # its address space: Python raises MemoryError
        assert (admission.passed, lines[0], lines[-1]) == (False, "build failed: it exited with code 1", "MemoryError")


def _memory_cgroup() -> bool:
    box = detect_sandbox("none")
    box.close()
    return box.cgroups is not None and box.cgroups.hierarchy("memory") is not None


@pytest.mark.parametrize("sandbox", CONTAINED)
async def test_a_build_cannot_write_outside_its_folder(workdir, sandbox):
    outside = Path(tempfile.mkdtemp(prefix="pirate-arena-outside-"))
    outside.chmod(0o755)
    try:
        build = (f"echo planted > {outside}/planted; echo planted > {workdir}/planted; echo built > built.txt; "
                 f"chmod 4777 built.txt; exit 3")
        admission = await admit(archive(f'command = "python bot.py"\nbuild = ["sh", "-c", "{build}"]\n'),
                                workdir, "karibik", 2, sandbox=sandbox)
        lines = admission.report.splitlines()
        assert (admission.passed, lines[0]) == (False, "build failed: it exited with code 3")
        # Neither reached the host: without bubblewrap its uid may not write there; under it a
        # folder it was not shown does not exist for it, and the mount points of its own
        # folder's parents lie in its private /tmp.
        refused = "Directory nonexistent" if sandbox == "auto" else "Permission denied"
        assert f"sh: 1: cannot create {outside}/planted: {refused}" in lines
        assert list(outside.iterdir()) == [] and not (workdir / "planted").exists()
        built = workdir / "my-bot" / "built.txt"
        assert built.read_text() == "built\n" and stat.S_IMODE(built.stat().st_mode) == 0o755  # no setuid left
    finally:
        shutil.rmtree(outside)


async def test_a_build_that_replaces_the_manifest_is_refused(workdir):
    build = "rm bot.toml && ln -s /etc/passwd bot.toml"
    admission = await admit(archive(f'command = "python bot.py"\nbuild = ["sh", "-c", "{build}"]\n'),
                            workdir, "karibik", 2)
    assert admission.report.splitlines()[0] == (
        "build: it changed or replaced bot.toml; the build must leave the manifest as submitted")
    assert not admission.passed


async def test_a_build_that_removes_the_manifest_is_refused(workdir):
    admission = await admit(archive('command = "python bot.py"\nbuild = "rm bot.toml"\n'), workdir, "karibik", 2)
    assert (admission.passed, admission.report.splitlines()[0]) == (
        False, "build: it changed or replaced bot.toml; the build must leave the manifest as submitted")


async def test_a_build_that_leaves_too_much_is_refused(workdir):
    # sparse files (cheap to write), each under the 64 MiB per-file limit, 240 MiB in all
    manifest = 'command = "python bot.py"\nbuild = ["sh", "-c", "for f in a b c d; do truncate -s 60M $f; done"]\n'
    admission = await admit(archive(manifest), workdir, "karibik", 2)
    assert not admission.passed
    assert admission.report.splitlines()[0] in (  # found after it, or (a loaded machine) while it ran
        f"build: afterwards, its folder holds more than {BUILD_MAX_BYTES} bytes (the limit)",
        f"build stopped: its folder holds more than {BUILD_MAX_BYTES} bytes (the limit); every process it "
        f"started was killed")


async def test_a_bot_whose_program_is_missing_fails_check_bot(workdir):
    admission = await admit(archive('command = ["./my-bot"]\n'), workdir, "karibik", 2)
    assert not admission.passed
    assert "FAIL  start and handshake: crash" in admission.report
    assert "no such program" in admission.report


async def test_a_build_that_makes_hardlinks_is_refused_and_the_links_removed(workdir):
    admission = await admit(archive('command = "python bot.py"\nbuild = "ln bot.py copy.py"\n', bot__py=GOOD_BOT),
                            workdir, "karibik", 2)
    assert (admission.passed, admission.report.splitlines()[0]) == (
        False, "build: it made hardlinks (bot.py, copy.py); they were removed and the build refused")
    assert sorted(path.name for path in (workdir / "my-bot").iterdir()) == ["bot.toml"]


async def test_a_build_that_keeps_making_files_is_stopped_while_it_runs(workdir):
    from arena.ladder._build import BuildCaps

    # Bounded (200,000 files against a cap of 500): a build the ladder failed to stop fails the
    # test instead of filling the disk.
    build = "for i in range(200_000):\n    open(f'f{i}', 'w').close()\n"
    start = trio.current_time()
    admission = await admit(archive('command = "python bot.py"\nbuild = "python build.py"\n', build__py=build),
                            workdir, "karibik", 2, build_timeout_s=60, caps=BuildCaps(max_files=500))
    assert (admission.passed, admission.report.splitlines()[0]) == (
        False, "build stopped: its folder holds more than 500 files and folders (the limit); "
               "every process it started was killed")
    assert trio.current_time() - start < 20  # not the time limit
    assert processes_below(workdir) == []


async def test_a_build_that_leaves_folders_1500_deep_is_refused(workdir):
    build = "import os\nfor _ in range(1500):\n    os.mkdir('d')\n    os.chdir('d')\n"
    admission = await admit(archive('command = "python bot.py"\nbuild = "python build.py"\n', build__py=build),
                            workdir, "karibik", 2)
    assert not admission.passed
    assert admission.report.splitlines()[0] in (  # stopped while it ran, or found after it
        "build stopped: its folder holds entries more than 64 levels deep (the limit); every process it started "
        "was killed", "build: afterwards, its folder holds entries more than 64 levels deep (the limit)")
