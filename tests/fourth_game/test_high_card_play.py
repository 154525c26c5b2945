"""``arena play`` on the tests' fourth game: a person plays a whole game of High Card by
clicking the page. The game brings a ``viewer.js`` and no ``play.js``: every decision is the
page's button per legal action (the bot and ``arena play`` get the game from ``PYTHONPATH``)."""

import random

from arena.match._replay_file import load_replay_file

from ..arena.test_play_browser import PY_RANDOM, browser, check_game, play_through, serving  # noqa: F401
from .test_high_card import knows_the_game  # noqa: F401 - the fixture


def test_a_person_plays_a_whole_game_by_clicking(browser, tmp_path, knows_the_game):  # noqa: F811
    with serving(tmp_path, "high-card", PY_RANDOM, PY_RANDOM, "--seat", "1", "--seed", "5") as (process, [url]):
        page = browser.open(url)
        try:
            made, ways = play_through(page, random.Random(3))
            assert made == 3 and ways == {"button"}
            [kept] = tmp_path.glob("play-high-card-*.json")
            replay, result = load_replay_file(kept)
            check_game(page, replay, 1, result["ranks"])
        finally:
            page.close()
