"""examples/learn: the worked example runs as documented (briefly): train.py writes a policy
from the PettingZoo environment, the same one for the same seed and episodes, for any game,
player count and options, and policy_bot.py plays it in a tournament over the protocol.
(Its strength against random in each game is measured in examples/learn/README.md.)"""

import dataclasses
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pip install -e '.[pettingzoo]'")

from arena.sandbox._detect import detect_sandbox  # noqa: E402
from arena.tournament._config import load_config  # noqa: E402
from arena.tournament._runner import TournamentRunner  # noqa: E402
from arena.tournament._store import ResultsStore  # noqa: E402

LEARN = Path(__file__).resolve().parents[2] / "examples" / "learn"


async def test_train_then_play_the_policy_as_a_bot(tmp_path):
    # The bot runs sandboxed (a private /tmp, maybe another uid): its policy lies beside it.
    folder = Path(tempfile.mkdtemp(prefix=".test-", dir=LEARN))
    folder.chmod(0o755)
    try:
        await train_and_play(tmp_path, folder / "policy.npz")
    finally:
        shutil.rmtree(folder)


async def train_and_play(tmp_path, policy):
    done = subprocess.run([sys.executable, str(LEARN / "train.py"), "--episodes", "3", "--out", str(policy)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "saved" in done.stdout and policy.is_file()
    policy.chmod(0o644)
    # Written into the tournament file (the organiser's own word): a manifest in tmp_path naming
    # a cwd and a policy outside its folder would be refused (it would widen the bot's view).
    inline = (f'name = "learned-policy"\ncommand = ["python", "{LEARN / "policy_bot.py"}"]\n'
              f'cwd = "{LEARN}"\nenv = {{ POLICY = "{policy}" }}')
    path = tmp_path / "t.toml"
    path.write_text((LEARN / "versus-random.toml").read_text()
                    .replace("rounds = 200", "rounds = 2")
                    .replace('manifest = "policy-bot.toml"', inline)
                    .replace('manifest = "../bots/py-random.toml"',
                             f'manifest = "{LEARN.parent / "bots" / "py-random.toml"}"'))
    config = dataclasses.replace(load_config(path), database=tmp_path / "t.db")
    store = ResultsStore.create(config.database, config.fingerprint(), config.raw, config.path, [])
    sandbox = detect_sandbox("auto")
    try:
        played = await TournamentRunner(config, store, sandbox=sandbox).run()
        games = list(store.games())
    finally:
        store.close()
        sandbox.close()
    assert played == len(games) == 4
    assert [fault for game in games for fault in game.faults] == []


def train(tmp_path, name, *args):
    out = tmp_path / f"{name}.npz"
    done = subprocess.run([sys.executable, str(LEARN / "train.py"), *args, "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return np.load(out)


@pytest.mark.parametrize("args", [("--episodes", "4"),
                                  ("--game", "karibik", "--players", "3", "--option", "max_rounds=1",
                                   "--episodes", "2"),
                                  ("--game", "opito_bay", "--option", "deals=1", "--option", "target=900",
                                   "--episodes", "3")])
def test_training_by_episodes_is_reproducible(tmp_path, args):
    """Same seed and episodes: the same policy, bit for bit (whatever the machine's load);
    another seed: another policy."""
    first, again, other = (train(tmp_path, "a", *args), train(tmp_path, "b", *args),
                           train(tmp_path, "c", *args, "--seed", "2"))
    assert np.abs(first["weights"]).sum() > 0
    assert np.array_equal(first["weights"], again["weights"]) and np.array_equal(first["bias"], again["bias"])
    assert not np.array_equal(first["weights"], other["weights"])
    assert str(first["options"]) == str(again["options"])


@pytest.mark.parametrize("args,message", [(("--option", "deals"), "an option is name=value, got 'deals'"),
                                          (("--option", "colour=red"), "unknown option 'colour'"),
                                          (("--players", "9"), "is for 2-8 players, not 9"),
                                          (("--episodes", "0"), "--episodes must be at least 1")])
def test_bad_arguments_are_one_line_errors(tmp_path, args, message):
    done = subprocess.run([sys.executable, str(LEARN / "train.py"), *args, "--out", str(tmp_path / "p.npz")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and message in done.stderr
