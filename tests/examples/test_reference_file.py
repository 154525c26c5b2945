"""examples/tournament-reference.toml shows every key with its true default."""

from pathlib import Path

import engines
from arena.tournament._config import load_config

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_reference_file_shows_the_defaults(tmp_path):
    reference = load_config(EXAMPLES / "tournament-reference.toml")
    minimal = tmp_path / "tournament-reference.toml"
    minimal.write_text(f'game = "dead-mans-draw"\n[[entrants]]\nmanifest = "{EXAMPLES}/bots/py-random.toml"\n'
                       '[[entrants]]\nname = "py-random-inline"\ncommand = ["python", "-m", "bots.random"]\n')
    defaults = load_config(minimal)
    assert reference.options == engines.get_game("dead-mans-draw").resolve_options({})
    assert (reference.schedule, reference.settings, reference.concurrency, reference.database.name) == \
           (defaults.schedule, defaults.settings, defaults.concurrency, defaults.database.name)
