"""The ``arena`` command line: help, ``games``, ``match`` and ``replay``, and its error output
(one ``error:`` line on stderr, exit code 2, never a traceback)."""

import json
import re

import engines
import pytest
from typer.testing import CliRunner

from arena.cli._app import app

RANDOM = "python -m bots.random"


def arena(*args: str):
    # click >= 8.2 keeps stderr apart in result.stderr; result.output holds both streams.
    return CliRunner().invoke(app, [str(arg) for arg in args], prog_name="arena", env={"COLUMNS": "120"})


def assert_user_error(result, message: str | None = None, prefix: str | None = None) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    [line] = lines
    assert line.startswith("error: ")
    if message is not None:
        assert line == f"error: {message}"
    if prefix is not None:
        assert line.startswith(f"error: {prefix}")
    return line


# -- help and games -----------------------------------------------------------------------------

def test_help_lists_the_commands():
    result = arena("--help")
    assert result.exit_code == 0
    assert "Usage: arena [OPTIONS] COMMAND [ARGS]..." in result.stdout
    assert "pirate-arena: bot matches, tournaments and ratings" in result.stdout
    for command in ("games", "match", "replay"):
        assert f" {command} " in result.stdout


def test_no_arguments_shows_the_help():
    assert "Usage: arena [OPTIONS] COMMAND [ARGS]..." in arena().output


@pytest.mark.parametrize("command", ["games", "match", "replay"])
def test_command_help(command):
    result = arena(command, "--help")
    assert result.exit_code == 0
    assert f"Usage: arena {command}" in result.stdout


def test_match_help_documents_the_options():
    stdout = arena("match", "--help").stdout
    for option in ("--seed", "--option", "--move-ms", "--reserve-ms", "--startup-ms", "--fault-policy",
                   "--substitutions", "--replay", "--format", "--sandbox", "-h"):
        assert option in stdout
    assert "POLICY" in stdout and "forfeit, end-game or substitute" in stdout and "table|json" in stdout


def test_games_table_lists_every_registered_game():
    result = arena("games")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["id", "name", "players", "options", "(default)", "decisions"]
    first_words = [line.split()[0] for line in lines[2:] if line and not line.startswith(" ")]
    assert first_words == engines.game_ids()
    assert {"dead-mans-draw", "opito-bay"} <= set(first_words)


def test_games_json():
    result = arena("games", "--format", "json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert [row["id"] for row in rows] == engines.game_ids()
    for row in rows:
        game = engines.get_game(row["id"])
        assert row == {
            "id": game.id, "name": game.name, "players": f"{game.min_players}-{game.max_players}",
            "options": [f"{o.name}={json.dumps(o.default)}" for o in game.options],
            "decisions": sorted(game.decisions),
        }
    dead_mans_draw = rows[engines.game_ids().index("dead-mans-draw")]
    assert (dead_mans_draw["name"], dead_mans_draw["players"]) == ("Dead Man's Draw", "2-8")


# -- match: input errors (no bot is started) ----------------------------------------------------

def test_match_unknown_game():
    assert_user_error(arena("match", "no-such-game", RANDOM, RANDOM),
                      f"unknown game 'no-such-game'; known games: {', '.join(engines.game_ids())}")


def test_match_unknown_option():
    line = assert_user_error(arena("match", "dead-mans-draw", RANDOM, RANDOM, "--option", "nonsense=1"),
                             prefix="unknown option 'nonsense' for dead-mans-draw; known options: ")
    for option in engines.get_game("dead-mans-draw").options:
        assert repr(option.name) in line


def test_match_bad_option_value():
    assert_user_error(arena("match", "dead-mans-draw", RANDOM, RANDOM, "--option", "characters=3"),
                      "option 'characters' of dead-mans-draw must be true or false, got 3")


@pytest.mark.parametrize("pair", ["novalue", "=1", ""])
def test_match_malformed_option(pair):
    assert_user_error(arena("match", "dead-mans-draw", RANDOM, RANDOM, "--option", pair),
                      f"--option must look like NAME=VALUE, got {pair!r}")


def test_match_missing_manifest(tmp_path):
    missing = tmp_path / "missing.toml"
    assert_user_error(arena("match", "dead-mans-draw", missing, RANDOM), f"{missing}: no such manifest file")


def test_match_bad_manifest(tmp_path):
    manifest = tmp_path / "bot.toml"
    manifest.write_text('command = "x"\nport = 3\n')
    assert_user_error(arena("match", "dead-mans-draw", manifest, RANDOM), prefix=f"{manifest}: unknown key 'port'")


def test_match_manifest_with_an_unparsable_command(tmp_path):
    manifest = tmp_path / "bot.toml"
    manifest.write_text("command = 'python \"bot.py'\n")
    assert_user_error(arena("match", "dead-mans-draw", manifest, RANDOM),
                      f"{manifest}: 'command' has an unbalanced quote: \"python \\\"bot.py\"")


def test_match_unparsable_bot_command():
    assert_user_error(arena("match", "dead-mans-draw", "python 'bot.py", RANDOM),
                      "bot command \"python 'bot.py\" has an unbalanced quote")


def test_match_wrong_number_of_bots():
    assert_user_error(arena("match", "dead-mans-draw", RANDOM), "dead-mans-draw is for 2-8 players, not 1")


def test_match_unknown_fault_policy():
    assert_user_error(arena("match", "dead-mans-draw", RANDOM, RANDOM, "--fault-policy", "lenient"),
                      "invalid value for '--fault-policy': 'lenient' is not one of 'forfeit', 'end-game', "
                      "'substitute' (see 'arena match --help')")


@pytest.mark.parametrize("option,message", [
    ("--move-ms=0", "--move-ms must be an integer in 1..86400000, got 0"),
    ("--reserve-ms=-1", "--reserve-ms must be an integer in 0..86400000, got -1"),
    ("--startup-ms=0", "--startup-ms must be an integer in 1..600000, got 0"),
])
def test_match_bad_time_control(option, message):
    assert_user_error(arena("match", "dead-mans-draw", RANDOM, RANDOM, option), message)


def test_match_usage_error_is_one_line():
    line = assert_user_error(arena("match", "dead-mans-draw", RANDOM, RANDOM, "--seed", "five"))
    assert line == "error: --seed must be an integer in 0..9223372036854775807, got 'five'"


# -- match and replay with real bots ------------------------------------------------------------

MATCH = ("match", "dead-mans-draw", RANDOM, RANDOM, "--seed", "5", "--format", "json")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """One real match with --json and --replay: (outcome dict, replay file)."""
    replay = tmp_path_factory.mktemp("replay") / "game.json"
    result = arena(*MATCH, "--replay", replay)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), replay


