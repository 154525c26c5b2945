"""The command line's rough edges found by trying it as a new user would (issue 27, section 3):
inputs that ended in a traceback, messages that misled, defaults that differed between
commands, help without examples, and a bot that faulted in every game of a quiet run.

Each message is asserted whole: the point of these tests is the wording."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from arena.cli._app import app

from ._warnings import without_sandbox_warnings

R = "python -m bots.random"
DMD = "dead-mans-draw"
BOTS = Path(__file__).resolve().parent / "bots"


def arena(*args, columns: int = 100):
    return CliRunner().invoke(app, [str(arg) for arg in args], prog_name="arena", env={"COLUMNS": str(columns)})


def error_line(result) -> str:
    """The one ``error:`` line of a user mistake (exit code 2, nothing else printed)."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert result.stdout == "" and "Traceback" not in result.stderr, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0].removeprefix("error: ")


def tournament_file(folder: Path, extra: str = "", entrants: str | None = None, name: str = "t.toml") -> Path:
    if entrants is None:
        entrants = f'[[entrants]]\nname = "r0"\ncommand = "{R}"\n\n[[entrants]]\nname = "r1"\ncommand = "{R}"\n'
    path = folder / name
    path.write_text(f'game = "{DMD}"\nplayers = 2\nrounds = 1\nseed = 3\nconcurrency = 2\n{extra}\n'
                    f'[options]\ncharacters = false\n\n{entrants}', encoding="utf-8")
    path.chmod(0o600)
    return path


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A real results database of a finished two-entrant tournament."""
    folder = tmp_path_factory.mktemp("edges")
    path = tournament_file(folder)
    subprocess.run(["arena", "tournament", "run", str(path), "-q", "--sandbox", "none"], check=True,
                   capture_output=True, cwd=folder, timeout=300)
    return folder / "t.db"


# -- 1. tracebacks ------------------------------------------------------------------------------

def test_an_entrant_manifest_that_is_a_number(tmp_path):
    path = tournament_file(tmp_path, entrants=f'[[entrants]]\nmanifest = 5\n\n[[entrants]]\ncommand = "{R}"\n')
    assert error_line(arena("tournament", "run", path)) == (
        f"{path}: entrant 1: 'manifest' must be a string (the manifest's path), got the number 5")


@pytest.mark.parametrize("update", ["UPDATE meta SET value = '{broken' WHERE key = 'config'",
                                    "DELETE FROM meta WHERE key = 'config'",
                                    "DELETE FROM meta WHERE key = 'config_path'"])
def test_resume_of_a_database_whose_configuration_is_broken(played, tmp_path, update):
    db = tmp_path / "broken.db"
    shutil.copy(played, db)
    with sqlite3.connect(db) as connection:
        connection.execute(update)
    assert error_line(arena("tournament", "resume", db)) == (
        f"{db}: the tournament's configuration stored in it is missing or unreadable; "
        f"its standings, reports and exports still work, but it cannot be resumed or extended")


# -- 3. messages that misled --------------------------------------------------------------------

def test_a_script_that_is_not_executable(tmp_path):
    script = tmp_path / "bot.py"
    script.write_text("#!/usr/bin/env python3\n")
    script.chmod(0o644)
    (tmp_path / "bot.toml").write_text('command = "./bot.py"\n')
    line = error_line(arena("match", DMD, tmp_path / "bot.toml", R, "--sandbox", "none"))
    assert line == (f"bot 'bot' cannot start: could not start: {script} is not executable (mode 0644): "
                    f"make it so (chmod +x {script}) or start it with its interpreter ('command = \"python bot.py\"')")
    assert "--allow-root " not in line and not line.endswith("--allow-root")


def test_a_memory_limit_out_of_range_is_refused_when_the_manifest_is_read(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(f'command = "{R}"\n[limits]\nmemory_mb = 9223372036854775807\n')
    assert error_line(arena("match", DMD, path, R)) == (
        f"{path}: 'limits.memory_mb' must be an integer in 0..16777216 (0 = no limit), got 9223372036854775807")


@pytest.mark.parametrize("key,value,high", [("cpu_s", 2**40, 2**31 - 1), ("processes", 2**40, 4194304),
                                            ("open_files", 2**40, 1048576), ("file_size_mb", -1, 16777216)])
def test_every_limit_has_a_range(tmp_path, key, value, high):
    path = tmp_path / "limits.toml"
    path.write_text(f'command = "{R}"\n[limits]\n{key} = {value}\n')
    assert error_line(arena("match", DMD, path, R)) == (
        f"{path}: 'limits.{key}' must be an integer in 0..{high} (0 = no limit), got {value}")


def test_a_cwd_that_names_a_file(tmp_path):
    (tmp_path / "afile").write_text("")
    path = tmp_path / "bot.toml"
    path.write_text(f'command = "{R}"\ncwd = "afile"\n')
    assert error_line(arena("match", DMD, path, R, "--sandbox", "none")) == (
        f"bot 'bots.random (seat 0)' cannot start: could not start: its folder (cwd) {tmp_path / 'afile'} "
        f"is a file, not a folder")


def test_a_manifest_path_that_is_a_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dir.toml").mkdir()
    assert error_line(arena("match", DMD, "dir.toml", R)) == "dir.toml: is a folder, not a manifest file"


@pytest.mark.parametrize("command", [["standings"], ["tournament", "resume"], ["export"], ["report"]])
def test_a_database_path_that_is_a_folder(tmp_path, command):
    folder = tmp_path / "dir.db"
    folder.mkdir()
    assert error_line(arena(*command, folder)) == f"{folder}: is a folder, not a database"


def test_an_empty_database_path(tmp_path):
    path = tournament_file(tmp_path, extra='database = ""')
    assert error_line(arena("tournament", "run", path)) == (
        f"{path}: key 'database' must be a file path, got an empty string")


def test_an_unbalanced_quote_in_a_command(tmp_path):
    path = tmp_path / "bot.toml"
    path.write_text("command = \"python 'x\"\n")
    assert error_line(arena("match", DMD, path, R)) == (
        f"{path}: 'command' has an unbalanced quote: \"python 'x\"")


def test_an_unbalanced_quote_on_the_command_line():
    assert error_line(arena("match", DMD, "python 'bot.py", R)) == (
        "bot command \"python 'bot.py\" has an unbalanced quote")


@pytest.mark.parametrize("value,shown", [("5", "the number 5"), ("true", "true"), ("[1]", "a list"),
                                         ("1.5", "the number 1.5"), ("{a = 1}", "a table")])
def test_a_name_that_is_not_a_string(tmp_path, value, shown):
    path = tmp_path / "bot.toml"
    path.write_text(f'command = "{R}"\nname = {value}\n')
    assert error_line(arena("match", DMD, path, R)) == f"{path}: 'name' must be a string, got {shown}"


def test_a_key_of_the_wrong_type_says_string_not_str(tmp_path):
    path = tournament_file(tmp_path).read_text().replace(f'game = "{DMD}"', "game = 5")
    (tmp_path / "t.toml").write_text(path)
    assert error_line(arena("tournament", "run", tmp_path / "t.toml")) == (
        f"{tmp_path / 't.toml'}: key 'game' must be a string, got the number 5")


def test_one_entrant_is_singular(tmp_path):
    path = tournament_file(tmp_path, entrants=f'[[entrants]]\ncommand = "{R}"\n')
    assert error_line(arena("tournament", "run", path)) == (
        f"{path}: key 'entrants' has 1 entrant but a table has 2 seats")


@pytest.mark.parametrize("text,reason", [
    ("hello\n", "not JSON (Expecting value: line 1 column 1)"),
    ("{}", "no 'replay' object"),
    ("[1, 2]", "not a JSON object"),
    ('{"replay": {"game": "dead-mans-draw", "players": 2, "seed": 1, "options": {}}}', "its replay has no 'steps'"),
    ('{"replay": {"game": "dead-mans-draw", "players": "two", "seed": 1, "options": {}, "steps": []}}',
     "its replay's 'players' is not an integer"),
])
def test_replay_errors_name_no_python_exception(tmp_path, text, reason):
    path = tmp_path / "x.json"
    path.write_text(text)
    for command in (["replay", path], ["view", path, "-o", tmp_path / "g.html"],
                    ["board", "karibik", "--replay", path]):
        assert error_line(arena(*command)) == f"{path}: not a replay file ({reason})"


def test_a_replay_path_that_is_a_folder_is_named_once(tmp_path):
    assert error_line(arena("replay", tmp_path)) == f"{tmp_path}: is a folder, not a replay file"


def test_a_corrupt_stored_replay_names_no_python_exception(played, tmp_path):
    db = tmp_path / "corrupt.db"
    shutil.copy(played, db)
    with sqlite3.connect(db) as connection:
        key = connection.execute("SELECT key FROM games ORDER BY key").fetchone()[0]
        connection.execute("UPDATE games SET replay = x'80' WHERE key = ?", (key,))
    line = error_line(arena("replay", db, key))
    assert line == f"{db}: the replay of game {key!r} is corrupt (it has no 'game')"


# -- 5. one set of defaults ---------------------------------------------------------------------

def test_every_command_has_the_tournament_files_time_defaults(tmp_path):
    from arena.players._timecontrol import TimeControl
    from arena.tournament._config import load_config

    config = load_config(tournament_file(tmp_path)).settings.time_control
    assert config == TimeControl()
    for command in ("match", "check-bot"):
        params = {p.name: p.default for p in typer.main.get_command(app).commands[command].params}
        assert int(params["move_ms"]) == config.move_ms
        assert int(params["reserve_ms"]) == config.reserve_ms
        assert int(params["startup_ms"]) == config.startup_ms


def test_check_bot_says_which_time_control_it_checked_at():
    result = subprocess.run(["arena", "check-bot", R, "--game", "karibik", "--games-per", "1", "--sandbox", "none"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1] == (
        "time control: move 1000 ms, reserve 0 ms, startup 10000 ms (a tournament file's defaults; "
        "--move-ms, --reserve-ms, --startup-ms to check at others)")


# -- 6. help ------------------------------------------------------------------------------------

def _leaves():
    stack = [([], typer.main.get_command(app))]
    while stack:
        path, command = stack.pop()
        subs = getattr(command, "commands", {})
        if not subs:
            yield path
        stack += [([*path, name], sub) for name, sub in subs.items()]


LEAVES = sorted(_leaves())


@pytest.mark.parametrize("path", LEAVES, ids=" ".join)
def test_every_command_has_an_example(path):
    result = arena(*path, "--help")
    assert result.exit_code == 0
    examples = re.search(r"\n Examples?: *\n((?:  +arena .+\n)+)", result.stdout)
    assert examples, result.stdout
    for line in examples[1].splitlines():
        assert line.strip().startswith(f"arena {' '.join(path)}"), line


def _description(text: str) -> list[list[str]]:
    """The paragraphs of a help page's description (between the usage line and the first box),
    without the examples."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if "Usage:" in line) + 1
    end = next(i for i, line in enumerate(lines) if line.startswith("╭"))
    paragraphs, current = [], []
    for line in [*lines[start:end], ""]:
        if line.strip():
            current.append(line.rstrip())
        elif current:
            paragraphs.append(current)
            current = []
    return [p for p in paragraphs if not re.match(r" Examples?:", p[0])]


