"""``arena init``: the quickstart written from the package's data, equal to the clone's
``examples/``, refused over an existing file, and working from a wheel installed outside the
clone (slow: the wheel is built)."""

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

from arena.cli._quickstart import FILES, TOURNAMENT
from arena.tournament._config import load_config

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SHIPPED = ROOT / "arena" / "cli" / "quickstart"


def arena(*args, cwd=None, executable="arena"):
    return subprocess.run([executable, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_the_shipped_files_are_the_clones_examples():
    # The package's copies (arena/cli/quickstart/) and examples/ must not drift apart.
    shipped = sorted(str(path.relative_to(SHIPPED)) for path in SHIPPED.rglob("*") if path.is_file()
                     and "__pycache__" not in path.parts)
    assert shipped == sorted(FILES)
    for name in FILES:
        assert (SHIPPED / name).read_bytes() == (EXAMPLES / name).read_bytes(), \
            f"examples/{name} changed: copy it over arena/cli/quickstart/{name}"
    # `arena init` drops "examples/" from the paths the files name: each must be one it writes.
    named = {match for name in FILES for match in re.findall(r"examples/([\w./-]*\w)", (SHIPPED / name).read_text())}
    assert named and named <= set(FILES), named


def test_init_writes_a_tournament_the_arena_loads(tmp_path):
    folder = tmp_path / "new" / "quick start"  # made with its parents; a space is quoted
    result = arena("init", folder)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "wrote " + ", ".join(str(folder / name) for name in FILES),
        f"run the tournament with: arena tournament run '{folder / TOURNAMENT}'"]
    config = load_config(folder / TOURNAMENT)
    assert [spec.name for spec in config.entrants] == ["py-random", "py-heuristic", "py-search"]
    # the bots of the installed package, run with the arena's own interpreter
    assert [spec.command for spec in config.entrants] == [
        ("python", "-m", f"bots.{bot}") for bot in ("random", "heuristic", "search")]
    assert config.database == folder / "quickstart.db"
    assert "examples/" not in (folder / TOURNAMENT).read_text()
    load_config(folder / "tournament-reference.toml")  # every key, its default


def test_init_without_a_folder_writes_here(tmp_path):
    result = arena("init", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "run the tournament with: arena tournament run quickstart.toml"
    assert sorted(str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*.toml")) == sorted(FILES)


def test_init_overwrites_nothing(tmp_path):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "py-search.toml").write_text("mine")
    result = arena("init", tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (f"error: {tmp_path / 'bots' / 'py-search.toml'} already exists; nothing was written "
                             f"(give another folder: arena init FOLDER)\n")
    assert [path.name for path in tmp_path.rglob("*") if path.is_file()] == ["py-search.toml"]
    assert (tmp_path / "bots" / "py-search.toml").read_text() == "mine"


def test_init_into_a_file_is_one_line(tmp_path):
    (tmp_path / "taken").write_text("")
    result = arena("init", tmp_path / "taken")
    assert (result.returncode, result.stderr) == (
        2, f"error: {tmp_path / 'taken'} is not a folder; give a folder for the quickstart's files\n")


@pytest.mark.slow
def test_a_wheel_installed_outside_the_clone_starts_from_arena_init():
    """Build the wheel offline (`python -m build --wheel --no-isolation`, from a copy of the
    sources, so the clone gets no build/ folder), install it into a fresh virtual environment
    whose dependencies come from this one, and from a folder outside the clone: `arena init`,
    the tournament loaded, one game between two of the bots it wrote."""
    for module in ("build", "setuptools", "wheel"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"building the wheel needs {module}: pip install -e '.[test]'")
    # Readable by every uid: as root, the bots run as a uid of their own (docs/sandbox.md).
    scratch = Path(tempfile.mkdtemp(prefix="pirate-arena-wheel-", dir="/tmp"))
    scratch.chmod(0o755)
    try:
        source = scratch / "source"
        source.mkdir()
        for name in ("pyproject.toml", "README.md"):
            shutil.copy(ROOT / name, source / name)
        for package in ("engines", "protocol", "arena", "bots", "envs"):
            shutil.copytree(ROOT / package, source / package,
                            ignore=shutil.ignore_patterns("__pycache__", "node_modules", "*.egg-info"))
        built = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
                                scratch / "dist", source], capture_output=True, text=True, timeout=300)
        assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
        [wheel] = (scratch / "dist").glob("pirate_arena-*.whl")

        venv = scratch / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True, timeout=120)
        python = venv / "bin" / "python"
        purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        # The dependencies from this environment: a .pth line adds its folder without running
        # the .pth files there (the clone's editable install among them), so only the wheel's
        # arena can be imported.
        Path(purelib, "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
        installed = subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps",
                                    "--no-index", wheel], capture_output=True, text=True, timeout=300)
        assert installed.returncode == 0, installed.stderr

        work = scratch / "work"
        work.mkdir()
        env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}

        def run(*args: object) -> subprocess.CompletedProcess:
            return subprocess.run(list(map(str, args)), capture_output=True, text=True, cwd=work, env=env, timeout=120)

        where = run(python, "-c", "import arena, bots; print(arena.__file__); print(bots.__file__)")
        assert all(line.startswith(purelib) for line in where.stdout.splitlines()), where.stdout + where.stderr
        result = run(venv / "bin" / "arena", "init", "quickstart")
        assert (result.returncode, result.stderr) == (0, "")
        assert result.stdout.splitlines()[-1] == "run the tournament with: arena tournament run quickstart/quickstart.toml"
        loaded = run(python, "-c", "from arena.tournament._config import load_config\n"
                                   "print([spec.name for spec in load_config('quickstart/quickstart.toml').entrants])")
        assert loaded.stdout == "['py-random', 'py-heuristic', 'py-search']\n", loaded.stderr
        game = run(venv / "bin" / "arena", "match", "dead-mans-draw", "quickstart/bots/py-random.toml",
                   "quickstart/bots/py-heuristic.toml", "--sandbox", "none", "--format", "json")
        assert game.returncode == 0, game.stderr
        outcome = json.loads(game.stdout)
        assert outcome["faults"] == [], outcome
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
