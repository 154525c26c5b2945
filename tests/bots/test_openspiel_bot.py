"""OpenSpiel's search as an entrant (bots/openspiel): whole games of every game through the
protocol's requests, its time budget, and a tournament against a reference bot without faults."""

import dataclasses
import random
import textwrap
from types import SimpleNamespace

import pytest

pytest.importorskip("pyspiel", reason="pip install -e '.[openspiel]'")

from arena.sandbox._detect import detect_sandbox  # noqa: E402
from arena.tournament._config import load_config  # noqa: E402
from arena.tournament._runner import TournamentRunner  # noqa: E402
from arena.tournament._store import ResultsStore  # noqa: E402
from bots._games import random_policy  # noqa: E402
from bots.openspiel import OpenSpielPolicy, _search  # noqa: E402
from engines import get_game  # noqa: E402

from ._clock import StepClock  # noqa: E402
from ._play import play_game, request_for  # noqa: E402

GAMES = [("dead-mans-draw", 3, {}), ("opito-bay", 2, {"deals": 1}), ("karibik", 2, {"max_rounds": 2})]


@pytest.mark.parametrize("algorithm", ["ismcts", "mcts"])
@pytest.mark.parametrize("game_id,players,options", GAMES)
def test_plays_whole_games_legally(algorithm, game_id, players, options):
    policy = OpenSpielPolicy(algorithm)

    def search(request, rng):
        return policy.act(request, rng, budget_s=60.0, simulations=12)

    policies = [search] + [random_policy] * (players - 1)
    state = play_game(get_game(game_id), policies, seed=5, options=options)  # apply() rejects illegal actions
    assert state.is_terminal()


@pytest.mark.parametrize("algorithm", ["ismcts", "mcts"])
def test_search_stops_at_its_budget(monkeypatch, algorithm):
    clock = StepClock().install(monkeypatch, _search)
    state = get_game("dead-mans-draw").new_state(2, 3, {"characters": False})
    rng = random.Random(2)
    while len(state.legal_actions(state.acting[0])) < 2:
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
    request = request_for(state, state.acting[0], move_ms=100, time_left_ms=5000)
    action = OpenSpielPolicy(algorithm)(request, rng)
    assert action in request.legal
    assert 0.04 - 0.01 < clock.now < 0.04 + 0.05  # 40% of the move limit, a few reads past it


def test_unknown_search_is_refused():
    with pytest.raises(ValueError, match="unknown search 'alphazero'; use 'ismcts' or 'mcts'"):
        OpenSpielPolicy("alphazero")


async def test_tournament_against_a_reference_bot_has_no_faults(tmp_path):
    bots = _search.__file__.rsplit("/bots/", 1)[0] + "/examples/bots"
    path = tmp_path / "t.toml"
    path.write_text(textwrap.dedent(f"""
        game = "opito-bay"
        players = 2
        rounds = 1
        seed = 5
        concurrency = 1
        workers = 1
        database = "t.db"
        [options]
        deals = 1
        [time]
        move_ms = 100
        reserve_ms = 10000
        startup_ms = 60000
        [[entrants]]
        manifest = "{bots}/os-ismcts.toml"
        [[entrants]]
        manifest = "{bots}/py-heuristic.toml"
    """))
    config = load_config(path)
    config = dataclasses.replace(config, database=tmp_path / "t.db")
    store = ResultsStore.create(config.database, config.fingerprint(), config.raw, config.path, [])
    sandbox = detect_sandbox("auto")
    try:
        played = await TournamentRunner(config, store, sandbox=sandbox).run()
        games = list(store.games())
    finally:
        store.close()
        sandbox.close()
    assert played == len(games) == 2
    assert [fault for game in games for fault in game.faults] == []


@pytest.mark.parametrize("algorithm", ["ismcts", "mcts"])
@pytest.mark.parametrize("game_id,players,options", GAMES)
def test_a_fixed_number_of_simulations_plays_the_same_game_again(monkeypatch, algorithm, game_id, players, options):
    # ``python -m bots.openspiel --nodes N``: no clock read, so the same seeds give the same game.
    def no_clock():
        raise AssertionError("the search read the clock with a fixed number of simulations")

    monkeypatch.setattr(_search, "time", SimpleNamespace(perf_counter=no_clock))
    games = []
    for _ in range(2):
        policy = OpenSpielPolicy(algorithm, 8)
        state = play_game(get_game(game_id), [policy] + [random_policy] * (players - 1), seed=6, options=options)
        games.append(state.history)
    assert games[0] == games[1]