@pytest.mark.parametrize("columns", [60, 100, 160])
@pytest.mark.parametrize("path", LEAVES, ids=" ".join)
def test_help_paragraphs_wrap_at_the_terminals_width(path, columns):
    """Each line but a paragraph's last is as full as the terminal allows: the next word would
    not have fitted (a line break kept from the source leaves a short line mid-paragraph)."""
    result = arena(*path, "--help", columns=columns)
    for paragraph in _description(result.stdout):
        for line, following in zip(paragraph, paragraph[1:]):
            next_word = following.split()[0]
            assert len(line) + 1 + len(next_word) > columns - 1, (columns, line, following)


def _command(path: tuple[str, ...]):
    import typer.main

    command = typer.main.get_command(app)
    for word in path:
        command = command.commands[word]
    return command


@pytest.mark.parametrize("path", LEAVES, ids=" ".join)
def test_option_values_are_never_split_at_80_columns(path):
    """What an option takes (its metavar: ``POLICY``, ``table|json``) stands whole on one line of
    the help at 80 columns: a long list of choices broke mid-word (``substi``/``tute``)."""
    from arena.cli._common import _metavar_of

    text = arena(*path, "--help", columns=80).stdout
    cells = {cell.strip() for line in text.splitlines() for cell in re.split(r"\s{2,}|│", line)}
    for param in _command(path).params:
        label = _metavar_of(param)
        if label and not param.hidden and param.param_type_name == "option":
            assert label in cells, (param.name, label, text)


