"""No manifest field widens a bot's view (issue 32, hole 1).

Under bubblewrap a bot sees its own folder, its runtime and the system's folders, plus what its
start names: its ``cwd``, files on its command line, ``PYTHONPATH``/``NODE_PATH`` entries. A
manifest naming ``/`` there showed the whole host (the arena's command line with the deal seed
in /proc, other entrants' folders). Every such manifest is now refused with one ``error:``
line wherever a manifest is read, naming the field; and the view itself never shows the root or
a top-level folder whole, whatever a command built elsewhere names.
"""

import json
import os
import shutil
import subprocess
import tempfile
import sys
from pathlib import Path

import pytest
import trio

from arena.players._manifest import BotSpec, ManifestError, load_manifest
from arena.players._process import open_bot_process
from arena.sandbox._detect import detect_sandbox

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

ROOT = Path(__file__).resolve().parents[2]
BOTS = Path(__file__).parent / "bots"

#: (manifest text, the field the error names); each would show more than the bot's folder
WIDENING = [
    ('command = ["python", "-m", "bots.random"]\n[env]\nPYTHONPATH = "/"\n', "env.PYTHONPATH"),
    ('command = ["python", "-m", "bots.random"]\n[env]\nNODE_PATH = "/usr:/home"\n', "env.NODE_PATH"),
    ('command = ["python", "-m", "bots.random"]\n[env]\nPYTHONPATH = "LINK"\n', "env.PYTHONPATH"),
    ('command = ["python", "-m", "bots.random"]\ncwd = "/"\n', "cwd"),
    ('command = ["python", "-m", "bots.random"]\ncwd = ".."\n', "cwd"),
    ('command = ["python", "-m", "bots.random"]\ncwd = "rootlink"\n', "cwd"),
    ('command = ["python", "OTHER"]\n', "command"),
    ('command = ["/home/someone/bin/bot"]\n', "command"),
]


def _bot_folder(tmp_path: Path, manifest: str) -> Path:
    """A bot's folder (with a link to / inside it, and another entrant beside it) holding
    ``manifest``; ``LINK`` stands for that link's absolute path, ``OTHER`` for a file of the
    other entrant."""
    folder = tmp_path / "entrants" / "mine"
    other = tmp_path / "entrants" / "theirs"
    folder.mkdir(parents=True)
    other.mkdir()
    (other / "secret.py").write_text("DEAL = 1\n")
    (folder / "rootlink").symlink_to("/")
    text = manifest.replace("LINK", str(folder / "rootlink")).replace("OTHER", str(other / "secret.py"))
    (folder / "bot.toml").write_text(text)
    return folder


@pytest.mark.parametrize("manifest, field", WIDENING)
def test_a_manifest_that_would_widen_the_view_is_refused_naming_the_field(tmp_path, manifest, field):
    folder = _bot_folder(tmp_path, manifest)
    with pytest.raises(ManifestError) as raised:
        load_manifest(folder / "bot.toml")
    assert str(raised.value).startswith(f"{folder / 'bot.toml'}: '{field}' would show the bot more than its own folder: ")


@pytest.mark.parametrize("manifest", [
    'command = ["python", "-m", "bots.random"]\n',
    'command = ["python", "bot.py"]\ncwd = "sub"\n[env]\nPYTHONPATH = "lib:/usr/lib/python3/dist-packages"\n',
    f'command = ["python", "-m", "bots.random"]\n[env]\nPYTHONPATH = "{sys.prefix}"\n',
    'command = ["java", "-cp", "classes:/usr/share/java/msgpack-core.jar", "Bot"]\n',
])
def test_a_manifest_within_its_folder_runtime_and_system_loads(tmp_path, manifest):
    (tmp_path / "bot" / "sub").mkdir(parents=True)
    (tmp_path / "bot" / "bot.toml").write_text(manifest)
    assert load_manifest(tmp_path / "bot" / "bot.toml").name


def test_a_manifest_lying_in_a_shared_folder_is_refused(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)  # as /tmp: every user may write there
    (shared / "bot.toml").write_text('command = ["python", "-m", "bots.random"]\n')
    with pytest.raises(ManifestError, match="'cwd' would show the bot more than its own folder: the bot's folder "
                                            f"{shared} is a folder every user may write"):
        load_manifest(shared / "bot.toml")


