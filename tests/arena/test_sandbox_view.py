"""What a bot can reach of the machine: the network through its own stdout, a new socket, the
host's unix sockets, and the filesystem (issue 25: network escape and the minimal view).

A real bot (bots/looker.py) tries each, started exactly as a tournament starts bots, and says
what it found; the test's own listeners say whether anything reached them.
"""

import json
import os
import shutil
import site
import socket
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
import trio

from arena.players._manifest import BotSpec
from arena.players._process import open_bot_process
from arena.sandbox._detect import detect_sandbox
from arena.sandbox._view import bot_path, of_the_system, shown_paths, view

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

BOTS = Path(__file__).parent / "bots"
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None or detect_sandbox("auto").bwrap is None,
                                 reason="needs bubblewrap (apt-get install bubblewrap)")
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (own uids, a private network namespace)")


class Listeners:
    """A TCP listener on the host's 127.0.0.1 and a unix socket under /run (or /tmp when
    /run is not writable), open to every user, as a database or a Dask scheduler listens."""

    def __init__(self) -> None:
        self.tcp = socket.socket()
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(16)
        base = Path("/run") if os.access("/run", os.W_OK) else Path(tempfile.gettempdir())
        self.folder = base / f"pirate-arena-test-{uuid.uuid4().hex[:8]}"
        self.folder.mkdir(mode=0o755)
        self.folder.chmod(0o755)
        self.unix_path = str(self.folder / "service.sock")
        self.unix = socket.socket(socket.AF_UNIX)
        self.unix.bind(self.unix_path)
        os.chmod(self.unix_path, 0o777)
        self.unix.listen(16)

    def reached(self) -> list[str]:
        """What arrived at either listener (connections queued, with their first bytes)."""
        arrived = []
        for listener in (self.tcp, self.unix):
            listener.setblocking(False)
            while True:
                try:
                    connection, _ = listener.accept()
                except BlockingIOError:
                    break
                connection.settimeout(1)
                try:
                    arrived.append(connection.recv(100).decode(errors="replace") or "(connected)")
                except OSError:
                    arrived.append("(connected)")
                connection.close()
        return arrived

    def close(self) -> None:
        self.tcp.close()
        self.unix.close()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def listeners():
    opened = Listeners()
    yield opened
    opened.close()


LOOKER = (sys.executable, str(BOTS / "looker.py"))


def _on_the_way_to(shown: list[Path]) -> dict[str, set[str]]:
    """Each folder above a shown path (and inside none), with the entries leading on to them."""
    ways: dict[str, set[str]] = {}
    for path in shown:
        for folder, below in zip(path.parents, [path, *path.parents]):
            ways.setdefault(str(folder), set()).add(below.name)
    return ways


async def look(sandbox, listeners: Listeners, paths: list[str]) -> dict:
    spec = BotSpec("looker", (*LOOKER, str(listeners.tcp.getsockname()[1]), listeners.unix_path, *paths), cwd=BOTS)
    async with open_bot_process(spec, sandbox) as bot:
        with trio.fail_after(30):  # a guard, not a measure
            await bot.process.wait()
    return json.loads(bot.stderr.tail().splitlines()[-1])


