"""The tests' fourth game, High Card: its registration, and what a game meets besides the
generic suites. Those pick it up from the registry with no test naming it (the engines',
protocol, action fuzz, OpenSpiel and PettingZoo suites; and, through the ``every_game``
fixture of ``tests/conftest.py``, a match of random bots in ``tests/arena/test_match.py``,
``check-bot`` of the random bot in ``test_checkbot.py``, a tiny tournament with its tables and
report in ``test_tournament.py``, the report's own tests in ``test_report.py``, the play
page's leak test in ``test_play.py`` and a whole game clicked through in
``test_play_browser.py``). Here: each piece its descriptor lacks is done without or skipped
with a message saying so, never a KeyError.

It is registered for the test process only (``tests/conftest.py``); a child process that must
know it gets its folder in ``PYTHONPATH``."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from arena.ratings._baseline import NoBaseline, baseline_path, game_baseline
from arena.report import report_html
from arena.tournament._store import ResultsStore
from bots._games import policies, random_policy
from bots.sdk import Request
from engines import MissingPiece, Pieces, game_ids, get_game

from ..arena._report_fixtures import make_database
from ..arena.test_cli import arena

ROOT = Path(__file__).resolve().parents[2]
GAME = "high-card"
#: the line in the chance correction's place
NO_BASELINE = "not available for high-card: no chance baseline"


def test_registered_for_the_tests_only():
    assert GAME in game_ids(), "engines was imported before tests/conftest.py put the fourth game on the path"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    listed = subprocess.run([sys.executable, "-c", "import engines; print(engines.game_ids())"], cwd=ROOT,
                            env=env, capture_output=True, text=True, check=True).stdout
    assert listed.strip() == "['dead-mans-draw', 'karibik', 'opito-bay']"


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


@pytest.mark.parametrize("piece", ["kept", "policies", "chance_baseline"])
def test_each_missing_piece_says_what_it_is_for(piece):
    assert not get_game(GAME).pieces.has(piece)
    with pytest.raises(MissingPiece, match=rf"game 'high-card' has no {piece}: .+; add one to the pieces"):
        get_game(GAME).piece(piece) if piece != "chance_baseline" else get_game(GAME).pieces.file(piece, GAME)


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


def test_without_a_chance_baseline_the_raw_figures_stand_and_say_why(tmp_path, monkeypatch):
    # arena compare corrects by default, standings and report on asking: each shows the raw
    # figures with one line in the correction's place (a KeyError-like "no baseline value" before)
    with pytest.raises(NoBaseline, match=f"^{NO_BASELINE}$"):
        baseline_path(GAME)
    with pytest.raises(NoBaseline, match=f"^{NO_BASELINE}$"):
        game_baseline(GAME)
    database = make_database(tmp_path / "t.db", GAME)
    compared = arena("compare", database, "bot-a", "bot-b")
    assert compared.exit_code == 0, compared.output
    lines = compared.stdout.splitlines()
    assert "(raw; duplicate blocks" in lines[1]
    assert lines[-1] == f"chance correction: {NO_BASELINE}; the figures are raw"
    data = json.loads(arena("compare", database, "bot-a", "bot-b", "--format", "json").stdout)
    assert data["corrected"] is False and data["not_available"] == NO_BASELINE
    standings = arena("standings", database, "--corrected")
    assert standings.exit_code == 0, standings.output
    assert f"chance-corrected points: {NO_BASELINE}; the raw figures above stand" in standings.stdout.splitlines()
    data = json.loads(arena("standings", database, "--corrected", "--format", "json").stdout)
    assert data["corrected"] == {"baseline": None, "rows": [], "not_available": NO_BASELINE}
    store = ResultsStore.open(database)
    try:
        page, _ = report_html(store, n_boot=20, corrected=True)
    finally:
        store.close()
    assert f'<section id="corrected"><h2>Chance-corrected points</h2><p class="note">{NO_BASELINE}' in page