def _arena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("command", ["match", "check-bot", "play", "tournament", "doctor"])
def test_every_command_reading_a_manifest_refuses_it_in_one_error_line(tmp_path, command):
    folder = _bot_folder(tmp_path, WIDENING[0][0])
    manifest = str(folder / "bot.toml")
    args = {
        "match": ["match", "dead-mans-draw", manifest, "python -m bots.random", "--seed", "1"],
        "check-bot": ["check-bot", manifest],
        "play": ["play", "dead-mans-draw", manifest, "--no-open"],
        "doctor": ["doctor", manifest],
    }
    if command == "tournament":
        (tmp_path / "t.toml").write_text(
            f'game = "dead-mans-draw"\nplayers = 2\nrounds = 1\nseed = 1\n[[entrants]]\nmanifest = "{manifest}"\n'
            '[[entrants]]\ncommand = "python -m bots.random"\n')
        args["tournament"] = ["tournament", "run", str(tmp_path / "t.toml"), "--sandbox", "none"]
    result = _arena(*args[command], cwd=tmp_path)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and lines[0].startswith("error: ") and "'env.PYTHONPATH' would show the bot more than" in lines[0]
    assert not (tmp_path / "t.db").exists()


needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None or detect_sandbox("auto").bwrap is None,
                                 reason="needs bubblewrap (apt-get install bubblewrap)")


@needs_bwrap
@pytest.mark.parametrize("env, cwd", [({"PYTHONPATH": "/"}, None), ({"NODE_PATH": "/home:/work"}, None),
                                      ({}, Path("/"))])
async def test_a_command_built_without_a_manifest_still_never_shows_the_root_or_a_top_level_folder(env, cwd):
    """The view's own rule, under the manifest's: a bot started with ``PYTHONPATH = "/"`` (as
    a BotSpec made in code) sees neither the arena's processes nor the host's folders."""
    absent = [str(ROOT / "examples"), "/etc/shadow", "/root/.bashrc", f"/proc/{os.getpid()}/cmdline"]
    # a top-level folder holding the checkout or the arena's Python is in the view as the path
    # down to them (a clone under /var/tmp run by a venv under /work shows /var and /work)
    absent += [folder for folder in ("/var", "/srv", "/home", "/work") if folder[1:] not in _ancestors_of_needed()]
    spec = BotSpec("looker", (sys.executable, str(BOTS / "looker.py"), "1", "/nonexistent.sock", *absent),
                   cwd=cwd or BOTS, env=env)
    sandbox = detect_sandbox("auto")
    try:
        async with open_bot_process(spec, sandbox) as bot:
            with trio.fail_after(30):  # a guard, not a measure
                await bot.process.wait()
    finally:
        sandbox.close()
    found = json.loads(bot.stderr.tail().splitlines()[-1])
    # the arena's own process is not in the bot's PID namespace
    assert found["paths"] == {path: False for path in absent}
    assert not {"home", "work", "var", "root", "srv", "opt"} & set(found["ls /"]) - _ancestors_of_needed(), found["ls /"]


def _ancestors_of_needed() -> set[str]:
    """Top-level folders that hold what every Python bot of this arena needs (the arena's
    Python and packages): they appear in a view as the path down to those, nothing more."""
    needed = [ROOT, Path(sys.prefix), Path(sys.base_prefix), BOTS]
    return {Path(os.path.realpath(p)).parts[1] for p in needed} | {Path(os.path.abspath(p)).parts[1] for p in needed}


@needs_bwrap
async def test_doctors_probe_in_a_bots_view_finds_what_its_environment_shows_beyond_its_folder(tmp_path):
    """``arena doctor MANIFEST`` runs its probe in the view that bot gets: a view widened to a
    folder holding other entrants (here by a spec made in code: a manifest is refused) is found
    and reported, not assumed away; a bot within its folder gets a yes."""
    from arena.players._probe import judge, run_probe

    top = Path(tempfile.mkdtemp(prefix="pirate-arena-entrants-", dir="/srv" if os.access("/srv", os.W_OK) else None))
    try:
        top.chmod(0o755)
        for name in ("mine", "theirs"):
            (top / name).mkdir(mode=0o755)
        (top / "theirs" / "secret.py").write_text("DEAL = 1\n")
        sandbox = detect_sandbox("auto")
        try:
            rows = {}
            for label, env in (("own", {}), ("widened", {"PYTHONPATH": str(top)})):
                spec = BotSpec("mine", ("python", "-m", "bots.random"), cwd=top / "mine", env=env)
                checks = judge(await run_probe(sandbox, manifest=spec))
                rows[label] = next(check for check in checks if check.protection.startswith("minimal read-only view"))
        finally:
            sandbox.close()
    finally:
        shutil.rmtree(top)
    assert rows["own"].held, rows["own"].evidence
    assert not rows["widened"].held and str(top / "theirs") in rows["widened"].evidence, rows["widened"].evidence
