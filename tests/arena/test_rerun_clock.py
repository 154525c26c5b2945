"""Reproduction a user believes (issue 33): the line ``arena match`` prints to play the same
game again is a whole command that does; a search bot with a fixed budget (``--nodes N``)
reruns exactly; a rerun that departs where a clock-bound bot chose otherwise says so. Real
processes throughout."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from arena.tournament._store import ResultsStore

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "examples" / "bots" / "py-random.toml"
WHY = ("  why: seat {seat} (moody) budgets its thinking by the clock (its hello says clock_bound), so the same seeds "
       "need not give the same choices; a fixed budget replays exactly (the search bots: --nodes N)")


def arena(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env={**os.environ, "COLUMNS": "200", "PYTHONPATH": str(ROOT)})


def steps_of(replay_file: Path) -> list:
    return json.loads(replay_file.read_text())["replay"]["steps"]


def stored_keys(database: Path) -> list[str]:
    store = ResultsStore.open(database)
    try:
        return [game.key for game in store.games()]
    finally:
        store.close()


def tournament(folder: Path, entrants: list[Path], game: str = "dead-mans-draw") -> Path:
    lines = [f'game = "{game}"', "players = 2", "rounds = 1", "seed = 3", 'database = "t.db"',
             "[time]", "move_ms = 5000", "reserve_ms = 5000"]
    for manifest in entrants:
        lines += ["[[entrants]]", f'manifest = "{manifest}"']
    (folder / "t.toml").write_text("\n".join(lines) + "\n")
    result = arena("tournament", "run", str(folder / "t.toml"), "-q", "--sandbox", "none", "--workers", "1")
    assert result.returncode == 0, result.stderr
    return folder / "t.db"


def test_the_same_game_again_line_is_a_whole_command_that_plays_it(tmp_path):
    search = f"{sys.executable} -m bots.search --nodes 20"
    first = arena("match", "opito-bay", search, str(RANDOM), "--seed", "4", "--option", "deals=1",
                  "--move-ms", "4000", "--sandbox", "none", "--replay", str(tmp_path / "a.json"))
    assert first.returncode == 0, first.stderr
    seeds = json.loads((tmp_path / "a.json").read_text())["result"]["bot_seeds"]
    line = next(line for line in first.stdout.splitlines() if line.startswith("the same game again: "))
    command = line.removeprefix("the same game again: ")
    assert command == shlex.join(["arena", "match", "opito-bay", search, str(RANDOM), "--seed", "4", "--bot-seeds",
                                  ",".join(map(str, seeds)), "--option", "deals=1", "--move-ms", "4000",
                                  "--sandbox", "none"])
    assert "budgets by the clock" not in first.stdout  # --nodes: the bot did not say clock_bound
    argv = shlex.split(command)
    assert argv[0] == "arena"
    again = arena(*argv[1:], "--replay", str(tmp_path / "b.json"))
    assert again.returncode == 0, again.stderr
    assert len(steps_of(tmp_path / "a.json")) > 10 and steps_of(tmp_path / "a.json") == steps_of(tmp_path / "b.json")


def test_the_same_game_again_line_warns_of_a_clock_bound_seat():
    result = arena("match", "dead-mans-draw", str(RANDOM), f"{sys.executable} -m bots.search", "--seed", "2",
                   "--move-ms", "30", "--sandbox", "none")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    index = next(number for number, line in enumerate(lines) if line.startswith("the same game again: "))
    assert lines[index + 1] == ("  not exactly: seat 1 (bots.search) budgets by the clock (its hello says "
                                "clock_bound), so it may play otherwise; a fixed budget replays exactly (the "
                                "search bots: --nodes N)")


def test_a_search_bot_with_a_fixed_budget_reruns_exactly(tmp_path):
    (tmp_path / "search.toml").write_text('name = "py-search-nodes"\n'
                                          'command = ["python", "-m", "bots.search", "--nodes", "30"]\n')
    database = tournament(tmp_path, [tmp_path / "search.toml", RANDOM])
    keys = stored_keys(database)
    assert len(keys) == 2
    for key in keys:
        result = arena("rerun", str(database), key, "--sandbox", "none", "--format", "json")
        assert result.returncode == 0, result.stderr
        departure = json.loads(result.stdout)["departure"]
        assert departure[0].startswith("the same game as the stored one, action for action ("), departure


MOODY = """import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from bots.sdk import PolicyBot, run

here = Path(__file__).parent
def choose(request, rng):
    # What it plays depends on something outside its seeds (as a search's depth depends on the clock).
    return request.legal[-1 if (here / "mode").read_text() == "last" else 0]
run(PolicyBot("moody", {{"dead-mans-draw": choose}}, clock_bound="clock" in sys.argv))
"""


@pytest.fixture
def open_folder():
    """A folder others may read: as root, a bot runs under a uid of its own."""
    folder = Path(tempfile.mkdtemp(prefix="pirate-arena-moody-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


@pytest.mark.parametrize("clock_bound", [True, False])
def test_a_rerun_departing_at_a_clock_bound_seat_says_why(open_folder, clock_bound):
    tmp_path = open_folder
    (tmp_path / "moody.py").write_text(MOODY.format(root=str(ROOT)))
    (tmp_path / "mode").write_text("first")
    command = ["python", "moody.py", *(["clock"] if clock_bound else [])]
    (tmp_path / "moody.toml").write_text(f'name = "moody"\ncommand = {json.dumps(command)}\n')
    database = tournament(tmp_path, [tmp_path / "moody.toml", RANDOM])
    (tmp_path / "mode").write_text("last")
    key = stored_keys(database)[0]
    result = arena("rerun", str(database), key, "--sandbox", "none")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = next(number for number, line in enumerate(lines) if line.startswith("departs from the stored game"))
    seat = next(int(line.split()[1]) for line in lines[start + 1:] if "<- differs" in line)
    why = [line for line in lines if line.startswith("  why: ")]
    assert why == ([WHY.format(seat=seat)] if clock_bound else [])
    assert lines[-1].startswith("ranks: stored ")
