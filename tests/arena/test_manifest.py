"""Bot manifests and plain bot commands: every error message, cwd resolution, argv."""

import subprocess
import sys
from pathlib import Path

import pytest

from arena.players._manifest import BotSpec, ManifestError, load_manifest, log_name, manifest_from_dict, resolve_bot
from arena.sandbox._limits import Limits
from arena.tournament._config import ConfigError, load_config

KNOWN = "['build', 'command', 'cwd', 'env', 'games', 'limits', 'name']"
NAME_RULE = "1-64 characters from A-Z a-z 0-9 . _ + -, starting with a letter or digit"
CPUS = ("'limits.cpus' must be a number of cores from 0 to 1024, a fraction allowed "
        "(0 = as many as the organiser allows)")


def write(tmp_path: Path, text: str, name: str = "bot.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def error_of(call, *args) -> str:
    with pytest.raises(ManifestError) as caught:
        call(*args)
    return str(caught.value)


# -- load_manifest ------------------------------------------------------------------------------

def test_full_manifest(tmp_path):
    (tmp_path / "sub").mkdir()
    path = write(tmp_path, """
name = "py-random"
command = ["python", "-m", "bots.random"]
cwd = "sub"
games = ["dead-mans-draw"]
[env]
BOT_LEVEL = "3"
[limits]
memory_mb = 512
cpu_s = 0
""")
    assert load_manifest(path) == BotSpec(
        name="py-random", command=("python", "-m", "bots.random"), cwd=tmp_path / "sub",
        env={"BOT_LEVEL": "3"}, games=("dead-mans-draw",),
        limits=Limits(memory_mb=512, cpu_s=None))


def test_minimal_manifest_defaults(tmp_path):
    spec = load_manifest(write(tmp_path, 'command = "python bots/my_bot.py"'))
    assert spec == BotSpec(name="my_bot", command=("python", "bots/my_bot.py"), cwd=tmp_path)
    assert (spec.env, spec.games, spec.limits) == ({}, None, Limits())


def test_string_command_is_split_like_a_shell(tmp_path):
    spec = load_manifest(write(tmp_path, """command = "run 'my bot' --x=\\"a b\\"" """))
    assert spec.command == ("run", "my bot", "--x=a b")


def test_accepts_a_str_path(tmp_path):
    assert load_manifest(str(write(tmp_path, 'command = "x"'))).command == ("x",)


@pytest.mark.parametrize("cwd,expected", [
    (None, "."), (".", "."), ("sub", "sub"), ("sub/../sub/deeper", "sub/deeper"),
])
def test_relative_cwd_is_resolved_against_the_manifest_folder(tmp_path, cwd, expected):
    (tmp_path / "m" / "sub" / "deeper").mkdir(parents=True)
    line = "" if cwd is None else f'cwd = "{cwd}"\n'
    spec = load_manifest(write(tmp_path / "m", line + 'command = "x"'))
    assert spec.cwd == (tmp_path / "m" / expected).resolve()
    assert spec.cwd.is_absolute()


def test_absolute_cwd_is_kept(tmp_path):
    spec = load_manifest(write(tmp_path, f'cwd = "{tmp_path / "elsewhere"}"\ncommand = "x"'))
    assert spec.cwd == tmp_path / "elsewhere"


def test_relative_manifest_path_resolves_cwd_absolutely(tmp_path, monkeypatch):
    (tmp_path / "bots").mkdir()
    write(tmp_path / "bots", 'command = "x"')
    monkeypatch.chdir(tmp_path)
    assert load_manifest("bots/bot.toml").cwd == tmp_path / "bots"


def test_missing_file(tmp_path):
    path = tmp_path / "nope.toml"
    assert error_of(load_manifest, path) == f"{path}: cannot read manifest (No such file or directory)"


def test_directory_is_not_a_manifest(tmp_path):
    assert error_of(load_manifest, tmp_path) == f"{tmp_path}: is a folder, not a manifest file"


def test_bad_toml(tmp_path):
    path = write(tmp_path, 'command = "x"\nname = \n')
    assert error_of(load_manifest, path) == f"{path}: not valid TOML (Invalid value (at line 2, column 8))"


def test_not_utf8(tmp_path):
    path = tmp_path / "bot.toml"
    path.write_bytes(b'command = "\xff"\n')
    assert error_of(load_manifest, path).startswith(f"{path}: not valid TOML ('utf-8' codec can't decode byte 0xff")


def test_manifest_errors_name_the_file(tmp_path):
    path = write(tmp_path, 'command = "x"\nport = 1\n')
    assert error_of(load_manifest, path) == f"{path}: unknown key 'port'; known keys: {KNOWN}"


def test_manifest_error_is_a_value_error():
    assert issubclass(ManifestError, ValueError)


def test_unbalanced_quote_in_command_is_a_manifest_error(tmp_path):
    path = write(tmp_path, """command = 'python "bot.py'""")
    assert error_of(load_manifest, path) == f"{path}: 'command' has an unbalanced quote: \"python \\\"bot.py\""


# -- manifest_from_dict -------------------------------------------------------------------------

@pytest.mark.parametrize("data,error", [
    ({"command": "x", "zeta": 1, "alpha": 2}, f"unknown key 'alpha'; known keys: {KNOWN}"),
    ({"cmd": "x"}, f"unknown key 'cmd'; known keys: {KNOWN}"),
    ({}, "'command' must be a non-empty string or list of strings"),
    ({"command": ""}, "'command' must be a non-empty string or list of strings"),
    ({"command": "   "}, "'command' must be a non-empty string or list of strings"),
    ({"command": []}, "'command' must be a non-empty string or list of strings"),
    ({"command": ["python", 3]}, "'command' must be a non-empty string or list of strings"),
    ({"command": ("x",)}, "'command' must be a non-empty string or list of strings"),
    ({"command": 7}, "'command' must be a non-empty string or list of strings"),
    ({"command": "x", "name": ""}, f"'name' must be {NAME_RULE}; got ''"),
    ({"command": "x", "name": 5}, "'name' must be a string, got the number 5"),
    ({"command": "x", "name": "../../x/pwned"}, f"'name' must be {NAME_RULE}; got '../../x/pwned'"),
    ({"command": "x", "name": "/tmp/x/pwned"}, f"'name' must be {NAME_RULE}; got '/tmp/x/pwned'"),
    ({"command": "x", "name": "a/b"}, f"'name' must be {NAME_RULE}; got 'a/b'"),
    ({"command": "x", "name": ".hidden"}, f"'name' must be {NAME_RULE}; got '.hidden'"),
    ({"command": "x", "name": "my bot"}, f"'name' must be {NAME_RULE}; got 'my bot'"),
    ({"command": "x", "name": "x" * 65}, f"'name' must be {NAME_RULE}; got '{'x' * 65}'"),
    ({"command": "x", "build": []}, "'build' must be a non-empty string or list of strings"),
    ({"command": "x", "build": ["make", 1]}, "'build' must be a non-empty string or list of strings"),
    ({"command": "x", "build": "make 'bot"}, "'build' has an unbalanced quote: \"make 'bot\""),
    ({"command": "x", "build": ["ma\0ke"]}, "'build' must not contain NUL characters"),
    ({"command": "x", "cwd": 1}, "'cwd' must be a string path"),
    ({"command": "x", "games": "dead-mans-draw"}, "'games' must be a list of game ids"),
    ({"command": "x", "games": ["a", 1]}, "'games' must be a list of game ids"),
    ({"command": "x", "env": ["A=1"]}, "'env' must be a table of string values"),
    ({"command": "x", "env": {"A": 1}}, "'env' must be a table of string values"),
    ({"command": "x", "env": {"A": "1", "B": True}}, "'env' must be a table of string values"),
    ({"command": "x", "limits": {"memory_mb": -5}}, "'limits.memory_mb' must be an integer in 0..16777216 (0 = no limit), got -5"),
    ({"command": "x", "limits": {"memory_mb": 1.5}}, "'limits.memory_mb' must be an integer in 0..16777216 (0 = no limit), got the number 1.5"),
    ({"command": "x", "limits": {"memory_mb": "512"}}, "'limits.memory_mb' must be an integer in 0..16777216 (0 = no limit), got '512'"),
    ({"command": "x", "limits": {"memory_mb": True}}, "'limits.memory_mb' must be an integer in 0..16777216 (0 = no limit), got true"),
    ({"command": "x", "limits": {"ram": 1}}, "unknown key 'limits.ram'; known: ['cpu_s', 'cpus', 'file_size_mb', 'memory_mb', 'open_files', 'processes']"),
    ({"command": "x", "limits": 5}, "'limits' must be a table"),
    ({"command": "x", "limits": {"cpus": -0.5}}, CPUS),
    ({"command": "x", "limits": {"cpus": True}}, CPUS),
    ({"command": "x", "limits": {"cpus": "1"}}, CPUS),
    ({"command": "x", "limits": {"cpus": 2000}}, CPUS),
])
def test_manifest_from_dict_errors(tmp_path, data, error):
    assert error_of(manifest_from_dict, data, tmp_path, "where.toml") == f"where.toml: {error}"


@pytest.mark.parametrize("cpus,limit", [(0.5, 0.5), (2, 2.0), (0, None)])
def test_cpus_is_a_number_of_cores_and_0_means_the_organisers_ceiling(tmp_path, cpus, limit):
    assert manifest_from_dict({"command": "x", "limits": {"cpus": cpus}}, tmp_path, "m.toml").limits.cpus == limit


def test_build_command_is_read_and_python_means_the_arenas_interpreter(tmp_path):
    spec = manifest_from_dict({"command": "x", "build": ["python", "setup.py"]}, tmp_path, "m.toml")
    assert spec.build == ("python", "setup.py") and spec.build_argv() == [sys.executable, "setup.py"]
    assert manifest_from_dict({"command": "x", "build": "make  bot"}, tmp_path, "m.toml").build == ("make", "bot")
    assert manifest_from_dict({"command": "x"}, tmp_path, "m.toml").build_argv() is None


def test_manifest_from_dict_copies_inputs(tmp_path):
    env, games = {"A": "1"}, ["g"]
    spec = manifest_from_dict({"command": ["x"], "env": env, "games": games}, tmp_path, "w")
    env["A"], games[0] = "2", "h"
    assert (spec.env, spec.games) == ({"A": "1"}, ("g",))


def test_empty_games_list_is_kept(tmp_path):
    assert manifest_from_dict({"command": "x", "games": []}, tmp_path, "w").games == ()


@pytest.mark.parametrize("command,name", [
    ("bot", "bot"), ("./bots/alpha.py", "alpha"), (["python", "bots/beta.py"], "beta"),
    ("java -jar pirate.jar", "pirate"), ("python bot.py --level 3", "bot"),
    ("python -m bots.random --fast", "bots.random"),
])
def test_default_name_is_the_program_or_script(tmp_path, command, name):
    assert manifest_from_dict({"command": command}, tmp_path, "w").name == name


def test_default_name_of_a_module_command_matches_resolve_bot(tmp_path):
    command = "python -m bots.random"
    assert manifest_from_dict({"command": command}, tmp_path, "w").name == resolve_bot(command, tmp_path).name


# -- BotSpec.argv -------------------------------------------------------------------------------

@pytest.mark.parametrize("command,argv", [
    (("python", "-m", "bots.random"), [sys.executable, "-m", "bots.random"]),
    (("python3", "bot.py"), [sys.executable, "bot.py"]),
    (("python3.11", "bot.py"), ["python3.11", "bot.py"]),
    (("/usr/bin/python", "bot.py"), ["/usr/bin/python", "bot.py"]),
    (("./bot", "python"), ["./bot", "python"]),
    (("node", "bot.js"), ["node", "bot.js"]),
    ((), []),
])
def test_argv(command, argv):
    spec = BotSpec(name="b", command=command)
    assert spec.argv() == argv
    assert spec.command == command  # argv() does not change the spec


def test_bot_spec_defaults():
    spec = BotSpec(name="b", command=("x",))
    assert (spec.cwd, spec.env, spec.games, spec.limits) == (None, {}, None, Limits())


# -- resolve_bot --------------------------------------------------------------------------------

@pytest.mark.parametrize("text,command,name", [
    ("python -m bots.random", ("python", "-m", "bots.random"), "bots.random"),
    ("./mybot", ("./mybot",), "mybot"),
    ("/opt/bots/deep-bot", ("/opt/bots/deep-bot",), "deep-bot"),
    ("python 'my bot.py'", ("python", "my bot.py"), "my-bot"),
    ("python ../../x/.pwned.py", ("python", "../../x/.pwned.py"), "pwned"),
    ("python -m ../../etc", ("python", "-m", "../../etc"), "etc"),
    ("node dist/bot.js", ("node", "dist/bot.js"), "bot"),
])
def test_resolve_plain_command(tmp_path, text, command, name):
    assert resolve_bot(text, tmp_path) == BotSpec(name=name, command=command, cwd=tmp_path)


def test_resolve_plain_command_defaults_to_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert resolve_bot("./mybot").cwd == tmp_path


def test_resolve_python_command_runs_this_interpreter(tmp_path):
    assert resolve_bot("python -m bots.random", tmp_path).argv() == [sys.executable, "-m", "bots.random"]


def test_resolve_relative_manifest(tmp_path):
    (tmp_path / "bots").mkdir()
    write(tmp_path / "bots", 'name = "b"\ncommand = "python b.py"', "b.toml")
    spec = resolve_bot("bots/b.toml", tmp_path)
    assert (spec.name, spec.cwd) == ("b", tmp_path / "bots")


def test_resolve_absolute_manifest_ignores_base(tmp_path):
    path = write(tmp_path, 'command = "x"')
    assert resolve_bot(str(path), tmp_path / "elsewhere").cwd == tmp_path


def test_resolve_relative_manifest_against_the_current_folder(tmp_path, monkeypatch):
    write(tmp_path, 'command = "x"')
    monkeypatch.chdir(tmp_path)
    assert resolve_bot("bot.toml").cwd == tmp_path


def test_resolve_missing_manifest(tmp_path):
    assert error_of(resolve_bot, "bots/none.toml", tmp_path) == "bots/none.toml: no such manifest file"


def test_resolve_manifest_errors_name_the_file(tmp_path):
    write(tmp_path, "command = [")
    assert error_of(resolve_bot, "bot.toml", tmp_path).startswith(f"{tmp_path / 'bot.toml'}: not valid TOML (")


@pytest.mark.parametrize("text,error", [
    ("", "empty bot command"),
    ("   ", "empty bot command"),
    ("python 'bot.py", "bot command \"python 'bot.py\" has an unbalanced quote"),
])
def test_resolve_bad_command(tmp_path, text, error):
    assert error_of(resolve_bot, text, tmp_path) == error


@pytest.mark.parametrize("name", ["py-random", "A.b_c+d-9", "x" * 64, "0"])
def test_valid_names_are_kept(tmp_path, name):
    assert manifest_from_dict({"command": "x", "name": name}, tmp_path, "m.toml").name == name


@pytest.mark.parametrize("name,file", [
    ("py-random", "py-random.7.log"),
    ("../../x/pwned", "x-pwned.7.log"),
    ("/tmp/x/pwned", "tmp-x-pwned.7.log"),
    ("..", "bot.7.log"),
])
def test_log_names_are_one_path_component_whatever_the_name(name, file):
    assert log_name(name, 7) == file


# -- names where tournament files and the command line read them -----------------------------

@pytest.mark.parametrize("entrant", [
    'name = "../../x/pwned"\ncommand = "python -m bots.random"',
    'name = "/tmp/x/pwned"\nmanifest = "ok.toml"',
])
def test_tournament_files_refuse_path_like_names(tmp_path, entrant):
    write(tmp_path, 'command = "python -m bots.random"', "ok.toml")
    path = write(tmp_path, f'game = "dead-mans-draw"\n[[entrants]]\n{entrant}\n[[entrants]]\ncommand = "x"\n', "t.toml")
    name = entrant.split('"')[1]
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value) == f"{path}: entrant 1: 'name' must be {NAME_RULE}; got {name!r}"
    result = subprocess.run(["arena", "tournament", "run", str(path)], capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (2, f"error: {error.value}\n")
    assert not (tmp_path / "t.db").exists() and not Path("/tmp/x").exists()


def test_match_refuses_a_manifest_with_a_path_like_name(tmp_path):
    path = write(tmp_path, 'name = "../../x/pwned"\ncommand = "python -m bots.random"')
    result = subprocess.run(["arena", "match", "dead-mans-draw", str(path), "python -m bots.random"],
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"error: {path}: 'name' must be {NAME_RULE}; got '../../x/pwned'\n"
