"""Issue 44: a bot's view fails closed. What its folder holds is counted as the disk holds it
(``arena/sandbox/_folders.py``), and a folder that cannot be an image refuses the bot with one
line before its first game: it is never bound as it is (its dentries shared with every other
bot), and a tournament never dies of what one entrant's folder holds.

Each attack of the issue, with real bots: a folder of hard links (it "was" 4.3 GB, bound as it
was), a folder of 66,000 entries (residency mapped each and the arena died), a sparse file (a
1 GiB image locked in memory), an image that cannot be made (bound as it was, in silence).
"""

import dataclasses
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from arena.players._faults import BotFault
from arena.players._manifest import BotSpec
from arena.players._process import open_bot_process
from arena.sandbox import _folders, _resident
from arena.sandbox._folders import ViewRefused, survey
from arena.sandbox._images import images_missing
from arena.sandbox._detect import detect_sandbox

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

needs_images = pytest.mark.skipif(images_missing() is not None, reason=f"images of a view's folders: {images_missing()}")

#: a bot that says on which device its folder lies, then plays nothing
DEVICE = ("import json, os, sys\ninfo = os.stat(os.getcwd())\n"
          "print(json.dumps('%d:%d' % (os.major(info.st_dev), os.minor(info.st_dev))), file=sys.stderr)\n")


@pytest.fixture
def folder():
    """A bot's folder other users may enter (as root a bot runs under a uid of its own)."""
    top = Path(tempfile.mkdtemp(prefix="pirate-arena-fail-closed-"))
    top.chmod(0o755)
    (top / "bot").mkdir(mode=0o755)
    yield top / "bot"
    shutil.rmtree(top)


# -- the count ----------------------------------------------------------------------------------

def test_a_file_is_counted_once_whatever_its_links(tmp_path):
    data = tmp_path / "data"
    data.write_bytes(b"x" * 2**20)
    for number in range(100):
        os.link(data, tmp_path / f"link-{number}")
    _, size = survey(tmp_path)
    assert (size.entries, size.bytes) == (101, 2**20)


def test_past_a_limit_the_survey_stops_with_one_line(tmp_path, monkeypatch):
    for number in range(20):
        (tmp_path / str(number)).write_text("")
    monkeypatch.setattr(_folders, "MAX_ENTRIES", 10)
    with pytest.raises(ViewRefused, match=f"^{tmp_path} holds more than 10 entries \\(the limit\\)$"):
        survey(tmp_path)


def test_a_sparse_file_is_refused_by_name(tmp_path):
    sparse = tmp_path / "big"
    with open(sparse, "wb") as file:
        file.truncate(2**30)
    with pytest.raises(ViewRefused, match=f"^{sparse} is a sparse file \\(1,073,741,824 bytes, 0 on disk\\)"):
        survey(tmp_path)


# -- with real bots -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sandbox():
    if images_missing() is not None:
        pytest.skip(f"images of a view's folders: {images_missing()}")
    box = detect_sandbox("auto")
    if box.bwrap is None or box.images_missing is not None:
        box.close()
        pytest.skip("bubblewrap or images do not work here")
    yield box
    box.close()


def mounted_here() -> set[str]:
    with open("/proc/self/mountinfo") as table:
        return {line.split()[2] for line in table}


async def device_of_its_folder(sandbox, folder: Path) -> str:
    spec = BotSpec("device", (sys.executable, "-I", "-S", "-c", DEVICE), cwd=folder)
    async with open_bot_process(spec, sandbox) as bot:
        await bot.process.wait()
    return json.loads(bot.stderr.tail().splitlines()[-1])


@needs_images
async def test_a_folder_of_hard_links_is_an_image_of_its_own(sandbox, folder):
    # 1 MiB and 4,101 links to it: 4.3 GB counted per name, past the 4 GiB an image may hold, so
    # the folder was bound as it was and its dentry cache carried 46,628 bits/s between bots.
    (folder / "data").write_bytes(b"x" * 2**20)
    for number in range(4101):
        os.link(folder / "data", folder / f"link-{number}")
    assert await device_of_its_folder(sandbox, folder) not in mounted_here()


@needs_images
async def test_a_folder_of_66000_entries_is_an_image_of_its_own(sandbox, folder):
    # Bound as it was, each of its files was mapped to keep it resident, past vm.max_map_count:
    # the arena died of MemoryError, 0 games stored.
    many = folder / "many"
    many.mkdir()
    for number in range(66_000):
        (many / str(number)).touch()
    assert await device_of_its_folder(sandbox, folder) not in mounted_here()


async def test_past_the_entries_limit_a_bot_is_refused_not_bound(sandbox, folder, monkeypatch):
    # A limit above what the rest of the view holds (the arena's Python: about 15,000 entries).
    monkeypatch.setattr(_folders, "MAX_ENTRIES", 30_000)
    for number in range(30_001):
        (folder / str(number)).touch()
    spec = BotSpec("many", (sys.executable, "-I", "-S", "-c", DEVICE), cwd=folder)
    with pytest.raises(BotFault) as refused:
        async with open_bot_process(spec, sandbox):
            pass
    assert refused.value.detail == f"its view cannot be built: {folder} holds more than 30,000 entries (the limit)"