@needs_bwrap
async def test_under_bubblewrap_a_bot_reaches_no_network_no_host_socket_and_sees_only_its_view(listeners, tmp_path):
    marker = Path(tempfile.mkdtemp(prefix="pirate-arena-marker-"))  # a folder of the host's /tmp
    marker.chmod(0o755)
    try:
        sandbox = detect_sandbox("auto")
        try:
            found = await look(sandbox, listeners, ["/run", "/var", "/home", "/root/.bashrc", "/sys/fs/cgroup",
                                                    "/etc/shadow", "/opt", "/mnt", str(marker)])
        finally:
            sandbox.close()
    finally:
        marker.rmdir()
    assert listeners.reached() == []
    assert found["stdout_reconnect"].startswith("refused") and found["new_socket"].startswith("refused")
    assert found["unix_socket"].startswith("refused")
    # A place it must not see may hold the path down to what it is shown (the arena's
    # packages and Python, its own folder: a clone under /home or /tmp), and nothing else.
    on_the_way = _on_the_way_to(shown_paths(LOOKER, BOTS, {}))
    assert {path: there for path, there in found["paths"].items() if path not in on_the_way} == {
        path: False for path in found["paths"] if path not in on_the_way}
    assert {folder: names for folder, names in found["inside"].items() if folder in on_the_way} == {
        folder: sorted(on_the_way[folder]) for folder in found["inside"] if folder in on_the_way}
    assert not {"run", "var", "home", "opt", "mnt", "srv", "boot", "media"} & set(found["ls /"]) - set(on_the_way["/"])
    assert set(found["ls /tmp"]) == set(on_the_way.get("/tmp", ()))
    assert found["write /"] == "refused: Read-only file system"
    # its PATH: its program's folder, and the organiser's entries in the system's folders (a
    # normal user's on Debian include /usr/games), never the organiser's own
    assert all(of_the_system(Path(entry)) or entry == str(Path(sys.executable).parent)
               for entry in found["path"].split(":")), found["path"]


async def test_without_bubblewrap_a_bot_reaches_no_network_and_no_host_socket(listeners):
    sandbox = detect_sandbox("none")
    try:
        if sandbox.seccomp is None and not sandbox.private_network:
            pytest.skip(f"neither a system-call filter ({sandbox.seccomp_missing}) nor a private network here")
        found = await look(sandbox, listeners, [])
    finally:
        sandbox.close()
    assert listeners.reached() == []
    assert found["stdout_reconnect"].startswith("refused")
    if sandbox.seccomp is not None:  # without bubblewrap only the filter keeps new sockets in
        assert found["stdout_dissolve"] == "refused: Operation not permitted"
        assert found["new_socket"].startswith("refused") and found["unix_socket"].startswith("refused")


@as_root
async def test_a_root_arena_makes_stdout_reach_nothing_even_without_the_filter(listeners):
    sandbox = detect_sandbox("none")
    try:
        sandbox.seccomp = None  # as on a machine without a table for the filter
        assert sandbox.private_network
        found = await look(sandbox, listeners, [])
    finally:
        sandbox.close()
    assert found["stdout_dissolve"] == "done" and found["stdout_reconnect"].startswith("refused")
    assert "escaped through stdout" not in listeners.reached()


async def test_stdout_sockets_are_made_in_the_private_namespace_and_the_arena_stays_in_its_own():
    sandbox = detect_sandbox("none")
    try:
        if sandbox.loopback is None:
            pytest.skip("this arena may not make a network namespace (needs root)")
        home = os.readlink("/proc/thread-self/ns/net")
        with sandbox.loopback.inside():
            private = os.readlink("/proc/thread-self/ns/net")
        assert private != home and os.readlink("/proc/thread-self/ns/net") == home
    finally:
        sandbox.close()


def test_a_file_on_the_command_line_shows_its_folder_but_never_the_hosts_tmp_or_a_folder_named():
    shared = Path(tempfile.mkdtemp(prefix="pirate-arena-shared-"))
    alone = Path(tempfile.gettempdir()) / f"pirate-arena-bot-{uuid.uuid4().hex[:8]}.py"
    try:
        (shared / "deep").mkdir()
        script = shared / "deep" / "bot.py"
        script.write_text("")
        alone.write_text("")
        arguments = view(["/usr/bin/python3", str(script), str(alone), "/home", "/var", str(shared)], Path("/usr"),
                         {"PATH": "/usr/bin"})
        shown = [arguments[i + 1] for i, word in enumerate(arguments) if word in ("--ro-bind", "--bind")]
        # a script with the modules beside it; a file of /tmp itself alone; no folder named there
        assert str(script.parent) in shown and str(alone) in shown
        assert not {str(shared), tempfile.gettempdir(), "/home", "/var", "/"} & set(shown)
    finally:
        shutil.rmtree(shared)
        alone.unlink()


