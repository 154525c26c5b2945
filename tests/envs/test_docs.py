"""docs/environments.md holds the action numbering and tensor tables the codecs give (a game
kept outside the product, the tests' fourth, holds them on its own page)."""

from pathlib import Path

from engines import game_package
from envs._docs import tables

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "environments.md"


def page_of(game_id: str) -> Path:
    """docs/environments.md for the arena's games; else the game's ``protocol/games/<id>.md``
    in a folder above its engine."""
    package = Path(game_package(game_id).__file__).resolve().parent
    if ROOT / "engines" in package.parents:
        return PAGE
    return next(folder / "protocol" / "games" / f"{game_id}.md" for folder in package.parents
                if (folder / "protocol" / "games" / f"{game_id}.md").is_file())


def test_the_page_has_every_games_tables():
    for game_id, table in tables().items():
        page = page_of(game_id)
        assert table.strip() in page.read_text(), (
            f"{game_id}'s tables changed: paste `python -m envs._docs` into {page.relative_to(ROOT)}")