async def test_without_images_a_folder_past_what_can_be_kept_resident_is_refused(sandbox, folder, monkeypatch):
    # Root without images (Linux before 6.12) locks every file it binds, one mapping each.
    for number in range(_resident.MAX_MAPPINGS + 1):
        (folder / str(number)).touch()
    box = dataclasses.replace(sandbox, images_missing="off for this test")
    spec = BotSpec("many", (sys.executable, "-I", "-S", "-c", DEVICE), cwd=folder)
    with pytest.raises(BotFault) as refused:
        async with open_bot_process(spec, box):
            pass
    assert refused.value.detail == (f"its view cannot be built: {folder} holds more files than the arena can keep "
                                    f"resident (40,000 in all): make its folder an image (root, Linux 6.12, mkfs.erofs)")


def tournament(top: Path, bot: Path, command: str = "python -m bots.random") -> subprocess.CompletedProcess:
    """``arena tournament run`` of a good entrant (a folder of its own) and one in ``bot``."""
    (top / "good").mkdir(mode=0o755)
    (top / "t.toml").write_text(textwrap.dedent(f"""\
        game = "dead-mans-draw"
        players = 2
        rounds = 1
        seed = 3
        [[entrants]]
        name = "good"
        command = "python -m bots.random"
        cwd = "{top / 'good'}"
        [[entrants]]
        name = "odd"
        command = "{command}"
        cwd = "{bot}"
        """))
    (top / "t.toml").chmod(0o600)
    return subprocess.run(["arena", "tournament", "run", str(top / "t.toml"), "-q"], capture_output=True, text=True,
                          cwd=top, timeout=300)


def games(database: Path) -> int:
    return sqlite3.connect(database).execute("SELECT count(*) FROM games").fetchone()[0] if database.exists() else 0


@needs_images
def test_a_sparse_file_in_a_folder_refuses_its_entrant_before_any_game(folder):
    with open(folder / "hole", "wb") as file:
        file.truncate(2**30)  # 4 KiB or nothing on disk; it was a 1 GiB image, locked in memory
    result = tournament(folder.parent, folder)
    assert result.returncode == 2, result.stderr
    why = (f"its view cannot be built: {folder / 'hole'} is a sparse file (1,073,741,824 bytes, 0 on disk): "
           f"a bot's folder may not hold one")
    assert result.stderr.splitlines()[-1] == f"error: entrant 'odd' cannot start: {why}"
    assert games(folder.parent / "t.db") == 0
    # arena doctor MANIFEST says the same of it
    (folder / "bot.toml").write_text('name = "odd"\ncommand = "python -m bots.random"\n')
    doctor = subprocess.run(["arena", "doctor", str(folder / "bot.toml")], capture_output=True, text=True,
                            timeout=300, env={**os.environ, "COLUMNS": "1000"})
    assert f"REFUSED: odd cannot start: {why}" in doctor.stdout.splitlines(), doctor.stdout


@needs_images
def test_an_image_that_cannot_be_made_refuses_its_entrant(folder, tmp_path, monkeypatch):
    # mkfs.erofs failing for this folder alone (as a full disk would): it was bound as it was.
    (folder / "poison").write_text("")
    fake = tmp_path / "bin"
    fake.mkdir()
    real = shutil.which("mkfs.erofs")
    (fake / "mkfs.erofs").write_text(f'#!/bin/sh\nfor arg; do last="$arg"; done\n'
                                     f'if [ -e "$last/poison" ]; then echo "No space left on device" >&2; exit 1; fi\n'
                                     f'exec {real} "$@"\n')
    (fake / "mkfs.erofs").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}:{os.environ['PATH']}")
    result = tournament(folder.parent, folder)
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines()[-1] == (
        f"error: entrant 'odd' cannot start: its view cannot be built: {folder}: no image could be made of it "
        f"(mkfs.erofs: No space left on device)")
    assert games(folder.parent / "t.db") == 0


# -- declare, never infer -----------------------------------------------------------------------

needs_bwrap_and_cc = pytest.mark.skipif(
    shutil.which("cc") is None or detect_sandbox("auto").bwrap is None,
    reason="needs bubblewrap (a bot's view) and a C compiler (apt-get install bubblewrap gcc)")