def test_a_bots_path_names_only_its_programs_folder_and_the_systems():
    organiser = "/root/.pyenv/shims:/home/alice/bin:/usr/local/bin:/usr/bin:/bin:/etc:relative"
    assert bot_path(["/usr/bin/python3"], Path("/"), {"PATH": organiser}) == "/usr/local/bin:/usr/bin:/bin"
    assert bot_path(["/opt/node/bin/node"], Path("/"), {"PATH": organiser}) == "/opt/node/bin:/usr/local/bin:/usr/bin:/bin"


@needs_bwrap
@as_root
@pytest.mark.parametrize("parent", ["/home", "/var/tmp", "/tmp"])
def test_the_view_holds_for_a_clone_under_a_home_var_tmp_or_tmp(parent):
    """Issue 33: the view test failed for a checkout under /home, where the arena's packages
    are: a copy of the project there passes it (the path down to them, and nothing beside)."""
    root = Path(__file__).resolve().parents[2]
    top = Path(tempfile.mkdtemp(prefix="pirate-arena-clone-", dir=parent))
    try:
        top.chmod(0o755)
        ignore = shutil.ignore_patterns("__pycache__", "*.db", "node_modules", "target", "*.class")
        for name in ("arena", "engines", "protocol", "bots", "envs", "tests"):
            shutil.copytree(root / name, top / name, ignore=ignore)
        shutil.copy(root / "pyproject.toml", top / "pyproject.toml")
        result = subprocess.run(
            # -n 0: the one test in this process, not in two xdist workers of pyproject's addopts
            # (each would start and import the suite again, for nothing the view depends on).
            [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
             "tests/arena/test_sandbox_view.py", "tests/arena/test_manifest_view.py",
             "-k", "sees_only_its_view or never_shows_the_root"],
            # The copy imports itself (its folder comes first on sys.path with -m); an organiser's
            # PYTHONPATH would be shown to bots whole.
            cwd=top, capture_output=True, text=True, timeout=300,
            env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"})
    finally:
        shutil.rmtree(top)
    # both views, the manifest's and the one built without a manifest (1 + 3 cases): a test
    # renamed away from the -k words would otherwise drop out of this check unnoticed
    assert result.returncode == 0 and "4 passed" in result.stdout.splitlines()[-1], result.stdout[-3000:]


@needs_bwrap
def test_a_python_bot_runs_from_the_virtual_environment_the_readme_makes():
    """The README's venv (``python3.11 -m venv .venv``): its ``bin/python`` is a link to
    ``python3.11`` beside it, that one a link to the interpreter. A view showing the first and
    the last left the first dangling: every Python bot failed with "No such file or directory".

    The venv is made under /home (as root; a normal user's own home otherwise), and sees the
    packages of the interpreter running the suite through a ``.pth`` file: made with
    ``--system-site-packages`` from a suite run inside a venv, as README command 2 is, it saw
    the *base* interpreter's packages instead, without typer (issue 43)."""
    top = Path(tempfile.mkdtemp(prefix="pirate-arena-venv-", dir="/home" if os.geteuid() == 0 else Path.home()))
    try:
        top.chmod(0o755)
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(top / ".venv")], check=True, timeout=120)
        python = top / ".venv" / "bin" / "python"
        assert python.is_symlink() and (top / ".venv" / "bin" / os.readlink(python)).is_symlink()
        inner = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                               capture_output=True, text=True, check=True).stdout.strip()
        outer = [path for path in site.getsitepackages() if os.path.isdir(path)]
        Path(inner, "suite.pth").write_text("".join(f"import site; site.addsitedir({path!r})\n" for path in outer))
        root = Path(__file__).resolve().parents[2]
        # The bug was every Python bot failing to start, which any game shows: Karibik at one game
        # per variant is check-bot's cheapest (3 games; Dead Man's Draw played 44, looking for a
        # kind of decision a random bot seldom meets).
        result = subprocess.run([str(python), "-m", "arena.cli", "check-bot", "examples/bots/py-random.toml",
                                 "--game", "karibik", "--games-per", "1"], cwd=root, capture_output=True, text=True,
                                timeout=300, env={**os.environ, "PATH": f"{python.parent}:{os.environ['PATH']}"})
    finally:
        shutil.rmtree(top)
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == "result: PASS", (
        result.stdout[-2000:] + result.stderr[-2000:])