def test_one_vocabulary_game_is_a_game_id_and_key_a_stored_games_key(played, tmp_path):
    for command in ("view", "board"):
        text = arena(command, "--help").stdout
        assert "--key" in text and "--game" not in text
    key = sqlite3.connect(played).execute("SELECT key FROM games ORDER BY key").fetchone()[0]
    for option in ("--key", "--game"):  # the old spelling still works
        out = tmp_path / f"{option[2:]}.html"
        result = arena("view", played, option, key, "-o", out)
        assert result.exit_code == 0, result.output
        assert out.exists()
    assert "KEY" in arena("replay", "--help").stdout


@pytest.mark.parametrize("command", [["compare", "{db}", "r0", "r1"], ["sprt", "{db}", "r0", "r1"]])
def test_one_set_of_format_names(played, command):
    args = [a.replace("{db}", str(played)) for a in command]
    assert "table|json" in arena(command[0], "--help").stdout
    table = arena(*args, "--format", "table")
    assert table.exit_code in (0, 1, 3) and table.stdout
    assert arena(*args, "--format", "text").stdout == table.stdout  # the old name still works
    assert json.loads(arena(*args, "-f", "json").stdout)
    assert error_line(arena(*args, "--format", "xml")) == (
        f"invalid value for '--format' / '-f': 'xml' is not one of 'table', 'json' (see 'arena {command[0]} --help')")


