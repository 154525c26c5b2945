"""docs/environments.md holds the action numbering and tensor tables the codecs give."""

from pathlib import Path

from envs._docs import tables

PAGE = Path(__file__).resolve().parents[2] / "docs" / "environments.md"


def test_the_page_has_every_games_tables():
    text = PAGE.read_text()
    for game_id, table in tables().items():
        assert table.strip() in text, f"{game_id}'s tables changed: paste `python -m envs._docs` into {PAGE.name}"
