"""The tests' fourth game, High Card, through what a game meets besides the generic suites
(``tests/engines/test_generic.py``, ``test_fuzz_actions.py``, ``test_omniscient_view.py``,
``tests/protocol/test_static.py`` and ``test_spec.py``, ``tests/arena/test_action_fuzz.py``
pick it up from the registry): the random bot plays it in a match and passes ``check-bot``, a
tournament runs it and its report draws it, and each piece its descriptor lacks is done
without or skipped with a message saying so, never a KeyError. (The environment suites in
``tests/envs/`` run it through its codec, ``tests/fourth_game/_envs.py``.)

It is registered for the test process only (``tests/conftest.py``); a child process that must
know it gets its folder in ``PYTHONPATH``."""

import os
import random
import subprocess
import sys
import textwrap
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from arena.match._checkbot import REFERENCE, Verdict, check_bot
from arena.match._match import play_match
from arena.match._result import EndReason
from arena.players._open_player import open_player
from bots._games import policies, random_policy
from bots.sdk import Request
from engines import MissingPiece, Pieces, game_ids, get_game

from ..conftest import FOURTH_GAME_PATH

ROOT = Path(__file__).resolve().parents[2]
GAME = "high-card"


@pytest.fixture
def knows_the_game(monkeypatch):
    """Bot processes started in this test see the fourth game too."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [FOURTH_GAME_PATH, os.environ.get("PYTHONPATH")])))


def test_registered_for_the_tests_only():
    assert GAME in game_ids(), "engines was imported before tests/conftest.py put the fourth game on the path"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    listed = subprocess.run([sys.executable, "-c", "import engines; print(engines.game_ids())"], cwd=ROOT,
                            env=env, capture_output=True, text=True, check=True).stdout
    assert listed.strip() == "['dead-mans-draw', 'karibik', 'opito-bay']"


async def test_the_random_bot_plays_a_match(knows_the_game):
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(REFERENCE, startup_s=20)) for _ in range(3)]
        assert all(GAME in player.hello.games for player in players)
        result = await play_match(get_game(GAME), players, seed=4, options={"hand": 4})
    assert result.reason is EndReason.NORMAL and not result.faults
    assert sorted(result.ranks)[0] == 1 and sum(result.scores) == 4


async def test_the_random_bot_passes_check_bot(knows_the_game):
    report = await check_bot(REFERENCE, games=[GAME], games_per=2)
    assert report.passed, "\n".join(report.lines())
    assert any(f.verdict is Verdict.PASS and f.what.startswith(f"{GAME}: ") for f in report.findings)


def test_a_tournament_and_its_report(knows_the_game, tmp_path):
    """``arena tournament run`` (its worker and the bots get the game from ``PYTHONPATH``) and
    ``arena report``, drawing the game with the ``viewer.js`` beside its engine."""
    entrant = f'command = ["{sys.executable}", "-m", "bots.random"]'
    (tmp_path / "t.toml").write_text(textwrap.dedent(f"""\
        game = "{GAME}"
        players = 2
        rounds = 2
        seed = 7
        database = "t.db"
        [[entrants]]
        name = "r1"
        {entrant}
        [[entrants]]
        name = "r2"
        {entrant}
        """))
    for args in (["tournament", "run", "t.toml", "--workers", "1", "--sandbox", "none"],
                 ["report", "t.db", "-o", "r.html"]):
        result = subprocess.run(["arena", *args], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
    assert "wrote r.html: 4 games, 4 replays embedded" in result.stdout
    assert 'ArenaRenderers["high-card"]' in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_the_chance_resampler_agrees_with_what_the_seat_saw():
    rng = random.Random(3)
    state = get_game(GAME).new_state(3, 8, {})
    while not state.is_terminal():
        seat = state.acting[0]
        observation = state.observation(seat)
        request = Request(id=1, game=GAME, seat=seat, players=3, options={"hand": 3}, kind=state.decision(seat),
                          observation=observation, events=[], legal=None, time_left_ms=1000, move_ms=1000)
        action = random_policy(request, rng)  # legal not listed: the resampler builds a state
        assert action in state.legal_actions(seat)
        assert get_game(GAME).piece("resampler")(observation, rng).observation(seat) == observation
        state.apply_action(action)


@pytest.mark.parametrize("piece", ["kept", "policies"])
def test_each_missing_piece_says_what_it_is_for(piece):
    assert not get_game(GAME).pieces.has(piece)
    with pytest.raises(MissingPiece, match=rf"game 'high-card' has no {piece}: .+; add one to the pieces"):
        get_game(GAME).piece(piece)


def test_the_bots_leave_out_the_policies_it_lacks():
    assert GAME in policies("random")
    assert GAME not in policies("heuristic") and GAME not in policies("search")


def test_the_environments_rebuild_the_tensor_it_keeps_none_of():
    pytest.importorskip("numpy")
    from envs._games import codec
    from envs._kept import KeptTensors, Rebuilt

    game = get_game(GAME)
    state = game.new_state(2, 1, {})
    assert KeptTensors(codec(GAME, 2, game.resolve_options({})), state)._class is Rebuilt


def test_a_game_without_a_codec_is_no_environment_and_says_so():
    with pytest.raises(MissingPiece, match="game 'x' has no codec: .*OpenSpiel and PettingZoo environments need"):
        Pieces().load("codec", "x")


def test_a_game_without_a_viewer_is_drawn_as_its_views_json(monkeypatch):
    # A fourth game need not bring drawing code: its report and viewer show each view as JSON
    # (the words fall back to JSON in describe.js); `arena report` failed with "No such file".
    import engines
    from arena.report import _page

    assert 'ArenaRenderers["high-card"] = function' in _page.renderer_script(GAME)  # its own viewer.js
    monkeypatch.setattr(engines, "game_package", lambda game_id: "protocol")  # a package with no viewer.js
    script = _page.renderer_script(GAME)
    assert 'ArenaRenderers["high-card"] = function (view)' in script and "plain-view" in script
    assert _page.renderer_script('x</script><b>').count("<") == script.count("<")  # an id cannot end the script
