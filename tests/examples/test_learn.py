"""examples/learn: the worked example runs as documented (briefly): train.py writes a policy
from the PettingZoo environment, and policy_bot.py plays it in a tournament over the protocol.
(Its strength, beating random beyond the error bars after 90 s, is measured in its README.)"""

import dataclasses
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="pip install -e '.[pettingzoo]'")

from arena.sandbox._sandbox import detect_sandbox  # noqa: E402
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
    done = subprocess.run([sys.executable, str(LEARN / "train.py"), "--seconds", "2", "--out", str(policy)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "saved" in done.stdout and policy.is_file()
    policy.chmod(0o644)
    manifest = tmp_path / "bot.toml"
    manifest.write_text(textwrap.dedent(f"""
        name = "learned-policy"
        command = ["python", "{LEARN / 'policy_bot.py'}"]
        cwd = "{LEARN}"
        [env]
        POLICY = "{policy}"
    """))
    path = tmp_path / "t.toml"
    path.write_text((LEARN / "versus-random.toml").read_text()
                    .replace("rounds = 200", "rounds = 2")
                    .replace('manifest = "policy-bot.toml"', f'manifest = "{manifest}"')
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