def test_match_json_outcome(recorded):
    outcome, _ = recorded
    assert (outcome["game"], outcome["seed"], outcome["bots"]) == ("dead-mans-draw", 5, ["bots.random"] * 2)
    assert (outcome["faults"], outcome["reason"]) == ([], "normal")
    assert sorted(outcome["ranks"]) in ([1, 2], [1, 1])
    assert len(outcome["scores"]) == 2
    assert outcome["duration_s"] >= 0


def test_match_same_seed_again(recorded):
    """--seed fixes the deal; the bots' seeds come from a per-run random key (tests/arena/test_seeds.py)."""
    first, _ = recorded
    again = arena(*MATCH)
    assert again.exit_code == 0, again.output
    second = json.loads(again.stdout)
    assert (second["seed"], second["bots"], second["reason"]) == (first["seed"], first["bots"], "normal")


def test_replay_prints_the_game(recorded):
    outcome, replay = recorded
    result = arena("replay", replay)
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].startswith("dead-mans-draw, 2 players, seed 5, options {")
    assert lines[1:3] == ["  seat 0: bots.random", "  seat 1: bots.random"]
    assert lines[-1] == f"end: ranks {outcome['ranks']}, scores {outcome['scores']}"
    assert any(line.startswith("    1. bots.random (") for line in lines)


def test_match_table_output():
    result = arena("match", "opito-bay", RANDOM, RANDOM, "--seed", "2")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("opito-bay  seed 2  normal  ")
    assert lines[0].endswith(" s")
    assert lines[1].split() == ["seat", "bot", "rank", "score"]
    assert [line.split()[:2] for line in lines[3:5]] == [["0", "bots.random"], ["1", "bots.random"]]
    assert lines[5].startswith("bot seeds ")
    assert lines[6].startswith("the same game again: arena match opito-bay 'python -m bots.random' 'python -m bots.random' "
                               "--seed 2 --bot-seeds ")
    assert len(lines) == 7


def test_match_replay_to_an_unwritable_path(tmp_path):
    target = tmp_path / "no-such-folder" / "game.json"
    assert_user_error(arena("match", "dead-mans-draw", RANDOM, RANDOM, "--replay", target), prefix=f"{target}: ")


# -- replay: input errors -----------------------------------------------------------------------

def test_replay_of_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello\n")
    assert_user_error(arena("replay", path),
                      f"{path}: not a replay file (not JSON (Expecting value: line 1 column 1))")


@pytest.mark.parametrize("text,reason", [
    ("{}", "no 'replay' object"),
    ("[1, 2]", "not a JSON object"),
])
def test_replay_of_json_that_is_not_a_replay(tmp_path, text, reason):
    path = tmp_path / "other.json"
    path.write_text(text)
    assert_user_error(arena("replay", path), f"{path}: not a replay file ({reason})")