@needs_bwrap_and_cc
def test_a_library_naming_another_entrants_file_by_its_path_refuses_its_entrant(folder):
    # A .so in the thief's folder whose DT_NEEDED names a rival's file by its absolute path: the
    # view bound that file, and the thief read the rival's program (issue 44, hole 1).
    from arena.sandbox._libraries import read_elf

    rival = folder.parent / "rival"
    rival.mkdir(mode=0o755)
    (rival / "secret.c").write_text('const char secret[] = "RIVAL-SECRET";\n')
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(rival / "secret.so"), str(rival / "secret.c")], check=True)
    (folder / "thief.c").write_text("int thief = 1;\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(folder / "libthief.so"), str(folder / "thief.c"),
                    "-Wl,--no-as-needed", str(rival / "secret.so")], check=True)
    assert str(rival / "secret.so") in read_elf(folder / "libthief.so").needed
    result = tournament(folder.parent, folder)
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines()[-1] == (
        f"error: entrant 'odd' cannot start: its view cannot be built: {rival / 'secret.so'} lies outside the "
        f"bot's folder and its runtime, and its program or a library it loads needs it (by its path, RPATH or "
        f"LD_LIBRARY_PATH)")
    assert games(folder.parent / "t.db") == 0


@needs_bwrap_and_cc
def test_a_library_of_its_own_folder_found_through_its_rpath_is_fine(folder):
    # The control: a bot's own library, named by its RPATH ($ORIGIN), stays in its folder.
    (folder / "lib").mkdir()
    (folder / "lib" / "helper.c").write_text("int helper = 2;\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-Wl,-soname,libhelper.so", "-o", str(folder / "lib" / "libhelper.so"),
                    str(folder / "lib" / "helper.c")], check=True)
    (folder / "main.c").write_text("int main_lib = 3;\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(folder / "libmain.so"), str(folder / "main.c"),
                    "-Wl,--no-as-needed", f"-L{folder / 'lib'}", "-lhelper", "-Wl,-rpath,$ORIGIN/lib"], check=True)
    result = tournament(folder.parent, folder)
    assert result.returncode == 0, result.stderr
    assert games(folder.parent / "t.db") == 2


def test_strict_mode_runs_only_where_every_protection_is_active(folder):
    # The prize recipe: where a layer is missing on the whole machine (no images without root,
    # no cgroups), --sandbox strict stops with one line naming what is missing, before any game.
    box = detect_sandbox("auto")
    missing = [name for name, active, _ in box.describe() if not active]
    box.close()
    top = folder.parent
    (top / "t.toml").write_text('game = "dead-mans-draw"\nplayers = 2\nrounds = 1\nseed = 3\n[[entrants]]\n'
                                'name = "a"\ncommand = "python -m bots.random"\n[[entrants]]\nname = "b"\n'
                                'command = "python -m bots.random"\n')
    (top / "t.toml").chmod(0o600)
    result = subprocess.run(["arena", "tournament", "run", str(top / "t.toml"), "-q", "--sandbox", "strict"],
                            capture_output=True, text=True, cwd=top, timeout=300)
    if missing:
        assert (result.returncode, result.stdout) == (2, ""), result.stderr
        assert result.stderr == (f"error: --sandbox strict: {len(missing)} protection(s) missing here "
                                 f"({'; '.join(missing)}); `arena doctor` says how to get each\n")
        assert games(top / "t.db") == 0
    else:
        assert result.returncode == 0, result.stderr
        assert games(top / "t.db") == 2


LIBCAP = next((path for path in ("/lib/x86_64-linux-gnu/libcap.so.2", "/usr/lib/x86_64-linux-gnu/libcap.so.2")
               if os.path.exists(path)), None)


@needs_bwrap_and_cc
@pytest.mark.skipif(LIBCAP is None, reason="needs libcap.so.2 (bubblewrap's own dependency)")
def test_a_native_bot_needing_a_library_its_runtime_lacks_is_refused_by_the_run_and_by_doctor(folder):
    # Declare, never infer: the libraries of the system a native bot's program named were
    # bound into its view because its file said so; its runtime (the C and C++ libraries) now
    # decides, and the run and `arena doctor MANIFEST` refuse it alike, naming the file.
    (folder / "bot.c").write_text("int main(void) { return 0; }\n")
    subprocess.run(["cc", "-o", str(folder / "bot"), str(folder / "bot.c"), "-Wl,--no-as-needed", LIBCAP], check=True)
    result = tournament(folder.parent, folder, "./bot")
    assert result.returncode == 2, result.stderr
    line = result.stderr.splitlines()[-1]
    assert line.startswith("error: entrant 'odd' cannot start: its view cannot be built: ") and line.endswith(
        "libcap.so.2: its program loads it, and its runtime (native) does not hold it; put the library in the bot's "
        "folder (found through RUNPATH $ORIGIN) or run it with a runtime that has it"), line
    assert games(folder.parent / "t.db") == 0
    (folder / "bot.toml").write_text('name = "odd"\ncommand = "./bot"\n')
    doctor = subprocess.run(["arena", "doctor", str(folder / "bot.toml")], capture_output=True, text=True,
                            timeout=300, env={**os.environ, "COLUMNS": "1000"})
    why = line.removeprefix("error: entrant 'odd' cannot start: ")
    assert f"REFUSED: odd cannot start: {why}" in doctor.stdout.splitlines(), doctor.stdout