# -- 8. a bot that faulted in every game --------------------------------------------------------

ILLEGAL = f"""\
import sys
sys.path.insert(0, {str(BOTS)!r})
from _frames import receive, send
receive()
send({{"type": "hello", "protocol": "1.0", "name": "illegal", "version": "1", "games": []}})
while True:
    message = receive()
    if message["type"] == "bye":
        sys.exit(0)
    if message["type"] == "request":
        send({{"type": "action", "id": message["id"], "action": "definitely-not-legal"}})
"""


def test_a_bot_that_faulted_in_every_game_of_a_quiet_run_is_named(tmp_path):
    # As root the bot runs under a uid of its own: its folder must be open to others.
    tmp_path = Path(tempfile.mkdtemp(prefix="pirate-arena-faulting-"))
    tmp_path.chmod(0o755)
    (tmp_path / "illegal.py").write_text(ILLEGAL)
    path = tournament_file(tmp_path, entrants=f'[[entrants]]\nname = "good"\ncommand = "{R}"\n\n'
                                              f'[[entrants]]\nname = "bad"\ncommand = "python illegal.py"\n')
    result = subprocess.run(["arena", "tournament", "run", str(path), "-q", "--sandbox", "none"],
                            capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr
    # the machine's sandbox warnings (as a normal user) aside, the run's one warning names it
    warnings = [line for line in without_sandbox_warnings(result.stderr).splitlines() if line.startswith("warning:")]
    assert warnings == [f"warning: entrant 'bad' faulted in every one of its 2 games (illegal 2); "
                        f"see why with: arena report {tmp_path / 't.db'}"]
    shutil.rmtree(tmp_path)