def test_replay_of_a_missing_file(tmp_path):
    path = tmp_path / "none.json"
    assert_user_error(arena("replay", path), f"{path}: cannot read (No such file or directory)")


def test_replay_of_an_unknown_game(recorded, tmp_path):
    _, replay = recorded
    data = json.loads(replay.read_text())
    data["replay"]["game"] = "no-such-game"
    path = tmp_path / "renamed.json"
    path.write_text(json.dumps(data))
    assert_user_error(arena("replay", path), prefix="unknown game 'no-such-game'")


# -- conventions of every command ---------------------------------------------------------------

def _commands():
    import typer.main

    root = typer.main.get_command(app)
    stack = [([], root)]
    while stack:
        path, command = stack.pop()
        yield path, command
        stack += [([*path, name], sub) for name, sub in getattr(command, "commands", {}).items()]


@pytest.mark.parametrize("path,command", list(_commands()), ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_help_has_text_for_every_parameter_and_no_python_types(path, command):
    for param in command.params:
        assert param.help, f"arena {' '.join(path)}: {param.name} has no help text"
    result = arena(*path, "--help")
    assert result.exit_code == 0 and result.stderr == ""
    assert "<" not in result.stdout, result.stdout  # <str>, <int>, <bool>, <list[str]>, <path>
    assert re.search(r"--help\s+-h\s", result.stdout)
    if any(param.name == "output" for param in command.params):
        assert re.search(r"--output\s+-o\s", result.stdout)  # -o is always the output file
    else:
        assert not re.search(r"\s-o\s", result.stdout)


def test_games_starts_without_trio_numpy_or_the_store():
    # `arena games` and `arena --help` must start fast (issue 15: <= 0.3 s): the heavy modules
    # are imported only by the commands that use them.
    import subprocess
    import sys

    code = ("import sys\nfrom arena.cli import main\nsys.argv = ['arena', 'games']\ntry:\n    main()\n"
            "except SystemExit:\n    pass\nheavy = ('trio', 'numpy', 'pydantic', 'arena.tournament._store', "
            "'arena.ratings', 'arena.report', 'arena.tournament._runner', 'dask', 'distributed', 'urllib.request', "
            "'http.client', 'arena.cli._tournament', 'arena.cli._ratings', 'arena.cli._report', 'arena.cli._ladder', "
            "'arena.cli._play', 'arena.play', 'starlette', 'hypercorn')\n"
            "print(sorted(m for m in heavy if m in sys.modules), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    loaded = result.stderr.strip()
    import typer

    expected = "['pydantic']" if typer.__version__.startswith("0.29") else "[]"  # typer 0.29 parses with pydantic
    assert loaded == expected


def test_command_modules_add_exactly_the_commands_the_table_names():
    # main() imports only the module that adds the command typed (arena.cli._app.COMMAND_MODULES);
    # a command missing from the table would be "no such command" unless every module loaded.
    import importlib

    import typer

    from arena.cli import _app as _cli

    for module, names in _cli.COMMAND_MODULES.items():
        probe = typer.Typer()
        importlib.import_module(f"arena.cli.{module}").register(probe)
        added = [command.name for command in probe.registered_commands] + [group.name for group in probe.registered_groups]
        assert sorted(added) == sorted(names), module
    core = [command.name for command in _cli._app.registered_commands
            if command.callback.__module__ == "arena.cli._app"]
    assert sorted(core) == sorted(_cli.CORE_COMMANDS)


@pytest.mark.parametrize("args, loaded", [
    (["games"], []),
    (["tournament", "--help"], ["_tournament"]),
    (["export", "--help"], ["_tournament"]),
    (["sprt", "--help"], ["_ratings"]),
    (["view", "--help"], ["_report"]),
    (["ladder", "--help"], ["_ladder"]),
    (["rerun", "--help"], ["_rerun"]),
    (["play", "--help"], ["_play"]),
    (["init", "--help"], ["_quickstart"]),
    (["--help"], ["_ladder", "_play", "_quickstart", "_ratings", "_report", "_rerun", "_tournament"]),
    (["nosuch"], ["_ladder", "_play", "_quickstart", "_ratings", "_report", "_rerun", "_tournament"]),
])
def test_main_loads_the_command_modules_the_line_needs(args, loaded):
    import subprocess
    import sys

    code = (f"import sys\nfrom arena.cli import main\nsys.argv = ['arena', *{args!r}]\ntry:\n    main()\n"
            "except SystemExit:\n    pass\nprint(sorted(m[10:] for m in sys.modules if m.startswith('arena.cli._') "
            "and m not in ('arena.cli._app', 'arena.cli._common')), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stderr.strip().splitlines()[-1] == repr(loaded), result.stderr
